#!/usr/bin/env bash
# Session 17, call 2: nf0 (= the landed split3_bf16x2 without NaN fix-ups) against hd17 with NaNs in fn (same_bits17);
# pe (nf0 + fn staged before the PDL wait) against nf0, A/B at both D; the %globaltimer trace of nf0's staging
# (tr17 = nf0 + trace_patch16 + 16b), T = 4032.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1
S=benchmarks/results/gpu_logs/2026-11-27q/scripts
P=benchmarks/results/gpu_logs/2026-11-27p/scripts
.carry/bin/split_bits | tee $OUT/split_bits.log
for w in hd17 nf0 pe; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
PYTHONPATH=/tmp/ab/hd17 timeout 200 python3 $S/same_bits17.py hd17 2>&1 | tail -2 | tee $OUT/same_bits.log
for w in nf0 pe; do PYTHONPATH=/tmp/ab/$w timeout 200 python3 $S/same_bits17.py $w hd17 2>&1 | tail -2; done | tee -a $OUT/same_bits.log
for rep in 1 2 3; do for w in nf0 pe; do PYTHONPATH=/tmp/ab/$w timeout 150 python3 $P/ab16.py $w "1024 2048 4096 16384" 4096; done; done 2>&1 | tee $OUT/ab4096.log
for rep in 1 2; do for w in nf0 pe; do PYTHONPATH=/tmp/ab/$w timeout 150 python3 $P/ab16.py $w "1024 4096" 7168; done; done 2>&1 | tee $OUT/ab7168.log
[ -d .carry/w/tr17 ] && PYTHONPATH=/tmp/ab/tr17 timeout 100 python3 $P/trace16.py 4032 4096 > $OUT/trace4032_tr17.log 2>&1; echo "trace rc $?"
[ -d .carry/w/tr17 ] && python3 $P/parse16.py $OUT/trace4032_tr17.log > $OUT/trace4032_tr17_summary.txt; gzip -f $OUT/trace4032_tr17.log
grep "==\|call [23]" $OUT/trace4032_tr17_summary.txt | grep -v "(224"
