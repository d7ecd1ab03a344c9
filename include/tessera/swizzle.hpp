#pragma once
// Swizzle<B,M,S>: on offsets, XOR the B bits at [M+S, M+S+B) into the bits at
// [M, M+B) (S may be negative: then the higher bits are the ones at M).
// It is an involution and a bijection on [0, 2^(M+B+|S|)) (and on all offsets).
#include "int.hpp"
#include <string>

namespace tessera {

template <int B, int M, int S>
struct Swizzle {
  static_assert(B >= 0, "tessera::Swizzle: B (number of bits) must be >= 0");
  static_assert(M >= 0, "tessera::Swizzle: M (base) must be >= 0");
  static_assert((S < 0 ? -S : S) >= B, "tessera::Swizzle: |S| (shift) must be >= B, or the masks overlap");
  static constexpr int num_bits = B, num_base = M, num_shft = S;
  static constexpr int64_t bit_msk = (int64_t(1) << B) - 1;
  static constexpr int64_t yyy_msk = bit_msk << (M + (S > 0 ? S : 0));
  static constexpr int64_t zzz_msk = bit_msk << (M - (S < 0 ? S : 0));

  template <class Off>
  TESSERA_HOST_DEVICE static constexpr auto apply(Off const& offset) {
    if constexpr (is_static_v<Off>) {
      constexpr int64_t o = Off::value;
      return C<o ^ shiftr(o & yyy_msk)>{};
    } else {
      int64_t o = to_i64(offset);
      return o ^ shiftr(o & yyy_msk);
    }
  }
  template <class Off> TESSERA_HOST_DEVICE constexpr auto operator()(Off const& offset) const { return apply(offset); }

  TESSERA_HOST_DEVICE static constexpr int64_t shiftr(int64_t x) { return S >= 0 ? (x >> S) : (x << -S); }
  // The smallest power-of-two domain on which the swizzle is closed.
  TESSERA_HOST_DEVICE static constexpr auto size() { return C<(int64_t(1) << (M + B + (S < 0 ? -S : S)))>{}; }
  TESSERA_HOST_DEVICE static constexpr auto cosize() { return size(); }
  // The bits sw(x) may have when x has bits only in `bits`: those, and the ones the read
  // bits among them are XORed into.
  TESSERA_HOST_DEVICE static constexpr int64_t image_bits(int64_t bits) { return bits | shiftr(bits & yyy_msk); }
};

// Folding a swizzled address to a register and an immediate.
//
// A thread's partition of a swizzled tile addresses its element c at sw(o + d): o the
// thread's run-time offset, d = L(c) static.  A swizzle is linear over XOR, sw(x ^ y) =
// sw(x) ^ sw(y), so where o and d share no bit (o + d = o ^ d):
//     sw(o + d) = sw(o) ^ sw(d),
// and the bits of sw(d) that sw(o) can never have (image_bits of the bits o may have) add
// instead of XOR (disjoint bits: ^ is | is +).  swizzle_fold(sw, d, o_bits) splits d so that
//     sw(o + d) == (sw(o) ^ xor_part) + add_part     for every o with bits only in o_bits;
// valid is false where d shares a bit with o_bits (or d < 0): that address needs the swizzle
// at run time.  add_part is the portion of d that passes through the swizzle; xor_part == 0
// leaves the register sw(o) plus an immediate (CuTe keeps the same portion out of its
// swizzle: get_nonswizzle_portion).  tests/static/swizzle_fold_test.cpp checks the identity.
struct SwizzleFold {
  bool valid;
  int64_t xor_part, add_part;
};
template <int B, int M, int S>
TESSERA_HOST_DEVICE constexpr SwizzleFold swizzle_fold(Swizzle<B, M, S>, int64_t d, int64_t o_bits) {
  using Sw = Swizzle<B, M, S>;
  if (d < 0 || o_bits < 0 || (d & o_bits) != 0) return {false, 0, 0};
  const int64_t s = d ^ Sw::shiftr(d & Sw::yyy_msk);
  const int64_t reg = Sw::image_bits(o_bits);
  return {true, s & reg, s & ~reg};
}

template <class T> struct is_swizzle : std::false_type {};
template <int B, int M, int S> struct is_swizzle<Swizzle<B, M, S>> : std::true_type {};
template <class T> inline constexpr bool is_swizzle_v = is_swizzle<std::remove_cvref_t<T>>::value;
// A swizzle is a compile-time function: it is static.
template <int B, int M, int S> struct is_static<Swizzle<B, M, S>> : std::true_type {};

template <int B, int M, int S> std::string to_string(Swizzle<B, M, S>) {
  return "Sw<" + std::to_string(B) + "," + std::to_string(M) + "," + std::to_string(S) + ">";
}

}  // namespace tessera
