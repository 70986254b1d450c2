#!/usr/bin/env bash
# Session 29, call 1 (the machine is now an H200). Base f4f = main after session 28 (carry .carry/w/f4f), variants xr
# and d4f in .carry/so.tar.xz (variant_so_xz.sh xr d4f), as prepared in 2026-11-28zzz/scripts/next_s29.sh:
#  - xr: the seam's x slot released after its words' use and the proxy fence;
#  - d4f: a CTA fence before the D = 4096 wgmma projection's release (squares path).
# The machine's facts, run-to-run determinism (det28.py, 10 runs), the repeat / batch-invariance tests on the base and
# both variants, A/B (two rounds) of the ops each touches.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
S=benchmarks/results/gpu_logs/2026-11-28zzzz/scripts; Z=benchmarks/results/gpu_logs/2026-11-28zzz/scripts  # session 28's setup and det28; P=benchmarks/results/gpu_logs/2026-11-27p/scripts
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv | tee $OUT/info.log
BASE=f4f bash $Z/s28_setup.sh xr d4f
PYTHONPATH=/tmp/ab/f4f python3 -c "import torch; from dsv4ext.bench.timing import copy_bandwidth; print(torch.__version__, torch.cuda.get_device_name(), 'copy bandwidth %.2f TB/s' % (copy_bandwidth() / 1e12))" 2>&1 | tee -a $OUT/info.log
DET_OPS=mhc_post_hc_head PYTHONPATH=/tmp/ab/xr timeout 60 python3 $Z/det28.py xr 10 2>&1 | tee $OUT/det.log
PYTHONPATH=/tmp/ab/d4f timeout 60 python3 $Z/det28.py d4f 10 4096 2>&1 | tee -a $OUT/det.log
for w in f4f xr d4f; do
  echo "== $w"
  (cd tests/python && PYTHONPATH=/tmp/ab/$w timeout 100 python3 -m pytest -q -rf -p no:cacheprovider test_mhc_pre.py \
    test_mhc_post_hc_head.py -k "repeat_identical or batch_invariant_across" 2>&1 | tail -3)
done | tee $OUT/tests.log
for rep in 1 2; do
  for w in f4f xr; do for d in 4096 7168; do
    PYTHONPATH=/tmp/ab/$w timeout 40 python3 $P/ab16.py $w "4096 16384" $d mhc_post_hc_head; done; done
  for w in f4f d4f; do
    PYTHONPATH=/tmp/ab/$w timeout 60 python3 $P/ab16.py $w "4096 16384" 4096 mhc_pre,mhc_pre_delayed,hc_head; done
done 2>&1 | tee $OUT/ab.log
