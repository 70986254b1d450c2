"""ps0 (timing only, wrong values): the D = 4096 decode engine (kGlobalBf16) reads fn's three bf16 parts,
48 contiguous bytes a lane and chunk of 8 values, from a static zero buffer instead of loading fn's fp32
values and splitting them per use: what a pre-split copy of fn (bf16 parts beside the weight) would cost."""
p = "csrc/cuda/mhc_pipeline_kernel.cuh"
s = open(p).read()
old = """              split_bf16_parts(m < kRows ? pp.fn + m * k_total + i * hidden + d : nullptr, parts);"""
new = """              if (m < kRows) {
                const uint4* q = g_ps0_parts + ((m * k_total + i * hidden + d) / 8) * 3;
                parts[0] = __ldg(q), parts[1] = __ldg(q + 1), parts[2] = __ldg(q + 2);
              } else {
                parts[0] = parts[1] = parts[2] = make_uint4(0, 0, 0, 0);
              }"""
assert s.count(old) == 1
s = s.replace(old, new)
old = "// The three parts of 8 consecutive fp32 fn values"
new = "static __device__ uint4 g_ps0_parts[24 * 4 * 4096 * 3 / 8];  // ps0 timing only\n\n" + old
assert s.count(old) == 1
s = s.replace(old, new)
open(p, "w").write(s)
print("patched")
