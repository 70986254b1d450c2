#!/usr/bin/env bash
# Session 2026-11-26 (8), call 3: where the four-block top-k kernel (4096x32768 k=2048) and the six-block one (8192x8192 k=512) spend their stalls:
# Nsight Compute full set + per-SASS-instruction source page (HEAD = pf0); a pure-read baseline (amax over the same rows).
set -u; ROOT=$PWD
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT/r
python3 -m pip install -q --no-index --no-deps --target /tmp/ab/pf0 .carry/w/pf0/*.whl 2>/dev/null
export PYTHONPATH=/tmp/ab/pf0
python3 - <<'PY' 2>&1 | tee $OUT/read_baseline.txt
import torch
from dsv4ext.bench.timing import time_cuda
for rows, width in [(4096, 32768), (8192, 8192), (2048, 131072), (64, 262144)]:
    x = torch.randn(rows, width, device="cuda")
    t = time_cuda(lambda: torch.amax(x, dim=1)).median
    print(f"amax {rows}x{width}: {t*1e6:.1f} us, {x.numel()*4/t/1e12:.2f} TB/s")
PY
for shape in "prefill 4096 32768 2048" "prefill 8192 8192 512"; do
  tag=$(echo $shape | tr ' ' _)
  timeout 200 ncu --kernel-name regex:topk_kernel --launch-skip 2 --launch-count 1 --set full --import-source no \
    -o $OUT/r/ncu_$tag python3 .carry/prof_topk.py $shape > $OUT/r/ncu_$tag.log 2>&1; echo "ncu $tag rc $?"
  ncu -i $OUT/r/ncu_$tag.ncu-rep --page details > $OUT/r/ncu_$tag.txt 2>&1
  ncu -i $OUT/r/ncu_$tag.ncu-rep --page source --csv --print-source sass > $OUT/r/src_$tag.csv 2>&1
  grep -E "^    Duration|DRAM Throughput|L1/TEX Cache Throughput|L2 Cache Throughput|Compute \(SM\) Throughput|Warp Cycles Per Issued|Achieved Occupancy|Executed Instructions  |Eligible Warps" $OUT/r/ncu_$tag.txt
done
rm -f $OUT/r/*.ncu-rep
cd $OUT && tar czf ncu_prefill.tgz r && rm -rf r
mkdir -p $OUT/d
for f in $ROOT/.carry/rep/*.ncu-rep; do b=$(basename $f .ncu-rep); ncu -i $f --page source --csv --print-source sass > $OUT/d/src_$b.csv 2>&1; done
cd $OUT && tar czf src_decode.tgz d && rm -rf d
