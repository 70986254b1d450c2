# f4: the D = 7168 projection loads fn's operands a float4 per two k8 steps (16-byte loads, which the row stride
# 1796 = 4 mod 32 keeps on distinct banks) instead of a float2 per step (2-way bank conflicts: 2 wavefronts a load
# where 1 would do, 22 M of the projection's 59 M in session 27's source counters). The same values: the same bits.
p = 'csrc/cuda/mhc_tma_kernel.cuh'
s = open(p).read()
old = '''      float chain[kN][kNt][4] = {};
#pragma unroll
      for (int jj = 0; jj < 4; ++jj) {
        uint32_t a[kN][4], bh[kN][kNt][2], bl[kN][kNt][2];
#pragma unroll
        for (int i = 0; i < kN; ++i) {
#pragma unroll
          for (int nt = kNt0; nt < kNt1; ++nt) {
            const float2 f = nt * 8 + g < kRows ? *reinterpret_cast<const float2*>(
                                                      fn_lane + nt * 8 * fn_stride<7168>() + i * G::kDs + v * kStageD + 2 * jj)
                                                : make_float2(0.0f, 0.0f);
            pipeline_mhc::split_tf32(f.x, bh[i][nt][0], bl[i][nt][0]);
            pipeline_mhc::split_tf32(f.y, bh[i][nt][1], bl[i][nt][1]);
          }'''
new = '''      float chain[kN][kNt][4] = {};
      float4 f4[kN][kNt];  // fn's 4 d of two k8 steps a stream and row tile (one 16-byte load: distinct banks)
#pragma unroll
      for (int jj = 0; jj < 4; ++jj) {
        uint32_t a[kN][4], bh[kN][kNt][2], bl[kN][kNt][2];
#pragma unroll
        for (int i = 0; i < kN; ++i) {
#pragma unroll
          for (int nt = kNt0; nt < kNt1; ++nt) {
            if (jj % 2 == 0)
              f4[i][nt] = nt * 8 + g < kRows ? *reinterpret_cast<const float4*>(
                                                   fn_lane + nt * 8 * fn_stride<7168>() + i * G::kDs + v * kStageD + 2 * jj)
                                             : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            const float2 f = jj % 2 == 0 ? make_float2(f4[i][nt].x, f4[i][nt].y) : make_float2(f4[i][nt].z, f4[i][nt].w);
            pipeline_mhc::split_tf32(f.x, bh[i][nt][0], bl[i][nt][0]);
            pipeline_mhc::split_tf32(f.y, bh[i][nt][1], bl[i][nt][1]);
          }'''
assert s.count(old) == 1
s = s.replace(old, new)
s = s.replace("chain, the same bits. fn's rows are loaded a k8 step at a time: 2 d a stream and row tile.",
              "chain, the same bits. fn's rows are loaded two k8 steps at a time: 4 d a stream and row tile.")
open(p, 'w').write(s)
print("patched f4")
