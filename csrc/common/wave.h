// Wave collectives written once for two backends: `Amdgcn` (HIP device code, one value per lane,
// 64 lanes, mapped onto DPP / ds_swizzle / ds_bpermute / ballot / mbcnt) and `Emulated<N>` (host
// code, one array of N lane values, every primitive spelled out serially). The algorithms below are
// templates over the backend and only combine its primitives, so the lines the AMD build runs are
// the lines the host gtest checks at widths 64 and 32.
//
// A backend `B` provides
//   B::kWidth                      lanes per wave (a power of two, >= 16: DPP rows are 16 lanes)
//   B::Val<T>                      one T per lane
//   B::lane_id()                   Val<int>: 0 .. kWidth-1
//   B::splat(T)                    Val<T>: the same value in every lane
//   B::zip(a, b, op)               Val: op(a, b) lane by lane
//   B::xor_lane<M>(v, -)           lane i gets v[i ^ M]
//   B::up_in_row<D>(v, id)         lane i gets v[i - D], or `id` where i % 16 < D
//   B::carry<S>(v, id)             lanes of odd S-lane segments get the last lane of the segment
//                                  before; all other lanes get `id` (DPP row_bcast15 / row_bcast31)
//   B::read_lane(v, lane)          T: lane `lane`'s value (a wave-uniform lane number)
//   B::ballot(pred)                uint64_t: bit i set where lane i's predicate holds
//   B::count_below(mask)           Val<int>: set bits of `mask` below each lane (mbcnt)
// Every lane of the wave must take part (inactive lanes would read as garbage on the device):
// lanes without data pass the identity. Values are 32-bit.
#pragma once

#include "compat.h"

namespace dsv4::wave {

constexpr int kRow = 16;  // DPP row: the unit of row_shr and row_bcast

// ---- algorithms -------------------------------------------------------------------------------

// Butterfly over xor distances 1, 2, 4, ...: a fixed order, so the result depends only on the
// lane values, and (op being commutative) every lane ends with the same bits.
template <class B, int M = 1, class V, class Op>
DSV4_HD V reduce(V v, Op op) {
  if constexpr (M < B::kWidth) {
    return reduce<B, 2 * M>(B::zip(v, B::template xor_lane<M>(v), op), op);
  } else {
    return v;
  }
}

struct Plus {
  template <class T>
  DSV4_HD T operator()(T a, T b) const { return a + b; }
};
struct Max {
  template <class T>
  DSV4_HD T operator()(T a, T b) const { return a > b ? a : b; }
};

template <class B, class V>
DSV4_HD V sum(V v) { return reduce<B>(v, Plus{}); }

// Max of numbers; for floats NaN is not ordered, so callers map NaN away first (or use keys).
template <class B, class V>
DSV4_HD V max(V v) { return reduce<B>(v, Max{}); }

// Adds, for S = 16, 32, ... < width, the last lane of each even S-segment to the odd one after it.
template <class B, int S, class T>
DSV4_HD typename B::template Val<T> carry_rows(typename B::template Val<T> v) {
  if constexpr (S < B::kWidth) {
    return carry_rows<B, 2 * S, T>(B::zip(v, B::template carry<S>(v, T(0)), Plus{}));
  } else {
    return v;
  }
}

// Inclusive prefix sum of integers (Hillis-Steele inside 16-lane rows, then row carries).
template <class B, class T>
DSV4_HD typename B::template Val<T> inclusive_sum(typename B::template Val<T> v) {
  static_assert(T(0.5) == T(0), "prefix sums are for integers (exact in any order)");
  v = B::zip(v, B::template up_in_row<1>(v, T(0)), Plus{});
  v = B::zip(v, B::template up_in_row<2>(v, T(0)), Plus{});
  v = B::zip(v, B::template up_in_row<4>(v, T(0)), Plus{});
  v = B::zip(v, B::template up_in_row<8>(v, T(0)), Plus{});
  return carry_rows<B, kRow, T>(v);
}

template <class B, class T>
DSV4_HD typename B::template Val<T> exclusive_sum(typename B::template Val<T> v) {
  const auto inc = inclusive_sum<B, T>(v);
  return B::zip(inc, v, [](T a, T b) { return T(a - b); });
}

// Lanes below me whose predicate holds, and the wave total.
template <class B, class P>
DSV4_HD auto count_below(const P& pred) { return B::count_below(B::ballot(pred)); }

template <class B, class P>
DSV4_HD int count(const P& pred) { return __builtin_popcountll(B::ballot(pred)); }

// ---- host lane emulation ----------------------------------------------------------------------

template <class T, int N>
struct Lanes {
  T v[N];
  DSV4_HD T& operator[](int i) { return v[i]; }
  DSV4_HD const T& operator[](int i) const { return v[i]; }
};

template <int N>
struct Emulated {
  static_assert(N >= kRow && (N & (N - 1)) == 0, "a power-of-two width of at least one DPP row");
  static constexpr int kWidth = N;
  template <class T>
  using Val = Lanes<T, N>;

  static Val<int> lane_id() {
    Val<int> r;
    for (int i = 0; i < N; ++i) r[i] = i;
    return r;
  }
  template <class T>
  static Val<T> splat(T x) {
    Val<T> r;
    for (int i = 0; i < N; ++i) r[i] = x;
    return r;
  }
  template <class T, class U, class Op>
  static auto zip(const Val<T>& a, const Val<U>& b, Op op) {
    Val<decltype(op(a[0], b[0]))> r;
    for (int i = 0; i < N; ++i) r[i] = op(a[i], b[i]);
    return r;
  }
  template <int M, class T>
  static Val<T> xor_lane(const Val<T>& v) {
    Val<T> r;
    for (int i = 0; i < N; ++i) r[i] = v[i ^ M];
    return r;
  }
  template <int D, class T>
  static Val<T> up_in_row(const Val<T>& v, T id) {
    Val<T> r;
    for (int i = 0; i < N; ++i) r[i] = i % kRow >= D ? v[i - D] : id;
    return r;
  }
  template <int S, class T>
  static Val<T> carry(const Val<T>& v, T id) {
    Val<T> r;
    for (int i = 0; i < N; ++i) r[i] = (i / S) & 1 ? v[(i / S) * S - 1] : id;
    return r;
  }
  template <class T>
  static T read_lane(const Val<T>& v, int lane) { return v[lane]; }
  static uint64_t ballot(const Val<bool>& pred) {
    uint64_t m = 0;
    for (int i = 0; i < N; ++i) m |= uint64_t(pred[i]) << i;
    return m;
  }
  static Val<int> count_below(uint64_t mask) {
    Val<int> r;
    for (int i = 0; i < N; ++i) r[i] = __builtin_popcountll(mask & ((uint64_t(1) << i) - 1));
    return r;
  }
};

// ---- AMD device backend (wave64, CDNA) -------------------------------------------------------

#if defined(__HIPCC__)
struct Amdgcn {
  static constexpr int kWidth = 64;
  template <class T>
  using Val = T;

  __device__ __attribute__((always_inline)) static int lane_id() {
    return int(__builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u)));
  }
  template <class T>
  __device__ __attribute__((always_inline)) static T splat(T x) { return x; }
  template <class T, class U, class Op>
  __device__ __attribute__((always_inline)) static auto zip(T a, U b, Op op) { return op(a, b); }

  // xor 1, 2: DPP quad_perm; xor 4..16: ds_swizzle bit mode (no LDS traffic, no address VGPR);
  // xor 32: ds_bpermute, the only one of the three that crosses the 32-lane halves.
  template <int M, class T>
  __device__ __attribute__((always_inline)) static T xor_lane(T v) {
    static_assert(sizeof(T) == 4 && M > 0 && M < 64 && (M & (M - 1)) == 0, "32-bit, M = 2^j < 64");
    const int x = __builtin_bit_cast(int, v);
    int r;
    if constexpr (M == 1) {
      r = __builtin_amdgcn_update_dpp(x, x, 0xB1, 0xF, 0xF, false);  // quad_perm [1,0,3,2]
    } else if constexpr (M == 2) {
      r = __builtin_amdgcn_update_dpp(x, x, 0x4E, 0xF, 0xF, false);  // quad_perm [2,3,0,1]
    } else if constexpr (M < 32) {
      r = __builtin_amdgcn_ds_swizzle(x, 0x1F | (M << 10));  // and 0x1f, or 0, xor M
    } else {
      r = __builtin_amdgcn_ds_bpermute((lane_id() ^ M) << 2, x);
    }
    return __builtin_bit_cast(T, r);
  }
  template <int D, class T>
  __device__ __attribute__((always_inline)) static T up_in_row(T v, T id) {
    static_assert(sizeof(T) == 4 && D > 0 && D < kRow, "32-bit, shift inside a row");
    return __builtin_bit_cast(T, __builtin_amdgcn_update_dpp(__builtin_bit_cast(int, id),
                                                             __builtin_bit_cast(int, v), 0x110 | D,
                                                             0xF, 0xF, false));  // row_shr:D
  }
  template <int S, class T>
  __device__ __attribute__((always_inline)) static T carry(T v, T id) {
    static_assert(sizeof(T) == 4 && (S == 16 || S == 32), "row_bcast15 or row_bcast31");
    constexpr int kCtrl = S == 16 ? 0x142 : 0x143, kRows = S == 16 ? 0xA : 0xC;
    return __builtin_bit_cast(T, __builtin_amdgcn_update_dpp(__builtin_bit_cast(int, id),
                                                             __builtin_bit_cast(int, v), kCtrl,
                                                             kRows, 0xF, false));
  }
  template <class T>
  __device__ __attribute__((always_inline)) static T read_lane(T v, int lane) {
    static_assert(sizeof(T) == 4, "32-bit");
    return __builtin_bit_cast(T, __builtin_amdgcn_readlane(__builtin_bit_cast(int, v), lane));
  }
  __device__ __attribute__((always_inline)) static uint64_t ballot(bool pred) {
    return __builtin_amdgcn_ballot_w64(pred);
  }
  __device__ __attribute__((always_inline)) static int count_below(uint64_t mask) {
    return int(__builtin_amdgcn_mbcnt_hi(uint32_t(mask >> 32),
                                         __builtin_amdgcn_mbcnt_lo(uint32_t(mask), 0u)));
  }
};
#endif

}  // namespace dsv4::wave
