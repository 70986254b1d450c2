#!/usr/bin/env bash
# Session 23, call 8. a3 (main's kernels): Nsight Compute source counters of the clustered decode kernel at
# 1 x 65536 k = 2048, as session 22's call 7 (../2026-11-27v/scripts/s22_call7.sh) did for g8; mapped to source lines
# here with ../../2026-11-26f/scripts/sass_map.py and the wheel's cubin. Carry .carry/w/a3.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
V=benchmarks/results/gpu_logs/2026-11-27v/scripts
F=benchmarks/results/gpu_logs/2026-11-26f/scripts
rm -rf /tmp/ab/a3; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/a3 .carry/w/a3/*.whl
export PYTHONPATH=/tmp/ab/a3
timeout 200 ncu --target-processes all -k regex:topk --launch-skip 5 --launch-count 1 --warp-sampling-interval 0 \
  --section SourceCounters --section WarpStateStats -o /tmp/rep_decode python3 $V/decode_ncu.py 1 65536 2048 > $OUT/ncu_src.log 2>&1
echo "ncu rc $?"; tail -n3 $OUT/ncu_src.log
ncu -i /tmp/rep_decode.ncu-rep --page source --csv --print-source sass > /tmp/sass_decode.csv 2>&1
python3 $F/sass_reduce.py /tmp/sass_decode.csv $OUT/sass_decode_1_65536_2048.csv.gz
ncu -i /tmp/rep_decode.ncu-rep --page details > $OUT/details_decode.txt 2>&1
grep -E "Duration|Warp Cycles Per Issued" $OUT/details_decode.txt
