"""Runs every CUDA op once at small sizes (vector and scalar paths, odd sizes, T = 0) for
compute-sanitizer: `compute-sanitizer --tool memcheck|racecheck python3 scripts/sanitize_ops.py`."""

import torch

import dsv4ext
from dsv4ext import ops


def main():
    dev = "cuda"
    gen = torch.Generator().manual_seed(0)
    # n = 4 with D % 256 == 0 takes the pipelined fast path: T = 300 has one tile per cluster at
    # D = 4096 (fn from L2) and several at D = 7168 (fn staged); T = 1100 at D = 4096: mhc_pre and
    # mhc_pre_delayed on the TMA kernel (a partial last tile), the other ops staged.
    for n, hidden, tokens in [(4, 512, 19), (4, 4096, 300), (4, 4096, 1100), (4, 7168, 300), (4, 64, 19), (3, 65, 5), (8, 24, 3),
                              (1, 7, 2), (4, 256, 0)]:
        m3 = n * (n + 2)
        r = torch.randn(tokens, n, hidden, generator=gen).bfloat16().to(dev)
        fn = (torch.randn(m3, n * hidden, generator=gen) / (n * hidden) ** 0.5).to(dev)
        sc, base = torch.randn(3, generator=gen).to(dev), torch.randn(m3, generator=gen).to(dev)
        w = torch.randn(hidden, generator=gen).bfloat16().to(dev)
        x = torch.randn(tokens, hidden, generator=gen).bfloat16().to(dev)
        post, comb = torch.rand(tokens, n, 1).to(dev), torch.rand(tokens, n, n).to(dev)
        pre_mix, fn_b = torch.rand(tokens, n).to(dev), fn[:, :hidden].contiguous()
        for norm in (None, w):
            ops.mhc_pre(r, fn, sc, base, norm_weight=norm)
            ops.mhc_fused_post_pre(x, r, post, comb, fn, sc, base, norm_weight=norm)
            # the delayed pre's entries: identity, carried, broadcast (x with fn of width D)
            ops.mhc_pre_delayed(r, fn, sc, base, norm_weight=norm)
            ops.mhc_pre_delayed(r, fn, sc, base, pre_mix=pre_mix, norm_weight=norm)
            ops.mhc_pre_delayed(r, fn_b, sc, base, x=x, norm_weight=norm)
            # DeepSeek-V4.1's seam: carried pre_mix, and stream 0 without one
            ops.mhc_fused_post_pre_delayed(x, r, post, comb, fn, sc, base, pre_mix=pre_mix, norm_weight=norm)
            ops.mhc_fused_post_pre_delayed(x, r, post, comb, fn, sc, base, norm_weight=norm)
        ops.mhc_post(x, r, post, comb)
        ops.hc_head(r, fn[:n], sc[:1], base[:n])
        for norm in (None, w):  # with the stash (streams_out; n = 4: the pipeline) and without
            for stash in (None, torch.empty_like(r)):
                ops.mhc_post_hc_head(x, r, post, comb, fn[:n], sc[:1], base[:n], norm_weight=norm, streams_out=stash)
        ops.sinkhorn(torch.randn(tokens, n, n).to(dev), 3, 1e-6)
    # Few wide rows take the cluster path (DSMEM), many rows the one-block path, rows up to 2048
    # columns one warp each (16, 32 or 64 keys a lane), up to 4096 two warps, up to 8192 (fewer
    # than 512 rows) four warps, else the six-block kernel (one warp picks); more rows than resident
    # warps walk with the next row in flight.
    for rows, width, k in [(6, 3000, 64), (3, 100, 128), (0, 10, 4), (2, 16384, 256), (520, 2100, 64),
                           (700, 2048, 512), (5, 1999, 700), (1700, 300, 32), (3000, 2048, 512),
                           (511, 8192, 1024), (6, 6000, 64), (512, 8000, 256)]:
        logits = torch.randn(rows, width).to(dev)
        starts = torch.randint(0, 50, (rows,), dtype=torch.int32).to(dev)
        ends = torch.randint(0, width, (rows,), dtype=torch.int32).to(dev)
        ops.top_k_per_row_prefill(logits, starts, ends, k)
        ops.top_k_per_row_decode(logits, 1, ends, k, deterministic=True)
    # Wide rows: the four-block 256-thread path (>= 512 rows, a few long windows so that the tools
    # stay quick) and decode clusters (40 rows). The comb rows put the large values outside the
    # sample (segments overflow: blocks walk their slices) or only inside it (fewer than k
    # candidates: the exact fallback); see test_sample_adversaries.
    for rows, width, k in [(512, 34817, 256), (40, 70000, 128)]:
        logits = torch.randn(rows, width)
        col = torch.arange(width) % (width // 16) < 512
        logits[1::97] = torch.where(col, logits[1::97], 1e3 + logits[1::97])
        logits[2::97] = torch.where(col, 1e3 + logits[2::97], logits[2::97])
        logits = logits.to(dev)
        ends = torch.randint(0, 300, (rows,), dtype=torch.int32)
        ends[::97] = ends[1::97] = ends[2::97] = width
        ends = ends.to(dev)
        ops.top_k_per_row_prefill(logits, torch.zeros_like(ends), ends, k)
        ops.top_k_per_row_decode(logits, 1, ends, k, deterministic=True)
    dense = torch.randint(0, 100, (300, 33), dtype=torch.int32).to(dev)
    lengths = torch.randint(-2, 40, (300,), dtype=torch.int32).to(dev)
    ops.ragged_pack(dense, lengths, torch.empty(300 * 33, dtype=torch.int32, device=dev),
                    torch.empty(301, dtype=torch.int32, device=dev), num_kv=50)
    torch.cuda.synchronize()
    print("sanitize_ops: all ops ran,", dsv4ext.__version__)


if __name__ == "__main__":
    main()
