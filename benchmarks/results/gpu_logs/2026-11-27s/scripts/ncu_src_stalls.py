import csv, sys, collections
f = sys.argv[1]
rows = list(csv.reader(open(f)))
hdr = rows[1]; data = [r for r in rows[2:] if len(r) >= len(hdr)]
ix = {h: i for i, h in enumerate(hdr)}
def num(s):
    try: return float(s.replace(',', ''))
    except: return 0.0
stalls = [h for h in hdr if h.startswith('stall_') and '(Not' not in h]
S = ix['Warp Stall Sampling (All Samples)']; E = ix['Instructions Executed']
tot = sum(num(r[S]) for r in data)
print(f, 'samples', tot, 'instructions', len(data), 'executed', sum(num(r[E]) for r in data))
agg = {h: sum(num(r[ix[h]]) for r in data) for h in stalls}
print(' '.join(f'{h[6:]}={100*v/tot:.1f}' for h, v in sorted(agg.items(), key=lambda x: -x[1]) if v/tot > 0.01))
top = sorted(range(len(data)), key=lambda i: -num(data[i][S]))[:int(sys.argv[2]) if len(sys.argv) > 2 else 25]
for i in sorted(top):
    r = data[i]
    st = sorted(((num(r[ix[h]]), h[6:]) for h in stalls), reverse=True)[:2]
    print(f'{i:5d} {r[ix["Address"]]:>6s} {100*num(r[S])/tot:5.1f}% ex={num(r[E]):6.0f} {st[0][1]}:{st[0][0]:.0f} {st[1][1]}:{st[1][0]:.0f}  {r[ix["Source"]][:90]}')
