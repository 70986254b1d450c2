// Per-architecture variants are chosen here and nowhere else.
#include "dispatch.h"

#include <torch/csrc/stable/accelerator.h>
#include <torch/csrc/stable/ops.h>

#include "../cpu/cpu_ops.h"
#if defined(DSV4EXT_WITH_CUDA) || defined(DSV4EXT_WITH_HIP)
#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#endif
#ifdef DSV4EXT_WITH_CUDA
#include "../cuda/cuda_ops.h"
#define DSV4_SM90(fn) &dsv4::cuda::fn
#else
#define DSV4_SM90(fn) nullptr
#endif
#ifdef DSV4EXT_WITH_HIP
#include "../hip/hip_ops.h"
#define DSV4_CDNA(fn) , &dsv4::hip::gfx942::fn, &dsv4::hip::gfx950::fn
#else
#define DSV4_CDNA(fn)
#endif

namespace dsv4::binding {

namespace {

template <class P>
using GpuLauncher = int (*)(const P&, void* stream);  // returns a cudaError_t / hipError_t

template <class P>
struct Variants {
  void (*cpu)(const P&, const cpu::Executor&);
  GpuLauncher<P> sm90;
#ifdef DSV4EXT_WITH_HIP
  GpuLauncher<P> gfx942;
  GpuLauncher<P> gfx950;
#endif
};

const Variants<MhcPreParams> kMhcPre{&cpu::mhc_pre, DSV4_SM90(mhc_pre) DSV4_CDNA(mhc_pre)};
const Variants<MhcPreDelayedParams> kMhcPreDelayed{&cpu::mhc_pre_delayed, DSV4_SM90(mhc_pre_delayed)
                                                       DSV4_CDNA(mhc_pre_delayed)};
const Variants<MhcPostParams> kMhcPost{&cpu::mhc_post, DSV4_SM90(mhc_post) DSV4_CDNA(mhc_post)};
const Variants<MhcFusedParams> kMhcFused{&cpu::mhc_fused_post_pre, DSV4_SM90(mhc_fused_post_pre)
                                             DSV4_CDNA(mhc_fused_post_pre)};
const Variants<MhcFusedDelayedParams> kMhcFusedDelayed{&cpu::mhc_fused_post_pre_delayed,
                                                        DSV4_SM90(mhc_fused_post_pre_delayed)
                                                            DSV4_CDNA(mhc_fused_post_pre_delayed)};
const Variants<MhcPreParams> kHcHead{&cpu::hc_head, DSV4_SM90(hc_head) DSV4_CDNA(hc_head)};
const Variants<MhcPostHeadParams> kMhcPostHead{&cpu::mhc_post_hc_head, DSV4_SM90(mhc_post_hc_head)
                                                   DSV4_CDNA(mhc_post_hc_head)};
const Variants<SinkhornParams> kSinkhorn{&cpu::sinkhorn, DSV4_SM90(sinkhorn) DSV4_CDNA(sinkhorn)};
const Variants<TopKParams> kTopK{&cpu::top_k_per_row, DSV4_SM90(top_k_per_row) DSV4_CDNA(top_k_per_row)};
const Variants<RaggedPackParams> kRaggedPack{&cpu::ragged_pack,
                                             DSV4_SM90(ragged_pack) DSV4_CDNA(ragged_pack)};

#if defined(DSV4EXT_WITH_CUDA)
constexpr const char* kGpuApi = "CUDA";
const char* gpu_error_string(int err) { return cuda::error_string(err); }

template <class P>
GpuLauncher<P> gpu_variant(const Variants<P>& v, const ArgCheck& check, int device) {
  const int sm = cuda::device_sm_version(device);
  check.require(sm / 10 == 9, "this build has CUDA kernels for sm_90a only; device cuda:", device,
                " is sm_", sm);
  check.require(v.sm90 != nullptr, "no CUDA kernel for this op in this build yet");
  return v.sm90;
}
#elif defined(DSV4EXT_WITH_HIP)
// A ROCm torch reports its GPUs as CUDA devices; the variant follows the device's gcnArchName.
constexpr const char* kGpuApi = "HIP";
const char* gpu_error_string(int err) { return hip::error_string(err); }

template <class P>
GpuLauncher<P> gpu_variant(const Variants<P>& v, const ArgCheck& check, int device) {
  switch (hip::device_arch(device)) {
    case 942: return v.gfx942;
    case 950: return v.gfx950;
  }
  check.fail("this build has HIP kernels for gfx942 (MI300) and gfx950 (MI355) only; device cuda:",
             device, " is neither (torch.cuda.get_device_properties(", device,
             ").gcnArchName names its architecture)");
}
#endif

// CPU work runs on torch's intra-op thread pool.
void torch_parallel_for(int64_t begin, int64_t end, int64_t grain, cpu::Executor::Body body, void* ctx) {
  torch::stable::parallel_for(begin, end, grain, [&](int64_t b, int64_t e) { body(b, e, ctx); });
}

template <class P>
void run(const Variants<P>& v, const ArgCheck& check, const Tensor& on, const P& p) {
  if (on.is_cpu()) {
    v.cpu(p, cpu::Executor{&torch_parallel_for});
    return;
  }
#if defined(DSV4EXT_WITH_CUDA) || defined(DSV4EXT_WITH_HIP)
  if (on.is_cuda()) {
    const int device = on.get_device_index();
    const GpuLauncher<P> launch = gpu_variant(v, check, device);
    torch::stable::accelerator::DeviceGuard guard(device);
    void* stream = nullptr;  // on a ROCm torch: the current hipStream_t
    TORCH_ERROR_CODE_CHECK(aoti_torch_get_current_cuda_stream(device, &stream));
    const int err = launch(p, stream);
    check.require(err == 0, kGpuApi, " launch failed: ", gpu_error_string(err));
    return;
  }
#endif
  check.fail("no backend for the device of the inputs in this build (built backends: ",
             DSV4EXT_BACKENDS, ")");
}

}  // namespace

void launch_mhc_pre(const ArgCheck& c, const Tensor& on, const MhcPreParams& p) { run(kMhcPre, c, on, p); }
void launch_mhc_pre_delayed(const ArgCheck& c, const Tensor& on, const MhcPreDelayedParams& p) {
  run(kMhcPreDelayed, c, on, p);
}
void launch_mhc_post(const ArgCheck& c, const Tensor& on, const MhcPostParams& p) { run(kMhcPost, c, on, p); }
void launch_mhc_fused_post_pre(const ArgCheck& c, const Tensor& on, const MhcFusedParams& p) {
  run(kMhcFused, c, on, p);
}
void launch_mhc_fused_post_pre_delayed(const ArgCheck& c, const Tensor& on, const MhcFusedDelayedParams& p) {
  run(kMhcFusedDelayed, c, on, p);
}
void launch_hc_head(const ArgCheck& c, const Tensor& on, const MhcPreParams& p) { run(kHcHead, c, on, p); }
void launch_mhc_post_hc_head(const ArgCheck& c, const Tensor& on, const MhcPostHeadParams& p) {
  run(kMhcPostHead, c, on, p);
}
void launch_sinkhorn(const ArgCheck& c, const Tensor& on, const SinkhornParams& p) {
  run(kSinkhorn, c, on, p);
}
void launch_top_k_per_row(const ArgCheck& c, const Tensor& on, const TopKParams& p) { run(kTopK, c, on, p); }
void launch_ragged_pack(const ArgCheck& c, const Tensor& on, const RaggedPackParams& p) {
  run(kRaggedPack, c, on, p);
}

}  // namespace dsv4::binding
