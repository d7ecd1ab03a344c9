// Value types the atoms name (fp16, bf16, tf32 storage; 128-bit words) and their widths in
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
static_assert(!std::is_aggregate_v<half_t> && !std::is_aggregate_v<bfloat16_t> && !std::is_aggregate_v<tfloat32_t>,
              "numeric types convert values: T(x) must never initialise the bits");
static_assert(std::is_trivially_copyable_v<half_t> && std::is_trivially_copyable_v<bfloat16_t> &&
              std::is_trivially_copyable_v<tfloat32_t>);
static_assert(sizeof(uint128_t) == 16);

}  // namespace tessera
