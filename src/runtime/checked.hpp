#pragma once
// Checked 64-bit arithmetic: overflow is an error, never a wrapped value.
#include <cstdint>
#include <string>

#include "runtime/error.hpp"

namespace tessera::rt {

inline std::int64_t checked_mul(std::int64_t a, std::int64_t b, const char* what = "product") {
  std::int64_t r;
  if (__builtin_mul_overflow(a, b, &r))
    throw OverflowError(std::string("integer overflow in ") + what + " (" + std::to_string(a) + " * " +
                        std::to_string(b) + " does not fit in 64 bits)");
  return r;
}

inline std::int64_t checked_add(std::int64_t a, std::int64_t b, const char* what = "sum") {
  std::int64_t r;
  if (__builtin_add_overflow(a, b, &r))
    throw OverflowError(std::string("integer overflow in ") + what + " (" + std::to_string(a) + " + " +
                        std::to_string(b) + " does not fit in 64 bits)");
  return r;
}

inline std::int64_t checked_sub(std::int64_t a, std::int64_t b, const char* what = "difference") {
  std::int64_t r;
  if (__builtin_sub_overflow(a, b, &r))
    throw OverflowError(std::string("integer overflow in ") + what + " (" + std::to_string(a) + " - " +
                        std::to_string(b) + " does not fit in 64 bits)");
  return r;
}

inline std::int64_t checked_neg(std::int64_t a, const char* what = "negation") {
  return checked_sub(0, a, what);
}

inline std::int64_t checked_abs(std::int64_t a) { return a < 0 ? checked_neg(a, "absolute value") : a; }

}  // namespace tessera::rt
