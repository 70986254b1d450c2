#!/usr/bin/env bash
# Session 2026-11-26 (12), call 9: Nsight Compute figures of the final kernels (407b56e = .carry/wheels) where issue goals are
# missed: SpeedOfLight, Occupancy, WarpStateStats (stall reasons) for mhc_pre (TMA kernel), hc_head, mhc_post_hc_head's
# composed pair at T = 16384, D = 4096, and the top-k prefill kernels at 4096x32768, 8192x8192, 16384x2048.
set -u
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
python3 -m pip install -q --no-index --no-deps --target /tmp/site .carry/wheels/*.whl
export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1
S="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats"
summ() { grep -E "^  [a-z_]+.*\(|Duration|DRAM Throughput|Compute \(SM\) Throughput|Achieved Occupancy|Registers Per|Warp Cycles Per Issued|Stall [A-Z]" $1 | grep -v "^    INF\|OPT" | head -16; }
for op in mhc_pre hc_head mhc_post_hc_head; do
  timeout 90 ncu --kernel-name regex:mhc --launch-skip 2 --launch-count 2 $S python3 benchmarks/prof_mhc.py $op 16384 4096 > $OUT/ncu_$op.txt 2>&1; echo "== $op"; summ $OUT/ncu_$op.txt
done
for shape in "4096 32768 2048" "8192 8192 512" "16384 2048 512"; do
  f=$OUT/ncu_topk_${shape// /_}.txt
  timeout 90 ncu --kernel-name regex:topk --launch-skip 2 --launch-count 1 $S python3 .carry/s12/prof_topk.py $shape > $f 2>&1; echo "== topk $shape"; summ $f
done
