import csv, gzip, re, sys, collections
sass, fn_sub, prof, target = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
cur=None; line=-1; seq=[]
for l in open(sass):
    if l.startswith(".text."): cur = fn_sub in l; continue
    if not cur: continue
    m = re.match(r'\s*//## File "(.*?)", line (\d+)', l)
    if m:
        if m.group(1).endswith("topk.cu"): line = int(m.group(2))
        continue
    m = re.match(r'\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;', l)
    if m: seq.append((int(m.group(1),16), line, m.group(2)))
rows = {int(r["Address"],16): int(r["Instructions Executed"] or 0) for r in csv.DictReader(gzip.open(prof, "rt"))}
base = min(rows); cnt = {a-base: n for a, n in rows.items()}
# context: the nearest preceding instruction whose line != target
ctx = collections.Counter(); last = -1
for a, L, ins in seq:
    if L != target: last = L
    else: ctx[last] += cnt.get(a, 0)
for k, n in ctx.most_common(12): print(k, f"{n/1e6:.2f}M")
