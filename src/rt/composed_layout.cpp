// Composed layouts Sw o off o L: the operations where the swizzle takes part, from the
// definitions in CuTe's swizzle_layout.hpp (the conformance vectors in
// tests/data/conformance/cute_swizzled.jsonl hold CuTe's own answers).
#include "tessera/rt/composed_layout.hpp"

#include <algorithm>
#include <string>

#include "tessera/rt/checked.hpp"
#include "tessera/rt/error.hpp"

namespace tessera::rt {

namespace {

int abs_shift(const Swizzle& s) { return s.shift < 0 ? -s.shift : s.shift; }

std::int64_t pow2(int e) { return std::int64_t{1} << e; }

int log2_exact(std::int64_t n, const char* op) {
  if (n <= 0 || (n & (n - 1)) != 0)
    throw Error(std::string(op) + ": a swizzle is cast by whole bits, so the factor must be a power of two, got " +
                std::to_string(n));
  int k = 0;
  while ((std::int64_t{1} << k) != n) ++k;
  return k;
}

int trailing_zeros32(std::int64_t x) { return x == 0 ? 32 : __builtin_ctzll(static_cast<unsigned long long>(x)); }

// A layout from flat modes (shape, stride).
Layout flat_layout(const std::vector<std::int64_t>& s, const std::vector<std::int64_t>& d) {
  std::vector<IntTuple> ts, td;
  for (std::size_t i = 0; i < s.size(); ++i) {
    ts.emplace_back(s[i]);
    td.emplace_back(d[i]);
  }
  return Layout(IntTuple::tuple(std::move(ts)), IntTuple::tuple(std::move(td)));
}

bool all_underscore(const IntTuple& c) {
  if (c.is_leaf()) return c.value() == kUnderscore;
  return std::all_of(c.elems().begin(), c.elems().end(), [](const IntTuple& e) { return all_underscore(e); });
}

}  // namespace

ComposedResult rebuild(const Swizzle& sw, std::int64_t offset, Layout l) {
  if (sw.bits == 0 && offset == 0) return l;
  return SwizzledLayout{sw, std::move(l), offset};
}

std::int64_t yyy_mask(const Swizzle& s) { return (pow2(s.bits) - 1) << (s.base + std::max(0, s.shift)); }
std::int64_t zzz_mask(const Swizzle& s) { return (pow2(s.bits) - 1) << (s.base - std::min(0, s.shift)); }

Swizzle make_swizzle(std::int64_t y, std::int64_t z) {
  // CuTe takes the masks as 32-bit unsigned template arguments.
  if (y < 0 || z < 0 || y >= pow2(32) || z >= pow2(32))
    throw Error("make_swizzle: the bit masks must lie in [0, 2^32), got Y = " + std::to_string(y) +
                " and Z = " + std::to_string(z));
  const int by = __builtin_popcountll(static_cast<unsigned long long>(y));
  const int bz = __builtin_popcountll(static_cast<unsigned long long>(z));
  if (by != bz)
    throw Error("make_swizzle: the source bits Y = " + std::to_string(y) + " and the target bits Z = " +
                std::to_string(z) + " differ in number, so no swizzle maps one onto the other");
  const int ty = trailing_zeros32(y), tz = trailing_zeros32(z);
  const int m = std::min(ty, tz) % 32, s = ty - tz;
  if ((s < 0 ? -s : s) < by)
    throw Error("make_swizzle: the source bits Y = " + std::to_string(y) + " and the target bits Z = " +
                std::to_string(z) + " overlap, so they are not those of a swizzle");
  const Swizzle r(by, m, s);
  if ((y | z) != (yyy_mask(r) | zzz_mask(r)))
    throw Error("make_swizzle: the bits Y = " + std::to_string(y) + " and Z = " + std::to_string(z) +
                " are not two contiguous runs, so they are not those of a swizzle (" + to_string(r) +
                " would need Y|Z = " + std::to_string(yyy_mask(r) | zzz_mask(r)) + ")");
  return r;
}

Swizzle composition(const Swizzle& a, const Swizzle& b) {
  if (a.shift != b.shift)
    throw Error("composition: two swizzles merge only when their shifts agree (" + to_string(a) + " and " +
                to_string(b) + ")");
  return make_swizzle(yyy_mask(a) ^ yyy_mask(b), zzz_mask(a) ^ zzz_mask(b));
}

ComposedResult composition(const Layout& a, const Swizzle& b) {
  const Swizzle s = make_swizzle(a(yyy_mask(b)), a(zzz_mask(b)));
  return rebuild(s, 0, a);
}

ComposedResult composition(const Layout& a, const SwizzledLayout& b) {
  if (b.offset != 0)
    throw Error("composition: a swizzled right operand must have offset 0 (CuTe requires it), got " + to_string(b));
  ComposedResult r = composition(a, b.swizzle);
  if (auto* l = std::get_if<Layout>(&r)) return composition(*l, b.layout);
  const auto& s = std::get<SwizzledLayout>(r);
  return rebuild(s.swizzle, s.offset, composition(s.layout, b.layout));
}

ComposedResult right_inverse(const SwizzledLayout& s) {
  if (s.offset == 0) return composition(right_inverse(s.layout), s.swizzle);
  return LayoutAfterSwizzle{right_inverse(s.layout), checked_neg(s.offset), s.swizzle};
}

ComposedResult left_inverse(const SwizzledLayout& s) {
  if (s.offset == 0) return composition(left_inverse(s.layout), s.swizzle);
  return LayoutAfterSwizzle{left_inverse(s.layout), checked_neg(s.offset), s.swizzle};
}

// A swizzle is its own inverse; an offset's inverse is its negation.
ComposedResult right_inverse(const LayoutAfterSwizzle& s) {
  return rebuild(s.swizzle, checked_neg(s.offset), right_inverse(s.layout));
}
ComposedResult left_inverse(const LayoutAfterSwizzle& s) {
  return rebuild(s.swizzle, checked_neg(s.offset), left_inverse(s.layout));
}

Swizzle upcast(const Swizzle& s, std::int64_t n) {
  const int k = log2_exact(n, "upcast");
  const int m = s.base - k;
  if (m >= 0) return Swizzle(s.bits, m, s.shift);
  return Swizzle(std::max(s.bits + m, 0), 0, s.shift);  // the bits that fall below bit 0 are lost
}

Swizzle downcast(const Swizzle& s, std::int64_t n) {
  const int k = log2_exact(n, "downcast");
  return Swizzle(s.bits, s.base + k, s.shift);
}

// A cast keeps the composed form even when the swizzle loses all its bits: CuTe's cast offset
// is no longer the literal _0 that lets composition(Sw<0,..>, _0, L) decay to L.
ComposedResult upcast(const SwizzledLayout& s, std::int64_t n) {
  const Swizzle sw = upcast(s.swizzle, n);
  if (s.offset % n != 0)
    throw Error("upcast: the offset " + std::to_string(s.offset) + " is not a multiple of " + std::to_string(n));
  return SwizzledLayout{sw, upcast(s.layout, n), s.offset / n};
}

ComposedResult downcast(const SwizzledLayout& s, std::int64_t n) {
  const Swizzle sw = downcast(s.swizzle, n);
  return SwizzledLayout{sw, downcast(s.layout, n), checked_mul(s.offset, n, "downcast")};
}

ComposedResult slice(const IntTuple& coord, const SwizzledLayout& s) {
  if (all_underscore(coord)) return rebuild(s, slice(coord, s.layout));
  const Swizzle& sw = s.swizzle;
  const int M = sw.base, B = sw.bits, S = abs_shift(sw);
  const std::int64_t yz = yyy_mask(sw) | zzz_mask(sw);
  const Layout sliced = slice(coord, s.layout);
  // The offset of the fixed modes: the bits the swizzle reads or writes join the offset;
  // the others pass through the swizzle unchanged and, as for a plain layout, slice drops them.
  const std::int64_t fixed = slice_offset(coord, s.layout);
  if (fixed < 0) throw Error("slice: the fixed coordinates reach the negative offset " + std::to_string(fixed) +
                             ", outside the swizzle's domain");
  const std::int64_t offset_zy = s.offset ^ (fixed & yz);
  // P o sliced, P the projection onto the swizzle's Y and Z bits; its last value holds every
  // Y/Z bit the kept modes can reach.
  const Layout only_zy = flat_layout({pow2(M), pow2(B), pow2(S - B), pow2(B), 1},
                                     {0, pow2(M), 0, pow2(M + S), 0});
  const Layout reach = composition(only_zy, sliced);
  const std::int64_t active = reach(reach.size() - 1);
  if ((active & ~sw(active)) != 0) return rebuild(sw, offset_zy, sliced);  // both Y and Z: stays swizzled
  // The kept modes touch only Y bits or only Z bits: the swizzle, seen from offset_zy, is
  // linear on them. Each Z bit then moves the offset by +-2^i Z (the sign set by the offset's
  // Y bit), each Y bit by (Y +- Z) 2^i (the sign set by the offset's Z bit).
  const std::int64_t z = zzz_mask(sw) & -zzz_mask(sw), y = yyy_mask(sw) & -yyy_mask(sw);
  auto strides = [&](bool z_based) {
    std::vector<std::int64_t> out;
    for (int i = 0; i < B; ++i) {
      if (z_based) out.push_back((offset_zy & (y << i)) == 0 ? (z << i) : -(z << i));
      else out.push_back((offset_zy & (z << i)) == 0 ? ((y + z) << i) : ((y - z) << i));
    }
    return out;
  };
  const std::vector<std::int64_t> lo = strides(z < y), hi = strides(z > y);
  std::vector<std::int64_t> fs{pow2(M)}, fd{1};
  for (int i = 0; i < B; ++i) fs.push_back(2), fd.push_back(lo[static_cast<std::size_t>(i)]);
  fs.push_back(pow2(S - B)), fd.push_back(pow2(M + B));
  for (int i = 0; i < B; ++i) fs.push_back(2), fd.push_back(hi[static_cast<std::size_t>(i)]);
  fs.push_back(1), fd.push_back(pow2(M + B + S));
  return composition(flat_layout(fs, fd), sliced);
}

std::int64_t max_common_vector(const SwizzledLayout& a, const Layout& b) {
  return std::min(max_common_vector(a.layout, b), pow2(a.swizzle.base));
}

Layout max_common_layout(const SwizzledLayout& a, const Layout& b) {
  const Layout common = max_common_layout(a.layout, b);
  const std::int64_t base = pow2(a.swizzle.base);
  if (base < common.size()) return composition(common, Layout(IntTuple(base), IntTuple(1)));  // common o base
  return common;
}

}  // namespace tessera::rt
