"""Prepared in session 24 for the next session: bimodal.py's sequence (new values in one buffer, then new buffers,
then after a 2 GiB copy) with NVML's SM clock, memory clock, power and throttle reasons read after every timing, so
that the 12.4 us state of 1 x 65536 k = 2048 (call 3), if it occurs, is seen beside the clocks (call 4's clocks.py
read 1980 MHz throughout, but never hit the slow state). Run with the wheel on PYTHONPATH; ~30 s."""
import torch, pynvml, dsv4ext
from dsv4ext.bench.timing import time_cuda, copy_bandwidth
pynvml.nvmlInit()
h = pynvml.nvmlDeviceGetHandleByIndex(torch.cuda.current_device())
rows, width, k = 1, 65536, 2048
sl = torch.full((rows,), width, dtype=torch.int32, device="cuda")
idx = torch.empty(rows, k, dtype=torch.int32, device="cuda")
def timed(x, tag):
    t = time_cuda(lambda: torch.ops.dsv4ext.top_k_per_row_decode(x, 1, sl, idx, k, False), graph=True, inner=10).median
    print(f"{tag}: {t * 1e6:.2f} us, SM {pynvml.nvmlDeviceGetClockInfo(h, pynvml.NVML_CLOCK_SM)} MHz, "
          f"mem {pynvml.nvmlDeviceGetClockInfo(h, pynvml.NVML_CLOCK_MEM)} MHz, "
          f"{pynvml.nvmlDeviceGetPowerUsage(h) / 1000:.0f} W, "
          f"reasons {pynvml.nvmlDeviceGetCurrentClocksThrottleReasons(h):#x}", flush=True)
x = torch.randn(rows, width, device="cuda")
for i in range(8):
    timed(x.copy_(torch.randn_like(x)), f"(a) same buffer, new values {i}")
pads = []
for i in range(8):
    pads.append(torch.empty(1 + 37 * i * 1024, dtype=torch.uint8, device="cuda"))
    timed(x.clone(), f"(b) new buffer {i}")
copy_bandwidth()
for i in range(4):
    timed(torch.randn(rows, width, device="cuda"), f"(c) after the copy {i}")
