// The CUDA launchers against the CPU launchers, torch-free: device buffers from cudaMalloc, the
// default stream. Skipped when no CUDA device is present (CI); run on the GPU machine by
// scripts/gpu_check.sh. Both the pipelined fast path (n = 4, D % 256 == 0) and the general kernels.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "cpu/cpu_ops.h"
#include "cpu/mhc_token.h"
#include "cuda/cuda_ops.h"
#include "launcher_compare.h"
#include "test_util.h"
#include "topk_cases.h"

namespace dsv4::test {
namespace {

bool have_gpu() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

// A device copy of a host vector, freed with the object.
template <class T>
struct DeviceBuffer {
  T* ptr = nullptr;
  size_t n = 0;
  explicit DeviceBuffer(const std::vector<T>& host) : n(host.size()) {
    EXPECT_EQ(cudaMalloc(&ptr, std::max<size_t>(1, n) * sizeof(T)), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(ptr, host.data(), n * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  }
  explicit DeviceBuffer(size_t count) : DeviceBuffer(std::vector<T>(count)) {
    EXPECT_EQ(cudaMemset(ptr, 0xff, n * sizeof(T)), cudaSuccess);  // poison
  }
  ~DeviceBuffer() { cudaFree(ptr); }
  std::vector<T> host() const {
    std::vector<T> out(n);
    EXPECT_EQ(cudaMemcpy(out.data(), ptr, n * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    return out;
  }
};

struct MhcCase {
  int n;
  int64_t hidden, tokens;
  bool norm;
};

class CudaMhc : public ::testing::TestWithParam<MhcCase> {};

TEST_P(CudaMhc, PreFusedHeadMatchCpu) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const auto [n, hidden, tokens, norm] = GetParam();
  const int64_t k = n * hidden, m3 = n * (n + 2);
  auto residual = to_bf16_vec(normal_floats(size_t(tokens * k), 1));
  auto x = to_bf16_vec(normal_floats(size_t(tokens * hidden), 2));
  auto fn = normal_floats(size_t(m3 * k), 3, 1.0f / std::sqrt(float(k)));
  auto scale = normal_floats(3, 4, 0.5f), base = normal_floats(size_t(m3), 5, 0.5f);
  auto weight = to_bf16_vec(normal_floats(size_t(hidden), 6));
  std::vector<float> post_in(size_t(tokens * n)), comb_in(size_t(tokens * n * n));
  for (size_t i = 0; i < post_in.size(); ++i) post_in[i] = 0.5f + 0.01f * float(i % 97);
  for (size_t i = 0; i < comb_in.size(); ++i) comb_in[i] = 0.02f * float(i % 53);

  DeviceBuffer<bf16> d_res(residual), d_x(x), d_w(weight);
  DeviceBuffer<float> d_fn(fn), d_scale(scale), d_base(base), d_post_in(post_in), d_comb_in(comb_in);
  DeviceBuffer<bf16> d_res_out(size_t(tokens * k)), d_li(size_t(tokens * hidden));
  DeviceBuffer<float> d_post(size_t(tokens * n)), d_comb(size_t(tokens * n * n));
  std::vector<bf16> res_out(size_t(tokens * k)), li(size_t(tokens * hidden));
  std::vector<float> post(size_t(tokens * n)), comb(size_t(tokens * n * n));

  const MhcPreScalars scalars{1e-6f, 1e-6f, 1e-6f, 2.0f, 20, 1e-6f};
  MhcFusedParams cpu{{x.data(), residual.data(), post_in.data(), comb_in.data(), res_out.data(), tokens, n, hidden},
                     {res_out.data(), fn.data(), scale.data(), base.data(), norm ? weight.data() : nullptr,
                      post.data(), comb.data(), li.data(), tokens, n, hidden, scalars}};
  MhcFusedParams gpu{{d_x.ptr, d_res.ptr, d_post_in.ptr, d_comb_in.ptr, d_res_out.ptr, tokens, n, hidden},
                     {d_res_out.ptr, d_fn.ptr, d_scale.ptr, d_base.ptr, norm ? d_w.ptr : nullptr, d_post.ptr,
                      d_comb.ptr, d_li.ptr, tokens, n, hidden, scalars}};

  // mhc_pre on the input residual.
  MhcPreParams cpu_pre = cpu.pre, gpu_pre = gpu.pre;
  cpu_pre.residual = residual.data();
  gpu_pre.residual = d_res.ptr;
  cpu::mhc_pre(cpu_pre, kSerial);
  ASSERT_EQ(cuda::mhc_pre(gpu_pre, nullptr), 0);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  expect_float_near(d_post.host(), post, 2e-5f);
  expect_float_near(d_comb.host(), comb, 2e-5f);
  expect_bf16_near(d_li.host(), li, norm ? 3.0f : 2.0f);

  // The fused op: residual_out within rounding of the CPU's, and its pre half equal to a CPU pre
  // run on the GPU's own residual_out (a 1-ulp residual difference moves a cancelling y a lot).
  ASSERT_EQ(cuda::mhc_fused_post_pre(gpu, nullptr), 0);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  cpu::mhc_post(cpu.post, kSerial);
  const std::vector<bf16> gpu_res_out = d_res_out.host();
  expect_bf16_near(gpu_res_out, res_out, 1.0f);
  cpu_pre.residual = gpu_res_out.data();
  cpu::mhc_pre(cpu_pre, kSerial);
  expect_float_near(d_post.host(), post, 2e-5f);
  expect_float_near(d_comb.host(), comb, 2e-5f);
  expect_bf16_near(d_li.host(), li, norm ? 3.0f : 2.0f);
  cpu_pre.residual = residual.data();

  // hc_head on the input residual, its n head rows being the first n rows of fn.
  MhcPreParams cpu_head = cpu_pre, gpu_head = gpu_pre;
  cpu_head.norm_weight = gpu_head.norm_weight = nullptr;
  cpu::hc_head(cpu_head, kSerial);
  ASSERT_EQ(cuda::hc_head(gpu_head, nullptr), 0);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  expect_bf16_near(d_li.host(), li, 2.0f);

  // mhc_post_hc_head with the stash and (norm) the final norm: the stash within rounding of the CPU
  // post, the output equal to the CPU hc_head (+ the final norm) run on the GPU's own stash.
  MhcPostHeadParams gpu_ph{gpu.post, gpu_head};
  gpu_ph.pre.residual = nullptr;
  gpu_ph.pre.norm_weight = norm ? d_w.ptr : nullptr;
  DeviceBuffer<bf16> d_stash(size_t(tokens * k));
  gpu_ph.post.out = d_stash.ptr;
  ASSERT_EQ(cuda::mhc_post_hc_head(gpu_ph, nullptr), 0);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const std::vector<bf16> stash = d_stash.host();
  expect_bf16_near(stash, res_out, 1.0f);
  cpu_head.residual = stash.data();
  cpu::hc_head(cpu_head, kSerial);
  if (norm) {
    std::vector<float> scratch(static_cast<size_t>(hidden));
    for (int64_t t = 0; t < tokens; ++t)
      cpu::rms_norm_stored(li.data() + t * hidden, hidden, weight.data(), scalars.norm_eps, scratch.data());
  }
  expect_bf16_near(d_li.host(), li, norm ? 3.0f : 2.0f);

  // mhc_pre_delayed on the input residual: identity (stream 0), carried (the CPU new_pre as pre_mix),
  // and the broadcast entry (x projected with the first D columns of fn).
  std::vector<float> new_pre(size_t(tokens * n)), pre_mix;
  DeviceBuffer<float> d_new_pre(size_t(tokens * n)), d_pre_mix(size_t(tokens * n));
  const std::vector<float> fn_b(fn.begin(), fn.begin() + m3 * hidden);
  DeviceBuffer<float> d_fn_b(fn_b);
  for (int entry = 0; entry < 3; ++entry) {
    SCOPED_TRACE(testing::Message() << "delayed entry " << entry);
    MhcPreDelayedParams cd{cpu_pre, entry == 2 ? x.data() : nullptr, nullptr, new_pre.data()};
    MhcPreDelayedParams gd{gpu_pre, entry == 2 ? d_x.ptr : nullptr, nullptr, d_new_pre.ptr};
    if (entry == 1) {  // carry the identity entry's new pre weights
      pre_mix = new_pre;
      ASSERT_EQ(cudaMemcpy(d_pre_mix.ptr, pre_mix.data(), pre_mix.size() * sizeof(float), cudaMemcpyHostToDevice),
                cudaSuccess);
      cd.pre_mix = pre_mix.data();
      gd.pre_mix = d_pre_mix.ptr;
    }
    if (entry == 2) cd.pre.fn = fn_b.data(), gd.pre.fn = d_fn_b.ptr;
    cpu::mhc_pre_delayed(cd, kSerial);
    ASSERT_EQ(cuda::mhc_pre_delayed(gd, nullptr), 0);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    expect_float_near(d_post.host(), post, 2e-5f);
    expect_float_near(d_comb.host(), comb, 2e-5f);
    expect_float_near(d_new_pre.host(), new_pre, 2e-5f);
    expect_bf16_near(d_li.host(), li, norm ? 3.0f : 2.0f);
  }

  // mhc_fused_post_pre_delayed, stream 0 and carried (the pre_mix above): residual_out bitwise the GPU's
  // mhc_post (the stash above: the same FMA order), its pre half equal to the CPU mhc_pre_delayed run
  // on the GPU's own residual_out.
  for (int entry = 0; entry < 2; ++entry) {
    SCOPED_TRACE(testing::Message() << "fused delayed entry " << entry);
    DeviceBuffer<bf16> d_seam(size_t(tokens * k));
    MhcFusedDelayedParams gfd{gpu.post, MhcPreDelayedParams{gpu.pre, nullptr, entry == 1 ? d_pre_mix.ptr : nullptr,
                                                            d_new_pre.ptr}};
    gfd.post.out = d_seam.ptr;
    gfd.pre.pre.residual = d_seam.ptr;
    ASSERT_EQ(cuda::mhc_fused_post_pre_delayed(gfd, nullptr), 0);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const std::vector<bf16> seam = d_seam.host();
    EXPECT_TRUE(same_bits(seam, stash)) << "residual_out";
    MhcPreDelayedParams cd{cpu_pre, nullptr, entry == 1 ? pre_mix.data() : nullptr, new_pre.data()};
    cd.pre.residual = seam.data();
    cpu::mhc_pre_delayed(cd, kSerial);
    expect_float_near(d_post.host(), post, 2e-5f);
    expect_float_near(d_comb.host(), comb, 2e-5f);
    expect_float_near(d_new_pre.host(), new_pre, 2e-5f);
    expect_bf16_near(d_li.host(), li, norm ? 3.0f : 2.0f);
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, CudaMhc,
                         ::testing::Values(MhcCase{4, 512, 37, false}, MhcCase{4, 512, 37, true},
                                           MhcCase{4, 4096, 300, true}, MhcCase{4, 1280, 5, false},
                                           MhcCase{3, 65, 17, true}, MhcCase{8, 24, 3, false},
                                           MhcCase{1, 7, 2, true}, MhcCase{4, 512, 600, true},
                                           // the pipeline's engines: bf16 parts without the norm
                                           // (D = 4096), fp32 slice with 16 warps (D = 7168)
                                           MhcCase{4, 4096, 300, false}, MhcCase{4, 7168, 150, true},
                                           // mhc_pre / mhc_pre_delayed from 1024 tokens at D = 4096:
                                           // the TMA kernel (a partial last 64-token tile)
                                           MhcCase{4, 4096, 1100, true}, MhcCase{4, 4096, 1030, false},
                                           // hc_head and mhc_post_hc_head (stash) from 1536 tokens: the
                                           // TMA kernel's held collapse and fused seam
                                           MhcCase{4, 4096, 2600, true}, MhcCase{4, 4096, 2600, false},
                                           // D = 7168 on the TMA kernel: every op from 1536 tokens (32-token
                                           // tiles, fp32 fn, the tf32 chains on mma.sync; a partial last tile)
                                           MhcCase{4, 7168, 1601, true}, MhcCase{4, 7168, 1601, false}),
                         [](const ::testing::TestParamInfo<MhcCase>& info) {
                           const MhcCase& c = info.param;
                           return "n" + std::to_string(c.n) + "_D" + std::to_string(c.hidden) + "_T" +
                                  std::to_string(c.tokens) + (c.norm ? "_norm" : "");
                         });

TEST(CudaTopK, PrefillMatchesCpuBitwiseInDeterministicMode) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const int64_t rows = 40, width = 3000;
  const int k = 256;
  auto logits = normal_floats(size_t(rows * width), 7);
  for (int64_t r = 0; r < rows; r += 3)
    for (int64_t j = 100; j < 1500; ++j) logits[size_t(r * width + j)] = 0.0f;  // ties at the k-th value
  std::vector<int32_t> starts(rows), ends(rows);
  for (int64_t r = 0; r < rows; ++r) starts[r] = int32_t((r * 37) % 400), ends[r] = int32_t(starts[r] + (r * 131) % 2600);
  DeviceBuffer<float> d_logits(logits);
  DeviceBuffer<int32_t> d_starts(starts), d_ends(ends), d_idx(size_t(rows * k));
  std::vector<int32_t> idx(size_t(rows * k));
  TopKParams cpu{logits.data(), rows, width, width, 1, starts.data(), ends.data(), 1, false, idx.data(), k, k, true};
  TopKParams gpu = cpu;
  gpu.logits = d_logits.ptr, gpu.row_starts = d_starts.ptr, gpu.row_ends = d_ends.ptr, gpu.indices = d_idx.ptr;
  cpu::top_k_per_row(cpu, kSerial);
  ASSERT_EQ(cuda::top_k_per_row(gpu, nullptr), 0);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(d_idx.host(), idx);
}

// Wide rows: >= 512 rows stream one row per 512-thread block, fewer take decode clusters of up to 8
// blocks; rows of at most 8192 take warps or warp groups. Every shape against the CPU launcher (bitwise when deterministic, as sets otherwise),
// with ties around every eighth of the row (cluster slices, warp chunks and sample windows meet
// there), NaN / inf rows, massive ties (one first-digit bin holds most of a row), strided logits,
// clamped windows, and k past the candidate buffer (segments overflow: blocks walk their slices).
struct LongRowCase {
  const char* name;
  int64_t rows, width;
  int k;
  int64_t col_stride = 1, pitch_extra = 0;  // row pitch = width * col_stride + pitch_extra
  bool decode = false;                       // 1-D seq_lens with next_n = 2
};

class CudaTopKLongRows : public ::testing::TestWithParam<LongRowCase> {};

TEST_P(CudaTopKLongRows, MatchesCpu) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const LongRowCase c = GetParam();
  const int64_t rows = c.rows, width = c.width, k = c.k, pitch = width * c.col_stride + c.pitch_extra;
  ASSERT_GE(rows, 9) << "the special windows below take rows 4 and 8";
  std::mt19937 gen(uint32_t(width + k));
  std::vector<float> logits = normal_floats(size_t(rows * pitch), uint32_t(width));
  for (int64_t r = 0; r < rows; ++r) {
    float* row = logits.data() + r * pitch;
    const auto at = [&](int64_t j) -> float& { return row[j * c.col_stride]; };
    if (r % 4 == 1) {  // ties at the k-th value around every slice boundary of 2, 4 and 8 blocks
      for (int64_t b = 1; b < 8; ++b)
        for (int64_t j = std::max<int64_t>(0, width * b / 8 - 2500); j < std::min(width, width * b / 8 + 2500); ++j)
          at(j) = 2.75f;
    } else if (r % 4 == 2) {  // NaN of both signs, +-inf, -0.0; every 8th such row almost all NaN
      const uint32_t nan_share = r % 32 == 2 ? 999 : 300;
      for (int64_t j = 0; j < width; ++j) {
        const uint32_t u = gen() % 1000;
        if (u < nan_share) at(j) = (u & 1) ? kNaN : -kNaN;
        else if (u < nan_share + 10) at(j) = (u & 1) ? kInf : -kInf;
        else if (u < nan_share + 20) at(j) = (u & 1) ? -0.0f : 0.0f;
      }
    } else if (r % 4 == 3) {  // massive exact ties
      for (int64_t j = 0; j < width; ++j) at(j) = float(int(gen() % 7) - 3);
    }
  }
  // Windows: full rows (the ties rows, so the boundaries sit where the slices split), lengths 0, 1,
  // k-1, k, k+1, width-1, clamped ones, then random.
  std::vector<int32_t> starts(static_cast<size_t>(rows)), ends(static_cast<size_t>(rows));
  const int64_t lens[] = {0, 1, k - 1, k, k + 1, width - 1, width};
  for (int64_t r = 0; r < rows; ++r) {
    int64_t n = r % 4 == 1 ? width : (r < 28 ? lens[r % 7] : int64_t(gen() % uint32_t(width + 1)));
    n = std::clamp<int64_t>(n, 0, width);
    const int64_t s = int64_t(gen() % uint32_t(width - n + 1));
    starts[size_t(r)] = int32_t(s), ends[size_t(r)] = int32_t(s + n);
  }
  starts[4] = -7, ends[4] = int32_t(width + 100);  // clamped to the whole row
  starts[8] = int32_t(width / 2), ends[8] = int32_t(width / 2 - 3);  // end < start
  std::vector<int32_t> seq_lens;
  if (c.decode)  // row r = 2b + q has len seq_lens[b] - 1 + q: the ties rows (b even, q = 1) full
    for (int64_t b = 0; b < rows / 2; ++b)
      seq_lens.push_back(b % 2 == 0 ? int32_t(width) : ends[size_t(2 * b)] - starts[size_t(2 * b)] + 1);
  DeviceBuffer<float> d_logits(logits);
  DeviceBuffer<int32_t> d_starts(starts), d_ends(c.decode ? seq_lens : ends), d_idx(size_t(rows * k));
  for (const bool det : {true, false}) {
    SCOPED_TRACE(::testing::Message() << (det ? "deterministic" : "default"));
    std::vector<int32_t> idx(size_t(rows * k));
    TopKParams cpu{logits.data(), rows, width, pitch, c.col_stride, starts.data(), ends.data(), 1, false,
                   idx.data(), k, int(k), det};
    if (c.decode) cpu.row_starts = nullptr, cpu.row_ends = seq_lens.data(), cpu.next_n = 2;
    TopKParams gpu = cpu;
    gpu.logits = d_logits.ptr, gpu.row_starts = c.decode ? nullptr : d_starts.ptr, gpu.row_ends = d_ends.ptr;
    gpu.indices = d_idx.ptr;
    cpu::top_k_per_row(cpu, kThreaded);
    ASSERT_EQ(cudaMemset(d_idx.ptr, 0xff, d_idx.n * sizeof(int32_t)), cudaSuccess);
    ASSERT_EQ(cuda::top_k_per_row(gpu, nullptr), 0);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<int32_t> got = d_idx.host();
    if (!det)  // the set is fixed in both modes, the order only when deterministic
      for (int64_t r = 0; r < rows; ++r) {
        std::sort(got.begin() + r * k, got.begin() + (r + 1) * k);
        std::sort(idx.begin() + r * k, idx.begin() + (r + 1) * k);
      }
    int64_t bad_rows = 0;
    for (int64_t r = 0; r < rows; ++r)
      if (!std::equal(got.begin() + r * k, got.begin() + (r + 1) * k, idx.begin() + r * k) && ++bad_rows <= 3)
        ADD_FAILURE() << "row " << r << " (window " << starts[size_t(r)] << ".." << ends[size_t(r)] << ") differs";
    EXPECT_EQ(bad_rows, 0);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, CudaTopKLongRows,
    ::testing::Values(LongRowCase{"odd_width", 512, 34817, 2048},
                      LongRowCase{"unaligned_pitch", 512, 69633, 1024, 1, 1},
                      LongRowCase{"col_stride2", 512, 139265, 512, 2, 3},
                      LongRowCase{"width_278528", 520, 278528, 2048},
                      LongRowCase{"width_278529", 512, 278529, 1024},
                      LongRowCase{"k_19000_of_40000", 512, 40000, 19000},
                      LongRowCase{"k_20000_of_70000", 512, 70000, 20000},
                      LongRowCase{"prefill_2048x131072", 2048, 131072, 1024},
                      LongRowCase{"decode_64x262144", 64, 262144, 2048, 1, 0, true},
                      LongRowCase{"decode_200x50000", 200, 50000, 512, 1, 0, true},
                      // Clusters of 8: 16-bit histograms all-to-all (slices below 65536 keys), and
                      // 32-bit pushes past that.
                      LongRowCase{"decode_10x65536", 10, 65536, 2048, 1, 0, true},
                      LongRowCase{"decode_10x600000", 10, 600000, 1024, 1, 0, true},
                      // Rows of at most 8192 (topk_warp_rows.cu): more rows than resident warps or
                      // groups, so they walk with the next row in flight; 16 / 64 keys a lane, two
                      // warps (4-byte copies: stride 2), four warps (fewer than 512 rows).
                      LongRowCase{"warp_rows_500_unaligned_pitch", 2000, 500, 64, 1, 1},
                      LongRowCase{"warp_rows_2048", 3000, 2048, 512},
                      LongRowCase{"group2_4000_col_stride2", 1800, 4000, 512, 2, 3},
                      LongRowCase{"group4_decode_500x8192", 500, 8192, 1024, 1, 0, true},
                      // No more rows than SMs: rows of 513-8192 columns on groups of 2 / 4 / 8 warps.
                      LongRowCase{"few_rows_group2_1000_col_stride2", 100, 1000, 64, 2, 3},
                      LongRowCase{"few_rows_group4_decode_64x2048", 64, 2048, 512, 1, 0, true},
                      LongRowCase{"few_rows_group4_decode_10x1500", 10, 1500, 512, 1, 0, true},
                      LongRowCase{"few_rows_group4_32keys_3000_unaligned_pitch", 50, 3000, 2048, 1, 1},
                      LongRowCase{"few_rows_group8_decode_64x8192", 64, 8192, 1024, 1, 0, true},
                      LongRowCase{"few_rows_group8_6000_col_stride2", 40, 6000, 2048, 2, 3}),
    [](const ::testing::TestParamInfo<LongRowCase>& info) { return std::string(info.param.name); });

// Whole buffers (8 spare cells each, every cell preset to -1 on both sides; fill -7) equal the CPU
// launcher's, so the values match and nothing is written past either extent. Shapes cross the
// schedule's boundaries: rows around multiples of 132 and 264 resident blocks, more than one
// 512-row tile per block, R = 1 with a row of several 512-entry segments, odd row pitches.
TEST(CudaRaggedPack, MatchesCpu) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  struct Shape {
    int64_t rows, width, pitch;
  };
  for (const Shape sh : {Shape{1000, 77, 77}, Shape{1, 70000, 70000}, Shape{263, 513, 515}, Shape{264, 40, 40},
                         Shape{265, 33, 35}, Shape{529, 9, 9}, Shape{264 * 512 + 3, 2, 3}, Shape{8192, 512, 512}}) {
    SCOPED_TRACE(::testing::Message() << sh.rows << "x" << sh.width << " pitch " << sh.pitch);
    const int64_t rows = sh.rows, width = sh.width, spare = 8;
    std::vector<int32_t> dense(static_cast<size_t>(rows * sh.pitch)), lengths(static_cast<size_t>(rows));
    for (size_t i = 0; i < dense.size(); ++i) dense[i] = int32_t((i * 7919) % 1200) - 50;
    for (int64_t r = 0; r < rows; ++r) lengths[size_t(r)] = int32_t((r * 31 + r / 7) % (width + 20)) - 10;
    DeviceBuffer<int32_t> d_dense(dense), d_len(lengths), d_out(size_t(rows * width + spare)),
        d_ptr(size_t(rows + 1 + spare));
    std::vector<int32_t> out(size_t(rows * width + spare), -1), ptr(size_t(rows + 1 + spare), -1);
    RaggedPackParams cpu{dense.data(), sh.pitch, lengths.data(), out.data(), ptr.data(), rows, width, 900, -7};
    RaggedPackParams gpu{d_dense.ptr, sh.pitch, d_len.ptr, d_out.ptr, d_ptr.ptr, rows, width, 900, -7};
    cpu::ragged_pack(cpu, kSerial);
    ASSERT_EQ(cuda::ragged_pack(gpu, nullptr), 0);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(d_ptr.host(), ptr);
    EXPECT_EQ(d_out.host(), out);
  }
}

}  // namespace
}  // namespace dsv4::test
