#!/usr/bin/env bash
# Session 16, call 9: the cost of the progress word's atomic poll at D = 7168: st (relaxed ld poll) against the landed
# build (atom.shared.or poll) and hd16 (volatile poll), hc_head and the seam, three rounds.
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
S=benchmarks/results/gpu_logs/2026-11-27p/scripts
rm -rf /tmp/ab/*; for w in hd16 st; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
python3 -m pip install -q --no-index --no-deps --target /tmp/ab/main .carry/wheels/*.whl
for rep in 1 2 3; do for w in hd16 st main; do PYTHONPATH=/tmp/ab/$w timeout 100 python3 $S/ab16.py $w "4096 16384" 7168 hc_head,mhc_post_hc_head; done; done 2>&1 | tee $OUT/ab7168_poll.log
