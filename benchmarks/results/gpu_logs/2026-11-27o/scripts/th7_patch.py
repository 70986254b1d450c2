p='csrc/cuda/mhc_tma_kernel.cuh'
s=open(p).read()
s=s.replace("  const int64_t min_tokens = M == Mode::kHead ? kHeadMinTokens : kMinTokens;",
 "  const int64_t min_tokens = pp.hidden == 7168 ? (M == Mode::kHead ? 1024 : 512) : M == Mode::kHead ? kHeadMinTokens : kMinTokens;")
s=s.replace("(pp.hidden != 4096 && pp.hidden != 7168) || pp.tokens < kFusedHeadMinTokens ||",
 "(pp.hidden != 4096 && pp.hidden != 7168) || pp.tokens < (pp.hidden == 7168 ? 1024 : kFusedHeadMinTokens) ||")
open(p,'w').write(s)
