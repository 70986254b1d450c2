#!/usr/bin/env bash
# Session 27, call 3. p6 (proj6_patch.py: the D = 7168 24-row projection on six one-unit warps + two squares warps)
# against m27 (main): same bits (every mHC op, both D, T = 1 .. 4100), A/B at D = 7168 (two rounds), the trace of
# tp6 (p6 + trace27_patch.py), then the mhc_pre / delayed / fused CUDA tests on p6 and memcheck / racecheck over
# race15.py (the D = 7168 TMA paths). Carry .carry/w/{m27,p6,tp6}.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
S=benchmarks/results/gpu_logs/2026-11-28zz/scripts
P=benchmarks/results/gpu_logs/2026-11-27p/scripts; R=benchmarks/results/gpu_logs/2026-11-27r/scripts
O=benchmarks/results/gpu_logs/2026-11-27o/scripts
for w in m27 p6 tp6; do [ -d .carry/w/$w ] && { rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; }; done
export SB_T=1,16,64,512,600,1024,1601,4100 SB_OPS=mhc_pre,mhc_pre_delayed,mhc_fused_post_pre,mhc_fused_post_pre_delayed,hc_head,mhc_post_hc_head
PYTHONPATH=/tmp/ab/m27 timeout 200 python3 $R/same_bits18.py m27 2>&1 | tail -1
PYTHONPATH=/tmp/ab/p6 timeout 200 python3 $R/same_bits18.py p6a m27 2>&1 | tail -1 | tee $OUT/same_bits.log
rm -f $OUT/*.pt
for rep in 1 2; do for w in m27 p6; do
  PYTHONPATH=/tmp/ab/$w timeout 150 python3 $P/ab16.py $w "4096 16384 65536" 7168 mhc_pre,mhc_pre_delayed,mhc_fused_post_pre
done; done 2>&1 | tee $OUT/ab7168.log
[ -d /tmp/ab/tp6 ] && PYTHONPATH=/tmp/ab/tp6 timeout 60 python3 $S/trace27.py 2>&1 | grep -v "^$" > $OUT/trace_tp6.log && head -45 $OUT/trace_tp6.log
export PYTHONPATH=/tmp/ab/p6
(cd tests/python && timeout 240 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_mhc_fused_post_pre.py test_mhc_fused_post_pre_delayed.py -k cuda 2>&1 | tail -2) | tee $OUT/tests.log
for t in memcheck racecheck; do timeout 150 compute-sanitizer --tool $t --error-exitcode 1 python3 $O/race15.py > $OUT/${t}_race15.log 2>&1; echo "$t rc $?"; tail -n1 $OUT/${t}_race15.log; done
