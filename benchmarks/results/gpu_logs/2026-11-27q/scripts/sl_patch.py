#!/usr/bin/env python3
"""Session 17 variant sl: the D = 4096 staging as a rolled loop over a thread's items (one item's split and stores
in the body, the next item's loads issued before it), so that its code is fetched once and then runs from the
instruction cache; the unrolled version is ~850 instructions a thread of straight-line code that runs once a call."""
import pathlib

p = pathlib.Path("csrc/cuda/mhc_tma_kernel.cuh")
s = p.read_text()
i = s.index("  constexpr int kItems = kRows * kN * G::kSteps;  // (n, i, v)\n  constexpr int kBatch = 2;")
j = s.index('  asm volatile("fence.proxy.async.shared::cta;\\n" ::: "memory");  // the generic stores, seen by wgmma')
new = """  constexpr int kItems = kRows * kN * G::kSteps;  // (n, i, v)
  const auto load = [&](int q, float4 (&v)[kStageD / 4]) {
    const int n = q % kRows, i = (q / kRows) % kN, st = q / (kRows * kN);
    const float4* src =
        reinterpret_cast<const float4*>(pp.fn + int64_t(n) * kN * kHidden + i * kHidden + rank * kDs + st * kStageD);
#pragma unroll
    for (int k = 0; k < kStageD / 4; ++k) v[k] = q < kItems ? __ldg(src + k) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  };
  float4 cur[kStageD / 4];
  load(tid, cur);
#pragma unroll 1
  for (int q = tid; q < kItems; q += nthreads) {
    float4 nxt[kStageD / 4];
    load(q + nthreads, nxt);  // in flight while this item is split
    const int n = q % kRows, i = (q / kRows) % kN, st = q / (kRows * kN);
    const float* f = reinterpret_cast<const float*>(cur);
#pragma unroll
    for (int u = 0; u < 2; ++u)
#pragma unroll
      for (int kh = 0; kh < 2; ++kh) {
        uint32_t w[4][3];  // bf16 pair j of each part: d 8 j + 4 u + 2 kh and the next
#pragma unroll
        for (int jj = 0; jj < 4; ++jj)
          pipeline_mhc::split3_bf16x2(f[8 * jj + 4 * u + 2 * kh], f[8 * jj + 4 * u + 2 * kh + 1], w[jj]);
        unsigned char* block = b_smem + b_block(st, i, u) * kBBlock + kh * 128;
        const auto row = [&](int col) { return reinterpret_cast<uint4*>(block + (col / 8) * 256 + (col % 8) * 16); };
#pragma unroll
        for (int part = 0; part < 3; ++part)
          *row(part * part_cols<M>() + n) = make_uint4(w[0][part], w[1][part], w[2][part], w[3][part]);
        if constexpr (3 * part_cols<M>() < cols<M>()) *row(3 * part_cols<M>() + n) = make_uint4(0, 0, 0, 0);
      }
#pragma unroll
    for (int k = 0; k < kStageD / 4; ++k) cur[k] = nxt[k];
  }
"""
p.write_text(s[:i] + new + s[j:])
print("patched sl")
