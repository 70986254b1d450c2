"""hc_head's decode engine with two warps a stage: warp A the squares and the collapse, warp B the projection."""
p = "csrc/cuda/mhc_pipeline_kernel.cuh"
s = open(p).read()
a = '''    static_assert(kNTiles == 3, "two warps a stage: row block 0 and the squares, row blocks 1 and 2");
    const int stages = workers / 2;
    if (warp < stages)
      worker_loop<M, kNorm, E, kEarly, 0, 1, true>(p, sh, fn_s, csize, rank, workers, stages, cluster_id, clusters,
                                                     ntiles, identity);
    else if (warp < workers)
      worker_loop<M, kNorm, E, kEarly, 1, 3, false>(p, sh, fn_s, csize, rank, workers, stages, cluster_id, clusters,
                                                      ntiles, identity);'''
b = '''    static_assert(kNTiles == 3 || kNTiles == 1, "two warps a stage");
    // 24 rows: row block 0 and the squares / row blocks 1 and 2; hc_head: the squares / its row block.
    constexpr int kSplitRow = kNTiles == 3 ? 1 : 0;
    const int stages = workers / 2;
    if (warp < stages)
      worker_loop<M, kNorm, E, kEarly, 0, kSplitRow, true>(p, sh, fn_s, csize, rank, workers, stages, cluster_id,
                                                             clusters, ntiles, identity);
    else if (warp < workers)
      worker_loop<M, kNorm, E, kEarly, kSplitRow, kNTiles, false>(p, sh, fn_s, csize, rank, workers, stages,
                                                                    cluster_id, clusters, ntiles, identity);'''
assert a in s
s = s.replace(a, b)
a = '''  constexpr bool kSplit = proj_rows<M>() == 24 && !has_post(M);'''
b = '''  constexpr bool kSplit = (proj_rows<M>() == 24 && !has_post(M)) || M == Mode::kHead;'''
assert a in s
s = s.replace(a, b)
open(p, "w").write(s)
print("patched")
s = open(p).read()
a = '''  constexpr bool kAllRows = kNt0 == 0 && kNt1 == kNTiles;  // one warp a stage
  const int warp = kAllRows ? int(threadIdx.x / 32) : int(threadIdx.x / 32) % stages;  // the stage: 32 d'''
b = '''  const int warp = int(threadIdx.x / 32) % stages;  // the stage: 32 d (stages == workers: one warp a stage)'''
assert a in s
s = s.replace(a, b)
open(p, "w").write(s)
print("patched 2")
