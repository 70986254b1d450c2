#!/usr/bin/env bash
# Prepared in session 27 for the next session (not run): f4 (fn_float4_f4_patch.py: the D = 7168 projection loads fn a
# float4 per two k8 steps, no bank conflicts) against main (wheel m): same bits, A/B at D = 7168 (two rounds), then on f4:
# the CUDA tests of the D = 7168 ops, memcheck / racecheck over race27.py. Build both wheels first; carry .carry/w/{m,f4}.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
S=benchmarks/results/gpu_logs/2026-11-28zz/scripts
P=benchmarks/results/gpu_logs/2026-11-27p/scripts; R=benchmarks/results/gpu_logs/2026-11-27r/scripts
for w in m f4; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export SB_T=1,16,512,600,1024,1601,4100 SB_OPS=mhc_pre,mhc_pre_delayed,mhc_fused_post_pre,mhc_fused_post_pre_delayed,hc_head,mhc_post_hc_head
PYTHONPATH=/tmp/ab/m timeout 200 python3 $R/same_bits18.py m 2>&1 | tail -1
PYTHONPATH=/tmp/ab/f4 timeout 200 python3 $R/same_bits18.py f4a m 2>&1 | tail -1 | tee -a $OUT/same_bits.log
rm -f $OUT/*.pt
for rep in 1 2; do for w in m f4; do
  PYTHONPATH=/tmp/ab/$w timeout 150 python3 $P/ab16.py $w "4096 16384 65536" 7168 mhc_pre,mhc_pre_delayed,hc_head,mhc_post_hc_head
done; done 2>&1 | tee $OUT/ab7168.log
export PYTHONPATH=/tmp/ab/f4
(cd tests/python && timeout 200 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_hc_head.py test_mhc_post_hc_head.py -k cuda 2>&1 | tail -2) | tee $OUT/tests.log
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 1 python3 $S/race27.py > $OUT/memcheck_race27.log 2>&1; echo "memcheck rc $?"; tail -n1 $OUT/memcheck_race27.log
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 1 python3 $S/race27.py delayed_nn,pre > $OUT/racecheck_race27.log 2>&1; echo "racecheck rc $?"; tail -n1 $OUT/racecheck_race27.log
