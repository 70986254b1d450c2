#!/usr/bin/env bash
# Session 16, call 6 (trace builds over 47096ac): tb = bc1k_patch.py (D = 4096 fn staging by 96 bulk copies of 1 KB,
# split in place) + the trace; tr3 = the trace alone (now with D = 7168's fn-landed stamp). Traces at T = 4032, D =
# 4096 (both) and D = 7168 (tr3); A/B of the two at D = 4096.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in tr3 tb; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export PYTHONUNBUFFERED=1
S=benchmarks/results/gpu_logs/2026-11-27p/scripts
for w in tr3 tb; do
  PYTHONPATH=/tmp/ab/$w timeout 100 python3 $S/trace16.py 4032 4096 > $OUT/trace4032_$w.log 2>&1; echo "trace $w rc $?"
  python3 $S/parse16.py $OUT/trace4032_$w.log > $OUT/trace4032_${w}_summary.txt; gzip -f $OUT/trace4032_$w.log
done
PYTHONPATH=/tmp/ab/tr3 timeout 100 python3 $S/trace16.py 4032 7168 > $OUT/trace4032_7168_tr3.log 2>&1; echo "trace 7168 rc $?"
python3 $S/parse16.py $OUT/trace4032_7168_tr3.log > $OUT/trace4032_7168_tr3_summary.txt; gzip -f $OUT/trace4032_7168_tr3.log
PYTHONPATH=/tmp/ab/tr3 timeout 100 python3 $S/same_bits16.py tr3 2>&1 | tail -1
PYTHONPATH=/tmp/ab/tb timeout 100 python3 $S/same_bits16.py tb tr3 2>&1 | tail -1 | tee $OUT/same_bits.log
for rep in 1 2; do for w in tr3 tb; do PYTHONPATH=/tmp/ab/$w timeout 100 python3 $S/ab16.py $w "1024 4096 16384" 4096 hc_head,mhc_pre,mhc_pre_delayed,mhc_fused_post_pre; done; done 2>&1 | tee $OUT/ab4096.log
