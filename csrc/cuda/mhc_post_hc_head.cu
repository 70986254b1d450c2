// mhc_post_hc_head (spec §4.6). Two kernels, chosen by size:
//  - the n = 4 cluster fast path (mhc_cluster_kernel.cuh, Mode::kPostHead: post in registers, the
//    head's 4 rows on tensor cores, the final norm through a second cluster round) for decode-sized
//    T, where a 16-CTA cluster per 16-token tile puts the whole GPU on a few tokens;
//  - the general tile kernel (mhc_post_hc_head_kernel.cuh) for any n and D, and for large T at
//    n = 4, where many independent CTAs keep more bytes in flight than the cluster kernel's
//    barrier-bound chain (benchmarks/NOTES.md).
// DSV4EXT_MHC_POST_HEAD_PATH=cluster|general (read once) forces one path where it applies, for the
// benchmark of the crossover; unset or anything else: the size rule.
#include <cstdlib>
#include <cstring>

#include "cuda_ops.h"
#include "mhc_cluster_kernel.cuh"
#include "mhc_post_hc_head_kernel.cuh"

namespace dsv4::cuda {

namespace {

constexpr int64_t kClusterMaxTokens = 512;  // above: the general kernel (to be tuned on the H100)

enum class Path { kAuto, kCluster, kGeneral };

Path forced_path() {
  static const Path path = [] {
    const char* v = std::getenv("DSV4EXT_MHC_POST_HEAD_PATH");
    if (v != nullptr && std::strcmp(v, "cluster") == 0) return Path::kCluster;
    if (v != nullptr && std::strcmp(v, "general") == 0) return Path::kGeneral;
    return Path::kAuto;
  }();
  return path;
}

}  // namespace

int mhc_post_hc_head(const MhcPostHeadParams& p, void* stream) {
  const auto s = static_cast<cudaStream_t>(stream);
  const Path path = forced_path();
  const bool cluster = path == Path::kCluster || (path == Path::kAuto && p.pre.tokens <= kClusterMaxTokens);
  if (cluster) {
    const int fast = cluster_mhc::launch<cluster_mhc::Mode::kPostHead>(p, s);
    if (fast >= 0) return fast;
  }
  return post_head::launch_general(p, s);
}

}  // namespace dsv4::cuda
