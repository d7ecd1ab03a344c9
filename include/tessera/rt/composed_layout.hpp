#pragma once
// CuTe's algebra on composed layouts Sw o off o L (rt::SwizzledLayout) and L o off o Sw
// (rt::LayoutAfterSwizzle), from CuTe's definitions (layout_composed.hpp, swizzle_layout.hpp):
// - most operations act on L and rebuild Sw o off o op(L) (see `rebuild`);
// - a composed layout whose swizzle is the identity (B == 0) and whose offset is 0 is the
//   plain layout L (CuTe's composition(Swizzle<0,M,S>, _0, L) returns L);
// - the operations below are the ones where the swizzle itself takes part.
#include <cstdint>
#include <variant>

#include "tessera/rt/algebra.hpp"
#include "tessera/rt/layout.hpp"

namespace tessera::rt {

// What an operation on a composed layout gives: a plain layout, Sw o off o L, or L o off o Sw.
using ComposedResult = std::variant<Layout, SwizzledLayout, LayoutAfterSwizzle>;

// composition(Sw, off, L): Sw o off o L, or L itself when Sw is the identity and off == 0.
ComposedResult rebuild(const Swizzle& sw, std::int64_t offset, Layout l);
inline ComposedResult rebuild(const SwizzledLayout& s, Layout l) { return rebuild(s.swizzle, s.offset, std::move(l)); }

// CuTe's make_swizzle<Y,Z>: the swizzle whose source bits are the mask y and whose target
// bits are z (same number of bits; Y|Z must be the masks of some Swizzle<B,M,S>).
Swizzle make_swizzle(std::int64_t y, std::int64_t z);
// The source (Y) and target (Z) bit masks of a swizzle.
std::int64_t yyy_mask(const Swizzle& s);
std::int64_t zzz_mask(const Swizzle& s);

// composition(Sw1, Sw2) of two swizzles with the same shift (CuTe merges their masks).
Swizzle composition(const Swizzle& a, const Swizzle& b);
// composition(L, Sw) = Sw' o 0 o L with Sw' = make_swizzle(L(Y), L(Z)) (CuTe's rule:
// it carries the swizzle's bits through L, exact when L maps those bits to bits).
ComposedResult composition(const Layout& a, const Swizzle& b);
// composition(L, Sw o 0 o B) = composition(composition(L, Sw), B); the offset must be 0.
ComposedResult composition(const Layout& a, const SwizzledLayout& b);

// right_inverse(Sw o off o L): off == 0 gives composition(right_inverse(L), Sw) (a
// swizzled layout again); otherwise right_inverse(L) o -off o Sw. left_inverse likewise.
ComposedResult right_inverse(const SwizzledLayout& s);
ComposedResult left_inverse(const SwizzledLayout& s);
// The inverse of L o off o Sw is Sw o -off o inverse(L).
ComposedResult right_inverse(const LayoutAfterSwizzle& s);
ComposedResult left_inverse(const LayoutAfterSwizzle& s);

// upcast<N> / downcast<N> of a swizzle (N a power of two): the swizzle for elements N times
// wider (its bits move down by log2 N, losing those that fall below bit 0) or narrower.
Swizzle upcast(const Swizzle& s, std::int64_t n);
Swizzle downcast(const Swizzle& s, std::int64_t n);
// Each part cast: upcast(Sw) o off/N o upcast(L) (off must be a multiple of N).
ComposedResult upcast(const SwizzledLayout& s, std::int64_t n);
ComposedResult downcast(const SwizzledLayout& s, std::int64_t n);

// slice(coord, Sw o off o L). An all-underscore coordinate reshapes: Sw o off o slice(L).
// Otherwise CuTe splits the fixed part's offset into the bits the swizzle reads (they join
// the offset) and the others (dropped, as slice drops the offset of a plain layout), then
// decays to a plain layout when the kept modes never touch both a source and a target bit.
ComposedResult slice(const IntTuple& coord, const SwizzledLayout& s);

// Common vectors with a swizzled operand stop at the swizzle's 2^M unchanged low bits.
std::int64_t max_common_vector(const SwizzledLayout& a, const Layout& b);
Layout max_common_layout(const SwizzledLayout& a, const Layout& b);

}  // namespace tessera::rt
