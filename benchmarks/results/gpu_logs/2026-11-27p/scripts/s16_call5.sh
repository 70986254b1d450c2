#!/usr/bin/env bash
# Session 16, call 5 (diagnostic, trace builds over 47096ac): where the 24-row ops' ~10 us of fn staging at D = 4096
# go. tr2 = the trace build; fe = tr2 + fn's staging loads with an L2 evict_last hint; late = tr2 + the producer's
# first copies only after the staging. Traces at T = 4032 (parse16.py) and A/B of the three at T = 4096 / 16384.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in tr2 fe late; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export PYTHONUNBUFFERED=1
S=benchmarks/results/gpu_logs/2026-11-27p/scripts
for w in tr2 fe late; do
  PYTHONPATH=/tmp/ab/$w timeout 100 python3 $S/trace16.py 4032 4096 > $OUT/trace4032_$w.log 2>&1; echo "trace $w rc $?"
  python3 $S/parse16.py $OUT/trace4032_$w.log > $OUT/trace4032_${w}_summary.txt
  echo "== $w"; grep -A4 "mhc_pre_delayed\|mhc_pre norm" $OUT/trace4032_${w}_summary.txt | grep "call 3" ; gzip -f $OUT/trace4032_$w.log
done
for rep in 1 2; do for w in tr2 fe late; do PYTHONPATH=/tmp/ab/$w timeout 100 python3 $S/ab16.py $w "4096 16384" 4096 hc_head,mhc_pre,mhc_pre_delayed; done; done 2>&1 | tee $OUT/ab4096.log
