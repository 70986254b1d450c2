#!/usr/bin/env bash
set -uo pipefail
cd "$(dirname "$0")/.."
for n in new2 v1 v2; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$n .carry/w/$n/*.whl; done
for n in new2 v1 v2; do
  echo "=== $n"; PYTHONPATH=/tmp/ab/$n timeout 60 python3 .carry/dbg_ring.py 2>&1 | tail -9
  PYTHONPATH=/tmp/ab/$n timeout 60 python3 -m pytest -q tests/python/test_mhc_pre_delayed.py -k "cuda and D4096" 2>&1 | tail -1
done
