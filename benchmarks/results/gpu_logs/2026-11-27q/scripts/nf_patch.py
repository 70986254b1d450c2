#!/usr/bin/env python3
"""Session 17 variants of pipeline_mhc::split3_bf16x2 (fn's bf16 parts), applied in a build tree:
  nf  -- pack_bf16x2's NaN fix-up on the hi part only (the remainders are FADD results: canonical NaNs);
  nf0 -- no NaN fix-up on any part (a NaN fn value gives NaN parts either way; the mma's NaN output does
         not carry the parts' payload)."""
import pathlib, sys

mode = sys.argv[1]
p = pathlib.Path("csrc/cuda/mhc_pipeline_kernel.cuh")
s = p.read_text()
old = "    w[p] = pack_bf16x2(a, b);\n    a -= __uint_as_float(w[p] << 16);"
assert s.count(old) == 1, "split3_bf16x2 not found"
cvt = '      asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(w[p]) : "f"(b), "f"(a));\n'
if mode == "nf":
    new = ("    if (p == 0) {\n      w[p] = pack_bf16x2(a, b);\n    } else {\n" + cvt + "    }\n"
           "    a -= __uint_as_float(w[p] << 16);")
elif mode == "nf0":
    new = "    " + cvt.strip() + "\n    a -= __uint_as_float(w[p] << 16);"
else:
    raise SystemExit(f"unknown mode {mode}")
p.write_text(s.replace(old, new))
print("patched", mode)
