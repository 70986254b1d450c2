#!/usr/bin/env bash
# Session 24, call 3: t24 (the working tree: main + the last-row barrier, the early sample loads, the early second
# group; topk.cu) validated: s23_call10.sh (memcheck / synccheck over race23_decode.py, racecheck over its all-to-all
# shapes, the three tools over race23_prefill.py, the top-k / ragged_pack Python CUDA tests, test_cuda_launchers);
# bimodal.py; bench_topk.py -> results/topk. Carry .carry/w/t24, .carry/bin.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
bash benchmarks/results/gpu_logs/2026-11-27w/scripts/s23_call10.sh t24
(cd $OUT && tar czf sanitizers.tgz *_race23_*.log && rm *_race23_*.log)  # the tool returns 8 files at most
export PYTHONPATH=/tmp/ab/t24
timeout 120 python3 benchmarks/results/gpu_logs/2026-11-28x/scripts/bimodal.py 2>&1 | tee $OUT/bimodal.log
timeout 150 python3 benchmarks/bench_topk.py --out $OUT > $OUT/bench_topk.log 2>&1; echo "bench_topk rc $?"
grep -E "prefill|ragged|1x65536 k=2048|64x65536 k=2048|1x262144 k=2048|64x262144 k=2048" $OUT/topk.md | cut -d'|' -f2-4,6
