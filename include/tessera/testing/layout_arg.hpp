#pragma once
// LayoutArg: what the testing kit's matchers look at. A runtime layout (rt::Layout),
// a swizzled one (rt::SwizzledLayout) or any static tessera::Layout converts to it
// implicitly, so one matcher serves both tiers.
//
// The testing kit is host-only test support: it links the runtime tier (tessera::runtime)
// and uses the standard library freely (strings, vectors). This header needs no test framework.
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "tessera/rt/layout.hpp"
#include "tessera/rt/to_runtime.hpp"

namespace tessera::testing {

class LayoutArg {
 public:
  LayoutArg(const rt::Layout& l) : layout_(l) {}  // NOLINT: implicit on purpose
  LayoutArg(const rt::SwizzledLayout& s) : layout_(s.layout), swizzle_(s.swizzle) {}  // NOLINT
  template <class Shape, class Stride>
  LayoutArg(const tessera::Layout<Shape, Stride>& l) : layout_(rt::to_runtime(l)) {}  // NOLINT

  const rt::Layout& layout() const { return layout_; }
  const std::optional<rt::Swizzle>& swizzle() const { return swizzle_; }
  bool is_swizzled() const { return swizzle_.has_value(); }

  // CuTe notation: "(4,2):(1,4)" or "Sw<3,4,3> o (8,8):(8,1)".
  std::string text() const {
    return swizzle_ ? rt::to_string(rt::SwizzledLayout{*swizzle_, layout_}) : rt::to_string(layout_);
  }

  // The natural (hierarchical) coordinate of 1-D index i, in CuTe notation: "(1,(0,1))".
  std::string coord(std::int64_t i) const { return rt::to_string(rt::idx2crd(i, layout_.shape)); }

  // Offsets at every 1-D index, colexicographic like CuTe. Returns false with `why` set
  // when the size exceeds `limit` or an offset overflows 64 bits.
  bool offsets(std::vector<std::int64_t>& out, std::string& why, std::int64_t limit = kDefaultLimit) const {
    const std::vector<std::int64_t> s = rt::leaves(layout_.shape), d = rt::leaves(layout_.stride);
    std::int64_t n = 1;
    for (std::int64_t e : s) {
      if (__builtin_mul_overflow(n, e, &n)) { why = "its size overflows 64 bits"; return false; }
    }
    if (n > limit) {
      why = "it has " + std::to_string(n) + " elements; the kit checks at most " + std::to_string(limit);
      return false;
    }
    out.assign(static_cast<std::size_t>(n), 0);
    // Walk the domain like an odometer over the leaves, first leaf fastest.
    std::vector<std::int64_t> c(s.size(), 0);
    std::int64_t off = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      out[static_cast<std::size_t>(i)] = swizzle_ ? (*swizzle_)(off) : off;
      for (std::size_t k = 0; k < s.size(); ++k) {
        if (++c[k] < s[k]) {
          if (__builtin_add_overflow(off, d[k], &off)) { why = "an offset overflows 64 bits"; return false; }
          break;
        }
        // carry: undo this leaf's contribution (s_k - 1) * d_k
        std::int64_t contribution = 0;
        if (__builtin_mul_overflow(s[k] - 1, d[k], &contribution) ||
            __builtin_sub_overflow(off, contribution, &off)) {
          why = "an offset overflows 64 bits";
          return false;
        }
        c[k] = 0;
      }
    }
    return true;
  }

  static constexpr std::int64_t kDefaultLimit = std::int64_t{1} << 24;

 private:
  rt::Layout layout_;
  std::optional<rt::Swizzle> swizzle_;
};

}  // namespace tessera::testing

// rapidcheck finds showValue by argument-dependent lookup: counterexamples print in CuTe notation.
namespace tessera::rt {
inline void showValue(const Layout& l, std::ostream& os) { os << to_string(l); }
inline void showValue(const SwizzledLayout& l, std::ostream& os) { os << to_string(l); }
inline void showValue(const Swizzle& s, std::ostream& os) { os << to_string(s); }
inline void showValue(const Tiler& t, std::ostream& os) { os << to_string(t); }
}  // namespace tessera::rt
