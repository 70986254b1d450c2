# Knockouts of the D = 7168 TMA projection / ring collapse (timing only: the values are wrong), prepared in session 27
# for the next one: knockout_k_patch.py MODE, MODE one or more of (comma list):
#   kb: fn's B operands are constants (no LDS of fn, no hi / lo split) - the split's and fn loads' share of a stage;
#   ka: the A operands are the raw bf16 word pairs (no bf16 -> tf32 conversion);
#   kc: the ring collapse loads its words and releases the slot, no math, no stores (mhc_pre_delayed without the norm).
import sys
p = 'csrc/cuda/mhc_tma_kernel.cuh'
s = open(p).read()
modes = sys.argv[1].split(',')
def rep(old, new):
    global s
    assert s.count(old) == 1, old[:70]
    s = s.replace(old, new)
if 'kb' in modes:
    rep('''            pipeline_mhc::split_tf32(f.x, bh[i][nt][0], bl[i][nt][0]);
            pipeline_mhc::split_tf32(f.y, bh[i][nt][1], bl[i][nt][1]);''',
        '''            (void)f;
            bh[i][nt][0] = 0x3f800000u + 8 * jj + i, bl[i][nt][0] = 0x33800000u + nt;
            bh[i][nt][1] = 0x3f800000u + 8 * jj + i + 1, bl[i][nt][1] = 0x33800000u + nt + 1;''')
    rep('''            const float2 f = nt * 8 + g < kRows ? *reinterpret_cast<const float2*>(
                                                      fn_lane + nt * 8 * fn_stride<7168>() + i * G::kDs + v * kStageD + 2 * jj)
                                                : make_float2(0.0f, 0.0f);''', '''            const int f = 0;''')
if 'ka' in modes:
    rep('''          a[i][0] = pipeline_mhc::tf32_of(r[0][i], 2 * jj), a[i][1] = pipeline_mhc::tf32_of(r[1][i], 2 * jj);
          a[i][2] = pipeline_mhc::tf32_of(r[0][i], 2 * jj + 1), a[i][3] = pipeline_mhc::tf32_of(r[1][i], 2 * jj + 1);''',
        '''          a[i][0] = (&r[0][i].x)[jj], a[i][1] = (&r[1][i].x)[jj], a[i][2] = (&r[0][i].x)[jj] ^ 1u, a[i][3] = (&r[1][i].x)[jj] ^ 1u;''')
if 'kc' in modes:
    rep('''      float out[kH][8];
#pragma unroll
      for (int h = 0; h < kH; ++h) ring_collapse8(r[h], pre[h], identity, out[h]);
      __threadfence_block();  // the slot's loads performed before its release (gram_loop)
      __syncwarp();
      if (lane == 0) mbar_arrive(&ct.empty[slot]);
#pragma unroll
      for (int h = 0; h < kH; ++h) {
        const int64_t t = token(j, h);
        if (t < pp.tokens) store_bf16x8(pp.layer_input + t * kHidden + d0 + v * kStageD, out[h]);
      }''', '''      uint32_t dep = 0;
#pragma unroll
      for (int h = 0; h < kH; ++h)
#pragma unroll
        for (int i = 0; i < kN; ++i) dep ^= r[h][i].x ^ r[h][i].y ^ r[h][i].z ^ r[h][i].w;
      asm volatile("" ::"r"(dep) : "memory");
      __syncwarp();
      if (lane == 0) mbar_arrive(&ct.empty[slot]);
      (void)identity; (void)d0;''')
open(p, 'w').write(s)
print("patched", modes)
