#!/usr/bin/env bash
# Session 17, call 1: fn's bf16 split without pack_bf16x2's NaN fix-ups (nf0) and the D = 4096 staging over all 384
# threads (nf0t = nf0 + t384) against hd17 (565ce7d, built the same way): split_bits over every fp32 pattern, same
# bits (with NaNs in fn), A/B at D = 4096 (decode and prefill), the mHC CUDA tests on nf0t.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
S=benchmarks/results/gpu_logs/2026-11-27q/scripts; P=benchmarks/results/gpu_logs/2026-11-27p/scripts
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
.carry/bin/split_bits | tee $OUT/split_bits.log
for w in hd17 nf0 nf0t; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
PYTHONPATH=/tmp/ab/hd17 timeout 200 python3 $S/same_bits17.py hd17 2>&1 | tail -2 | tee $OUT/same_bits.log
for w in nf0 nf0t; do PYTHONPATH=/tmp/ab/$w timeout 200 python3 $S/same_bits17.py $w hd17 2>&1 | tail -2; done | tee -a $OUT/same_bits.log
for rep in 1 2; do for w in hd17 nf0 nf0t; do PYTHONPATH=/tmp/ab/$w timeout 150 python3 $P/ab16.py $w "1 16 64 512 1024 4096 16384" 4096; done; done 2>&1 | tee $OUT/ab4096.log
for w in hd17 nf0t; do PYTHONPATH=/tmp/ab/$w timeout 100 python3 $P/ab16.py $w "1 16 4096" 7168; done 2>&1 | tee $OUT/ab7168.log
(cd tests/python && PYTHONPATH=/tmp/ab/nf0t timeout 300 python3 -m pytest -q -x -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_mhc_fused_post_pre.py test_mhc_fused_post_pre_delayed.py test_hc_head.py test_mhc_post_hc_head.py -k cuda 2>&1 | tail -3) | tee $OUT/tests_nf0t.log
