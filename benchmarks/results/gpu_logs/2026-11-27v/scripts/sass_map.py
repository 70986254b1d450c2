import csv, gzip, re, sys, collections
sass, fn_sub, prof = sys.argv[1], sys.argv[2], sys.argv[3]
# address -> (file:line, instr) for the function whose name contains fn_sub
lines = open(sass).read().split("\n")
cur = None; loc = "?"; amap = {}; inst = {}
for l in lines:
    if l.startswith(".text."):
        cur = fn_sub in l; loc = "?"; continue
    if not cur: continue
    m = re.match(r'\s*//## File "(.*)", line (\d+)', l)
    if m: loc = m.group(1).split("/")[-1] + ":" + m.group(2); continue
    m = re.match(r'\s*/\*([0-9a-f]{4,})\*/\s+(.*?);', l)
    if m: a = int(m.group(1), 16); amap[a] = loc; inst[a] = m.group(2).strip()
rows = list(csv.DictReader(gzip.open(prof, "rt")))
base = int(rows[0]["Address"], 16)
tot = collections.Counter(); stall = collections.Counter(); exc = collections.Counter(); reasons = collections.defaultdict(collections.Counter)
per = []
for r in rows:
    a = int(r["Address"], 16) - base
    loc = amap.get(a, "??")
    ie = int(r["Instructions Executed"] or 0); st = int(r["Warp Stall Sampling (All Samples)"] or 0)
    ex = int(r["L1 Wavefronts Shared Excessive"] or 0) if r["L1 Wavefronts Shared Excessive"] not in ("-", "") else 0
    tot[loc] += ie; stall[loc] += st; exc[loc] += ex
    for k in r:
        if k.startswith("stall_") and "Not" not in k and r[k] not in ("", "-") and int(r[k]) > 0: reasons[loc][k[6:]] += int(r[k])
    per.append((a, ie, st, ex, inst.get(a, "?"), loc))
T = sum(tot.values()); S = sum(stall.values())
print(f"total inst {T}, stall samples {S}, mapped {len(amap)} addrs, rows {len(rows)}")
for loc, n in tot.most_common(45):
    rs = ", ".join(f"{k} {v*100//max(stall[loc],1)}%" for k, v in reasons[loc].most_common(3))
    print(f"{loc:24s} inst {n*100/T:5.1f}%  stall {stall[loc]*100/S:5.1f}%  shexc {exc[loc]:8d}  [{rs}]")
if len(sys.argv) > 4:
    for a, ie, st, ex, ins, loc in per:
        if ie or st: print(f"{a:05x} {ie:10d} {st:6d} {ex:7d} {loc:22s} {ins}")
