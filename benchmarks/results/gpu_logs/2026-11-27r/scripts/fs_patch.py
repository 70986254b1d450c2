"""fs variant (uncommitted experiment): thread 0 issues the first N stages after the PDL wait, waits until
stage 0 has landed, then issues the rest of the early stages. fs_patch.py N (run in the tree's root)."""
import sys, re
n = int(sys.argv[1])
p = "csrc/cuda/mhc_tma_kernel.cuh"
s = open(p).read()
old = """    pdl_wait();
    for (int it = 0; it < early; ++it) produce(it);
  }"""
new = f"""    pdl_wait();
    for (int it = 0; it < early; ++it) {{
      produce(it);
      if (it + 1 == {n} && early > {n}) mbar_wait<1000>(&ct.full[0], 0);
    }}
  }}"""
assert s.count(old) == 1
open(p, "w").write(s.replace(old, new))
