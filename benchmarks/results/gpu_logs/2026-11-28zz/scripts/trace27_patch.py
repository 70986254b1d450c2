# Wait-cycle accounting for CTA 0 of the TMA kernel (tracing build only, timing of the waits, not of the kernel):
# g_w[warp][kind] += cycles spent in each wait; [3] = the warp's cycles from the PDL wait to its end.
# kind 0: a ring stage's full barrier (projection, ring / held collapse, post) or, for the producer, an empty slot;
# kind 1: the partials slot (push_tile's collapsed wait) or, for the producer, the load lag's collapsed wait;
# kind 2: a tile's weights (ring collapse's tile_done, held / re-read collapse) or the owners' partials.
p = 'csrc/cuda/mhc_tma_kernel.cuh'
s = open(p).read()
s = s.replace('namespace tma_mhc {\n', 'namespace tma_mhc {\n__device__ unsigned long long g_w[16][4];\n'
              '#define TW(kind, ...) do { const long long t0_ = clock64(); __VA_ARGS__; '
              'if (blockIdx.x == 0 && threadIdx.x % 32 == 0) atomicAdd(&g_w[threadIdx.x / 32][kind], '
              '(unsigned long long)(clock64() - t0_)); } while (0)\n', 1)
def seg(start, old, new):
    global s
    i = s.index(start)
    j = s.index(old, i)
    s = s[:j] + new + s[j + len(old):]
full = 'mbar_wait(pipeline_mhc::has_post(M) ? &ct.posted[slot] : &ct.full[slot], (it / kStages) & 1);'
seg('void project_tf32(', full, 'TW(0, ' + full[:-1] + ');')
seg('void mma_loop(', full, 'TW(0, ' + full[:-1] + ');')
seg('int free_partials_slot(', 'if (j >= kRing) mbar_wait(&ct.collapsed[s], ((j - kRing) / kRing) & 1);',
    'if (j >= kRing) TW(1, mbar_wait(&ct.collapsed[s], ((j - kRing) / kRing) & 1));')
seg('void owner_loop(', 'mbar_wait<2000>(&ct.partials_full[s], (j / kRing) & 1);',
    'TW(2, mbar_wait<2000>(&ct.partials_full[s], (j / kRing) & 1));')
seg('void ring_collapse_loop(', 'mbar_wait<1000>(&ct.weights_full[s], (j / kRing) & 1);',
    'TW(2, mbar_wait<1000>(&ct.weights_full[s], (j / kRing) & 1));')
seg('void ring_collapse_loop(', 'mbar_wait(&ct.full[slot], (it / kStages) & 1);',
    'TW(0, mbar_wait(&ct.full[slot], (it / kStages) & 1));')
seg('void collapse_loop(', 'mbar_wait<1000>(&ct.weights_full[s], (j / kRing) & 1);',
    'TW(2, mbar_wait<1000>(&ct.weights_full[s], (j / kRing) & 1));')
seg('void held_collapse_loop(', 'mbar_wait<1000>(&ct.weights_full[s], (j / kRing) & 1);',
    'TW(2, mbar_wait<1000>(&ct.weights_full[s], (j / kRing) & 1));')
seg('void held_collapse_loop(', full, 'TW(0, ' + full[:-1] + ');')
seg('void post_loop(', 'mbar_wait(&ct.full[slot], (it / kStages) & 1);', 'TW(0, mbar_wait(&ct.full[slot], (it / kStages) & 1));')
seg('const auto produce = [&](int it) {', 'mbar_wait<1000>(&ct.collapsed[(j - kLoadLag) % kRing], ((j - kLoadLag) / kRing) & 1);',
    'TW(1, mbar_wait<1000>(&ct.collapsed[(j - kLoadLag) % kRing], ((j - kLoadLag) / kRing) & 1));')
seg('const auto produce = [&](int it) {', 'if (it >= kStages) mbar_wait<1000>(&ct.empty[slot], ((it / kStages) & 1) ^ 1);',
    'if (it >= kStages) TW(0, mbar_wait<1000>(&ct.empty[slot], ((it / kStages) & 1) ^ 1));')
seg('  if (threadIdx.x != 0) pdl_wait();', '__syncthreads();\n', '__syncthreads();\n  const long long tstart_ = clock64();\n')
old = '  cluster.sync();  // no CTA leaves while its shared memory may still be written\n}'
new = ('  if (blockIdx.x == 0 && threadIdx.x % 32 == 0) g_w[threadIdx.x / 32][3] = clock64() - tstart_;\n'
       '  cluster.sync();  // no CTA leaves while its shared memory may still be written\n'
       '  if (blockIdx.x == 0 && threadIdx.x == 0) {\n'
       '    printf("TRACE M=%d norm=%d D=%d T=%lld ntiles=%d (Kcycles: warp total | waits k0 k1 k2)\\n", int(M), int(kNorm), kD, (long long)pp.tokens, ntiles);\n'
       '    for (int w = 0; w < 16; ++w) if (g_w[w][3]) printf("TRACE  w%2d total %8.1f  k0 %8.1f k1 %8.1f k2 %8.1f\\n", w, g_w[w][3] / 1e3, g_w[w][0] / 1e3, g_w[w][1] / 1e3, g_w[w][2] / 1e3);\n'
       '    for (int w = 0; w < 16; ++w) for (int k = 0; k < 4; ++k) g_w[w][k] = 0;\n'
       '  }\n}')
assert old in s
s = s.replace(old, new, 1)
open(p, 'w').write(s)
print("patched")
