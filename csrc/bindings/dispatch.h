// The one dispatcher: after an op's entry point has validated its tensors and filled the
// torch-free params, these pick the backend variant for the device of `on` and launch it
// (CPU executor or current stream, device guard, launch error check).
#pragma once

#include "../common/op_params.h"
#include "checks.h"

namespace dsv4::binding {

void launch_mhc_pre(const ArgCheck& check, const Tensor& on, const MhcPreParams& p);
void launch_mhc_pre_delayed(const ArgCheck& check, const Tensor& on, const MhcPreDelayedParams& p);
void launch_mhc_post(const ArgCheck& check, const Tensor& on, const MhcPostParams& p);
void launch_mhc_fused_post_pre(const ArgCheck& check, const Tensor& on, const MhcFusedParams& p);
void launch_mhc_fused_post_pre_delayed(const ArgCheck& check, const Tensor& on, const MhcFusedDelayedParams& p);
void launch_hc_head(const ArgCheck& check, const Tensor& on, const MhcPreParams& p);
void launch_mhc_post_hc_head(const ArgCheck& check, const Tensor& on, const MhcPostHeadParams& p);
void launch_sinkhorn(const ArgCheck& check, const Tensor& on, const SinkhornParams& p);
void launch_top_k_per_row(const ArgCheck& check, const Tensor& on, const TopKParams& p);
void launch_ragged_pack(const ArgCheck& check, const Tensor& on, const RaggedPackParams& p);

}  // namespace dsv4::binding
