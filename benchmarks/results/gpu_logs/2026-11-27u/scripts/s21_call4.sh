#!/usr/bin/env bash
# Session 21, call 4: gp rebuilt (gram_in_post_gp_patch.py with the projection's setmaxnreg.dec: call 3's gp hung)
# against l21: same bits, A/B of the seam (D = 4096, two rounds); the mHC / model CUDA tests and memcheck / racecheck /
# synccheck over race20s.py for gp and for rg (call 3 ran out of time before them).
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
P=benchmarks/results/gpu_logs/2026-11-27p/scripts; R=benchmarks/results/gpu_logs/2026-11-27r/scripts
T=benchmarks/results/gpu_logs/2026-11-27t/scripts
for w in l21 gp rg; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export SB_T=1,16,1024,1536,1601,2093,2600,4096,4100 SB_OPS=mhc_post_hc_head,hc_head,mhc_pre,mhc_pre_delayed,mhc_fused_post_pre
PYTHONPATH=/tmp/ab/gp timeout 20 python3 -c "
import torch, dsv4ext
from dsv4ext import reference
print('gp import ok')" 2>&1 | tail -1
PYTHONPATH=/tmp/ab/l21 timeout 200 python3 $R/same_bits18.py l21 2>&1 | tail -1
PYTHONPATH=/tmp/ab/gp timeout 120 python3 $R/same_bits18.py gp l21 2>&1 | tail -1 | tee -a $OUT/same_bits.log
rm -f $OUT/bits_l21.pt
for rep in 1 2; do for w in l21 gp; do
  PYTHONPATH=/tmp/ab/$w timeout 60 python3 $P/ab16.py $w "1536 4096 16384 65536" 4096 mhc_post_hc_head,hc_head
done; done 2>&1 | tee $OUT/ab.log
for w in gp rg; do
  (cd tests/python && PYTHONPATH=/tmp/ab/$w timeout 250 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_hc_head.py test_mhc_post_hc_head.py test_model.py test_model_v41.py -k cuda 2>&1 | tail -2) | tee -a $OUT/tests.log
  for tool in memcheck racecheck synccheck; do
    PYTHONPATH=/tmp/ab/$w timeout 90 compute-sanitizer --tool $tool --error-exitcode 1 python3 $T/race20s.py > $OUT/${tool}_$w.log 2>&1
    echo "$w $tool rc $?"; tail -1 $OUT/${tool}_$w.log
  done
done
cd $OUT && tar czf s21c4.tgz *.log && rm -f memcheck_*.log racecheck_*.log synccheck_*.log
