#!/usr/bin/env bash
# Session 19, call 9: rp (head_fn_regs_rp_patch.py: hc_head's and the seam's decode engine at D = 4096 loads each
# lane's fp32 fn into registers before the PDL wait, split after the tile) against l18: same bits, A/B back to back
# and after a torch add, two rounds; the hc_head / seam CUDA tests; memcheck and racecheck over race19.py.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
P=benchmarks/results/gpu_logs/2026-11-27p/scripts; R=benchmarks/results/gpu_logs/2026-11-27r/scripts
S=benchmarks/results/gpu_logs/2026-11-27s/scripts
for w in l18 rp; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export SB_OPS=hc_head,mhc_post_hc_head
PYTHONPATH=/tmp/ab/l18 timeout 100 python3 $R/same_bits18.py l18 2>&1 | tail -1
PYTHONPATH=/tmp/ab/rp timeout 100 python3 $R/same_bits18.py rp l18 2>&1 | tail -1 | tee $OUT/same_bits.log
rm -f $OUT/bits_l18.pt
for rep in 1 2; do for w in l18 rp; do
  PYTHONPATH=/tmp/ab/$w timeout 60 python3 $P/ab16.py $w "1 8 16 64" 4096 hc_head,mhc_post_hc_head
  PYTHONPATH=/tmp/ab/$w timeout 60 python3 $S/ab_serial.py $w "1 16" 4096 hc_head,mhc_post_hc_head
done; done 2>&1 | tee $OUT/ab.log
(cd tests/python && PYTHONPATH=/tmp/ab/rp timeout 150 python3 -m pytest -q -p no:cacheprovider test_hc_head.py test_mhc_post_hc_head.py -k cuda 2>&1 | tail -2) | tee $OUT/tests.log
PYTHONPATH=/tmp/ab/rp timeout 60 compute-sanitizer --tool memcheck --error-exitcode 1 python3 $S/race19.py > $OUT/memcheck.log 2>&1; echo "memcheck rc $?"; tail -1 $OUT/memcheck.log
PYTHONPATH=/tmp/ab/rp timeout 90 compute-sanitizer --tool racecheck --error-exitcode 1 python3 $S/race19.py > $OUT/racecheck.log 2>&1; echo "racecheck rc $?"; tail -1 $OUT/racecheck.log
