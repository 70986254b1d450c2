"""Session 24: why bench_topk.py's decode 1 x 65536 k = 2048 reads ~10.5 us in some runs and ~12.5 us in others
(calls 1-2: main's wheel too), while ab_decode.py always reads ~10.5. Times the shape (graph of 10 calls, median of
50 replays) (a) on new random values copied into the same buffer, the same graph; (b) on the same values in new
buffers at other addresses, a new graph each; (c) after bench_topk.py's own preamble (copy_bandwidth's 2 GiB copy)."""
import torch, dsv4ext
from dsv4ext.bench.timing import time_cuda, copy_bandwidth
rows, width, k = 1, 65536, 2048
sl = torch.full((rows,), width, dtype=torch.int32, device="cuda")
idx = torch.empty(rows, k, dtype=torch.int32, device="cuda")
def t_of(x):
    return time_cuda(lambda: torch.ops.dsv4ext.top_k_per_row_decode(x, 1, sl, idx, k, False), graph=True, inner=10).median * 1e6
x = torch.randn(rows, width, device="cuda")
print("(a) same buffer, new values:", " ".join(f"{t_of(x.copy_(torch.randn_like(x))):.2f}" for _ in range(6)), flush=True)
pads, res = [], []
for i in range(8):
    pads.append(torch.empty(1 + 37 * i * 1024, dtype=torch.uint8, device="cuda"))
    y = x.clone()
    res.append(f"{y.data_ptr() % (1 << 24):#x}:{t_of(y):.2f}")
print("(b) same values, new buffers (address mod 16 MiB : us):", " ".join(res), flush=True)
bw = copy_bandwidth()
print(f"(c) after copy_bandwidth ({bw / 1e12:.2f} TB/s):", " ".join(f"{t_of(torch.randn(rows, width, device='cuda')):.2f}" for _ in range(6)), flush=True)
