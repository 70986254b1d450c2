"""Experimental build xb (session 26, not for main): the prefill dispatcher's 256-thread kernels (rows >= 512) take
their blocks an SM from DSV4EXT_XB = 10 * (blocks for rows of <= 8192 columns) + (blocks for wider rows), each 4, 5
or 6 (main: 64). The block count also sets the kernel's stream (16 loads a lane at four blocks, 8 with two groups
prefetched into L2 above), its candidate buffer (5632 at four blocks, 3328 above) and its pick (one warp from six
blocks). Run in the tree's root."""
import re
path = "csrc/cuda/topk.cu"
src = open(path).read()
old = """  if (p.rows >= 512)
    return p.width > 8192 ? launch<256, false, 4>(p, 1, device, s) : launch<256, false>(p, 1, device, s);
"""
new = """  if (p.rows >= 512) {
    static const int xb = [] { const char* e = std::getenv("DSV4EXT_XB"); return e ? std::atoi(e) : 64; }();
    const int b = p.width > 8192 ? xb % 10 : xb / 10;
    if (b == 4) return launch<256, false, 4>(p, 1, device, s);
    if (b == 5) return launch<256, false, 5>(p, 1, device, s);
    return launch<256, false, 6>(p, 1, device, s);
  }
"""
assert src.count(old) == 1
src = src.replace(old, new).replace("#include <algorithm>\n", "#include <algorithm>\n#include <cstdlib>\n", 1)
open(path, "w").write(src)
