# The HIP backend: torch-free kernels and launchers, one code object per arch in DSV4EXT_HIP_ARCHS
# (default gfx942;gfx950). The kernels are written for -nogpulib (ids and barriers from
# __builtin_amdgcn_*, no ockl/ocml), so no ROCm device libraries are needed; CI compiles and
# ISA-checks the same sources with the same flags (scripts/hip_isa_check.py).
include(cmake/hip_kernel_sources.cmake)
add_library(dsv4ext_hip STATIC csrc/hip/device_info.hip ${DSV4EXT_HIP_KERNEL_SOURCES})
set_target_properties(dsv4ext_hip PROPERTIES HIP_ARCHITECTURES "${DSV4EXT_HIP_ARCHS}"
                                             HIP_STANDARD 17 HIP_STANDARD_REQUIRED ON)
target_compile_options(dsv4ext_hip PRIVATE $<$<COMPILE_LANGUAGE:HIP>:-O3 -nogpulib>)
target_include_directories(dsv4ext_hip PRIVATE "${PROJECT_SOURCE_DIR}/csrc")
# hip-lang::host is what hip::host is (the HIP runtime, amdhip64), but comes with enable_language(HIP);
# find_package(hip) would add nothing and fails under CMake 4 on older configs (Debian's ROCm 5.2).
target_link_libraries(dsv4ext_hip PUBLIC hip-lang::host)
