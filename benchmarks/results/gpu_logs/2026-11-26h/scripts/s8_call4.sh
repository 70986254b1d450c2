#!/usr/bin/env bash
# Session 2026-11-26 (8), call 4: q1 = prefetch two groups ahead in the six-block top-k kernel only; q2 = q1 + pick_digit not inlined;
# q3 = q1 + clusters of up to 16 blocks (non-portable) for few wide decode rows. Tests on q2 and q3, A/B against HEAD (pf0), decode anatomy.
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in pf0 q1 q2 q3; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
for w in q3 q2; do
PYTHONPATH=/tmp/ab/$w timeout 150 python3 -m pytest -q -x tests/python/test_top_k_per_row_prefill.py tests/python/test_top_k_per_row_decode.py -k cuda 2>&1 | tail -2 | tee $OUT/tests_$w.log
done
ROUNDS=2 bash .carry/s6_ab.sh all pf0 q1 q2 q3 2>&1 | tee $OUT/ab_topk.log
for w in pf0 q2 q3; do PYTHONPATH=/tmp/ab/$w timeout 60 python3 .carry/decode_anatomy.py $w; done 2>&1 | tee $OUT/anatomy.log
