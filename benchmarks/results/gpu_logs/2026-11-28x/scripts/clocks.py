"""Session 24: is bench_topk.py's bimodal 1 x 65536 reading (10.4 or 12.4 us, call 3) the SM clock? Times the shape in
rounds (graph of 10 calls, median of 50 replays) and reads the SM clock and performance state (NVML) after each round,
idle gaps of 0.5 s between rounds, then the same after a 2 GiB copy."""
import time, torch, pynvml, dsv4ext
from dsv4ext.bench.timing import time_cuda, copy_bandwidth
pynvml.nvmlInit()
h = pynvml.nvmlDeviceGetHandleByIndex(torch.cuda.current_device())
rows, width, k = 1, 65536, 2048
x = torch.randn(rows, width, device="cuda")
sl = torch.full((rows,), width, dtype=torch.int32, device="cuda")
idx = torch.empty(rows, k, dtype=torch.int32, device="cuda")
def rounds(tag, n):
    for i in range(n):
        t = time_cuda(lambda: torch.ops.dsv4ext.top_k_per_row_decode(x, 1, sl, idx, k, False), graph=True, inner=10).median
        print(f"{tag} {i}: {t * 1e6:.2f} us, SM clock {pynvml.nvmlDeviceGetClockInfo(h, pynvml.NVML_CLOCK_SM)} MHz, "
              f"P{pynvml.nvmlDeviceGetPerformanceState(h)}, reasons {pynvml.nvmlDeviceGetCurrentClocksThrottleReasons(h):#x}",
              flush=True)
        time.sleep(0.5)
rounds("idle", 8)
copy_bandwidth()
rounds("after copy", 4)
