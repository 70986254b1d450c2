// CPU launchers: the reference backend. fp32 arithmetic as the spec writes it, one bf16 rounding per
// output, reduction order a function of the sizes only (so results are batch-invariant).
#pragma once

#include "../common/op_params.h"
#include "executor.h"

namespace dsv4::cpu {

void mhc_pre(const MhcPreParams& p, const Executor& ex);
void mhc_post(const MhcPostParams& p, const Executor& ex);
void mhc_fused_post_pre(const MhcFusedParams& p, const Executor& ex);
void hc_head(const MhcPreParams& p, const Executor& ex);
void mhc_post_hc_head(const MhcPostHeadParams& p, const Executor& ex);
void mhc_pre_delayed(const MhcPreDelayedParams& p, const Executor& ex);
void mhc_fused_post_pre_delayed(const MhcFusedDelayedParams& p, const Executor& ex);
void sinkhorn(const SinkhornParams& p, const Executor& ex);
void top_k_per_row(const TopKParams& p, const Executor& ex);
void ragged_pack(const RaggedPackParams& p, const Executor& ex);

}  // namespace dsv4::cpu
