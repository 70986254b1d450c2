#!/usr/bin/env bash
# Session 30, call 5: s30 (.carry/wheels): `python -m dsv4ext check`, the tests of every op whose kernels or
# dispatch changed (mhc_pre, mhc_pre_delayed: r4; the fused ops and the seam: composed from 113 tokens at D = 4096;
# mhc_post), then the peers (FlashInfer 0.7.2 JIT, CUB) -> results/peers_h200. Carry [".carry/wheels", ".carry/peers"].
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
T=tests/python
OUT=$OUT/tests TAIL=6 TESTS="$T/test_mhc_fused_post_pre.py $T/test_mhc_fused_post_pre_delayed.py $T/test_mhc_post_hc_head.py \
  $T/test_mhc_pre.py $T/test_mhc_pre_delayed.py $T/test_mhc_post.py" timeout 330 scripts/gpu_check.sh info check test
OUT=$OUT/peers TAIL=4 timeout 300 scripts/gpu_check.sh peers peers-bench
