#pragma once
// Checked 64-bit arithmetic: overflow is an error, never a wrapped value.
// Integers are kept within +-(2^63-1): -2^63 is the internal '_' (kUnderscore), has no
// negation, and the parser does not accept it, so a result holding it could not be
// read back. A result of -2^63 counts as overflow.
#include <cstdint>
#include <limits>
#include <string>

#include "tessera/rt/error.hpp"

namespace tessera::rt {

namespace detail {
inline bool out_of_range(bool overflowed, std::int64_t r) {
  return overflowed || r == std::numeric_limits<std::int64_t>::min();
}
// The message, built out of line: the checks below stay a few instructions where they inline.
[[noreturn, gnu::noinline, gnu::cold]] inline void throw_overflow(const char* what, std::int64_t a, char op,
                                                                  std::int64_t b) {
  throw OverflowError(std::string("integer overflow in ") + what + " (" + std::to_string(a) + " " + op + " " +
                      std::to_string(b) + " does not fit in 64 bits)");
}
}  // namespace detail

inline std::int64_t checked_mul(std::int64_t a, std::int64_t b, const char* what = "product") {
  std::int64_t r;
  const bool overflowed = __builtin_mul_overflow(a, b, &r);  // before r is read
  if (detail::out_of_range(overflowed, r)) [[unlikely]]
    detail::throw_overflow(what, a, '*', b);
  return r;
}

inline std::int64_t checked_add(std::int64_t a, std::int64_t b, const char* what = "sum") {
  std::int64_t r;
  const bool overflowed = __builtin_add_overflow(a, b, &r);  // before r is read
  if (detail::out_of_range(overflowed, r)) [[unlikely]]
    detail::throw_overflow(what, a, '+', b);
  return r;
}

inline std::int64_t checked_sub(std::int64_t a, std::int64_t b, const char* what = "difference") {
  std::int64_t r;
  const bool overflowed = __builtin_sub_overflow(a, b, &r);  // before r is read
  if (detail::out_of_range(overflowed, r)) [[unlikely]]
    detail::throw_overflow(what, a, '-', b);
  return r;
}

inline std::int64_t checked_neg(std::int64_t a, const char* what = "negation") {
  return checked_sub(0, a, what);
}

inline std::int64_t checked_abs(std::int64_t a) { return a < 0 ? checked_neg(a, "absolute value") : a; }

}  // namespace tessera::rt
