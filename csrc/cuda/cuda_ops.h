// CUDA launchers (sm_90a). Each takes the torch-free params and a cudaStream_t passed as void*,
// launches on that stream without synchronising or allocating, and returns a cudaError_t (0 = ok).
#pragma once

#include "../common/op_params.h"

namespace dsv4::cuda {

int mhc_pre(const MhcPreParams& p, void* stream);
int mhc_pre_delayed(const MhcPreDelayedParams& p, void* stream);
int mhc_post(const MhcPostParams& p, void* stream);
int mhc_fused_post_pre(const MhcFusedParams& p, void* stream);
int mhc_fused_post_pre_delayed(const MhcFusedDelayedParams& p, void* stream);
int hc_head(const MhcPreParams& p, void* stream);
int mhc_post_hc_head(const MhcPostHeadParams& p, void* stream);
int sinkhorn(const SinkhornParams& p, void* stream);
int top_k_per_row(const TopKParams& p, void* stream);
int ragged_pack(const RaggedPackParams& p, void* stream);

// Compute capability of a device as major * 10 + minor, and its SM count (cached per device; 0 on
// error).
int device_sm_version(int device);
int device_sm_count(int device);
const char* error_string(int err);

}  // namespace dsv4::cuda
