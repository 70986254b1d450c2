#!/usr/bin/env bash
# Session 18, call 6: sp (the decode tile spread as its own kernel instantiations, kSpread; every other kernel
# back to a fixed 16-token tile) against l18 (cd35ace: the tile size at run time in every pipeline kernel) and sl:
# same bits at decode sizes, A/B T = 1 .. 64 at both D, the batch-invariance tests, memcheck over race18.py.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
P=benchmarks/results/gpu_logs/2026-11-27p/scripts; S=benchmarks/results/gpu_logs/2026-11-27r/scripts
rm -rf /tmp/ab/l18; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/l18 .carry/wheels/*.whl
for w in sl sp; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
PYTHONPATH=/tmp/ab/sl timeout 120 python3 $S/same_bits18.py sl 2>&1 | tail -1
PYTHONPATH=/tmp/ab/sp timeout 120 python3 $S/same_bits18.py sp sl 2>&1 | tail -1 | tee $OUT/same_bits.log
rm -f $OUT/bits_sl.pt
OPS=hc_head,mhc_post_hc_head,mhc_pre,mhc_fused_post_pre
for rep in 1 2; do for d in 4096 7168; do for w in sl l18 sp; do
  PYTHONPATH=/tmp/ab/$w timeout 100 python3 $P/ab16.py $w "1 8 16 28 32 64" $d $OPS
done; done; done 2>&1 | tee $OUT/ab_sp.log
(cd tests/python && PYTHONPATH=/tmp/ab/sp timeout 200 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py test_mhc_fused_post_pre.py -k "across_kernels or decode_streams or across_engines or across_compose or graph" 2>&1 | tail -2) | tee $OUT/tests.log
PYTHONPATH=/tmp/ab/sp timeout 90 compute-sanitizer --tool memcheck --error-exitcode 1 python3 $S/race18.py > $OUT/memcheck.log 2>&1; echo "memcheck rc $?"; tail -1 $OUT/memcheck.log
