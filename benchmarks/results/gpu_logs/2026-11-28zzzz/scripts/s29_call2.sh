#!/usr/bin/env bash
# Session 29, call 2: the first benchmark on the H200 (the machine the device tool now lends). W = the wheel in
# .carry/w/$W (main's build after call 1's verdict). bench_mhc --no-compile (every op, both D) -> results/mhc_h200,
# then bench_topk -> results/topk_h200 while time remains.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
W=${W:-f4f}
rm -rf /tmp/ab/$W; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$W .carry/w/$W/*.whl
export PYTHONPATH=/tmp/ab/$W
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv > $OUT/gpu.txt
timeout 360 python3 benchmarks/bench_mhc.py --no-compile --out $OUT/mhc > $OUT/bench_mhc.log 2>&1
echo "bench_mhc rc $?"; tail -3 $OUT/bench_mhc.log
timeout 200 python3 benchmarks/bench_topk.py --out $OUT/topk > $OUT/bench_topk.log 2>&1; echo "bench_topk rc $?"
tail -3 $OUT/bench_topk.log
