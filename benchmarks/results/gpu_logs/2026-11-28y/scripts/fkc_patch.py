# fkc: rank_few_keys only in the clustered (decode) kernels
p='csrc/cuda/topk.cu'
s=open(p).read()
old="  if (pass < kTopkRadixPasses && sel.on_prefix != sel.remaining) rank_few_keys(walk, sel, sh, g);"
new="""  if constexpr (G::kClustered) {
    if (pass < kTopkRadixPasses && sel.on_prefix != sel.remaining) rank_few_keys(walk, sel, sh, g);
  } else {
    for (; pass < kTopkRadixPasses && sel.on_prefix != sel.remaining; ++pass) select_digit(walk, pass, sel, sh, g);
  }"""
assert old in s; s=s.replace(old,new,1)
old="  for (; pass < kTopkRadixPasses && sel.on_prefix != sel.remaining && sel.on_prefix > kFewKeys; ++pass)"
new="  for (; pass < kTopkRadixPasses && sel.on_prefix != sel.remaining && (!G::kClustered || sel.on_prefix > kFewKeys); ++pass)"
assert old in s; s=s.replace(old,new,1)
open(p,'w').write(s)
