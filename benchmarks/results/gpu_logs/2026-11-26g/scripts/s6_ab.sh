#!/usr/bin/env bash
# .carry/s6_ab.sh WHICH W1 W2 ...: install each wheel dir .carry/w/<W> into /tmp/ab/<W>; run ab_topk3.py WHICH twice per wheel, alternating.
set -u
which=$1; shift
for w in "$@"; do [ -d /tmp/ab/$w ] || python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
for rep in $(seq ${ROUNDS:-2}); do for w in "$@"; do PYTHONPATH=/tmp/ab/$w timeout 100 python3 .carry/ab_topk3.py $w $which; done; done
