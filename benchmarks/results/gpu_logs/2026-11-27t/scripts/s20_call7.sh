#!/usr/bin/env bash
# Session 20, call 7: gm (gram_mma_gm_patch.py: the D = 4096 engines' squares / Gram matrix on tensor cores, both
# kernels) against l20: prefill and decode A/B at D = 4096 (two rounds), decode after a torch add, the mHC CUDA tests.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
P=benchmarks/results/gpu_logs/2026-11-27p/scripts; S=benchmarks/results/gpu_logs/2026-11-27s/scripts
for w in l20 gm; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
for rep in 1 2; do for w in l20 gm; do
  PYTHONPATH=/tmp/ab/$w timeout 150 python3 $P/ab16.py $w "1 16 64 512 4096 16384 65536" 4096
  PYTHONPATH=/tmp/ab/$w timeout 90 python3 $S/ab_serial.py $w "1 16" 4096
done; done 2>&1 | tee $OUT/ab.log
(cd tests/python && PYTHONPATH=/tmp/ab/gm timeout 330 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_mhc_fused_post_pre.py test_mhc_fused_post_pre_delayed.py test_hc_head.py test_mhc_post_hc_head.py -k cuda 2>&1 | tail -4) | tee $OUT/tests.log
