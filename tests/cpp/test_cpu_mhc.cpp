// CPU mHC launchers (shared/spec/ops.md §3) against a double-precision reimplementation written here:
// mhc_pre (with and without the fused RMSNorm), mhc_post (comb applied transposed), the fused op
// (== post then pre, bit for bit), mhc_pre_delayed (against mhc_pre), the fused post + delayed pre (== post
// then mhc_pre_delayed, bit for bit), hc_head and sinkhorn; serial == threaded, batch invariance.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <sstream>
#include <tuple>
#include <vector>

#include "cpu/cpu_ops.h"
#include "cpu/mhc_token.h"
#include "test_util.h"

namespace dsv4 {
namespace {

using test::kSerial;
using test::kThreaded;

// ---- double-precision reference ------------------------------------------------------------------

double sigmoid_d(double z) { return 1.0 / (1.0 + std::exp(-z)); }

// §3.4 in exact order: row softmax, + eps, column step, then (repeat - 1) x (row step, column step).
void sinkhorn_d(std::vector<double>& c, int n, int repeat, double eps) {
  for (int i = 0; i < n; ++i) {
    double mx = c[i * n];
    for (int j = 1; j < n; ++j) mx = std::max(mx, c[i * n + j]);
    double sum = 0;
    for (int j = 0; j < n; ++j) sum += (c[i * n + j] = std::exp(c[i * n + j] - mx));
    for (int j = 0; j < n; ++j) c[i * n + j] = c[i * n + j] / sum + eps;
  }
  auto col_step = [&] {
    for (int j = 0; j < n; ++j) {
      double sum = eps;
      for (int i = 0; i < n; ++i) sum += c[i * n + j];
      for (int i = 0; i < n; ++i) c[i * n + j] /= sum;
    }
  };
  col_step();
  for (int it = 1; it < repeat; ++it) {
    for (int i = 0; i < n; ++i) {
      double sum = eps;
      for (int j = 0; j < n; ++j) sum += c[i * n + j];
      for (int j = 0; j < n; ++j) c[i * n + j] /= sum;
    }
    col_step();
  }
}

double bf16_ulp(double x) {
  const double a = std::max(std::fabs(x), std::ldexp(1.0, -126));
  return std::ldexp(1.0, int(std::floor(std::log2(a))) - 7);
}

// |got - exact| <= ulps * ulp_bf16(exact) + accum (the fp32 accumulation allowance). Also counts the
// outputs that are not the correctly rounded exact value: fp32 error flips a rounding only near a
// rounding boundary, so more than 1 % of them means a rounding step differs from the spec.
struct Bf16Check {
  const char* what;
  size_t count = 0, not_nearest = 0;

  void operator()(bf16 got, double exact, double accum, double ulps, size_t i) {
    const double g = to_float(got);
    ++count;
    not_nearest += got.bits != to_bf16(float(exact)).bits;
    EXPECT_LE(std::fabs(g - exact), ulps * bf16_ulp(exact) + accum)
        << what << "[" << i << "]: got " << g << ", exact " << exact;
  }
  ~Bf16Check() {
    if (count < 200) return;
    EXPECT_LE(not_nearest, count / 100) << what << ": " << not_nearest << " of " << count
                                        << " outputs are not the correctly rounded value";
  }
};

struct Mhc {
  int n = 4;
  int64_t hidden = 65, tokens = 5;
  std::vector<bf16> residual, x, norm_weight;
  std::vector<float> fn, scale, base, post_in, comb_in;
  MhcPreScalars s{1e-6f, 1e-2f, 1e-3f, 2.0f, 20, 1e-6f};
  bool with_norm = false;

  int64_t k() const { return int64_t(n) * hidden; }
  int m3() const { return mhc_mix_rows(n); }

  Mhc(int n_, int64_t hidden_, int64_t tokens_, uint32_t seed) : n(n_), hidden(hidden_), tokens(tokens_) {
    residual = test::to_bf16_vec(test::normal_floats(size_t(tokens * k()), seed));
    x = test::to_bf16_vec(test::normal_floats(size_t(tokens * hidden), seed + 1));
    norm_weight = test::to_bf16_vec(test::normal_floats(size_t(hidden), seed + 2, 0.5f));
    fn = test::normal_floats(m3() * size_t(k()), seed + 3, 0.05f);
    scale = {0.8f, 1.3f, 0.6f};
    base = test::normal_floats(m3(), seed + 4, 0.5f);
    std::mt19937 gen(seed + 5);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    for (int64_t i = 0; i < tokens * n; ++i) post_in.push_back(2.0f * u(gen));
    for (int64_t i = 0; i < tokens * n * n; ++i) comb_in.push_back(u(gen));  // asymmetric
  }

  struct PreOut {
    std::vector<float> post, comb;
    std::vector<bf16> layer_input;
  };

  PreOut run_pre(const std::vector<bf16>& res, const cpu::Executor& ex, int64_t t0 = 0, int64_t count = -1) const {
    if (count < 0) count = tokens;
    PreOut o{std::vector<float>(size_t(count * n)), std::vector<float>(size_t(count * n * n)),
             std::vector<bf16>(size_t(count * hidden))};
    MhcPreParams p{res.data() + t0 * k(), fn.data(), scale.data(), base.data(),
                   with_norm ? norm_weight.data() : nullptr, o.post.data(), o.comb.data(), o.layer_input.data(),
                   count, n, hidden, s};
    cpu::mhc_pre(p, ex);
    return o;
  }

  std::vector<bf16> run_post(const cpu::Executor& ex) const {
    std::vector<bf16> out(residual.size());
    MhcPostParams p{x.data(), residual.data(), post_in.data(), comb_in.data(), out.data(), tokens, n, hidden};
    cpu::mhc_post(p, ex);
    return out;
  }

  // hc_head's params on `streams` with this case's fn and base (resized to [n, n*D] and [n]).
  MhcPreParams head_params(const bf16* streams, const float* head_scale, float rms_eps, float hc_eps,
                           bf16* out) const {
    MhcPreParams p{};
    p.residual = streams;
    p.fn = fn.data();
    p.hc_scale = head_scale;
    p.hc_base = base.data();
    p.layer_input = out;
    p.tokens = tokens;
    p.hc_mult = n;
    p.hidden = hidden;
    p.scalars.rms_eps = rms_eps;
    p.scalars.hc_pre_eps = hc_eps;
    return p;
  }

  // Checks pre outputs against the double reference computed from `res`.
  void check_pre(const std::vector<bf16>& res, const PreOut& o) const {
    const int64_t kk = k();
    Bf16Check check{with_norm ? "normed layer_input" : "layer_input"};
    for (int64_t t = 0; t < tokens; ++t) {
      std::vector<double> xs(kk), g(m3());
      double ss = 0;
      for (int64_t i = 0; i < kk; ++i) ss += (xs[i] = to_float(res[t * kk + i])) * xs[i];
      for (int m = 0; m < m3(); ++m)
        for (int64_t i = 0; i < kk; ++i) g[m] += xs[i] * fn[m * kk + i];
      const double r = 1.0 / std::sqrt(ss / double(kk) + s.rms_eps);
      std::vector<double> pre(n), comb(n * n);
      for (int i = 0; i < n; ++i) {
        pre[i] = sigmoid_d(g[i] * r * scale[0] + base[i]) + s.hc_pre_eps;
        const double post = s.hc_post_mult_value * sigmoid_d(g[n + i] * r * scale[1] + base[n + i]);
        ASSERT_NEAR(o.post[t * n + i], post, 2e-5 * (1 + std::fabs(post))) << "post t=" << t << " i=" << i;
      }
      for (int e = 0; e < n * n; ++e) comb[e] = g[2 * n + e] * r * scale[2] + base[2 * n + e];
      sinkhorn_d(comb, n, s.sinkhorn_repeat, s.hc_sinkhorn_eps);
      for (int e = 0; e < n * n; ++e) ASSERT_NEAR(o.comb[t * n * n + e], comb[e], 2e-5) << "comb t=" << t << " e=" << e;
      std::vector<double> y(hidden), mag(hidden);
      for (int64_t d = 0; d < hidden; ++d)
        for (int i = 0; i < n; ++i) {
          y[d] += pre[i] * xs[i * hidden + d];
          mag[d] += std::fabs(pre[i] * xs[i * hidden + d]);
        }
      double yy = 0;
      for (double v : y) yy += v * v;
      const double rs = 1.0 / std::sqrt(yy / double(hidden) + s.norm_eps);
      for (int64_t d = 0; d < hidden; ++d) {
        const size_t i = size_t(t * hidden + d);
        if (!with_norm) {
          check(o.layer_input[i], y[d], 2e-5 * mag[d], 1.0, i);
        } else {  // bf16(y) then * rsqrt * w: one extra rounding, so 2 ulps
          const double w = to_float(norm_weight[d]);
          const double exact = double(to_float(to_bf16(float(y[d])))) * rs * w;
          check(o.layer_input[i], exact, 2e-5 * mag[d] * rs * std::fabs(w), 2.0, i);
        }
        if (testing::Test::HasFailure()) return;
      }
    }
  }

  void check_post(const std::vector<bf16>& out) const {
    Bf16Check check{"mhc_post"};
    for (int64_t t = 0; t < tokens; ++t)
      for (int j = 0; j < n; ++j)
        for (int64_t d = 0; d < hidden; ++d) {
          const double xv = to_float(x[t * hidden + d]);
          double v = post_in[t * n + j] * xv, mag = std::fabs(v);
          for (int i = 0; i < n; ++i) {  // i: source stream (first index of comb)
            const double term = double(comb_in[(t * n + i) * n + j]) * to_float(residual[(t * n + i) * hidden + d]);
            v += term;
            mag += std::fabs(term);
          }
          const size_t idx = size_t((t * n + j) * hidden + d);
          check(out[idx], v, 1e-6 * mag, 1.0, idx);
          if (testing::Test::HasFailure()) return;
        }
  }
};

class CpuMhc : public testing::TestWithParam<std::tuple<int, int64_t>> {};

TEST_P(CpuMhc, PreMatchesDoubleReference) {
  const auto [n, hidden] = GetParam();
  for (bool norm : {false, true}) {
    for (int repeat : {1, 20}) {
      SCOPED_TRACE(testing::Message() << "norm=" << norm << " repeat=" << repeat);
      Mhc m(n, hidden, 6, 100 + n);
      m.with_norm = norm;
      m.s.sinkhorn_repeat = repeat;
      m.check_pre(m.residual, m.run_pre(m.residual, kSerial));
    }
  }
}

TEST_P(CpuMhc, PostMatchesDoubleReference) {
  const auto [n, hidden] = GetParam();
  Mhc m(n, hidden, 6, 200 + n);
  m.check_post(m.run_post(kSerial));
}

TEST_P(CpuMhc, FusedEqualsPostThenPre) {
  const auto [n, hidden] = GetParam();
  for (bool norm : {false, true}) {
    Mhc m(n, hidden, 7, 300 + n);
    m.with_norm = norm;
    const std::vector<bf16> residual_cur = m.run_post(kSerial);
    const Mhc::PreOut want = m.run_pre(residual_cur, kSerial);
    m.check_pre(residual_cur, want);
    for (const cpu::Executor* ex : {&kSerial, &kThreaded}) {
      std::vector<bf16> res_out(m.residual.size());
      Mhc::PreOut o{std::vector<float>(want.post.size()), std::vector<float>(want.comb.size()),
                    std::vector<bf16>(want.layer_input.size())};
      MhcFusedParams p{};
      p.post = MhcPostParams{m.x.data(), m.residual.data(), m.post_in.data(), m.comb_in.data(), res_out.data(),
                             m.tokens, n, hidden};
      p.pre = MhcPreParams{res_out.data(), m.fn.data(), m.scale.data(), m.base.data(),
                           norm ? m.norm_weight.data() : nullptr, o.post.data(), o.comb.data(),
                           o.layer_input.data(), m.tokens, n, hidden, m.s};
      cpu::mhc_fused_post_pre(p, *ex);
      EXPECT_TRUE(test::same_bits(res_out, residual_cur)) << "residual_out";
      EXPECT_TRUE(test::same_bits(o.post, want.post)) << "post_mix";
      EXPECT_TRUE(test::same_bits(o.comb, want.comb)) << "comb_mix";
      EXPECT_TRUE(test::same_bits(o.layer_input, want.layer_input)) << "layer_input";
    }
  }
}

TEST_P(CpuMhc, HcHeadMatchesDoubleReference) {
  const auto [n, hidden] = GetParam();
  const int64_t tokens = 6, k = int64_t(n) * hidden;
  Mhc m(n, hidden, tokens, 400 + n);
  m.fn.resize(size_t(n * k));  // [n, n*D]
  m.base.resize(n);
  const float scale = 0.7f, rms_eps = 1e-6f, hc_eps = 1e-2f;
  std::vector<bf16> out(size_t(tokens * hidden));
  MhcPreParams p = m.head_params(m.residual.data(), &scale, rms_eps, hc_eps, out.data());
  cpu::hc_head(p, kSerial);
  Bf16Check check{"hc_head"};
  for (int64_t t = 0; t < tokens; ++t) {
    std::vector<double> xs(k), pre(n);
    double ss = 0;
    for (int64_t i = 0; i < k; ++i) ss += (xs[i] = to_float(m.residual[t * k + i])) * xs[i];
    const double r = 1.0 / std::sqrt(ss / double(k) + rms_eps);
    for (int i = 0; i < n; ++i) {
      double g = 0;
      for (int64_t j = 0; j < k; ++j) g += xs[j] * m.fn[i * k + j];
      pre[i] = sigmoid_d(g * r * scale + m.base[i]) + hc_eps;
    }
    for (int64_t d = 0; d < hidden; ++d) {
      double y = 0, mag = 0;
      for (int i = 0; i < n; ++i) {
        y += pre[i] * xs[i * hidden + d];
        mag += std::fabs(pre[i] * xs[i * hidden + d]);
      }
      check(out[t * hidden + d], y, 2e-5 * mag, 1.0, size_t(t * hidden + d));
    }
  }
  std::vector<bf16> threaded(out.size());
  p.layer_input = threaded.data();
  cpu::hc_head(p, kThreaded);
  EXPECT_TRUE(test::same_bits(out, threaded));
}

// mhc_post_hc_head == mhc_post, then hc_head on the stored streams (bit for bit), then the final
// RMSNorm of the bf16 head output (double reference); the stash equals mhc_post's output; serial ==
// threaded; with and without streams_out.
TEST_P(CpuMhc, PostHcHeadEqualsPostThenHead) {
  const auto [n, hidden] = GetParam();
  const int64_t tokens = 2 * cpu::token_grain(n, hidden) + 3, k = int64_t(n) * hidden;
  Mhc m(n, hidden, tokens, 600 + n);
  m.fn.resize(size_t(n * k));  // [n, n*D]
  m.base.resize(n);
  const float scale = 0.7f, norm_eps = 1e-5f;
  const std::vector<bf16> streams = m.run_post(kSerial);
  std::vector<bf16> head(size_t(tokens * hidden));
  MhcPreParams hp = m.head_params(streams.data(), &scale, 1e-6f, 1e-2f, head.data());
  hp.scalars.norm_eps = norm_eps;
  cpu::hc_head(hp, kSerial);
  for (bool norm : {false, true}) {
    for (bool stash : {false, true}) {
      for (const cpu::Executor* ex : {&kSerial, &kThreaded}) {
        SCOPED_TRACE(testing::Message() << "norm=" << norm << " stash=" << stash);
        std::vector<bf16> out(head.size()), stash_out(stash ? streams.size() : 0);
        MhcPostHeadParams p{};
        p.post = MhcPostParams{m.x.data(), m.residual.data(), m.post_in.data(), m.comb_in.data(),
                               stash ? stash_out.data() : nullptr, tokens, n, hidden};
        p.pre = hp;
        p.pre.residual = nullptr;
        p.pre.norm_weight = norm ? m.norm_weight.data() : nullptr;
        p.pre.layer_input = out.data();
        cpu::mhc_post_hc_head(p, *ex);
        if (stash) {
          EXPECT_TRUE(test::same_bits(stash_out, streams)) << "streams_out";
        }
        if (!norm) {
          EXPECT_TRUE(test::same_bits(out, head)) << "out";
          continue;
        }
        Bf16Check check{"mhc_post_hc_head + norm"};
        for (int64_t t = 0; t < tokens; ++t) {
          double ss = 0;
          for (int64_t d = 0; d < hidden; ++d) ss += std::pow(double(to_float(head[t * hidden + d])), 2);
          const double rs = 1.0 / std::sqrt(ss / double(hidden) + norm_eps);
          for (int64_t d = 0; d < hidden; ++d) {
            const double exact = double(to_float(head[t * hidden + d])) * rs * to_float(m.norm_weight[d]);
            check(out[t * hidden + d], exact, 1e-5 * std::fabs(exact), 1.0, size_t(t * hidden + d));
          }
        }
      }
    }
  }
}

// Enough tokens for several parallel chunks: threaded == serial bit for bit, and a token's output
// does not depend on the batch it is in.
TEST_P(CpuMhc, ThreadedAndBatchInvariant) {
  const auto [n, hidden] = GetParam();
  const int64_t tokens = 2 * cpu::token_grain(n, hidden) + 3;
  Mhc m(n, hidden, tokens, 500 + n);
  m.with_norm = true;
  const Mhc::PreOut serial = m.run_pre(m.residual, kSerial), threaded = m.run_pre(m.residual, kThreaded);
  EXPECT_TRUE(test::same_bits(serial.post, threaded.post));
  EXPECT_TRUE(test::same_bits(serial.comb, threaded.comb));
  EXPECT_TRUE(test::same_bits(serial.layer_input, threaded.layer_input));
  EXPECT_TRUE(test::same_bits(m.run_post(kSerial), m.run_post(kThreaded)));
  const int64_t t = tokens - 2;
  const Mhc::PreOut one = m.run_pre(m.residual, kSerial, t, 1);
  EXPECT_TRUE(test::same_bits(one.comb, std::vector<float>(serial.comb.begin() + t * n * n,
                                                           serial.comb.begin() + (t + 1) * n * n)));
  EXPECT_TRUE(test::same_bits(one.layer_input, std::vector<bf16>(serial.layer_input.begin() + t * hidden,
                                                                 serial.layer_input.begin() + (t + 1) * hidden)));
}

// ---- mhc_pre_delayed ------------------------------------------------------------------------------

struct DelayedOut {
  Mhc::PreOut pre;
  std::vector<float> new_pre;
};

DelayedOut run_delayed(const Mhc& m, const std::vector<bf16>& res, const bf16* x, const float* fn,
                       const float* pre_mix, const cpu::Executor& ex) {
  const int n = m.n;
  DelayedOut o{{std::vector<float>(size_t(m.tokens * n)), std::vector<float>(size_t(m.tokens * n * n)),
                std::vector<bf16>(size_t(m.tokens * m.hidden))},
               std::vector<float>(size_t(m.tokens * n))};
  MhcPreDelayedParams p{MhcPreParams{res.data(), fn, m.scale.data(), m.base.data(),
                                     m.with_norm ? m.norm_weight.data() : nullptr, o.pre.post.data(),
                                     o.pre.comb.data(), o.pre.layer_input.data(), m.tokens, n, m.hidden, m.s},
                        x, pre_mix, o.new_pre.data()};
  cpu::mhc_pre_delayed(p, ex);
  return o;
}

// Projected from the streams, the delayed op's mixes are mhc_pre's (held to the double reference
// above), bit for bit; carrying its own new_pre back in reproduces mhc_pre's layer_input; without a
// pre_mix layer_input is stream 0 (bitwise without the norm, mhc_pre's normed collapse of a one-hot
// weight with it). Threaded == serial.
TEST_P(CpuMhc, PreDelayedCarriedAndIdentity) {
  const auto [n, hidden] = GetParam();
  for (bool norm : {false, true}) {
    SCOPED_TRACE(testing::Message() << "norm=" << norm);
    Mhc m(n, hidden, 2 * cpu::token_grain(n, hidden) + 3, 600 + n);
    m.with_norm = norm;
    const Mhc::PreOut want = m.run_pre(m.residual, kSerial);
    const DelayedOut ident = run_delayed(m, m.residual, nullptr, m.fn.data(), nullptr, kSerial);
    EXPECT_TRUE(test::same_bits(ident.pre.post, want.post));
    EXPECT_TRUE(test::same_bits(ident.pre.comb, want.comb));
    const DelayedOut carried = run_delayed(m, m.residual, nullptr, m.fn.data(), ident.new_pre.data(), kThreaded);
    EXPECT_TRUE(test::same_bits(carried.pre.layer_input, want.layer_input));
    EXPECT_TRUE(test::same_bits(carried.new_pre, ident.new_pre));
    EXPECT_TRUE(test::same_bits(run_delayed(m, m.residual, nullptr, m.fn.data(), nullptr, kThreaded).pre.layer_input,
                                ident.pre.layer_input));
    std::vector<bf16> stream0(size_t(m.tokens * hidden));
    for (int64_t t = 0; t < m.tokens; ++t)
      std::copy_n(m.residual.begin() + t * m.k(), hidden, stream0.begin() + t * hidden);
    if (!norm) {
      EXPECT_TRUE(test::same_bits(ident.pre.layer_input, stream0));
    } else {  // the normed stream 0 is mhc_pre's n = 1 collapse with weight 1
      Mhc one(1, hidden, m.tokens, 0);
      one.norm_weight = m.norm_weight;
      one.with_norm = true;
      one.s.hc_pre_eps = 0.0f;
      one.fn.assign(one.fn.size(), 0.0f);
      one.base.assign(one.base.size(), 1e4f);  // sigmoid(1e4) = 1: pre = 1 exactly
      EXPECT_TRUE(test::same_bits(ident.pre.layer_input, one.run_pre(stream0, kSerial).layer_input));
    }
  }
}

// The broadcast entry: projecting x [T, D] with fn_b[m] = sum_i fn[m, i*D:(i+1)*D] gives the mixes of
// mhc_pre on the streams of n copies of x (to fp32 summation error); layer_input is stream 0.
TEST_P(CpuMhc, PreDelayedBroadcast) {
  const auto [n, hidden] = GetParam();
  Mhc m(n, hidden, 6, 700 + n);
  std::vector<bf16> copies(size_t(m.tokens * m.k()));
  for (int64_t t = 0; t < m.tokens; ++t)
    for (int i = 0; i < n; ++i) std::copy_n(m.x.begin() + t * hidden, hidden, copies.begin() + (t * n + i) * hidden);
  std::vector<float> fn_b(size_t(m.m3() * hidden));
  for (int r = 0; r < m.m3(); ++r)
    for (int i = 0; i < n; ++i)
      for (int64_t d = 0; d < hidden; ++d) fn_b[r * hidden + d] += m.fn[(r * n + i) * hidden + d];
  const Mhc::PreOut want = m.run_pre(copies, kSerial);
  const DelayedOut got = run_delayed(m, copies, m.x.data(), fn_b.data(), nullptr, kSerial);
  for (size_t i = 0; i < want.post.size(); ++i) EXPECT_NEAR(got.pre.post[i], want.post[i], 2e-5) << i;
  for (size_t i = 0; i < want.comb.size(); ++i) EXPECT_NEAR(got.pre.comb[i], want.comb[i], 2e-5) << i;
  EXPECT_TRUE(test::same_bits(got.pre.layer_input, m.x));
  EXPECT_TRUE(test::same_bits(run_delayed(m, copies, m.x.data(), fn_b.data(), nullptr, kThreaded).new_pre,
                              got.new_pre));
}

// DeepSeek-V4.1's seam: mhc_fused_post_pre_delayed == mhc_post, then mhc_pre_delayed on its stored
// output, bit for bit on every output, with and without the carried pre_mix and the norm (the delayed
// pre itself is held to mhc_pre, and mhc_pre to the double reference, above). Threaded == serial.
TEST_P(CpuMhc, FusedPostPreDelayedIsPostThenDelayed) {
  const auto [n, hidden] = GetParam();
  for (bool norm : {false, true}) {
    for (bool carried : {false, true}) {
      SCOPED_TRACE(testing::Message() << "norm=" << norm << " carried=" << carried);
      Mhc m(n, hidden, 2 * cpu::token_grain(n, hidden) + 3, 800 + n);
      m.with_norm = norm;
      const std::vector<float> pre_mix = test::normal_floats(size_t(m.tokens * n), 801, 0.5f);
      const float* carry = carried ? pre_mix.data() : nullptr;
      const std::vector<bf16> streams = m.run_post(kSerial);
      const DelayedOut want = run_delayed(m, streams, nullptr, m.fn.data(), carry, kSerial);
      for (const cpu::Executor* ex : {&kSerial, &kThreaded}) {
        std::vector<bf16> residual_out(streams.size(), bf16{0x7fc1});  // NaN: unwritten elements show
        DelayedOut got{{std::vector<float>(want.pre.post.size(), NAN), std::vector<float>(want.pre.comb.size(), NAN),
                        std::vector<bf16>(want.pre.layer_input.size(), bf16{0x7fc1})},
                       std::vector<float>(want.new_pre.size(), NAN)};
        MhcFusedDelayedParams p{};
        p.post = MhcPostParams{m.x.data(), m.residual.data(), m.post_in.data(), m.comb_in.data(),
                               residual_out.data(), m.tokens, n, hidden};
        p.pre = MhcPreDelayedParams{MhcPreParams{residual_out.data(), m.fn.data(), m.scale.data(), m.base.data(),
                                                 norm ? m.norm_weight.data() : nullptr, got.pre.post.data(),
                                                 got.pre.comb.data(), got.pre.layer_input.data(), m.tokens, n,
                                                 hidden, m.s},
                                    nullptr, carry, got.new_pre.data()};
        cpu::mhc_fused_post_pre_delayed(p, *ex);
        EXPECT_TRUE(test::same_bits(residual_out, streams)) << "residual_out";
        EXPECT_TRUE(test::same_bits(got.pre.post, want.pre.post)) << "post_mix";
        EXPECT_TRUE(test::same_bits(got.pre.comb, want.pre.comb)) << "comb_mix";
        EXPECT_TRUE(test::same_bits(got.pre.layer_input, want.pre.layer_input)) << "layer_input";
        EXPECT_TRUE(test::same_bits(got.new_pre, want.new_pre)) << "new_pre";
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, CpuMhc,
                         testing::Combine(testing::Values(1, 3, 4), testing::Values<int64_t>(1, 65, 300)),
                         [](const auto& info) {
                           std::ostringstream name;
                           name << "n" << std::get<0>(info.param) << "_D" << std::get<1>(info.param);
                           return name.str();
                         });

// ---- sinkhorn ------------------------------------------------------------------------------------

std::vector<float> run_sinkhorn(const std::vector<float>& logits, int64_t batch, int n, int repeat, float eps,
                                const cpu::Executor& ex) {
  std::vector<float> out(logits.size());
  cpu::sinkhorn(SinkhornParams{logits.data(), out.data(), batch, n, repeat, eps}, ex);
  return out;
}

TEST(CpuSinkhorn, SingleStreamClosedForm) {
  // n = 1: softmax gives 1, + eps; every later step divides c by (c + eps).
  for (double eps : {0.5, 1e-2, 1e-6}) {
    for (int repeat : {1, 2, 20}) {
      double c = 1.0 + eps;
      for (int steps = 2 * repeat - 1; steps > 0; --steps) c /= c + eps;
      const float got = run_sinkhorn({3.7f}, 1, 1, repeat, float(eps), kSerial)[0];
      EXPECT_NEAR(got, c, 1e-6 * c) << "eps=" << eps << " repeat=" << repeat;
    }
  }
  EXPECT_FLOAT_EQ(run_sinkhorn({0.0f}, 1, 1, 1, 0.5f, kSerial)[0], 0.75f);        // 1.5 / 2
  EXPECT_FLOAT_EQ(run_sinkhorn({0.0f}, 1, 1, 2, 0.5f, kSerial)[0], 6.0f / 11.0f);  // (0.75/1.25)/1.1
}

TEST(CpuSinkhorn, UniformLogits) {
  // Equal logits: softmax 1/n, + eps, column sums 1 + n*eps: (1/n + eps) / (1 + (n+1) eps).
  const int n = 4;
  const double eps = 0.01, want = (0.25 + eps) / (1 + 5 * eps);
  for (float v : run_sinkhorn(std::vector<float>(16, 3.0f), 1, n, 1, float(eps), kSerial)) EXPECT_NEAR(v, want, 1e-7);
}

TEST(CpuSinkhorn, MatchesDoubleReference) {
  for (int n : {1, 2, 3, 4, 8}) {
    for (int repeat : {1, 3, 20}) {
      for (float eps : {1e-6f, 1e-2f}) {
        const int64_t batch = 5;
        auto logits = test::normal_floats(size_t(batch * n * n), uint32_t(n * 100 + repeat), 3.0f);
        const auto got = run_sinkhorn(logits, batch, n, repeat, eps, kSerial);
        for (int64_t b = 0; b < batch; ++b) {
          std::vector<double> c(logits.begin() + b * n * n, logits.begin() + (b + 1) * n * n);
          sinkhorn_d(c, n, repeat, eps);
          for (int e = 0; e < n * n; ++e)
            ASSERT_NEAR(got[b * n * n + e], c[e], 2e-6 + 2e-5 * c[e])
                << "n=" << n << " repeat=" << repeat << " eps=" << eps << " b=" << b << " e=" << e;
        }
        if (repeat == 20 && eps < 1e-3f)  // last step normalises columns: sums 1 - O(eps)
          for (int64_t b = 0; b < batch; ++b)
            for (int j = 0; j < n; ++j) {
              double sum = 0;
              for (int i = 0; i < n; ++i) sum += got[b * n * n + i * n + j];
              EXPECT_NEAR(sum, 1.0, 1e-4);
            }
      }
    }
  }
}

TEST(CpuSinkhorn, ThreadedEqualsSerial) {
  const int64_t batch = 3 * 4096 + 5;
  const auto logits = test::normal_floats(size_t(batch * 16), 9, 2.0f);
  EXPECT_TRUE(test::same_bits(run_sinkhorn(logits, batch, 4, 20, 1e-6f, kSerial),
                              run_sinkhorn(logits, batch, 4, 20, 1e-6f, kThreaded)));
}

}  // namespace
}  // namespace dsv4
