import csv, gzip, re, sys, collections
sass, fn_sub, prof, ranges = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
phases = []  # (lo, hi, name)
for part in ranges.split(","):
    name, lo, hi = part.split(":"); phases.append((int(lo), int(hi), name))
def phase(line):
    for lo, hi, n in phases:
        if lo <= line <= hi: return n
    return f"line{line}"
cur = None; line = -1; amap = {}
for l in open(sass):
    if l.startswith(".text."): cur = fn_sub in l; continue
    if not cur: continue
    m = re.match(r'\s*//## File "(.*?)", line (\d+)(?: inlined at "(.*?)", line (\d+))?', l)
    if m:
        if m.group(1).endswith("topk.cu"): line = int(m.group(2))
        pass
        continue
    m = re.match(r'\s*/\*([0-9a-f]{4,})\*/', l)
    if m: amap[int(m.group(1), 16)] = line
rows = list(csv.DictReader(gzip.open(prof, "rt")))
base = int(rows[0]["Address"], 16)
ins = collections.Counter(); st = collections.Counter()
for r in rows:
    p = phase(amap.get(int(r["Address"], 16) - base, -1))
    ins[p] += int(r["Instructions Executed"] or 0); st[p] += int(r["Warp Stall Sampling (All Samples)"] or 0)
T = sum(ins.values()); S = sum(st.values())
for p, n in ins.most_common(25): print(f"{p:16s} inst {n/1e6:7.1f} M {n*100/T:5.1f}%   stall {st[p]*100/S:5.1f}%")
