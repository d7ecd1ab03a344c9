#pragma once
// Errors of the runtime tier. Every error names the rule that was broken;
// the parser and the evaluator attach the byte position of the offending text.
#include <cstddef>
#include <stdexcept>
#include <string>

namespace tessera::rt {

inline constexpr std::size_t npos = static_cast<std::size_t>(-1);

// An algebra or parse error. `pos` is a byte offset into the input, or npos
// when the error was raised below the evaluator (it fills the position in).
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& msg, std::size_t pos = npos)
      : std::runtime_error(msg), pos_(pos) {}
  std::size_t pos() const noexcept { return pos_; }
  void set_pos(std::size_t p) noexcept { pos_ = p; }

 private:
  std::size_t pos_;
};

// Integer overflow: always detected, never wrapped.
class OverflowError : public Error {
 public:
  using Error::Error;
};

}  // namespace tessera::rt
