# Stamps inside the D = 4096 staging (apply after trace_patch16.py): g_ts[..][8] the first item split (its loads
# back), [9] every item's parts stored, [10] after the proxy fence; thread 32 (warp 1 lane 0) of every CTA.
p = 'csrc/cuda/mhc_tma_kernel.cuh'
s = open(p).read()
s = s.replace('__device__ unsigned long long g_ts[8][160][8];', '__device__ unsigned long long g_ts[8][160][11];')
i = s.index('__device__ __forceinline__ void stage_fn(')
j = s.index('asm volatile("fence.proxy.async.shared::cta;\\n" ::: "memory");  // the generic stores, seen by wgmma\n}', i)
body = s[i:j]
old = "      const float* f = reinterpret_cast<const float*>(v[b]);\n"
assert old in body
body = body.replace(old, old + "      if (b == 1 && tid == 0) stamp(8);\n", 1)
old2 = "  for (int q0 = tid; q0 < kItems; q0 += kBatch * nthreads) {"
assert old2 in body
body = body.replace("__device__ __forceinline__ void stage_fn(const MhcPreParams& pp, int rank, unsigned char* b_smem, int tid,\n                                         int nthreads) {",
                    "template <typename Stamp>\n__device__ __forceinline__ void stage_fn(const MhcPreParams& pp, int rank, unsigned char* b_smem, int tid,\n                                         int nthreads, Stamp stamp) {")
s = s[:i] + body + 'if (tid == 0) stamp(9);\n  asm volatile("fence.proxy.async.shared::cta;\\n" ::: "memory");  // the generic stores, seen by wgmma\n  if (tid == 0) stamp(10);\n}' + s[j + len('asm volatile("fence.proxy.async.shared::cta;\\n" ::: "memory");  // the generic stores, seen by wgmma\n}'):]
# the template line for Mode M sits above: stage_fn is template <Mode M>; make it template <Mode M, typename Stamp>
s = s.replace("template <Mode M>\ntemplate <typename Stamp>\n__device__ __forceinline__ void stage_fn(", "template <Mode M, typename Stamp>\n__device__ __forceinline__ void stage_fn(")
old3 = "      stage_fn<M>(pp, rank, b_smem, threadIdx.x - 32, kThreads - 32);"
assert old3 in s
s = s.replace(old3, "      stage_fn<M>(pp, rank, b_smem, threadIdx.x - 32, kThreads - 32, [&](int k) { g_ts[ct.call & 7][blockIdx.x][k] = gtime(); });")
s = s.replace('printf("TS %d %d %llu %llu %llu %llu %llu %llu %llu %llu\\n", c, b, g_ts[c][b][0], g_ts[c][b][1], g_ts[c][b][2], g_ts[c][b][3], g_ts[c][b][4], g_ts[c][b][5], g_ts[c][b][6], g_ts[c][b][7]);',
              'printf("TS %d %d %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu\\n", c, b, g_ts[c][b][0], g_ts[c][b][1], g_ts[c][b][2], g_ts[c][b][3], g_ts[c][b][4], g_ts[c][b][5], g_ts[c][b][6], g_ts[c][b][7], g_ts[c][b][8], g_ts[c][b][9], g_ts[c][b][10]);')
s = s.replace('for (int k = 0; k < 8; ++k) g_ts[c][b][k] = 0;', 'for (int k = 0; k < 11; ++k) g_ts[c][b][k] = 0;')
open(p, 'w').write(s)
print("patched b")
