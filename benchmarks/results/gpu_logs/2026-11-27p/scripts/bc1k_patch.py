# bc1k: D = 4096 fn staging by 96 bulk copies of 1 KB (a row and stream's 256 d, all 8 stages) into the parts'
# space (row n of stream i at (i * rows + n) * 1040 bytes: consecutive threads' 16-byte loads hit distinct banks),
# read back and split there (after a named barrier of the staging warps), instead of the threads' own loads.
p = 'csrc/cuda/mhc_tma_kernel.cuh'
s = open(p).read()
old = s[s.index("  constexpr int kBatch = 2;\n  for (int q0 = tid; q0 < kItems; q0 += kBatch * nthreads) {"):s.index("  asm volatile(\"fence.proxy.async.shared::cta;\\n\" ::: \"memory\");  // the generic stores, seen by wgmma\n}\n\n// D = 7168")]
new = '''  constexpr int kRowBytes = kDs * 4, kPitch = kRowBytes + 16;
  static_assert(kRows * kN * kPitch <= fn_bytes<M, 4096>(), "fn's fp32 rows fit where its parts go");
  constexpr int kBatch = (kItems + threads<M>() - 33) / (threads<M>() - 32);
  uint64_t* bar = &reinterpret_cast<Ctrl<M, false, 4096>*>(nullptr)->fn_full;  // placeholder, replaced below
  (void)bar;
  if (tid < 32) {
    if (tid == 0) mbar_arm(fn_bar, kRows * kN * kRowBytes);
    __syncwarp();
    for (int r = tid; r < kRows * kN; r += 32) {
      const int i = r / kRows, n = r % kRows;
      asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                       smem_u32(b_smem + r * kPitch)),
                   "l"(pp.fn + int64_t(n) * kN * kHidden + i * kHidden + rank * kDs), "r"(kRowBytes), "r"(smem_u32(fn_bar))
                   : "memory");
    }
  }
  mbar_wait(fn_bar, 0);
  uint4 v[kBatch][kStageD / 4];
#pragma unroll
  for (int b = 0; b < kBatch; ++b) {
    const int q = tid + b * nthreads, n = q % kRows, i = (q / kRows) % kN, st = q / (kRows * kN);
#pragma unroll
    for (int k = 0; k < kStageD / 4; ++k)
      v[b][k] = q < kItems ? ld_shared_v4(smem_u32(b_smem + (i * kRows + n) * kPitch + st * 128 + 16 * k)) : make_uint4(0, 0, 0, 0);
  }
  asm volatile("bar.sync 1, %0;" ::"r"(nthreads) : "memory");
#pragma unroll
  for (int b = 0; b < kBatch; ++b) {
    const int q = tid + b * nthreads, n = q % kRows, i = (q / kRows) % kN, st = q / (kRows * kN);
    if (q >= kItems) break;
    const float* f = reinterpret_cast<const float*>(v[b]);
#pragma unroll
    for (int u = 0; u < 2; ++u)
#pragma unroll
      for (int kh = 0; kh < 2; ++kh) {
        uint32_t w[4][3];
#pragma unroll
        for (int j = 0; j < 4; ++j) pipeline_mhc::split3_bf16x2(f[8 * j + 4 * u + 2 * kh], f[8 * j + 4 * u + 2 * kh + 1], w[j]);
        unsigned char* block = b_smem + b_block(st, i, u) * kBBlock + kh * 128;
        const auto row = [&](int col) { return reinterpret_cast<uint4*>(block + (col / 8) * 256 + (col % 8) * 16); };
#pragma unroll
        for (int part = 0; part < 3; ++part)
          *row(part * part_cols<M>() + n) = make_uint4(w[0][part], w[1][part], w[2][part], w[3][part]);
        if constexpr (3 * part_cols<M>() < cols<M>()) *row(3 * part_cols<M>() + n) = make_uint4(0, 0, 0, 0);
      }
  }
'''
new = new.replace('''  uint64_t* bar = &reinterpret_cast<Ctrl<M, false, 4096>*>(nullptr)->fn_full;  // placeholder, replaced below
  (void)bar;
''', '')
s = s.replace(old, new)
s = s.replace("__device__ __forceinline__ void stage_fn(const MhcPreParams& pp, int rank, unsigned char* b_smem, int tid,\n                                         int nthreads) {",
              "__device__ __forceinline__ void stage_fn(const MhcPreParams& pp, int rank, unsigned char* b_smem, uint64_t* fn_bar, int tid,\n                                         int nthreads) {")
s = s.replace("      stage_fn<M>(pp, rank, b_smem, threadIdx.x - 32, kThreads - 32);", "      stage_fn<M>(pp, rank, b_smem, &ct.fn_full, threadIdx.x - 32, kThreads - 32);")
# ld_shared_v4 before stage_fn
fn = '''__device__ __forceinline__ uint4 ld_shared_v4(uint32_t addr) {
  uint4 v;
  asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "r"(addr));
  return v;
}
'''
assert s.count(fn) == 1
s = s.replace(fn, '')
anchor = "// fn's slice as B blocks in the pipeline's k order"
s = s.replace(anchor, fn + "\n" + anchor)
s = s.replace("    if constexpr (G::kTf32) ct.progress[0] = ct.progress[1] = 0;\n      mbar_init_count(&ct.fn_full, 1);", "XX")
s = s.replace("""    if constexpr (G::kTf32) {
      ct.progress[0] = ct.progress[1] = 0;
      mbar_init_count(&ct.fn_full, 1);
    }""", """    mbar_init_count(&ct.fn_full, 1);
    if constexpr (G::kTf32) ct.progress[0] = ct.progress[1] = 0;""")
open(p, 'w').write(s)
print("bc1k patched")
