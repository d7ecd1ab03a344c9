// libFuzzer target: the parser and evaluator on arbitrary bytes.
// Properties checked on every input besides "no crash, no sanitizer report":
//  * every failure is an rt::Error (a diagnostic), never another exception;
//  * format_error renders any error position;
//  * a printed result parses and evaluates back to the same value (printer/parser round trip);
//  * an evaluated layout's function agrees with its coalesced form on the first indices.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "tessera/rt/algebra.hpp"
#include "tessera/rt/eval.hpp"
#include "tessera/rt/parse.hpp"

namespace {
void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_eval: property failed: %s\n", what);
    std::abort();
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  const std::string input(reinterpret_cast<const char*>(data), size);
  using namespace tessera::rt;
  Value v;
  try {
    v = evaluate(input);
  } catch (const Error& e) {
    const std::string msg = format_error(input, e.pos(), e.what());
    check(msg.rfind("error: ", 0) == 0, "format_error starts with 'error: '");
    check(e.pos() == npos || e.pos() <= input.size(), "error position inside the input");
    return 0;
  }
  const std::string printed = to_string(v);
  Value back;
  try {
    back = evaluate(printed);
  } catch (const Error& e) {
    std::fprintf(stderr, "printed result does not parse: %s -> %s: %s\n", input.c_str(), printed.c_str(), e.what());
    std::abort();
  }
  check(to_string(back) == printed, "printed result round-trips");
  if (v.kind() == Value::Kind::Layout) {
    try {
      const Layout c = coalesce(v.layout());
      const std::int64_t n = std::min<std::int64_t>(v.layout().size(), 4096);
      for (std::int64_t i = 0; i < n; ++i) check(c(i) == v.layout()(i), "coalesce keeps the function");
    } catch (const OverflowError&) {
      // offsets beyond 64 bits are reported, never wrapped: fine
    }
  }
  return 0;
}
