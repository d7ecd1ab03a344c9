#pragma once
// Standard output is checked like any output file: every command's writes and the final
// flush. A failed write is `error: cannot write to standard output: <reason>`, exit 1
// (`tessera eval '8:1' > /dev/full` fails instead of losing the result without a word).
// std::cout writes through StandardOutputBuffer, which keeps the reason of the first
// failed write: stdio forgets it once its buffer is dropped.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <optional>
#include <streambuf>
#include <string>

namespace tessera::cli {

class StandardOutputBuffer : public std::streambuf {
 public:
  StandardOutputBuffer() { setp(buffer_, buffer_ + sizeof buffer_); }
  int error() const { return error_; }  // errno of the first failed write, 0 if none

 protected:
  int overflow(int c) override {
    if (sync() != 0) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override {
    const char* p = pbase();
    const char* const end = pptr();
    setp(buffer_, buffer_ + sizeof buffer_);  // what failed is dropped, as stdio does
    while (p < end) {
      const ssize_t n = ::write(1, p, static_cast<std::size_t>(end - p));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        if (error_ == 0) error_ = n < 0 ? errno : EIO;
        return -1;
      }
      p += n;
    }
    return error_ == 0 ? 0 : -1;
  }

 private:
  char buffer_[1 << 16];
  int error_ = 0;
};

// Makes std::cout write through a StandardOutputBuffer (once, before any output).
inline StandardOutputBuffer& standard_output_buffer() {
  static StandardOutputBuffer* const buffer = [] {
    auto* b = new StandardOutputBuffer;  // never destroyed: std::cout is flushed at exit
    std::cout.rdbuf(b);
    return b;
  }();
  return *buffer;
}

// Set once the failure has been reported, so that it is reported once.
inline bool standard_output_failure_reported = false;

// Flushes std::cout (and stdio's stdout); the reason when a write failed (now or before).
inline std::optional<std::string> flush_standard_output() {
  std::cout.flush();
  int err = standard_output_buffer().error();
  errno = 0;
  if ((std::fflush(stdout) != 0 || std::ferror(stdout)) && err == 0) err = errno != 0 ? errno : EIO;
  if (err == 0 && !std::cout) err = EIO;
  if (err == 0) return std::nullopt;
  return std::string(std::strerror(err));
}

inline std::string standard_output_message(const std::string& reason) {
  return "cannot write to standard output: " + reason;
}

// Prints the error (once) on standard error; true when standard output failed.
inline bool report_standard_output_failure() {
  const std::optional<std::string> why = flush_standard_output();
  if (!why) return false;
  if (!standard_output_failure_reported) std::cerr << "error: " << standard_output_message(*why) << "\n";
  standard_output_failure_reported = true;
  return true;
}

}  // namespace tessera::cli
