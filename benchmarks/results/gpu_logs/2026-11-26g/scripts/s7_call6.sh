#!/usr/bin/env bash
# Session 2026-11-26 (7), call 6: programmatic dependent launch (.carry/w/pd) against main (.carry/w/tc): CUDA tests, memcheck, decode / pack / top-k A/B.
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for w in tc pd; do python3 -m pip install -q --no-index --no-deps --target /tmp/ab/$w .carry/w/$w/*.whl; done
PYTHONPATH=/tmp/ab/pd timeout 330 python3 -m pytest -q -x tests/python/test_mhc_*.py tests/python/test_hc_head.py tests/python/test_top_k_per_row_prefill.py tests/python/test_top_k_per_row_decode.py tests/python/test_ragged_pack.py -k cuda 2>&1 | tail -3
PYTHONPATH=/tmp/ab/pd timeout 100 compute-sanitizer --tool memcheck --error-exitcode 1 python3 scripts/sanitize_ops.py 2>&1 | tail -2
for rep in 1 2; do for w in tc pd; do
  PYTHONPATH=/tmp/ab/$w timeout 60 python3 benchmarks/bench_mhc.py --no-ref --tokens 1 16 64 --hidden 4096 7168 --out $OUT/mhc_${w}_$rep > /dev/null 2>&1
  PYTHONPATH=/tmp/ab/$w timeout 40 python3 benchmarks/bench_topk.py --pack-only --out $OUT/pack_${w}_$rep > /dev/null 2>&1
  PYTHONPATH=/tmp/ab/$w timeout 60 python3 .carry/ab_topk3.py $w all
done; done 2>&1 | tee $OUT/ab_topk.log
python3 - <<'PY'
import json, os, glob
out = os.environ["OUT"]
rows = {}
for f in sorted(glob.glob(f"{out}/mhc_*_*/mhc.json")) + sorted(glob.glob(f"{out}/pack_*_*/topk.json")):
    tag = f.split("/")[-2]
    for r in json.load(open(f))["rows"]:
        key = (r["op"], r.get("D", ""), r.get("T", r.get("shape", "")))
        rows.setdefault(key, {})[tag] = r["ours_us"]
tags = sorted({t for v in rows.values() for t in v})
print("op D T | " + " | ".join(tags))
for k, v in rows.items(): print(*k, "|", " | ".join(f"{v.get(t, float('nan')):.2f}" for t in tags))
PY
