"""Patches csrc/cuda/mhc_decode_kernel.cuh (in a variant tree, not committed) with %globaltimer stamps printed by
unit 0 (owner of token 0) and unit 127 (a non-owner): start after pdl_wait, partials stored, barrier 1 seen (owner),
sums done, weights arrived, barrier 2 seen, collapse stored."""
import re
p = "csrc/cuda/mhc_decode_kernel.cuh"
s = open(p).read()
s = s.replace('''__device__ __forceinline__ unsigned load_phase(''', '''__device__ __forceinline__ unsigned long long gtime() {
  unsigned long long v;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(v));
  return v;
}
__device__ __forceinline__ unsigned load_phase(''')
def stamp(anchor, idx, after=True, cond="true"):
    global s
    assert anchor in s, anchor
    code = f"  if ({cond}) tr[{idx}] = gtime();\n"
    s = s.replace(anchor, anchor + code if after else code + anchor, 1)
s = s.replace("  pdl_wait();  // the previous launch", "  unsigned long long tr[8] = {};\n  pdl_wait();  // the previous launch", 1)
stamp("  pdl_wait();  // the previous launch on this stream (and its use of the slot) is complete\n", 0)
stamp("  __syncthreads();  // the unit's partials are stored, phase_s is read\n", 1)
stamp("    wait_phase(ws, phase + 1);\n", 2)
stamp("    if (warp == 0) {\n      const float sum_sq", 3, after=False)
s = s.replace("        arrive(ws, 1, unsigned(tokens), phase + 2);\n", "        arrive(ws, 1, unsigned(tokens), phase + 2);\n        tr[4] = gtime();\n", 1)
s = s.replace("""    __syncwarp();
  }
  const bool identity""", """    __syncwarp();
  }
  if (lane == 0) tr[5] = gtime();
  const bool identity""", 1)
s = s.replace("""    store_bf16x8(pp.layer_input + tok * kHidden + d, out);
  }
}""", """    store_bf16x8(pp.layer_input + tok * kHidden + d, out);
  }
  __threadfence();
  if (lane == 0) tr[6] = gtime();
  if (lane == 0 && (unit == 0 || unit == kUnits - 1)) {
    const int w = threadIdx.x / 32;
    printf("TRACE unit %d warp %d: start %llu stored %llu b1 %llu sums %llu warrive %llu b2 %llu end %llu\\n", unit, w, tr[0],
           tr[1] ? tr[1] - tr[0] : 0, tr[2] ? tr[2] - tr[0] : 0, tr[3] ? tr[3] - tr[0] : 0, tr[4] ? tr[4] - tr[0] : 0,
           tr[5] - tr[0], tr[6] - tr[0]);
  }
}""", 1)
open(p, "w").write(s)
print("patched")
