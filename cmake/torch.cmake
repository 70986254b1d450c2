# Finds the installed torch through the Python interpreter without find_package(Torch): the stable
# ABI needs only torch's headers and its libraries to link against, and torch's CMake config injects
# -gencode flags for every arch and needs nvrtc/cuBLAS headers that minimal toolkits lack.
execute_process(
  COMMAND "${Python_EXECUTABLE}" -c
          "import os, torch; d = os.path.dirname(torch.__file__); print(os.path.join(d, 'include')); print(os.path.join(d, 'lib')); print(torch.__version__); print(torch.version.cuda or ''); print(torch.version.hip or '')"
  OUTPUT_VARIABLE _torch_info
  OUTPUT_STRIP_TRAILING_WHITESPACE
  RESULT_VARIABLE _torch_rc)
if(NOT _torch_rc EQUAL 0)
  message(FATAL_ERROR "dsv4ext: `import torch` failed with ${Python_EXECUTABLE}; install torch first "
                      "and build with `pip install --no-build-isolation .`")
endif()
string(REPLACE "\n" ";" _torch_info "${_torch_info}")
list(GET _torch_info 0 TORCH_INCLUDE_DIR)
list(GET _torch_info 1 TORCH_LIB_DIR)
list(GET _torch_info 2 TORCH_VERSION_STRING)
list(LENGTH _torch_info _n)
set(TORCH_CUDA_VERSION "")
set(TORCH_HIP_VERSION "")
if(_n GREATER 3)
  list(GET _torch_info 3 TORCH_CUDA_VERSION)
endif()
if(_n GREATER 4)
  list(GET _torch_info 4 TORCH_HIP_VERSION)
endif()
message(STATUS "dsv4ext: torch ${TORCH_VERSION_STRING} (cuda '${TORCH_CUDA_VERSION}', hip '${TORCH_HIP_VERSION}')")

# Links a target against torch's libraries. Only symbols of the stable C shim are used, so one
# build loads under every torch >= the target version.
function(dsv4ext_link_torch target)
  target_include_directories(${target} SYSTEM PRIVATE "${TORCH_INCLUDE_DIR}")
  target_compile_definitions(${target} PRIVATE TORCH_TARGET_VERSION=0x020a000000000000ULL)
  target_link_libraries(${target} PRIVATE "${TORCH_LIB_DIR}/libtorch_cpu.so" "${TORCH_LIB_DIR}/libc10.so")
  if(DSV4EXT_WITH_CUDA)
    target_compile_definitions(${target} PRIVATE USE_CUDA)
    target_link_libraries(${target} PRIVATE "${TORCH_LIB_DIR}/libtorch_cuda.so")
  elseif(DSV4EXT_WITH_HIP)
    # A ROCm torch keeps the CUDA names (device type, stream shim); the shim declares
    # aoti_torch_get_current_cuda_stream under USE_CUDA.
    target_compile_definitions(${target} PRIVATE USE_ROCM USE_CUDA)
    target_link_libraries(${target} PRIVATE "${TORCH_LIB_DIR}/libtorch_hip.so")
  endif()
endfunction()
