"""Reduce an ncu `--page source --csv --print-source sass` dump to the numeric columns per address (uncommitted helper)."""
import csv, sys, gzip
src, dst = sys.argv[1], sys.argv[2]
rows = list(csv.reader(open(src, newline="")))
# the dump may start with a "Kernel Name" or function line; find the header row
h = next(i for i, r in enumerate(rows) if r and r[0] == "Address")
hdr = rows[h]
keep = [i for i, c in enumerate(hdr) if c == "Address" or ("Source" not in c)]
with gzip.open(dst, "wt") as f:
    w = csv.writer(f)
    w.writerow([hdr[i] for i in keep])
    for r in rows[h + 1:]:
        if len(r) == len(hdr): w.writerow([r[i] for i in keep])
print(len(rows) - h - 1, "rows;", "columns:", [hdr[i] for i in keep][:60])
