f=csrc/cuda/mhc_pipeline_kernel.cuh
sed -i 's/  constexpr bool kPrefetch = E != Engine::kGlobalBf16 || has_post(M);/  constexpr bool kPrefetch = (E != Engine::kGlobalBf16 || has_post(M)) \&\& !(is_head(M) \&\& E == Engine::kBf16);/' $f
sed -i 's/  constexpr bool kEarly = early_collapse_loads<M, E, kWarps>();/  constexpr bool kEarly = early_collapse_loads<M, E, kWarps>() \&\& !(is_head(M) \&\& E == Engine::kBf16);/' $f
sed -i 's/__launch_bounds__(kWarps \* 32, 1) mhc_pipeline_kernel/__launch_bounds__(kWarps * 32, (is_head(M) \&\& E == Engine::kBf16) ? 2 : 1) mhc_pipeline_kernel/' $f
grep -c "is_head(M) && E == Engine::kBf16" $f
