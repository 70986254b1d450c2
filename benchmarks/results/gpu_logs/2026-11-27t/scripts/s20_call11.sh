#!/usr/bin/env bash
# Session 20, call 11: gw3 (the Gram warps' squares computed and their loads performed before the slot's release)
# against l20: repeat consistency and differences (diag20.py), same bits at TMA and decode sizes, the mHC and model
# CUDA tests, memcheck over race20.py, A/B prefill D = 4096 (one round).
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
P=benchmarks/results/gpu_logs/2026-11-27p/scripts; R=benchmarks/results/gpu_logs/2026-11-27r/scripts
T=benchmarks/results/gpu_logs/2026-11-27t/scripts
for w in l20 gw; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
PYTHONPATH=/tmp/ab/l20 timeout 100 python3 $T/diag20.py l20 > $OUT/diag.log 2>&1
PYTHONPATH=/tmp/ab/gw timeout 100 python3 $T/diag20.py gw l20 2>&1 | tee -a $OUT/diag.log | grep -v "repeats: \[0, 0\]"
export SB_T=1,16,1024,1090,1536,1601,2093,4096,4100 SB_OPS=mhc_pre,mhc_pre_delayed,hc_head,mhc_fused_post_pre,mhc_post_hc_head
PYTHONPATH=/tmp/ab/l20 timeout 200 python3 $R/same_bits18.py l20 2>&1 | tail -1
PYTHONPATH=/tmp/ab/gw timeout 200 python3 $R/same_bits18.py gw l20 2>&1 | tail -1 | tee $OUT/same_bits.log
(cd tests/python && PYTHONPATH=/tmp/ab/gw timeout 330 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_mhc_fused_post_pre.py test_mhc_fused_post_pre_delayed.py test_hc_head.py test_mhc_post_hc_head.py test_model.py test_model_v41.py -k cuda 2>&1 | tail -2) | tee $OUT/tests.log
PYTHONPATH=/tmp/ab/gw timeout 100 compute-sanitizer --tool memcheck --error-exitcode 1 python3 $T/race20.py > $OUT/memcheck_gw.log 2>&1; echo "memcheck rc $?"; tail -1 $OUT/memcheck_gw.log
for w in l20 gw; do PYTHONPATH=/tmp/ab/$w timeout 150 python3 $P/ab16.py $w "4096 16384 65536" 4096 mhc_pre,mhc_pre_delayed,mhc_fused_post_pre; done 2>&1 | tee $OUT/ab.log
rm -f $OUT/*.pt
