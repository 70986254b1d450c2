# Session 17: trace_patch16.py brought to the staging before the PDL wait, with three stamps in the fused seam's post
# warpgroup (thread 384): [8] post_loop entered, [9] the first stage's boxes landed (full[0]), [10] the first stage
# posted. %globaltimer stamps of every CTA of the TMA kernel (tracing build only), to see where a call's fixed ~10-18 us go:
# g_ts[call][cta][k], k: 0 entry, 1 after the PDL wait, 2 fn staged (__syncthreads), 3 the projection's first stage
# landed (warp 4, D = 4096), 4 the producer's last copy issued, 5 the projection's last push (warp 4), 6 the last
# warp's end (max), 7 after the exit cluster barrier. A call with T = 4033 prints every stored call's stamps.
p = 'csrc/cuda/mhc_tma_kernel.cuh'
s = open(p).read()
def rep(old, new, start=None, count=1):
    global s
    i = s.index(start) if start else 0
    j = s.index(old, i)
    s = s[:j] + new + s[j + len(old):]
rep('namespace tma_mhc {\n', 'namespace tma_mhc {\n__device__ unsigned long long g_ts[8][160][11];\n__device__ int g_cnt[160];\n'
    '__device__ __forceinline__ unsigned long long gtime() { unsigned long long t; asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t)); return t; }\n')
# the projection warp 4 (D = 4096): first stage landed, last push
rep('      mbar_wait(pipeline_mhc::has_post(M) ? &ct.posted[slot] : &ct.full[slot], (it / kStages) & 1);\n      uint4 r[2][kN];\n      load_lane_words<4096>',
    '      mbar_wait(pipeline_mhc::has_post(M) ? &ct.posted[slot] : &ct.full[slot], (it / kStages) & 1);\n'
    '      if (it == 0 && threadIdx.x == 128) g_ts[ct.call & 7][blockIdx.x][3] = gtime();\n      uint4 r[2][kN];\n      load_lane_words<4096>')
rep('    push_tile(ct, rank, j, 16 * wi, acc, sq, lane);\n  }\n}', '    push_tile(ct, rank, j, 16 * wi, acc, sq, lane);\n  }\n'
    '  if (threadIdx.x == 128) g_ts[ct.call & 7][blockIdx.x][5] = gtime();\n}')
# D = 7168: fn's slice landed (the projection's wait for the bulk copies), as stamp 3
rep('  mbar_wait(&ct.fn_full, 0);  // fn\'s slice (one phase)\n', '  mbar_wait(&ct.fn_full, 0);  // fn\'s slice (one phase)\n'
    '  if (threadIdx.x == 128) g_ts[ct.call & 7][blockIdx.x][3] = gtime();\n')
# Ctrl gets the call index
rep('  int progress[2];\n', '  int progress[2];\n  int call;\n', 'struct alignas(16) Ctrl')
rep('(pipeline_mhc::has_post(M) ? 21 : 24)', '(pipeline_mhc::has_post(M) ? 21 : 23)')  # room for `call` (hc_head, D = 7168)
rep('  pdl_trigger();\n  if (threadIdx.x == 0) {\n', '  pdl_trigger();\n  const unsigned long long t_entry = gtime();\n  if (threadIdx.x == 0) {\n    ct.call = atomicAdd(&g_cnt[blockIdx.x], 1);\n')
rep('  if (threadIdx.x == 0) {\n    pdl_wait();\n', '  if (threadIdx.x == 0) {\n    pdl_wait();\n    g_ts[ct.call & 7][blockIdx.x][0] = t_entry; g_ts[ct.call & 7][blockIdx.x][1] = gtime();\n')
# the post warpgroup (fused seam): entry, first stage landed, first stage posted
rep('  float mix[kH][kMix], next[kH][kMix];\n  load_mix(0, mix);\n', '  float mix[kH][kMix], next[kH][kMix];\n  if (threadIdx.x == 384) g_ts[ct.call & 7][blockIdx.x][8] = gtime();\n  load_mix(0, mix);\n')
rep('      const int it = j * kSteps + v, slot = it % kStages, xslot = it % kXSlots;\n      mbar_wait(&ct.full[slot], (it / kStages) & 1);\n',
    '      const int it = j * kSteps + v, slot = it % kStages, xslot = it % kXSlots;\n      mbar_wait(&ct.full[slot], (it / kStages) & 1);\n      if (it == 0 && threadIdx.x == 384) g_ts[ct.call & 7][blockIdx.x][9] = gtime();\n')
rep('      mbar_arrive(&ct.posted[slot]);\n    }\n', '      mbar_arrive(&ct.posted[slot]);\n      if (it == 0 && threadIdx.x == 384) g_ts[ct.call & 7][blockIdx.x][10] = gtime();\n    }\n')
rep('  __syncthreads();\n  // Registers by warpgroup', '  __syncthreads();\n  if (threadIdx.x == 0) g_ts[ct.call & 7][blockIdx.x][2] = gtime();\n  // Registers by warpgroup')
rep('        for (int it = early; it < stages_total; ++it) produce(it);\n', '        for (int it = early; it < stages_total; ++it) produce(it);\n'
    '      if (threadIdx.x == 0) g_ts[ct.call & 7][blockIdx.x][4] = gtime();\n')
old = '  cluster.sync();  // no CTA leaves while its shared memory may still be written\n}'
new = ('  if (threadIdx.x % 32 == 0) atomicMax(&g_ts[ct.call & 7][blockIdx.x][6], gtime());\n'
       '  cluster.sync();  // no CTA leaves while its shared memory may still be written\n'
       '  if (threadIdx.x == 0) g_ts[ct.call & 7][blockIdx.x][7] = gtime();\n'
       '  if (pp.tokens == 4033 && blockIdx.x == 0 && threadIdx.x == 0) {\n'
       '    const int n = ct.call < 8 ? ct.call : 8;\n'
       '    for (int c = 0; c < n; ++c) for (int b = 0; b < gridDim.x; ++b)\n'
       '      printf("TS %d %d %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu\\n", c, b, g_ts[c][b][0], g_ts[c][b][1], g_ts[c][b][2], g_ts[c][b][3], g_ts[c][b][4], g_ts[c][b][5], g_ts[c][b][6], g_ts[c][b][7], g_ts[c][b][8], g_ts[c][b][9], g_ts[c][b][10]);\n'
       '    for (int b = 0; b < 160; ++b) { g_cnt[b] = 0; for (int c = 0; c < 8; ++c) for (int k = 0; k < 11; ++k) g_ts[c][b][k] = 0; }\n'
       '  }\n}')
assert old in s
s = s.replace(old, new, 1)
open(p, 'w').write(s)
print("patched")
