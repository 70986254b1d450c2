import re
p='csrc/cuda/mhc_pipeline_kernel.cuh'
s=open(p).read()
def ins_after(line_sub, code, count=1):
    global s
    i=s.index(line_sub); j=s.index('\n',i)+1
    s=s[:j]+code+'\n'+s[j:]
s=s.replace('namespace pipeline_mhc {\n','namespace pipeline_mhc {\n__device__ unsigned long long g_tr[16];\n#define TR(k) do { if (blockIdx.x == 0) g_tr[k] = clock64(); } while (0)\n',1)
ins_after('    mbar_wait<2000>(&sh.partials_full[s], (j / kRing) & 1);','    if (lane == 0 && j == 0) TR(4);')
ins_after('        st_async(dst + 16, make_float4(norm_scale, 0.0f, 0.0f, 0.0f), bar);','      }\n      if (lane == 0 && j == 0 && local == 0) TR(5);\n      {')
ins_after('      if constexpr (!is_head(M)) owner_mixes<M>(pp, da, sums, sum_sq, t, lane);','      if (lane == 0 && j == 0 && local == 0) TR(6);')
ins_after('      tile_squares<kNorm, bf16_parts(E)>(cur.r, g, sq);','      if (warp == 0 && lane == 0 && j == 0) TR(2);')
ins_after('      workers_sync(workers);  // warp_part is rewritten by the next tile','      if (warp == 0 && lane == 0 && j == 0) TR(3);')
ins_after('      mbar_wait(&sh.weights_full[s], (jc / kRing) & 1);','      if (warp == 0 && lane == 0 && jc == 0) TR(7);')
i=s.index('        if (t < pp.tokens) store_bf16x8(pp.layer_input + t * hidden + d, out);'); j=s.index('      }\n',i)+len('      }\n')
s=s[:j]+'      if (warp == 0 && lane == 0 && jc == 0) TR(8);\n'+s[j:]
s=s.replace('  pdl_trigger();\n  if (threadIdx.x == 0) {\n    for (int s = 0; s < kRing; ++s) {','  if (threadIdx.x == 0) TR(0);\n  pdl_trigger();\n  if (threadIdx.x == 0) {\n    for (int s = 0; s < kRing; ++s) {',1)
s=s.replace('  cluster.sync();  // every CTA\'s barriers are initialised before anyone pushes\n  pdl_wait();\n','  cluster.sync();  // every CTA\'s barriers are initialised before anyone pushes\n  if (threadIdx.x == 0) TR(9);\n  pdl_wait();\n  if (threadIdx.x == 0) TR(1);\n',1)
s=s.replace('  // slots\' mbarriers) before it got here. The barrier cost every decode call ~0.7 us of release\n  // fences and waiting for the slowest CTA.\n}','  if (threadIdx.x == 0) TR(10);\n  if (threadIdx.x == 0 && blockIdx.x == 0) { TR(11); printf("TRACE T=%lld wait %lld proj %lld pushed %lld owner_in %lld wpush %lld mixes %lld w_in %lld coll %lld preexit %lld exit %lld setup %lld\\n", (long long)pp.tokens, g_tr[1]-g_tr[0], g_tr[2]-g_tr[1], g_tr[3]-g_tr[1], g_tr[4]-g_tr[1], g_tr[5]-g_tr[1], g_tr[6]-g_tr[1], g_tr[7]-g_tr[1], g_tr[8]-g_tr[1], g_tr[10]-g_tr[1], g_tr[11]-g_tr[1], g_tr[9]-g_tr[0]); }\n}',1)
assert 'TRACE T=' in s
open(p,'w').write(s)
