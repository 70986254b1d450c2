#!/usr/bin/env bash
# Session 20, call 8: gw (gram_warps_gw_patch.py: the fused norm's Gram matrix on a fourth warpgroup of the D = 4096
# TMA kernel) against l20: same bits at TMA sizes (both D), A/B prefill D = 4096 (two rounds), the mHC CUDA tests,
# memcheck / racecheck / synccheck over race20.py.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
P=benchmarks/results/gpu_logs/2026-11-27p/scripts; R=benchmarks/results/gpu_logs/2026-11-27r/scripts
T=benchmarks/results/gpu_logs/2026-11-27t/scripts
for w in l20 gw; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export SB_T=1024,1090,1536,1601,2093,4096,4100 SB_OPS=mhc_pre,mhc_pre_delayed,hc_head,mhc_fused_post_pre,mhc_post_hc_head
PYTHONPATH=/tmp/ab/l20 timeout 200 python3 $R/same_bits18.py l20 2>&1 | tail -1
PYTHONPATH=/tmp/ab/gw timeout 200 python3 $R/same_bits18.py gw l20 2>&1 | tail -1 | tee $OUT/same_bits.log
for rep in 1 2; do for w in l20 gw; do
  PYTHONPATH=/tmp/ab/$w timeout 150 python3 $P/ab16.py $w "1536 4096 16384 65536" 4096 hc_head,mhc_pre,mhc_pre_delayed,mhc_fused_post_pre
done; done 2>&1 | tee $OUT/ab.log
(cd tests/python && PYTHONPATH=/tmp/ab/gw timeout 330 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_mhc_fused_post_pre.py test_mhc_fused_post_pre_delayed.py test_hc_head.py test_mhc_post_hc_head.py -k cuda 2>&1 | tail -2) | tee $OUT/tests.log
for tool in memcheck racecheck synccheck; do
  PYTHONPATH=/tmp/ab/gw timeout 100 compute-sanitizer --tool $tool --error-exitcode 1 python3 $T/race20.py > $OUT/${tool}_gw.log 2>&1
  echo "gw $tool rc $?"; tail -1 $OUT/${tool}_gw.log
done
cd $OUT && tar czf s20c8.tgz *.log && rm -f memcheck_gw.log racecheck_gw.log synccheck_gw.log
