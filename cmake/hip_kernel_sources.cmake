# The HIP kernels and launchers: the ROCm build (cmake/hip_sources.cmake) and the HIP CPU runtime
# test build (tests/cpp/hip_cpu) compile this one list.
set(DSV4EXT_HIP_KERNEL_SOURCES
  ${PROJECT_SOURCE_DIR}/csrc/hip/hc_head.hip
  ${PROJECT_SOURCE_DIR}/csrc/hip/mhc_fused_post_pre.hip
  ${PROJECT_SOURCE_DIR}/csrc/hip/mhc_fused_post_pre_delayed.hip
  ${PROJECT_SOURCE_DIR}/csrc/hip/mhc_post.hip
  ${PROJECT_SOURCE_DIR}/csrc/hip/mhc_post_hc_head.hip
  ${PROJECT_SOURCE_DIR}/csrc/hip/mhc_pre.hip
  ${PROJECT_SOURCE_DIR}/csrc/hip/mhc_pre_delayed.hip
  ${PROJECT_SOURCE_DIR}/csrc/hip/ragged_pack.hip
  ${PROJECT_SOURCE_DIR}/csrc/hip/sinkhorn.hip
  ${PROJECT_SOURCE_DIR}/csrc/hip/topk.hip)
