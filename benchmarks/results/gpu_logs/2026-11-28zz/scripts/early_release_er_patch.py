# er: D = 7168's projection (project_tf32) and the ring collapse release a ring slot as soon as their words are in
# registers (every word an operand of an empty asm, then a CTA fence: the loads performed), not after the stage's
# mma chains / collapse math. Session 27's trace: the producer waits half the kernel for empty slots while the
# projection warps are busy 78-93 %, so a slot's lifetime is TMA latency + a whole stage's projection.
p = 'csrc/cuda/mhc_tma_kernel.cuh'
s = open(p).read()
def rep(old, new, count=1):
    global s
    assert s.count(old) == count, (old[:60], s.count(old))
    s = s.replace(old, new)
rep('''      uint4 r[2][kN];
      load_lane_words<7168>(stages_u32 + slot * G::kStageBytes, m0, lane, r);
''', '''      uint4 r[2][kN];
      load_lane_words<7168>(stages_u32 + slot * G::kStageBytes, m0, lane, r);
      release_when_loaded(r, &ct.empty[slot], lane);
''')
rep('''      __syncwarp();
      if (lane == 0) mbar_arrive(&ct.empty[slot]);  // the words are used: the slot may refill
#pragma unroll
      for (int q = 4 * kNt0; q < 4 * kNt1; ++q) acc[q] = v == 0 ? part[q] : acc[q] + part[q];''',
'''#pragma unroll
      for (int q = 4 * kNt0; q < 4 * kNt1; ++q) acc[q] = v == 0 ? part[q] : acc[q] + part[q];''')
rep('''#pragma unroll
      for (int h = 0; h < kH; ++h) load_row_chunk<kD>(stages_u32 + slot * kStageBytes, tid / 4 + 32 * h, c, r[h]);
      // The slot is released once the words are used (as the projection does), not right after
      // their loads were issued: that version gave one token a wrong stage, always a tile's last,
      // in about 1 of 10 runs at T = 901 .. 1500 (the next box landing before the loads read?);
      // this one none in 9 + 436 runs (benchmarks/NOTES.md).
      float out[kH][8];
#pragma unroll
      for (int h = 0; h < kH; ++h) ring_collapse8(r[h], pre[h], identity, out[h]);
      __threadfence_block();  // the slot's loads performed before its release (gram_loop)
      __syncwarp();
      if (lane == 0) mbar_arrive(&ct.empty[slot]);
''', '''#pragma unroll
      for (int h = 0; h < kH; ++h) load_row_chunk<kD>(stages_u32 + slot * kStageBytes, tid / 4 + 32 * h, c, r[h]);
      release_when_loaded(r, &ct.empty[slot], lane);
      float out[kH][8];
#pragma unroll
      for (int h = 0; h < kH; ++h) ring_collapse8(r[h], pre[h], identity, out[h]);
''')
rep('''// A tile's partials pushed once the ring slot is free.''', '''// A ring slot released as soon as this warp's words of it are in registers: every word is an operand before a CTA
// fence (the loads performed), then the warp's arrival. A release after the loads were only issued gave tokens
// another stage's words (benchmarks/NOTES.md, sessions 15 and 20).
template <int kH>
__device__ __forceinline__ void release_when_loaded(const uint4 (&r)[kH][kN], uint64_t* empty, int lane) {
  uint32_t dep = 0;
#pragma unroll
  for (int h = 0; h < kH; ++h)
#pragma unroll
    for (int i = 0; i < kN; ++i) dep ^= r[h][i].x ^ r[h][i].y ^ r[h][i].z ^ r[h][i].w;
  asm volatile("" ::"r"(dep) : "memory");
  __threadfence_block();
  __syncwarp();
  if (lane == 0) mbar_arrive(empty);
}

// A tile's partials pushed once the ring slot is free.''')
open(p, 'w').write(s)
print("patched er")
