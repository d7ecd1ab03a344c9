// Division by a divisor known before a launch: the host finds a multiplier and a shift once,
// the device then divides with one 64-bit multiplication and a shift, where a 32-bit `/` is a
// chain of about fifteen dependent instructions (a float reciprocal, conversions, fix-ups) and
// a 64-bit one a call. A persistent scheduler divides its counts at every step; on the Stream-K
// walk those chains, run by one producer thread, were the first microseconds of every CTA
// (bench/notes/sm90_tiles.md, "The decode kernel's fill").
//
// Domain: divisor d in [1, 2^31), dividend x in [0, 2^31). With l = ceil(log2 d), shift = 31 + l
// and mul = ceil(2^shift / d): x mul / 2^shift = x / d + x e / 2^shift with 0 <= e < 1, and
// x e / 2^shift < 2^31 / 2^(31 + l) = 2^-l <= 1 / d, which never carries x / d past its next
// integer (x / d = q + r / d with r <= d - 1). mul <= 2^32 and x < 2^31, so x mul fits 64 bits.
// Plain C++ with TESSERA_HOST_DEVICE: the host tests check it against `/` and `%`.
#pragma once

#include <cstdint>

#include <tessera/config.hpp>

namespace tessera::kernels {

struct IndexDivisor {
  std::uint32_t d = 1;
  std::uint32_t shift = 31;
  std::uint64_t mul = std::uint64_t(1) << 31;

  static constexpr std::uint32_t most = 0x7fffffffu;  // the largest divisor and dividend

  // The divisor d (1 <= d <= most); anything else gives d = 0, which ok() reports.
  static constexpr IndexDivisor of(std::int64_t d) {
    IndexDivisor v;
    if (d < 1 || d > std::int64_t(most)) {
      v.d = 0;
      return v;
    }
    std::uint32_t l = 0;
    while ((std::uint64_t(1) << l) < std::uint64_t(d)) ++l;
    v.d = std::uint32_t(d);
    v.shift = 31 + l;
    v.mul = ((std::uint64_t(1) << v.shift) + std::uint64_t(d) - 1) / std::uint64_t(d);
    return v;
  }
  TESSERA_HOST_DEVICE constexpr bool ok() const { return d >= 1 && d <= most; }

  // x / d and x % d for 0 <= x <= most.
  TESSERA_HOST_DEVICE constexpr std::uint32_t div(std::uint32_t x) const { return std::uint32_t((std::uint64_t(x) * mul) >> shift); }
  TESSERA_HOST_DEVICE constexpr std::uint32_t mod(std::uint32_t x) const { return x - div(x) * d; }
};

}  // namespace tessera::kernels
