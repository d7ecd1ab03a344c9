// Composed layouts Sw o off o L: the operations where the swizzle takes part, from the
// definitions in CuTe's swizzle_layout.hpp (the conformance vectors in
// tests/data/conformance/cute_swizzled.jsonl hold CuTe's own answers).
#include "tessera/rt/composed_layout.hpp"

#include <algorithm>
#include <string>

#include "tessera/rt/checked.hpp"
#include "tessera/rt/error.hpp"
#include "tessera/rt/trace.hpp"

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
  return Layout(IntTuple::of_values(s), IntTuple::of_values(d));
}

bool all_underscore(const IntTuple& c) {
  const std::span<const std::int64_t> v = c.leaf_values();
  return std::all_of(v.begin(), v.end(), [](std::int64_t x) { return x == kUnderscore; });
}

std::string str(std::int64_t v) { return std::to_string(v); }
std::string text(const ComposedResult& r) {
  return std::visit([](const auto& x) { return to_string(x); }, r);
}
ComposedResult traced(TraceScope& s, ComposedResult r) {
  if (s) s.close(text(r));
  return r;
}
std::string bits(std::int64_t mask) {
  std::string r;
  for (int i = 0; i < 63; ++i)
    if (mask & (std::int64_t{1} << i)) r += (r.empty() ? "" : ",") + str(i);
  return "bits {" + r + "} = " + str(mask);
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
  TraceScope scope("composition");
  if (scope) {
    scope.expr("composition(" + to_string(a) + "," + to_string(b) + ")");
    scope.note("rule", "two swizzles with the same shift merge: Y = Y1 xor Y2, Z = Z1 xor Z2, then make_swizzle(Y, Z)");
    scope.note("Y", str(yyy_mask(a)) + " xor " + str(yyy_mask(b)) + " = " + str(yyy_mask(a) ^ yyy_mask(b)));
    scope.note("Z", str(zzz_mask(a)) + " xor " + str(zzz_mask(b)) + " = " + str(zzz_mask(a) ^ zzz_mask(b)));
  }
  if (a.shift != b.shift)
    throw Error("composition: two swizzles merge only when their shifts agree (" + to_string(a) + " and " +
                to_string(b) + ")");
  const Swizzle r = make_swizzle(yyy_mask(a) ^ yyy_mask(b), zzz_mask(a) ^ zzz_mask(b));
  if (scope) scope.close(to_string(r));
  return r;
}

ComposedResult composition(const Layout& a, const Swizzle& b) {
  TraceScope scope("composition");
  if (scope) {
    scope.expr("composition(" + to_string(a) + "," + to_string(b) + ")");
    scope.note("rule", "L o Sw = Sw' o 0 o L with Sw' = make_swizzle(L(Y), L(Z)): the swizzle's source bits Y and "
                       "target bits Z carried through L");
    scope.note("Y (source bits)", bits(yyy_mask(b)) + ", L(Y) = " + str(a(yyy_mask(b))));
    scope.note("Z (target bits)", bits(zzz_mask(b)) + ", L(Z) = " + str(a(zzz_mask(b))));
  }
  const Swizzle s = make_swizzle(a(yyy_mask(b)), a(zzz_mask(b)));
  if (scope) scope.note("Sw' = make_swizzle(L(Y), L(Z))", to_string(s), true);
  return traced(scope, rebuild(s, 0, a));
}

ComposedResult composition(const Layout& a, const SwizzledLayout& b) {
  TraceScope scope("composition");
  if (scope) {
    scope.expr("composition(" + to_string(a) + "," + to_string(b) + ")");
    scope.note("rule", "L o (Sw o 0 o B) = (L o Sw) o B");
  }
  if (b.offset != 0)
    throw Error("composition: a swizzled right operand must have offset 0 (CuTe requires it), got " + to_string(b));
  ComposedResult r = composition(a, b.swizzle);
  if (auto* l = std::get_if<Layout>(&r)) return traced(scope, composition(*l, b.layout));
  const auto& s = std::get<SwizzledLayout>(r);
  if (scope) scope.note("then the layout under the swizzle composed with B", "Sw' o 0 o (L o B)");
  return traced(scope, rebuild(s.swizzle, s.offset, composition(s.layout, b.layout)));
}

namespace {
template <bool Right>
ComposedResult inverse_of(const SwizzledLayout& s) {
  const char* op = Right ? "right_inverse" : "left_inverse";
  TraceScope scope(op);
  if (scope) {
    scope.expr(std::string(op) + "(" + to_string(s) + ")");
    scope.note("rule", s.offset == 0 ? std::string("inverse(Sw o 0 o L) = inverse(L) o Sw (a swizzle is its own "
                                                   "inverse), brought to the form Sw' o 0 o inverse(L)")
                                     : std::string("inverse(Sw o off o L) = inverse(L) o -off o Sw (CuTe cannot move "
                                                   "the swizzle left past an offset)"));
  }
  const Layout inv = Right ? right_inverse(s.layout) : left_inverse(s.layout);
  if (s.offset == 0) return traced(scope, composition(inv, s.swizzle));
  return traced(scope, LayoutAfterSwizzle{inv, checked_neg(s.offset), s.swizzle});
}
template <bool Right>
ComposedResult inverse_of(const LayoutAfterSwizzle& s) {
  const char* op = Right ? "right_inverse" : "left_inverse";
  TraceScope scope(op);
  if (scope) {
    scope.expr(std::string(op) + "(" + to_string(s) + ")");
    scope.note("rule", "inverse(L o off o Sw) = Sw o -off o inverse(L) (a swizzle is its own inverse)");
  }
  const Layout inv = Right ? right_inverse(s.layout) : left_inverse(s.layout);
  return traced(scope, rebuild(s.swizzle, checked_neg(s.offset), inv));
}
}  // namespace

ComposedResult right_inverse(const SwizzledLayout& s) { return inverse_of<true>(s); }
ComposedResult left_inverse(const SwizzledLayout& s) { return inverse_of<false>(s); }

// A swizzle is its own inverse; an offset's inverse is its negation.
ComposedResult right_inverse(const LayoutAfterSwizzle& s) { return inverse_of<true>(s); }
ComposedResult left_inverse(const LayoutAfterSwizzle& s) { return inverse_of<false>(s); }

Swizzle upcast(const Swizzle& s, std::int64_t n) {
  TraceScope scope("upcast");
  if (scope) scope.expr("upcast(" + to_string(s) + "," + str(n) + ")");
  const int k = log2_exact(n, "upcast");
  const int m = s.base - k;
  if (scope)
    scope.note("rule", "the swizzle's bits move down by log2 " + str(n) + " = " + str(k) +
                           (m >= 0 ? std::string() : "; the " + str(-m) + " bit(s) that fall below bit 0 are lost"));
  const Swizzle r = m >= 0 ? Swizzle(s.bits, m, s.shift) : Swizzle(std::max(s.bits + m, 0), 0, s.shift);
  if (scope) scope.close(to_string(r));
  return r;
}

Swizzle downcast(const Swizzle& s, std::int64_t n) {
  TraceScope scope("downcast");
  if (scope) scope.expr("downcast(" + to_string(s) + "," + str(n) + ")");
  const int k = log2_exact(n, "downcast");
  if (scope) scope.note("rule", "the swizzle's bits move up by log2 " + str(n) + " = " + str(k));
  const Swizzle r(s.bits, s.base + k, s.shift);
  if (scope) scope.close(to_string(r));
  return r;
}

// A cast keeps the composed form even when the swizzle loses all its bits: CuTe's cast offset
// is no longer the literal _0 that lets composition(Sw<0,..>, _0, L) decay to L.
ComposedResult upcast(const SwizzledLayout& s, std::int64_t n) {
  TraceScope scope("upcast");
  if (scope) {
    scope.expr("upcast(" + to_string(s) + "," + str(n) + ")");
    scope.note("rule", "each part cast: upcast(Sw) o off/" + str(n) + " o upcast(L)");
  }
  const Swizzle sw = upcast(s.swizzle, n);
  if (s.offset % n != 0)
    throw Error("upcast: the offset " + std::to_string(s.offset) + " is not a multiple of " + std::to_string(n));
  const Layout l = upcast(s.layout, n);
  return traced(scope, SwizzledLayout{sw, l, s.offset / n});
}

ComposedResult downcast(const SwizzledLayout& s, std::int64_t n) {
  TraceScope scope("downcast");
  if (scope) {
    scope.expr("downcast(" + to_string(s) + "," + str(n) + ")");
    scope.note("rule", "each part cast: downcast(Sw) o off*" + str(n) + " o downcast(L)");
  }
  const Swizzle sw = downcast(s.swizzle, n);
  const Layout l = downcast(s.layout, n);
  return traced(scope, SwizzledLayout{sw, l, checked_mul(s.offset, n, "downcast")});
}

ComposedResult slice(const IntTuple& coord, const SwizzledLayout& s) {
  TraceScope scope("slice");
  if (scope) scope.expr("slice(" + to_string(s) + "," + to_string(coord) + ")");
  if (all_underscore(coord)) {
    if (scope) scope.note("rule", "an all-_ coordinate reshapes: Sw o off o slice(L)");
    return traced(scope, rebuild(s, slice(coord, s.layout)));
  }
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
  if (scope) {
    scope.note("offset of the fixed modes", str(fixed) + "; its bits the swizzle reads or writes (" + bits(yz) +
                                                ") join the offset: " + str(s.offset) + " xor " + str(fixed & yz) +
                                                " = " + str(offset_zy) + "; the others are dropped");
  }
  // P o sliced, P the projection onto the swizzle's Y and Z bits; its last value holds every
  // Y/Z bit the kept modes can reach.
  const Layout only_zy = flat_layout({pow2(M), pow2(B), pow2(S - B), pow2(B), 1},
                                     {0, pow2(M), 0, pow2(M + S), 0});
  const Layout reach = composition(only_zy, sliced);
  const std::int64_t active = reach(reach.size() - 1);
  if ((active & ~sw(active)) != 0) {  // both Y and Z: stays swizzled
    if (scope) scope.note("kept modes reach", bits(active) + ": both source and target bits, so it stays swizzled");
    return traced(scope, rebuild(sw, offset_zy, sliced));
  }
  if (scope)
    scope.note("kept modes reach", bits(active) + ": only source or only target bits, so the swizzle is linear "
                                                  "on them and the slice decays to a plain layout");
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
  const Layout linear = flat_layout(fs, fd);
  if (scope) scope.note("the swizzle seen from the offset, as a layout", to_string(linear), true);
  return traced(scope, composition(linear, sliced));
}

std::int64_t max_common_vector(const SwizzledLayout& a, const Layout& b) {
  TraceScope scope("max_common_vector");
  if (scope) {
    scope.expr("max_common_vector(" + to_string(a) + "," + to_string(b) + ")");
    scope.note("rule", "that of the layout under the swizzle, at most the 2^M = " + str(pow2(a.swizzle.base)) +
                           " elements the swizzle leaves in place");
  }
  const std::int64_t r = std::min(max_common_vector(a.layout, b), pow2(a.swizzle.base));
  if (scope) scope.close(str(r));
  return r;
}

Layout max_common_layout(const SwizzledLayout& a, const Layout& b) {
  TraceScope scope("max_common_layout");
  if (scope) {
    scope.expr("max_common_layout(" + to_string(a) + "," + to_string(b) + ")");
    scope.note("rule", "that of the layout under the swizzle, cut to the 2^M = " + str(pow2(a.swizzle.base)) +
                           " elements the swizzle leaves in place");
  }
  const Layout common = max_common_layout(a.layout, b);
  const std::int64_t base = pow2(a.swizzle.base);
  if (base < common.size()) {
    const Layout r = composition(common, Layout(IntTuple(base), IntTuple(1)));  // common o base
    if (scope) scope.close(to_string(r));
    return r;
  }
  if (scope) scope.close(to_string(common));
  return common;
}

}  // namespace tessera::rt
