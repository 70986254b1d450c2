#!/usr/bin/env python3
"""Session 17 variant pe: the TMA kernel stages fn's slice (and the final norm's weights) before the programmatic-
dependent-launch wait, i.e. while the previous kernel finishes: they are weights, which no kernel before this one
writes. Only thread 0 (the producer's first stages) waits first; every other thread waits after its staging, before
its first access to data of the previous kernel."""
import pathlib

p = pathlib.Path("csrc/cuda/mhc_tma_kernel.cuh")
s = p.read_text()
old = """  cluster.sync();  // every CTA's barriers are initialised before anyone pushes
  pdl_wait();
  // Thread 0 issues the first stages (the ring starts empty) while the other warps stage fn.
  if (threadIdx.x == 0)
    for (int it = 0; it < early; ++it) produce(it);
"""
new = """  cluster.sync();  // every CTA's barriers are initialised before anyone pushes
  // Thread 0 issues the first stages (the ring starts empty) while the other warps stage fn.
  if (threadIdx.x == 0) {
    pdl_wait();
    for (int it = 0; it < early; ++it) produce(it);
  }
"""
assert s.count(old) == 1
s = s.replace(old, new)
old2 = """        reinterpret_cast<uint4*>(ct.norm_w)[q] = __ldg(reinterpret_cast<const uint4*>(pp.norm_weight + rank * kDs) + q);
  }
  __syncthreads();
"""
new2 = """        reinterpret_cast<uint4*>(ct.norm_w)[q] = __ldg(reinterpret_cast<const uint4*>(pp.norm_weight + rank * kDs) + q);
  }
  if (threadIdx.x != 0) pdl_wait();
  __syncthreads();
"""
assert s.count(old2) == 1
s = s.replace(old2, new2)
p.write_text(s)
print("patched pe")
