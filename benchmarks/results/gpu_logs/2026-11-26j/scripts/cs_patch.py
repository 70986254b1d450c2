p='csrc/cuda/mhc_pipeline_kernel.cuh'
s=open(p).read()
old='''__device__ __forceinline__ void split_bf16_parts(const float* src, uint4 (&parts)[3]) {
  float f[8] = {};
  if (src != nullptr) {
    const float4 lo4 = __ldg(reinterpret_cast<const float4*>(src));
    const float4 hi4 = __ldg(reinterpret_cast<const float4*>(src + 4));'''
new='''__device__ __forceinline__ void split_bf16_parts(const float* src, uint4 (&parts)[3]) {
  float f[8] = {};
  if (src != nullptr) {
    const float4 lo4 = *reinterpret_cast<const float4*>(src);
    const float4 hi4 = *reinterpret_cast<const float4*>(src + 4);'''
assert old in s; s=s.replace(old,new,1)
old='''  return E == Engine::kGlobal || E == Engine::kGlobalBf16 ? 0
         : E == Engine::kTf32 ? size_t(proj_rows<M>()) * staged_row_stride<E>(d_slice) * sizeof(float)
                              : 3 * size_t(kRowsPad) * staged_row_stride<E>(d_slice) * sizeof(bf16);
}'''
new='''  return E == Engine::kGlobal ? 0
         : E == Engine::kTf32 || E == Engine::kGlobalBf16
             ? size_t(proj_rows<M>()) * staged_row_stride<E>(d_slice) * sizeof(float)
             : 3 * size_t(kRowsPad) * staged_row_stride<E>(d_slice) * sizeof(bf16);
}
template <Mode M>
__device__ __forceinline__ void fn_copy_issue(const MhcPreParams& pp, const float* fn_s, int rank, int workers) {
  constexpr int kRows = proj_rows<M>(), kChunks = kBf16Slice / 4;
  const int64_t hidden = pp.hidden, k_total = int64_t(kN) * hidden;
  const int stride = staged_row_stride<Engine::kGlobalBf16>(kBf16Slice);
  for (int q = threadIdx.x; q < kRows * kN * kChunks; q += workers * 32) {
    const int m = q / (kN * kChunks), i = (q / kChunks) % kN, dl = 4 * (q % kChunks);
    const float* src = pp.fn + m * k_total + i * hidden + int64_t(rank) * kBf16Slice + dl;
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(smem_u32(fn_s + m * stride + i * kBf16Slice + dl)),
                 "l"(src)
                 : "memory");
  }
  asm volatile("cp.async.commit_group;" ::: "memory");
}'''
assert old in s; s=s.replace(old,new,1)
old='''  TileLoad<M> next;
  if (ntiles > 0) load_tile<M>(p, first_tile, d, g, next);'''
new='''  TileLoad<M> next;
  if constexpr (E == Engine::kGlobalBf16) fn_copy_issue<M>(pp, fn_s, rank, workers);
  if (ntiles > 0) load_tile<M>(p, first_tile, d, g, next);
  if constexpr (E == Engine::kGlobalBf16) {
    asm volatile("cp.async.wait_all;" ::: "memory");
    workers_sync(workers);
    if (warp == 0 && lane == 0) TR(17);
  }'''
assert old in s; s=s.replace(old,new,1)
old='''              split_bf16_parts(m < kRows ? pp.fn + m * k_total + i * hidden + d : nullptr, parts);'''
new='''              split_bf16_parts(m < kRows ? fn_s + m * fn_stride + i * d_slice + warp * kWarpD + 8 * c : nullptr, parts);'''
assert old in s; s=s.replace(old,new,1)
old='''  const int64_t resident = max_clusters(streamed, sizeof(Sh));'''
new='''  const size_t streamed_smem = sizeof(Sh) + (staged_bf16 ? staged_bytes<M, Engine::kGlobalBf16>(d_slice) : 0);
  const int64_t resident = max_clusters(streamed, streamed_smem);'''
assert old in s; s=s.replace(old,new,1)
old='''  return resident > 0 ? run(streamed, sizeof(Sh), resident) : -1;'''
new='''  return resident > 0 ? run(streamed, streamed_smem, resident) : -1;'''
assert old in s; s=s.replace(old,new,1)
open(p,'w').write(s)
