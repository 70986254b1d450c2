#!/usr/bin/env bash
# Session 2026-11-27 (13), call 2: hh = hc_head on the TMA kernel (held collapse) from 2560 tokens + programmatic dependent
# launch for the TMA kernel, against main 4f6b551 (base): the mHC CUDA tests on hh, sanitizers, A/B two rounds.
set -u
cd "$(dirname "$0")/../.."
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in base hh; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
export PYTHONUNBUFFERED=1
(cd tests/python && PYTHONPATH=/tmp/ab/hh timeout 400 python3 -m pytest -q -p no:cacheprovider test_mhc_pre.py test_mhc_pre_delayed.py test_hc_head.py test_mhc_post_hc_head.py test_mhc_fused_post_pre.py test_mhc_fused_post_pre_delayed.py test_mhc_post.py -k cuda 2>&1 | tail -3) | tee $OUT/tests_hh.log
PYTHONPATH=/tmp/ab/hh timeout 150 compute-sanitizer --tool memcheck python3 -c "
import runpy; runpy.run_path('.carry/s13/race13.py'); runpy.run_path('.carry/s12/race_s12.py')
import torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
for op in ('mhc_pre', 'mhc_pre_delayed'):
    torch.ops.dsv4ext.__getattr__(op)(*mhc_args(op, 1100, 4096, 'cuda', norm=True))
torch.cuda.synchronize(); print('tma ops done')" 2>&1 | tail -4 | tee $OUT/memcheck.log
PYTHONPATH=/tmp/ab/hh timeout 150 compute-sanitizer --tool racecheck python3 .carry/s13/race13.py 2>&1 | tail -3 | tee $OUT/racecheck.log
for rep in 1 2; do for w in base hh; do PYTHONPATH=/tmp/ab/$w python3 .carry/s13/ab_tma13.py $w "1024 2048 4096 16384 65536"; done; done 2>&1 | tee $OUT/ab_tma.log
for rep in 1 2; do for w in base hh; do PYTHONPATH=/tmp/ab/$w python3 .carry/s13/ab_head13.py $w "2048 2560 3072"; done; done 2>&1 | tee $OUT/ab_head.log
