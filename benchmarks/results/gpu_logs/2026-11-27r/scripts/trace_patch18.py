# %globaltimer stamps of every CTA of the pipeline kernel (tracing build only; uncommitted), for the decode calls:
# g_ts[call][cta][k], k: 0 entry, 1 after the PDL wait, 2 worker 0's tile loaded and posted, 3 worker 0 pushed the
# partials, 4 owner warp 0 has its partials, 5 owner warp 0 pushed the weights, 6 worker 0 has the weights, 7 worker
# 0 stored the collapse, 8 the CTA's last warp done (max). A call with T = 3 prints every stored call's stamps.
p = 'csrc/cuda/mhc_pipeline_kernel.cuh'
s = open(p).read()
def ins_after(anchor, code):
    global s
    assert s.count(anchor) == 1, anchor
    i = s.index(anchor) + len(anchor)
    s = s[:i] + code + s[i:]
def ins_before(anchor, code):
    global s
    assert s.count(anchor) == 1, anchor
    i = s.index(anchor)
    s = s[:i] + code + s[i:]
ins_after('namespace pipeline_mhc {\n', '__device__ unsigned long long g_ts[8][128][9];\n__device__ int g_cnt[128];\n'
          '__shared__ int g_tr_call;\n'
          '__device__ __forceinline__ unsigned long long gtime() { unsigned long long t; asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t)); return t; }\n'
          '#define TS(k) do { if (blockIdx.x < 128) g_ts[g_tr_call & 7][blockIdx.x][k] = gtime(); } while (0)\n')
ins_after('    mbar_wait<2000>(&sh.partials_full[s], (j / kRing) & 1);\n', '    if (owner == 0 && lane == 0 && j == 0) TS(4);\n')
ins_after('        st_async(dst + 16, make_float4(norm_scale, 0.0f, 0.0f, 0.0f), bar);\n      }\n',
          '      if (owner == 0 && lane == 0 && j == 0 && local == 0) TS(5);\n')
ins_after('      apply_post<M>(p, tm, tile, d, g, cur);\n', '      if (threadIdx.x == 0 && j == 0) TS(2);\n')
ins_after('      workers_sync(workers);  // warp_part is rewritten by the next tile\n', '      if (threadIdx.x == 0 && j == 0) TS(3);\n')
ins_after('      mbar_wait(&sh.weights_full[s], (jc / kRing) & 1);\n', '      if (threadIdx.x == 0 && jc == 0) TS(6);\n')
ins_before('      // Re-arm after this thread\'s own wait: the next phase\'s bytes', '      if (threadIdx.x == 0 && jc == 0) TS(7);\n')
ins_before('  pdl_trigger();\n  if (threadIdx.x == 0) {\n    for (int s = 0; s < kRing; ++s) {',
           '  const unsigned long long t_entry = gtime();\n  if (threadIdx.x == 0) g_tr_call = atomicAdd(&g_cnt[blockIdx.x % 128], 1);\n')
ins_after('  pdl_wait();  // before the first access to what the previous kernel wrote\n',
          '  if (threadIdx.x == 0) { TS(1); g_ts[g_tr_call & 7][blockIdx.x % 128][0] = t_entry; }\n')
ins_before('  // No exit barrier: the only accesses',
           '  if (threadIdx.x % 32 == 0) atomicMax(&g_ts[g_tr_call & 7][blockIdx.x % 128][8], gtime());\n'
           '  if (pp.tokens == 3 && blockIdx.x == 0 && threadIdx.x == 0) {\n'
           '    const int n = g_tr_call < 8 ? g_tr_call : 8;\n'
           '    for (int c = 0; c < n; ++c) for (int b = 0; b < 128; ++b) if (g_ts[c][b][0])\n'
           '      printf("TS %d %d %llu %llu %llu %llu %llu %llu %llu %llu %llu\\n", c, b, g_ts[c][b][0], g_ts[c][b][1], g_ts[c][b][2], g_ts[c][b][3], g_ts[c][b][4], g_ts[c][b][5], g_ts[c][b][6], g_ts[c][b][7], g_ts[c][b][8]);\n'
           '    for (int b = 0; b < 128; ++b) { g_cnt[b] = 0; for (int c = 0; c < 8; ++c) for (int k = 0; k < 9; ++k) g_ts[c][b][k] = 0; }\n'
           '  }\n')
open(p, 'w').write(s)
print("patched")
