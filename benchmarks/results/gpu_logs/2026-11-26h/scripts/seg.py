import csv, sys, collections
f = sys.argv[1]
rows = list(csv.reader(open(f)))
hdr = rows[1]; data = [r for r in rows[2:] if len(r) >= len(hdr)]
ix = {h: i for i, h in enumerate(hdr)}
def num(s):
    try: return float(s.replace(',', ''))
    except: return 0.0
S = ix['Warp Stall Sampling (All Samples)']; E = ix['Instructions Executed']
tot = sum(num(r[S]) for r in data); totE = sum(num(r[E]) for r in data)
# segments: split where exec count changes by a lot
segs = []; cur = [0]
for i in range(1, len(data)):
    a, b = num(data[i-1][E]), num(data[i][E])
    if (a == 0) != (b == 0) or (a and b and max(a, b) / max(1, min(a, b)) > 1.5): segs.append(cur); cur = [i]
    else: cur.append(i)
segs.append(cur)
out = []
for sg in segs:
    s = sum(num(data[i][S]) for i in sg); e = sum(num(data[i][E]) for i in sg)
    if s / tot > float(sys.argv[2]) if len(sys.argv) > 2 else 0.01:
        ops = collections.Counter(data[i][ix['Source']].split()[0] if not data[i][ix['Source']].startswith('@') else data[i][ix['Source']].split()[1] for i in sg)
        out.append((sg[0], sg[-1], s, e, ops))
for a, b, s, e, ops in out:
    print(f'{a:6d}-{b:6d} samples {100*s/tot:5.1f}% instr {100*e/totE:5.1f}% exec/inst {num(data[a][E]):8.0f}  {" ".join(k for k,_ in ops.most_common(8))}')
