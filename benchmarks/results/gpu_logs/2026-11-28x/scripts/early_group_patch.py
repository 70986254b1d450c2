"""ew (session 24, on el): the two-group stream (slices of kLongSlice keys and more) issues its second group's loads
with the sample's, before the sample's pick, instead of after it: the pick (an exchange across the cluster, ~6 K
cycles in session 23's trace) then runs with a group in flight, and the stream starts with its first group landed."""
p = "csrc/cuda/topk.cu"
s = open(p).read()
def rep(old, new):
    global s
    assert s.count(old) == 1, old[:60]
    s = s.replace(old, new)
rep("""  float v[kStream];
  const auto load_into""", """  float v[kStream], w[kStream];
  const auto load_into""")
rep("""  load(0);
  if (kPrefetch > 0 && col_stride == 1)  // the next groups come in while the sample is picked
    for (uint32_t d = 1; d <= kPrefetch; ++d) prefetch_group<kStream>(slice, n, first, steps, d * kStream);
""", """  load(0);
  if (kPrefetch > 0 && col_stride == 1)  // the next groups come in while the sample is picked
    for (uint32_t d = 1; d <= kPrefetch; ++d) prefetch_group<kStream>(slice, n, first, steps, d * kStream);
  if (kTwoGroups && uint32_t(kStream) < steps) load_into(kStream, w);  // the stream's first group, in flight too
""")
rep("""    float w[kStream];
    if (uint32_t(kStream) < steps) load_into(kStream, w);
    take_group(0, v);""", """    take_group(0, v);""")
open(p, "w").write(s)
print("patched ew")
