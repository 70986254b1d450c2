# The CUDA backend: torch-free kernels and launchers, SASS for DSV4EXT_CUDA_ARCHS (default 90a).
add_library(dsv4ext_cuda STATIC
  csrc/cuda/device_info.cu
  csrc/cuda/hc_head.cu
  csrc/cuda/mhc_fused_post_pre.cu
  csrc/cuda/mhc_fused_post_pre_delayed.cu
  csrc/cuda/mhc_post.cu
  csrc/cuda/mhc_post_hc_head.cu
  csrc/cuda/mhc_pre.cu
  csrc/cuda/mhc_pre_delayed.cu
  csrc/cuda/ragged_pack.cu
  csrc/cuda/sinkhorn.cu
  csrc/cuda/topk.cu
  csrc/cuda/topk_warp_rows.cu)
set_target_properties(dsv4ext_cuda PROPERTIES CUDA_ARCHITECTURES "${DSV4EXT_CUDA_ARCHS}"
                                              CUDA_SEPARABLE_COMPILATION OFF)
target_compile_options(dsv4ext_cuda PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr -Xptxas=-v
                                             --threads=1 -lineinfo>)
target_link_libraries(dsv4ext_cuda PUBLIC CUDA::cudart_static)
