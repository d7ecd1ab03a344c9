// The 16/32-bit numeric types: T(x) converts the value x (round to nearest even), never the
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
