#include "tessera/rt/layout.hpp"

#include <algorithm>

#include "tessera/rt/checked.hpp"
#include "tessera/rt/error.hpp"

namespace tessera::rt {

// Every leaf positive and no empty tuple, reported in the order of the tree (pre-order).
static void check_positive_shape(const IntTuple& s) {
  const std::string_view n = s.nesting();
  const std::int64_t* leaf = s.leaf_values().data();
  for (std::size_t k = 0; k < n.size(); ++k) {
    if (n[k] == IntTuple::kLeaf) {
      if (*leaf <= 0)
        throw Error("shape entries must be positive, got " + std::to_string(*leaf) + " in " + to_string(s));
      ++leaf;
    } else if (n[k] == IntTuple::kOpen && n[k + 1] == IntTuple::kClose) {
      throw Error("empty tuple () is not a shape");
    }
  }
}

// The usual layout in one pass: congruent, positive, no empty tuple, a size that fits.
static bool plainly_valid(const IntTuple& shape, const IntTuple& stride) {
  const std::string_view n = shape.nesting(), m = stride.nesting();
  if (n.size() != m.size()) return false;
  const std::int64_t* leaf = shape.leaf_values().data();
  std::int64_t size = 1;
  char previous = 0;
  for (std::size_t k = 0; k < n.size(); ++k) {
    const char c = n[k];
    if (c != m[k]) return false;
    if (c == IntTuple::kLeaf) {
      const std::int64_t x = *leaf++;
      if (x < 1 || __builtin_mul_overflow(size, x, &size)) return false;
    } else if (c == IntTuple::kClose && previous == IntTuple::kOpen) {
      return false;
    }
    previous = c;
  }
  return true;
}

Layout::Layout(IntTuple shape_, IntTuple stride_) : shape(std::move(shape_)), stride(std::move(stride_)) {
  // Anything unusual takes the checks one by one, which say what is wrong, in their order.
  if (plainly_valid(shape, stride)) return;
  if (!congruent(shape, stride))
    throw Error("stride " + to_string(stride) + " is not congruent to shape " + to_string(shape) +
                " (a layout needs one stride per shape entry, with the same nesting)");
  check_positive_shape(shape);
  (void)product(shape);  // the size must fit in 64 bits
}

Layout Layout::column_major(const IntTuple& shape) {
  const std::span<const std::int64_t> flat = shape.leaf_values();
  SmallVector<std::int64_t, 8> d(flat.size());
  std::int64_t p = 1;
  for (std::size_t i = 0; i < flat.size(); ++i) {
    d[i] = flat[i] == 1 ? 0 : p;  // CuTe biases the stride of a static size-1 mode to 0
    p = checked_mul(p, flat[i], "compact stride");
  }
  return Layout(shape, IntTuple::with_leaves(shape, d));
}

int Layout::depth() const { return rt::depth(shape); }

std::int64_t Layout::size() const { return product(shape); }

std::int64_t Layout::cosize() const {
  // CuTe: size(coshape) = 1 + sum (s_i - 1) * |d_i| (coshape takes the strides' absolute values),
  // i.e. the last offset plus one for non-negative strides, and the extent of the image
  // (max - min + 1) of a layout whose strides are negative but otherwise as they were.
  const std::span<const std::int64_t> s = shape.leaf_values(), d = stride.leaf_values();
  std::int64_t c = 1;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (d[i] == INT64_MIN) throw Error("integer overflow in cosize: |" + std::to_string(d[i]) + "|");
    c = checked_add(c, checked_mul(s[i] - 1, d[i] < 0 ? -d[i] : d[i], "cosize"), "cosize");
  }
  return c;
}

Layout Layout::mode(std::size_t i) const {
  // A mode of a layout is one: its shape and stride are the same part of both tuples.
  std::size_t begin, end, leaf_begin, leaf_end;
  if (shape.is_leaf() || !shape.find_mode(i, begin, end, leaf_begin, leaf_end)) return Layout(shape[i], stride[i]);
  return Layout(Part{}, shape.part(begin, end, leaf_begin, leaf_end), stride.part(begin, end, leaf_begin, leaf_end));
}

static std::int64_t eval_index(std::int64_t idx, std::span<const std::int64_t> s, std::span<const std::int64_t> d) {
  std::int64_t off = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    std::int64_t c = (i + 1 == s.size()) ? idx : idx % s[i];
    if (i + 1 != s.size()) idx /= s[i];
    off = checked_add(off, checked_mul(c, d[i], "offset"), "offset");
  }
  return off;
}

// Column-major walk over the leaves (the nesting at `pos`, the leaves from `leaf`); the last
// leaf takes the rest of the index (CuTe's layouts extend along their last mode). Each tuple
// sums its modes' offsets, so an overflow is reported at the same sum as the tree's definition.
static std::int64_t eval_tree(std::int64_t& idx, std::string_view n, std::span<const std::int64_t> s,
                              std::span<const std::int64_t> d, std::size_t& pos, std::size_t& leaf) {
  if (n[pos] == IntTuple::kLeaf) {
    ++pos;
    const std::size_t k = leaf++;
    std::int64_t c;
    if (k + 1 == s.size()) {
      c = idx;
      idx = 0;
    } else {
      c = idx % s[k];
      idx /= s[k];
    }
    return checked_mul(c, d[k], "offset");
  }
  ++pos;  // '('
  std::int64_t off = 0;
  while (n[pos] != IntTuple::kClose) off = checked_add(off, eval_tree(idx, n, s, d, pos, leaf), "offset");
  ++pos;  // ')'
  return off;
}

std::int64_t Layout::operator()(std::int64_t idx) const {
  if (idx < 0) throw Error("negative index " + std::to_string(idx));
  std::size_t pos = 0, leaf = 0;
  return eval_tree(idx, shape.nesting(), shape.leaf_values(), stride.leaf_values(), pos, leaf);
}

std::int64_t crd2idx(const IntTuple& coord, const IntTuple& shape, const IntTuple& stride) {
  if (coord.is_tuple()) {
    if (shape.is_leaf() || coord.rank() != shape.rank())
      throw Error("coordinate " + to_string(coord) + " does not match shape " + to_string(shape));
    std::int64_t off = 0;
    auto si = shape.elems().begin(), di = stride.elems().begin();
    for (const IntTuple& ci : coord.elems()) off = checked_add(off, crd2idx(ci, *si++, *di++), "offset");
    return off;
  }
  std::int64_t idx = coord.value();
  if (idx < 0) throw Error("negative coordinate " + std::to_string(idx));
  if (shape.is_leaf()) return checked_mul(idx, stride.value(), "offset");
  return eval_index(idx, shape.leaf_values(), stride.leaf_values());
}

std::int64_t Layout::at(const IntTuple& coord) const { return crd2idx(coord, shape, stride); }

IntTuple idx2crd(std::int64_t idx, const IntTuple& shape) {
  if (shape.is_leaf()) return IntTuple(idx);
  IntTuple out = IntTuple::tuple({});
  const std::size_t r = shape.rank();
  std::size_t i = 0;
  for (const IntTuple& si : shape.elems()) {
    if (++i == r) {
      out.push_back(idx2crd(idx, si));
    } else {
      std::int64_t p = product(si);
      out.push_back(idx2crd(idx % p, si));
      idx /= p;
    }
  }
  return out;
}

Layout make_layout(std::span<const Layout> modes) {
  Layout l;
  l.shape = IntTuple::tuple({});
  l.stride = IntTuple::tuple({});
  for (const Layout& m : modes) {
    l.shape.push_back(m.shape);
    l.stride.push_back(m.stride);
  }
  (void)product(l.shape);  // the modes fit in 64 bits each; their product must too
  return l;
}

Swizzle::Swizzle(int b, int m, int s) : bits(b), base(m), shift(s) {
  if (b < 0 || m < 0) throw Error("Swizzle<B,M,S> needs B >= 0 and M >= 0");
  if ((s < 0 ? -s : s) < b) throw Error("Swizzle<B,M,S> needs |S| >= B (the xor source and target bits overlap)");
  if (b + m + (s < 0 ? -s : s) > 62) throw Error("Swizzle<B,M,S> reaches beyond bit 62");
}

std::int64_t Swizzle::operator()(std::int64_t x) const {
  if (bits == 0) return x;
  const std::int64_t ones = (std::int64_t{1} << bits) - 1;
  const std::int64_t yyy = ones << (base + std::max(0, shift));  // source bits
  if (shift >= 0) return x ^ ((x & yyy) >> shift);
  return x ^ ((x & yyy) << -shift);
}

std::int64_t SwizzledLayout::cosize() const {
  // The swizzle permutes offsets, so the largest one is found by visiting them all.
  const std::int64_t n = layout.size();
  if (n > kMaxSwizzledCosize)
    throw Error("cosize of a swizzled layout is computed by visiting every offset; this one has " +
                std::to_string(n) + " elements (at most 2^22)");
  std::int64_t mx = -1;
  for_each_offset(layout, [&](std::int64_t off) { mx = std::max(mx, swizzle(checked_add(offset, off, "offset"))); });
  return checked_add(mx, 1, "cosize");
}

Tiler Tiler::of_shape(const IntTuple& shape) {
  // CuTe's make_layout(N): stride 1, except that a static 1 gets stride 0.
  if (shape.is_leaf()) {
    Tiler t = of_layout(Layout(shape, IntTuple(shape.value() == 1 ? 0 : 1)));
    t.integral = true;
    return t;
  }
  std::vector<Tiler> e;
  e.reserve(shape.rank());
  for (const IntTuple& s : shape.elems()) e.push_back(of_shape(s));
  return of_tuple(std::move(e));
}

IntTuple Tiler::shape() const {
  if (is_layout) return IntTuple(layout.size());
  IntTuple out = IntTuple::tuple({});
  for (const Tiler& e : elems) out.push_back(e.shape());
  return out;
}

bool operator==(const Tiler& a, const Tiler& b) {
  if (a.is_layout != b.is_layout) return false;
  if (a.is_layout) return a.layout == b.layout;
  return a.elems == b.elems;
}

std::string to_string(const Layout& l) {
  std::string s;
  append_string(l.shape, s);
  s += ':';
  append_string(l.stride, s);
  return s;
}

std::string to_string(const Swizzle& s) {
  return "Sw<" + std::to_string(s.bits) + "," + std::to_string(s.base) + "," + std::to_string(s.shift) + ">";
}

// CuTe prints a ComposedLayout as "A o offset o B", the offset always (_0 when static zero).
std::string to_string(const SwizzledLayout& s) {
  return to_string(s.swizzle) + " o " + std::to_string(s.offset) + " o " + to_string(s.layout);
}

std::string to_string(const LayoutAfterSwizzle& s) {
  return to_string(s.layout) + " o " + std::to_string(s.offset) + " o " + to_string(s.swizzle);
}

std::string to_string(const Tiler& t) {
  if (t.is_layout) return to_string(t.layout);
  std::string s = "(";
  for (std::size_t i = 0; i < t.elems.size(); ++i) {
    if (i) s += ',';
    s += to_string(t.elems[i]);
  }
  return s + ")";
}

}  // namespace tessera::rt
