"""Runs the decode ops eagerly (the trace build prints %globaltimer stamps of units 0 and 127)."""
import torch, dsv4ext
from dsv4ext.bench.cases import mhc_args
for op in ["hc_head", "mhc_pre"]:
    for tokens in (1, 16):
        a = mhc_args(op, tokens, 4096, "cuda", norm=True)
        f = getattr(torch.ops.dsv4ext, op)
        for _ in range(3):
            f(*a)
        torch.cuda.synchronize()
        print(f"---- {op} T={tokens} (the last of 4 calls above this line is the warm one)", flush=True)
