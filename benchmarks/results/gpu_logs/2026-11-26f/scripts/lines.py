import csv, gzip, re, sys, collections
sass, fn_sub, prof, lo, hi = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
cur=None; line=-1; amap={}; ins={}; fl={}
for l in open(sass):
    if l.startswith(".text."): cur = fn_sub in l; continue
    if not cur: continue
    m = re.match(r'\s*//## File "(.*?)", line (\d+)', l)
    if m:
        f = m.group(1).split("/")[-1]
        if f == "topk.cu": line = int(m.group(2)); fl_cur = None
        else: fl_cur = f + ":" + m.group(2)
        continue
    m = re.match(r'\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;', l)
    if m: a=int(m.group(1),16); amap[a]=line; ins[a]=m.group(2); fl[a]=fl_cur if 'fl_cur' in dir() else None
rows = list(csv.DictReader(gzip.open(prof, "rt"))); base = int(rows[0]["Address"], 16)
c = collections.Counter(); ops = collections.defaultdict(collections.Counter)
for r in rows:
    a = int(r["Address"],16)-base; L = amap.get(a,-1)
    if lo <= L <= hi:
        n = int(r["Instructions Executed"] or 0); key=(L, fl.get(a)); c[key]+=n; ops[key][ins.get(a,"?").split()[0]]+=n
for k,n in c.most_common(15): print(k, f"{n/1e6:.2f}M", ops[k].most_common(6))
