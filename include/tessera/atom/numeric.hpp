// Value types the atoms name (fp16, bf16, tf32, fp8 storage; 128-bit words) and their widths in
// bits.  Storage only plus float conversions: kernels that want the CUDA intrinsics'
// arithmetic convert through float or reinterpret the bits as __half / __nv_bfloat16.
//
// The 16/32-bit types are not aggregates: T(x) and T{x} convert the value x (through float,
// rounding to nearest even), never its bits.  As aggregates, bfloat16_t(1.5f) compiled as
// bits = 1 (C++20 parenthesised aggregate init), a denormal; bits are set by name only:
// T::from_bits(b).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "tessera/config.hpp"

namespace tessera {

namespace detail {
TESSERA_HOST_DEVICE constexpr uint32_t float_bits(float f) { return __builtin_bit_cast(uint32_t, f); }
TESSERA_HOST_DEVICE constexpr float bits_float(uint32_t u) { return __builtin_bit_cast(float, u); }

// float -> fp16 / bf16 bits, rounding to nearest even: plain functions of the float, which the
// constructors and from_float call directly.  (Through a chain of from_float -> from_bits ->
// private constructor, nvcc stopped inlining a 128-value epilogue loop of conversions and put
// example 5's accumulators in local memory: 0.34x cuBLAS instead of 0.46x.  Its cvt.rn form
// made ptxas spill 438 bytes in the same kernel, so the arithmetic stays portable; kernels
// that want cvt.rn issue it themselves, as the SM90 epilogue does.)
TESSERA_HOST_DEVICE constexpr uint16_t f16_bits(float f) {
  uint32_t x = float_bits(f);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t exp = (x >> 23) & 0xffu;
  uint32_t man = x & 0x7fffffu;
  if (exp == 0xffu) return uint16_t(sign | 0x7c00u | (man ? 0x200u : 0u));  // inf / nan
  int e = int(exp) - 127 + 15;
  if (e >= 0x1f) return uint16_t(sign | 0x7c00u);                         // overflow
  if (e <= 0) {                                                                       // subnormal / zero
    if (e < -10) return uint16_t(sign);
    man |= 0x800000u;
    int shift = 14 - e;
    uint32_t half_man = man >> shift;
    uint32_t rest = man & ((1u << shift) - 1u), halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half_man & 1u))) ++half_man;
    return uint16_t(sign | half_man);
  }
  uint32_t h = sign | (uint32_t(e) << 10) | (man >> 13);
  uint32_t rest = man & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;  // carries into the exponent correctly
  return uint16_t(h);
}
TESSERA_HOST_DEVICE constexpr uint16_t bf16_bits(float f) {
  uint32_t x = float_bits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return uint16_t((x >> 16) | 0x40u);  // nan
  x += 0x7fffu + ((x >> 16) & 1u);
  return uint16_t(x >> 16);
}
}  // namespace detail

// IEEE binary16.  Conversion from float rounds to nearest even; overflow gives infinity.
struct half_t {
  uint16_t bits = 0;
  half_t() = default;
  TESSERA_HOST_DEVICE constexpr explicit half_t(float f) : bits(detail::f16_bits(f)) {}
  TESSERA_HOST_DEVICE static constexpr half_t from_bits(uint16_t b) { return half_t(raw_bits{b}); }
  TESSERA_HOST_DEVICE static constexpr half_t from_float(float f) { return from_bits(detail::f16_bits(f)); }
  TESSERA_HOST_DEVICE constexpr float to_float() const {
    uint32_t sign = uint32_t(bits & 0x8000u) << 16;
    uint32_t exp = (bits >> 10) & 0x1fu, man = bits & 0x3ffu;
    if (exp == 0x1f) return detail::bits_float(sign | 0x7f800000u | (man << 13));
    if (exp == 0) {
      if (man == 0) return detail::bits_float(sign);
      int e = -1;
      do { man <<= 1; ++e; } while (!(man & 0x400u));
      return detail::bits_float(sign | (uint32_t(127 - 15 - e) << 23) | ((man & 0x3ffu) << 13));
    }
    return detail::bits_float(sign | ((exp + 127 - 15) << 23) | (man << 13));
  }
  TESSERA_HOST_DEVICE constexpr explicit operator float() const { return to_float(); }

 private:
  struct raw_bits { uint16_t b; };
  TESSERA_HOST_DEVICE constexpr explicit half_t(raw_bits r) : bits(r.b) {}
};

// bfloat16: the top half of a float, rounded to nearest even.
struct bfloat16_t {
  uint16_t bits = 0;
  bfloat16_t() = default;
  TESSERA_HOST_DEVICE constexpr explicit bfloat16_t(float f) : bits(detail::bf16_bits(f)) {}
  TESSERA_HOST_DEVICE static constexpr bfloat16_t from_bits(uint16_t b) { return bfloat16_t(raw_bits{b}); }
  TESSERA_HOST_DEVICE static constexpr bfloat16_t from_float(float f) { return from_bits(detail::bf16_bits(f)); }
  TESSERA_HOST_DEVICE constexpr float to_float() const { return detail::bits_float(uint32_t(bits) << 16); }
  TESSERA_HOST_DEVICE constexpr explicit operator float() const { return to_float(); }

 private:
  struct raw_bits { uint16_t b; };
  TESSERA_HOST_DEVICE constexpr explicit bfloat16_t(raw_bits r) : bits(r.b) {}
};

// tf32: a float whose low 13 mantissa bits the tensor core ignores (stored as 32 bits).
struct tfloat32_t {
  uint32_t bits = 0;
  tfloat32_t() = default;
  TESSERA_HOST_DEVICE constexpr explicit tfloat32_t(float f) : bits(from_float(f).bits) {}
  TESSERA_HOST_DEVICE static constexpr tfloat32_t from_bits(uint32_t b) { return tfloat32_t(raw_bits{b}); }
  TESSERA_HOST_DEVICE static constexpr tfloat32_t from_float(float f) {
    uint32_t x = detail::float_bits(f);
    if ((x & 0x7fffffffu) <= 0x7f800000u) x = (x + 0xfffu + ((x >> 13) & 1u)) & ~0x1fffu;
    return from_bits(x);
  }
  TESSERA_HOST_DEVICE constexpr float to_float() const { return detail::bits_float(bits); }
  TESSERA_HOST_DEVICE constexpr explicit operator float() const { return to_float(); }

 private:
  struct raw_bits { uint32_t b; };
  TESSERA_HOST_DEVICE constexpr explicit tfloat32_t(raw_bits r) : bits(r.b) {}
};

namespace detail {
// The 8-bit floats of the OCP FP8 formats (E4M3: bias 7, no infinities, S.1111.111 the only NaN,
// largest 448; E5M2: bias 15, IEEE-like with infinities): float -> bits rounds to nearest even;
// beyond the largest finite value it gives NaN (E4M3) or infinity (E5M2), as IEEE conversion
// without saturation does.
template <int ExpBits, int ManBits, bool HasInf>
TESSERA_HOST_DEVICE constexpr uint8_t fp8_bits(float f) {
  constexpr int bias = (1 << (ExpBits - 1)) - 1;
  constexpr uint32_t nan = 0x7fu;  // E5M2 0.11111.11, E4M3 0.1111.111
  constexpr uint32_t overflow = HasInf ? (0x1fu << ManBits) : nan;  // infinity (E5M2) / NaN (E4M3)
  constexpr uint32_t max_finite = HasInf ? (0x1eu << ManBits) | ((1u << ManBits) - 1u) : 0x7eu;
  const uint32_t x = float_bits(f);
  const uint32_t sign = (x >> 24) & 0x80u;
  const uint32_t exp = (x >> 23) & 0xffu;
  uint32_t man = x & 0x7fffffu;
  if (exp == 0xffu) return uint8_t(sign | (man ? nan : overflow));
  const int e = int(exp) - 127 + bias;
  uint32_t q, rest, halfway;
  if (e <= 0) {  // subnormal (or zero) in the 8-bit format
    const int shift = (23 - ManBits) + (1 - e);
    if (shift >= 25) return uint8_t(sign);  // below half the smallest subnormal
    man |= 0x800000u;
    q = man >> shift;
    rest = man & ((1u << shift) - 1u);
    halfway = 1u << (shift - 1);
  } else {
    if (e > (1 << ExpBits)) return uint8_t(sign | overflow);
    q = (uint32_t(e) << ManBits) | (man >> (23 - ManBits));
    rest = man & ((1u << (23 - ManBits)) - 1u);
    halfway = 1u << (22 - ManBits);
  }
  if (rest > halfway || (rest == halfway && (q & 1u))) ++q;  // a carry moves into the exponent correctly
  if (q > max_finite) return uint8_t(sign | overflow);
  return uint8_t(sign | q);
}
template <int ExpBits, int ManBits, bool HasInf>
TESSERA_HOST_DEVICE constexpr float fp8_float(uint8_t b) {
  constexpr int bias = (1 << (ExpBits - 1)) - 1;
  const uint32_t sign = uint32_t(b & 0x80u) << 24;
  const uint32_t exp = (b >> ManBits) & ((1u << ExpBits) - 1u);
  uint32_t man = b & ((1u << ManBits) - 1u);
  if (HasInf ? exp == (1u << ExpBits) - 1u : (b & 0x7fu) == 0x7fu)
    return bits_float(sign | 0x7f800000u | ((HasInf ? man : 1u) << (23 - ManBits)));  // inf / nan
  if (exp == 0) {
    if (man == 0) return bits_float(sign);
    int e = 0;
    while (!(man & (1u << ManBits))) { man <<= 1; ++e; }
    return bits_float(sign | (uint32_t(127 - bias + 1 - e) << 23) | ((man & ((1u << ManBits) - 1u)) << (23 - ManBits)));
  }
  return bits_float(sign | ((exp + 127 - bias) << 23) | (man << (23 - ManBits)));
}
}  // namespace detail

// The two FP8 formats of Hopper's wgmma (PTX .e4m3 and .e5m2): storage plus float conversions.
#define TESSERA_FP8_TYPE(NAME, E, M, INF)                                                                 \
  struct NAME {                                                                                          \
    uint8_t bits = 0;                                                                                    \
    NAME() = default;                                                                                    \
    TESSERA_HOST_DEVICE constexpr explicit NAME(float f) : bits(detail::fp8_bits<E, M, INF>(f)) {}       \
    TESSERA_HOST_DEVICE static constexpr NAME from_bits(uint8_t b) { return NAME(raw_bits{b}); }         \
    TESSERA_HOST_DEVICE static constexpr NAME from_float(float f) { return from_bits(detail::fp8_bits<E, M, INF>(f)); } \
    TESSERA_HOST_DEVICE constexpr float to_float() const { return detail::fp8_float<E, M, INF>(bits); }  \
    TESSERA_HOST_DEVICE constexpr explicit operator float() const { return to_float(); }                 \
                                                                                                         \
   private:                                                                                              \
    struct raw_bits { uint8_t b; };                                                                      \
    TESSERA_HOST_DEVICE constexpr explicit NAME(raw_bits r) : bits(r.b) {}                               \
  };
TESSERA_FP8_TYPE(float_e4m3_t, 4, 3, false)
TESSERA_FP8_TYPE(float_e5m2_t, 5, 2, true)
#undef TESSERA_FP8_TYPE

// A 128-bit word (16-byte vector copies, ldmatrix row addresses).
struct alignas(16) uint128_t {
  uint64_t lo = 0, hi = 0;
  friend TESSERA_HOST_DEVICE constexpr bool operator==(uint128_t a, uint128_t b) {
    return a.lo == b.lo && a.hi == b.hi;
  }
};

template <class T> struct sizeof_bits : std::integral_constant<int, int(sizeof(T) * 8)> {};
template <class T> inline constexpr int sizeof_bits_v = sizeof_bits<std::remove_cv_t<T>>::value;

static_assert(sizeof(half_t) == 2 && sizeof(bfloat16_t) == 2 && sizeof(tfloat32_t) == 4);
static_assert(sizeof(float_e4m3_t) == 1 && sizeof(float_e5m2_t) == 1);
static_assert(!std::is_aggregate_v<float_e4m3_t> && !std::is_aggregate_v<float_e5m2_t> &&
              std::is_trivially_copyable_v<float_e4m3_t> && std::is_trivially_copyable_v<float_e5m2_t>);
static_assert(!std::is_aggregate_v<half_t> && !std::is_aggregate_v<bfloat16_t> && !std::is_aggregate_v<tfloat32_t>,
              "numeric types convert values: T(x) must never initialise the bits");
static_assert(std::is_trivially_copyable_v<half_t> && std::is_trivially_copyable_v<bfloat16_t> &&
              std::is_trivially_copyable_v<tfloat32_t>);
static_assert(sizeof(uint128_t) == 16);

}  // namespace tessera
