"""ragged_pack 65536 x 512 with other length distributions (uncommitted helper): is the imbalance of
row-count ranges what keeps it at ~81 % of the copy rate? s9_packdiag.py [ncu] (ncu: one call only)."""
import sys, torch, dsv4ext
from dsv4ext.bench.timing import time_cuda
bw = 2.956e12
rows, width = 65536, 512
g = torch.Generator(device="cuda").manual_seed(0)
dense = torch.randint(0, 1 << 20, (rows, width), dtype=torch.int32, device="cuda")
out = torch.empty(rows * width, dtype=torch.int32, device="cuda"); ptr = torch.empty(rows + 1, dtype=torch.int32, device="cuda")
rnd = torch.randint(0, width + 1, (rows,), dtype=torch.int32, device="cuda", generator=g)
cases = {"random": rnd, "all256": torch.full((rows,), 256, dtype=torch.int32, device="cuda"),
         "all512": torch.full((rows,), 512, dtype=torch.int32, device="cuda"),
         "random_sorted": rnd.sort().values.contiguous(), "alt0_512": (torch.arange(rows, device="cuda") % 2 * 512).to(torch.int32)}
if len(sys.argv) > 1:
    torch.ops.dsv4ext.ragged_pack(dense, rnd, out, ptr, -1, -1); torch.cuda.synchronize(); sys.exit()
for name, lengths in cases.items():
    t = time_cuda(lambda: torch.ops.dsv4ext.ragged_pack(dense, lengths, out, ptr, -1, -1), graph=True, inner=10).median
    nnz = int(lengths.sum()); moved = 4 * rows + 8 * nnz + 4 * (rows + 1)
    print(f"pack {rows}x{width} {name:14s}: {t*1e6:7.2f} us  {100*moved/bw/t:5.1f} % copy", flush=True)
nnz = int(rnd.sum())  # a plain copy of the random case's entries
x = torch.empty(nnz, dtype=torch.int32, device="cuda"); y = torch.empty_like(x)
t = time_cuda(lambda: y.copy_(x), graph=True, inner=10).median
print(f"plain copy of {nnz * 4 / 1e6:.0f} MB: {t*1e6:.2f} us  {100 * 8 * nnz / bw / t:.1f} % copy", flush=True)
