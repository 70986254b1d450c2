"""Session 25, call 3: draws.py's decode rows (the same CUDA generator seeds), saved for a CPU replay of the
kernel's radix decisions (which draws need a third digit pass): $OUT/draws.npz, float32 arrays r65536_d, r262144_d."""
import os, numpy as np, torch
out = {}
for width in (65536, 262144):
    for d in range(8):
        g = torch.Generator(device="cuda").manual_seed(1000 + d)
        out[f"r{width}_{d}"] = torch.randn(1, width, device="cuda", generator=g).cpu().numpy()[0]
np.savez_compressed(os.path.join(os.environ.get("OUT", "/tmp"), "draws.npz"), **out)
print("saved", len(out))
