#!/usr/bin/env bash
# Session 16, call 1: rg (rings_5_24.diff: 5 ring slots for mhc_pre / delayed at D = 7168, 24 for hc_head) against
# hd16 (= c88b1d0): smoke, A/B at D = 7168; the T sweep around 4096 at D = 4096 on hd16 (how much a partial last
# round of tiles over the 7 clusters costs); racecheck over race15.py (the D = 7168 paths, never raced yet).
set -u
cd "$(dirname "$0")/../../../../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in hd16 rg; do rm -rf /tmp/ab/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export PYTHONUNBUFFERED=1
S=benchmarks/results/gpu_logs/2026-11-27p/scripts; S15=benchmarks/results/gpu_logs/2026-11-27o/scripts
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv | tee $OUT/gpu.txt
PYTHONPATH=/tmp/ab/rg timeout 150 python3 $S15/smoke15.py mhc_pre,mhc_pre_delayed,hc_head,mhc_post_hc_head 2>&1 | tail -4 | tee $OUT/smoke_rg.log; rc=${PIPESTATUS[0]}
echo "smoke rc $rc"
if [ $rc -eq 0 ]; then
for rep in 1 2; do for w in hd16 rg; do PYTHONPATH=/tmp/ab/$w timeout 100 python3 $S/ab16.py $w "4096 16384 65536" 7168 mhc_pre,mhc_pre_delayed,hc_head; done; done 2>&1 | tee $OUT/ab_rings.log
fi
PYTHONPATH=/tmp/ab/hd16 timeout 150 python3 $S/ab16.py sweep "1792 3136 3584 4032 4096 4480 8064 8192" 4096 hc_head,mhc_post_hc_head,mhc_pre_delayed 2>&1 | tee $OUT/sweep4096.log
PYTHONPATH=/tmp/ab/hd16 timeout 240 compute-sanitizer --tool racecheck --error-exitcode 1 python3 $S15/race15.py > $OUT/racecheck.log 2>&1; echo "racecheck rc $?"; tail -3 $OUT/racecheck.log
