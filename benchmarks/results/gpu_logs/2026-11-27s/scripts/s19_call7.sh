#!/usr/bin/env bash
# Session 19, call 7: lf = the decode engines' fn preloaded by each worker lane before the PDL wait (bf16 parts at
# D = 4096 as ps in call 6, fp32 at D = 7168; main's working tree, /tmp/vb/build.sh) against l18: same bits, A/B both D,
# the mHC and model CUDA tests, memcheck and racecheck over race18.py.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
P=benchmarks/results/gpu_logs/2026-11-27p/scripts; R=benchmarks/results/gpu_logs/2026-11-27r/scripts
for w in l18 lf; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
PYTHONPATH=/tmp/ab/l18 timeout 200 python3 $R/same_bits18.py l18 2>&1 | tail -1
PYTHONPATH=/tmp/ab/lf timeout 200 python3 $R/same_bits18.py lf l18 2>&1 | tail -1 | tee $OUT/same_bits.log
rm -f $OUT/bits_l18.pt
for rep in 1 2; do for d in 7168 4096; do for w in l18 lf; do
  PYTHONPATH=/tmp/ab/$w timeout 90 python3 $P/ab16.py $w "1 8 16 64" $d
done; done; done 2>&1 | tee $OUT/ab.log
(cd tests/python && PYTHONPATH=/tmp/ab/lf timeout 330 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_mhc_fused_post_pre.py test_mhc_fused_post_pre_delayed.py test_hc_head.py test_mhc_post_hc_head.py test_model.py test_model_v41.py -k cuda 2>&1 | tail -2) | tee $OUT/tests.log
PYTHONPATH=/tmp/ab/lf timeout 90 compute-sanitizer --tool memcheck --error-exitcode 1 python3 $R/race18.py > $OUT/memcheck.log 2>&1; echo "memcheck rc $?"; tail -1 $OUT/memcheck.log
PYTHONPATH=/tmp/ab/lf timeout 120 compute-sanitizer --tool racecheck --error-exitcode 1 python3 $R/race18.py > $OUT/racecheck.log 2>&1; echo "racecheck rc $?"; tail -1 $OUT/racecheck.log
for rep in 1 2; do for d in 4096 7168; do for w in l18 lf; do
  PYTHONPATH=/tmp/ab/$w timeout 90 python3 benchmarks/results/gpu_logs/2026-11-27s/scripts/ab_serial.py $w "1 16" $d
done; done; done 2>&1 | tee $OUT/ab_serial.log
