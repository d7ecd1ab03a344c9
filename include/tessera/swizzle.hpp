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
};

template <class T> struct is_swizzle : std::false_type {};
template <int B, int M, int S> struct is_swizzle<Swizzle<B, M, S>> : std::true_type {};
template <class T> inline constexpr bool is_swizzle_v = is_swizzle<std::remove_cvref_t<T>>::value;
// A swizzle is a compile-time function: it is static.
template <int B, int M, int S> struct is_static<Swizzle<B, M, S>> : std::true_type {};

template <int B, int M, int S> std::string to_string(Swizzle<B, M, S>) {
  return "Sw<" + std::to_string(B) + "," + std::to_string(M) + "," + std::to_string(S) + ">";
}

}  // namespace tessera
