// The 8/16/32-bit numeric types: T(x) converts the value x (round to nearest even), never the
// bits (they were aggregates, and bfloat16_t(1.5f) meant bits = 1); bits go by from_bits.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "tessera/atom/numeric.hpp"

using namespace tessera;

namespace {
float from_u32(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }
uint32_t to_u32(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }

// The nearest of the two bf16 (top 16 bits) neighbours of a finite f, ties to the even one.
uint16_t bf16_reference(float f) {
  const uint32_t x = to_u32(f);
  const uint16_t lo = uint16_t(x >> 16), hi = uint16_t(lo + 1);
  const double dlo = std::fabs(double(from_u32(uint32_t(lo) << 16)) - double(f));
  // Past the largest finite bf16 the upper neighbour is infinity: measure it as 2^128.
  const float fhi = from_u32(uint32_t(hi) << 16);
  const double vhi = std::isinf(fhi) ? std::copysign(0x1p128, double(f)) : double(fhi);
  const double dhi = std::fabs(vhi - double(f));
  if ((x & 0xffffu) == 0) return lo;
  return dlo < dhi ? lo : dhi < dlo ? hi : (lo % 2 == 0 ? lo : hi);
}
}  // namespace

static_assert(!std::is_aggregate_v<bfloat16_t> && !std::is_aggregate_v<half_t> && !std::is_aggregate_v<tfloat32_t>);
// No implicit conversions either way: a float does not quietly become a bf16, nor the reverse.
static_assert(!std::is_convertible_v<float, bfloat16_t> && !std::is_convertible_v<bfloat16_t, float>);
static_assert(!std::is_convertible_v<int, half_t> && !std::is_convertible_v<uint16_t, half_t>);
// Values, at compile time: T(x) and T{x} mean the value x.
static_assert(bfloat16_t(1.5f).bits == 0x3fc0 && bfloat16_t(1.5f).to_float() == 1.5f);
static_assert(half_t(1.5f).bits == 0x3e00 && half_t(-2.0f).to_float() == -2.0f);
static_assert(tfloat32_t(1.5f).to_float() == 1.5f);
static_assert(bfloat16_t{1}.to_float() == 1.0f && half_t{3}.to_float() == 3.0f && tfloat32_t{7}.to_float() == 7.0f);
static_assert(bfloat16_t::from_bits(1).bits == 1 && half_t::from_bits(0x3c00).to_float() == 1.0f &&
              tfloat32_t::from_bits(0x3f800000u).to_float() == 1.0f);
static_assert(bfloat16_t().bits == 0 && half_t().bits == 0 && tfloat32_t().bits == 0);

TEST_CASE("numeric: T(x) round-trips representable values and rounds to nearest even") {
  for (float x : {1.5f, -1.5f, 0.0f, 2.0f, 0.5f, -3.0f, 100.0f, 0.046875f}) {
    CHECK(bfloat16_t(x).to_float() == x);
    CHECK(half_t(x).to_float() == x);
    CHECK(tfloat32_t(x).to_float() == x);
    CHECK(float(bfloat16_t(x)) == x);
  }
  // 1 + 2^-8 lies halfway between bf16 1 and 1 + 2^-7: ties to even (1); 1 + 3*2^-8 up to 1 + 2^-6.
  CHECK(bfloat16_t(1.0f + 0x1p-8f).to_float() == 1.0f);
  CHECK(bfloat16_t(1.0f + 3 * 0x1p-8f).to_float() == 1.0f + 0x1p-6f);
  // half: 1 + 2^-11 ties to 1, 1 + 3*2^-11 to 1 + 2^-9; 65520 overflows to infinity.
  CHECK(half_t(1.0f + 0x1p-11f).to_float() == 1.0f);
  CHECK(half_t(1.0f + 3 * 0x1p-11f).to_float() == 1.0f + 0x1p-9f);
  CHECK(std::isinf(half_t(65520.0f).to_float()));
  // Brace-initialisation from an int is the value: bits would make 1 a denormal.
  const bfloat16_t one{1};
  CHECK(one.to_float() == 1.0f);
  CHECK(one.bits == 0x3f80);
}

TEST_CASE("numeric: bfloat16_t(f) is the nearest bf16, ties to even (generated)") {
  rc::prop("bf16 rounding", [] {
    const uint32_t u = *rc::gen::arbitrary<uint32_t>();
    const float f = from_u32(u);
    RC_PRE(std::isfinite(f));
    RC_ASSERT(bfloat16_t(f).bits == bf16_reference(f));
  });
  rc::prop("half round trip of every f16 value", [] {
    const uint16_t b = *rc::gen::arbitrary<uint16_t>();
    const half_t h = half_t::from_bits(b);
    RC_PRE(std::isfinite(h.to_float()));
    RC_ASSERT(half_t(h.to_float()).bits == b);
  });
}

// ---------------------------------------------------------------- fp8 (e4m3, e5m2)
namespace {
// The value of an fp8 code from the format's definition (OCP FP8): (-1)^s 2^(e - bias) (1 + m/2^M),
// subnormals 2^(1 - bias) m/2^M; E4M3 has no infinities and S.1111.111 is NaN, E5M2 is IEEE-like.
template <int E, int M, bool HasInf>
double fp8_reference_value(uint8_t b) {
  const int bias = (1 << (E - 1)) - 1;
  const int s = b >> 7, e = (b >> M) & ((1 << E) - 1), m = b & ((1 << M) - 1);
  const double sign = s ? -1.0 : 1.0;
  if (HasInf && e == (1 << E) - 1) return m ? NAN : sign * INFINITY;
  if (!HasInf && e == (1 << E) - 1 && m == (1 << M) - 1) return NAN;
  if (e == 0) return sign * std::ldexp(double(m) / (1 << M), 1 - bias);
  return sign * std::ldexp(1.0 + double(m) / (1 << M), e - bias);
}
// The nearest finite code to f by search over all codes, ties to the even code; past the
// largest finite value by more than half an ulp (or by half, when that value's code is odd,
// as E5M2's 0x7b is): NaN (E4M3) or infinity (E5M2), as the type documents.
template <class T, int E, int M, bool HasInf>
uint8_t fp8_reference_code(float f) {
  int best = -1;
  double best_d = INFINITY;
  for (int c = 0; c < 256; ++c) {
    const double v = fp8_reference_value<E, M, HasInf>(uint8_t(c));
    if (!std::isfinite(v) || std::signbit(v) != std::signbit(f)) continue;
    const double d = std::fabs(v - double(f));
    if (d < best_d || (d == best_d && c % 2 == 0)) best = c, best_d = d;
  }
  const double max = fp8_reference_value<E, M, HasInf>(HasInf ? 0x7b : 0x7e);
  const double ulp = HasInf ? std::ldexp(1.0, 15 - M) : std::ldexp(1.0, 8 - M);
  const double a = std::fabs(double(f));
  if (a > max + ulp / 2 || (a == max + ulp / 2 && HasInf)) return uint8_t((std::signbit(f) ? 0x80 : 0) | (HasInf ? 0x7c : 0x7f));
  return uint8_t(best);
}
}  // namespace

static_assert(float_e4m3_t(1.5f).bits == 0x3c && float_e4m3_t(448.0f).to_float() == 448.0f);
static_assert(float_e5m2_t(1.5f).bits == 0x3e && float_e5m2_t(57344.0f).to_float() == 57344.0f);
static_assert(float_e4m3_t::from_bits(0x01).to_float() == 0x1p-9f && float_e5m2_t::from_bits(0x01).to_float() == 0x1p-16f);
static_assert(!std::is_convertible_v<float, float_e4m3_t> && !std::is_convertible_v<float_e5m2_t, float>);

TEST_CASE("numeric: fp8 codes decode to the format's values; every finite value round-trips") {
  int bad = 0;
  for (int c = 0; c < 256; ++c) {
    const uint8_t b = uint8_t(c);
    const double v4 = fp8_reference_value<4, 3, false>(b), v5 = fp8_reference_value<5, 2, true>(b);
    const float f4 = float_e4m3_t::from_bits(b).to_float(), f5 = float_e5m2_t::from_bits(b).to_float();
    bad += std::isnan(v4) ? !std::isnan(f4) : (double(f4) != v4 || std::signbit(f4) != std::signbit(v4));
    bad += std::isnan(v5) ? !std::isnan(f5) : (double(f5) != v5 || std::signbit(f5) != std::signbit(v5));
    if (std::isfinite(v4)) bad += float_e4m3_t(f4).bits != b;
    if (!std::isnan(v5)) bad += float_e5m2_t(f5).bits != b;  // infinities too
  }
  CHECK(bad == 0);
  // Ties to even: 1 + 2^-4 between e4m3 1 and 1 + 2^-3 -> 1; 1 + 3*2^-4 -> 1 + 2^-2.
  CHECK(float_e4m3_t(1.0f + 0x1p-4f).to_float() == 1.0f);
  CHECK(float_e4m3_t(1.0f + 3 * 0x1p-4f).to_float() == 1.25f);
  // Overflow: e4m3 464 (halfway past 448) ties to 448, 480 is NaN; e5m2 61440 is infinity.
  CHECK(float_e4m3_t(464.0f).to_float() == 448.0f);
  CHECK(std::isnan(float_e4m3_t(480.0f).to_float()));
  CHECK(std::isinf(float_e5m2_t(61440.0f).to_float()));
  CHECK(std::isnan(float_e4m3_t(NAN).to_float()));
  CHECK(float_e4m3_t(-INFINITY).bits == 0xff);
}

TEST_CASE("numeric: float_e4m3_t(f) and float_e5m2_t(f) are the nearest codes, ties to even (generated)") {
  rc::prop("fp8 rounding", [] {
    // Floats around the fp8 range (exponents -20..20): the bits of 2^e (1 + mantissa).
    const int e = *rc::gen::inRange(-20, 21);
    const uint32_t man = *rc::gen::inRange<uint32_t>(0, 1u << 23);
    const bool neg = *rc::gen::arbitrary<bool>();
    const float f = from_u32((neg ? 0x80000000u : 0u) | (uint32_t(e + 127) << 23) | man);
    RC_ASSERT(float_e4m3_t(f).bits == (fp8_reference_code<float_e4m3_t, 4, 3, false>(f)));
    RC_ASSERT(float_e5m2_t(f).bits == (fp8_reference_code<float_e5m2_t, 5, 2, true>(f)));
  });
}
