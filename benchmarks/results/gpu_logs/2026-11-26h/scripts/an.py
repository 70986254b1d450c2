import csv, sys, collections
f = sys.argv[1]
rows = list(csv.reader(open(f)))
hdr = rows[1]; data = rows[2:]
ix = {h: i for i, h in enumerate(hdr)}
def num(s):
    try: return float(s.replace(',', ''))
    except: return 0.0
stalls = [h for h in hdr if h.startswith('stall_') and 'Not Issued' not in h]
tot = collections.Counter()
S = ix['Warp Stall Sampling (All Samples)']
allsamp = 0
for r in data:
    if len(r) < len(hdr): continue
    allsamp += num(r[S])
    for h in stalls: tot[h] += num(r[ix[h]])
print('samples', allsamp, 'instrs', len(data))
for h, v in tot.most_common(12): print(f'  {h:28s} {v:10.0f} {100*v/allsamp:5.1f}%')
# top instructions
top = sorted(range(len(data)), key=lambda i: -num(data[i][S]) if len(data[i]) >= len(hdr) else 0)[:int(sys.argv[2]) if len(sys.argv) > 2 else 25]
for i in top:
    r = data[i]
    st = sorted(((num(r[ix[h]]), h) for h in stalls), reverse=True)[:2]
    print(f'{i:6d} {num(r[S]):7.0f} exec {num(r[ix["Instructions Executed"]]):9.0f}  {r[ix["Source"]][:60]:60s} {st[0][1][6:]}:{st[0][0]:.0f} {st[1][1][6:]}:{st[1][0]:.0f}')
