#!/usr/bin/env bash
# Session 19, call 8: ca = the decode engines' fp32 fn copied by each worker lane with cp.async before the PDL wait,
# the bf16 engine splitting it in place while the first tile's loads are in flight (main's working tree) against l18:
# same bits, A/B back to back and after a torch add (ab_serial.py), both D, two rounds.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
P=benchmarks/results/gpu_logs/2026-11-27p/scripts; R=benchmarks/results/gpu_logs/2026-11-27r/scripts
S=benchmarks/results/gpu_logs/2026-11-27s/scripts
for w in l18 ca; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
PYTHONPATH=/tmp/ab/l18 timeout 200 python3 $R/same_bits18.py l18 2>&1 | tail -1
PYTHONPATH=/tmp/ab/ca timeout 200 python3 $R/same_bits18.py ca l18 2>&1 | tail -1 | tee $OUT/same_bits.log
rm -f $OUT/bits_l18.pt
for rep in 1 2; do for d in 4096 7168; do for w in l18 ca; do
  PYTHONPATH=/tmp/ab/$w timeout 90 python3 $P/ab16.py $w "1 8 16 64" $d
  PYTHONPATH=/tmp/ab/$w timeout 90 python3 $S/ab_serial.py $w "1 16" $d
done; done; done 2>&1 | tee $OUT/ab.log
