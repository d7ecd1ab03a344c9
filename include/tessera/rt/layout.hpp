#pragma once
// Runtime layouts: a shape and a congruent stride, both IntTuples; the function
// from coordinates (or a 1-D index, column-major over the shape) to offsets.
// Plus Swizzle<B,M,S>, swizzled layouts Sw o L, and tilers (one layout per mode).
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

#include "tessera/rt/checked.hpp"
#include "tessera/rt/int_tuple.hpp"

namespace tessera::rt {

struct Layout {
  IntTuple shape;
  IntTuple stride;

  Layout() : shape(1), stride(0) {}
  // Checks that stride is congruent to shape and that the shape is positive.
  Layout(IntTuple shape_, IntTuple stride_);
  // The compact column-major layout of a shape (LayoutLeft).
  static Layout column_major(const IntTuple& shape);

  std::size_t rank() const { return shape.rank(); }
  int depth() const;
  std::int64_t size() const;    // product of the shape (checked)
  std::int64_t cosize() const;  // CuTe: 1 + sum (s-1)*|d| (layout(size-1)+1 for non-negative strides)
  Layout mode(std::size_t i) const;  // the i-th top-level mode (an integer layout is its own mode 0)
  // f(mode) for every top-level mode in order (an integer layout is its own only mode): one
  // walk, where mode(i) for each i would walk to i every time.
  template <class F>
  void for_each_mode(F&& f) const;

  // Evaluate at a 1-D index (colexicographic over the shape). Requires 0 <= idx < size
  // only for the bound check of idx2crd; the last mode is unbounded like in CuTe.
  std::int64_t operator()(std::int64_t idx) const;
  // Evaluate at a coordinate: an integer (1-D index) or a tuple congruent/compatible with the shape.
  std::int64_t at(const IntTuple& coord) const;

  friend bool operator==(const Layout& a, const Layout& b) { return a.shape == b.shape && a.stride == b.stride; }
  friend bool operator!=(const Layout& a, const Layout& b) { return !(a == b); }

 private:
  // A part of a layout is one already: no checks.
  struct Part {};
  Layout(Part, IntTuple shape_, IntTuple stride_) : shape(std::move(shape_)), stride(std::move(stride_)) {}
};

template <class F>
void Layout::for_each_mode(F&& f) const {
  if (shape.is_leaf()) {
    f(*this);
    return;
  }
  const std::string_view n = shape.nesting();
  std::size_t pos = 1, leaf = 0;
  while (n[pos] != IntTuple::kClose) {
    const std::size_t first_leaf = leaf, end = IntTuple::mode_end(n, pos, leaf);
    f(Layout(Part{}, shape.part(pos, end, first_leaf, leaf), stride.part(pos, end, first_leaf, leaf)));
    pos = end;
  }
}

// make_layout(a, b, ...): concatenate layouts as the modes of a new layout.
Layout make_layout(std::span<const Layout> modes);
inline Layout make_layout(std::initializer_list<Layout> modes) { return make_layout(std::span(modes.begin(), modes.size())); }

// Call f(offset) for i = 0, 1, ..., size-1 in order (an odometer over the flat modes:
// no division per element). Offsets are checked for overflow once, at the largest ones.
template <class F>
void for_each_offset(const Layout& l, F&& f) {
  const std::span<const std::int64_t> s = l.shape.leaf_values(), d = l.stride.leaf_values();
  // Every offset visited lies between the sums of the negative and of the positive
  // (s-1)*d terms: check those once and the walk below cannot overflow.
  std::int64_t lo = 0, hi = 0;
  for (std::size_t k = 0; k < s.size(); ++k) {
    const std::int64_t t = checked_mul(s[k] - 1, d[k], "offset");
    if (t < 0) lo = checked_add(lo, t, "offset");
    else hi = checked_add(hi, t, "offset");
  }
  SmallVector<std::int64_t, 8> c(s.size(), 0);
  const std::int64_t n = l.size();
  std::int64_t off = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    f(off);
    for (std::size_t k = 0; k < s.size(); ++k) {
      if (++c[k] < s[k]) {
        off += d[k];
        break;
      }
      off -= (s[k] - 1) * d[k];
      c[k] = 0;
    }
  }
}

inline constexpr std::int64_t kMaxSwizzledCosize = std::int64_t{1} << 22;

// index <-> coordinate helpers (CuTe's idx2crd / crd2idx with column-major order).
IntTuple idx2crd(std::int64_t idx, const IntTuple& shape);
std::int64_t crd2idx(const IntTuple& coord, const IntTuple& shape, const IntTuple& stride);

// Swizzle<B,M,S>: xor bits [M+S, M+S+B) (shifted by S) into bits [M, M+B).
struct Swizzle {
  int bits = 0, base = 0, shift = 0;  // B, M, S
  Swizzle() = default;
  Swizzle(int b, int m, int s);       // checks B >= 0, M >= 0, |S| >= B
  std::int64_t operator()(std::int64_t offset) const;
  friend bool operator==(const Swizzle& a, const Swizzle& b) {
    return a.bits == b.bits && a.base == b.base && a.shift == b.shift;
  }
};

// Sw o off o L (CuTe's ComposedLayout<Swizzle, Offset, Layout>): evaluation is
// swizzle(offset + layout(c)). The shape, size and modes are L's.
struct SwizzledLayout {
  Swizzle swizzle;
  Layout layout;
  std::int64_t offset = 0;
  std::int64_t operator()(std::int64_t idx) const { return swizzle(checked_add(offset, layout(idx), "offset")); }
  std::int64_t at(const IntTuple& coord) const { return swizzle(checked_add(offset, layout.at(coord), "offset")); }
  std::int64_t size() const { return layout.size(); }
  std::int64_t cosize() const;  // 1 + max offset over the domain (CuTe's cosize is L's: see eval)
  friend bool operator==(const SwizzledLayout& a, const SwizzledLayout& b) {
    return a.swizzle == b.swizzle && a.layout == b.layout && a.offset == b.offset;
  }
};

// L o off o Sw (CuTe's ComposedLayout<Layout, Offset, Swizzle>): evaluation is
// layout(offset + swizzle(x)). It is what right_inverse / left_inverse of Sw o off o L
// give when off != 0 (CuTe cannot move the swizzle to the left past an offset).
struct LayoutAfterSwizzle {
  Layout layout;
  std::int64_t offset = 0;
  Swizzle swizzle;
  std::int64_t operator()(std::int64_t x) const { return layout(checked_add(offset, swizzle(x), "offset")); }
  friend bool operator==(const LayoutAfterSwizzle& a, const LayoutAfterSwizzle& b) {
    return a.swizzle == b.swizzle && a.layout == b.layout && a.offset == b.offset;
  }
};

// A tiler: either one layout (tiles the whole 1-D domain), or a tuple of tilers,
// one per mode. A plain shape (4,2) is the tuple of layouts (4:1,2:1).
struct Tiler {
  bool is_layout = true;
  bool integral = false;  // written as an integer N: N:1 in a composition (CuTe), make_layout(N) elsewhere
  Layout layout;
  std::vector<Tiler> elems;

  static Tiler of_layout(Layout l) { Tiler t; t.is_layout = true; t.layout = std::move(l); return t; }
  static Tiler of_tuple(std::vector<Tiler> e) { Tiler t; t.is_layout = false; t.elems = std::move(e); return t; }
  static Tiler of_shape(const IntTuple& shape);  // integers become N:1, tuples become tuples
  std::size_t rank() const { return is_layout ? 1 : elems.size(); }
  // The shape the tiler covers: size of a layout, or a tuple of the elements' shapes.
  IntTuple shape() const;
  friend bool operator==(const Tiler& a, const Tiler& b);
};

// CuTe print format: "(4,2):(1,4)", "Sw<3,4,3> o 8:1", "(4:1,2:2)".
std::string to_string(const Layout& l);
std::string to_string(const Swizzle& s);
std::string to_string(const SwizzledLayout& s);      // "Sw<B,M,S> o off o L", as CuTe prints it
std::string to_string(const LayoutAfterSwizzle& s);  // "L o off o Sw<B,M,S>"
std::string to_string(const Tiler& t);

}  // namespace tessera::rt
