#pragma once
// ComposedLayout<Outer, Offset, Inner>: c -> outer(offset + inner(c)); the usual
// case is a swizzle over a layout (swizzled shared-memory tiles). Printed as CuTe
// prints it, the offset always: "Sw<B,M,S> o 0 o layout", "Sw<B,M,S> o 4 o layout".
#include <bit>

#include "swizzle.hpp"
#include "algebra/composition.hpp"
#include "algebra/divide.hpp"
#include "algebra/max_common.hpp"
#include "algebra/tile_to_shape.hpp"

namespace tessera {

namespace detail {
// The rank of Sw o off o L is L's; L o off o Sw (an inverse's form) has no modes of its own.
template <class Inner> constexpr int composed_rank() {
  if constexpr (requires { Inner::rank; }) return Inner::rank;
  else return 1;
}
}  // namespace detail

template <class Outer, class Offset, class Inner>
struct ComposedLayout {
  tuple<Outer, Offset, Inner> data_;
  constexpr ComposedLayout() = default;
  TESSERA_HOST_DEVICE constexpr ComposedLayout(Outer const& o, Offset const& off, Inner const& i) : data_{o, off, i} {}

  TESSERA_HOST_DEVICE constexpr decltype(auto) outer() const { return get<0>(data_); }
  TESSERA_HOST_DEVICE constexpr decltype(auto) offset() const { return get<1>(data_); }
  TESSERA_HOST_DEVICE constexpr decltype(auto) inner() const { return get<2>(data_); }
  TESSERA_HOST_DEVICE constexpr auto shape() const { return inner().shape(); }
  static constexpr int rank = detail::composed_rank<Inner>();

  template <class Crd> TESSERA_HOST_DEVICE constexpr auto operator()(Crd const& crd) const {
    if constexpr (has_underscore_v<Crd>) {
      auto so = slice_and_offset(crd, inner());
      return ComposedLayout<Outer, decltype(offset() + get<1>(so)), std::remove_cvref_t<decltype(get<0>(so))>>(outer(), offset() + get<1>(so), get<0>(so));
    } else {
      return outer()(offset() + inner()(crd));
    }
  }
  template <class C0, class C1, class... Cs>
  TESSERA_HOST_DEVICE constexpr auto operator()(C0 const& c0, C1 const& c1, Cs const&... cs) const { return operator()(make_coord(c0, c1, cs...)); }
};

template <class T> struct is_composed_layout : std::false_type {};
template <class O, class F, class I> struct is_composed_layout<ComposedLayout<O, F, I>> : std::true_type {};
template <class T> inline constexpr bool is_composed_layout_v = is_composed_layout<std::remove_cvref_t<T>>::value;
template <class O, class F, class I> struct is_static<ComposedLayout<O, F, I>> : std::bool_constant<is_static_v<F> && is_static_v<I>> {};

template <class O, class F, class I>
TESSERA_HOST_DEVICE constexpr auto make_composed_layout(O const& outer, F const& offset, I const& inner) {
  return ComposedLayout<O, F, I>(outer, offset, inner);
}
// composition(A, off, B) = A o off o B; CuTe's rule: an identity swizzle (B == 0) with a
// static zero offset is B itself.
template <class O, class F, class I>
TESSERA_HOST_DEVICE constexpr auto composition(O const& outer, F const& offset, I const& inner) {
  if constexpr (is_swizzle_v<O> && std::remove_cvref_t<O>::num_bits == 0 && is_constant_v<0, F>) return inner;
  else return make_composed_layout(outer, offset, inner);
}
// swizzle o layout
template <int B, int M, int S, class LS, class LD>
TESSERA_HOST_DEVICE constexpr auto composition(Swizzle<B, M, S> const& sw, Layout<LS, LD> const& l) {
  return composition(sw, C<0>{}, l);
}
// (outer o offset o inner) o rhs == outer o offset o (inner o rhs)
template <class O, class F, class I, class R>
TESSERA_HOST_DEVICE constexpr auto composition(ComposedLayout<O, F, I> const& a, R const& rhs) {
  return composition(a.outer(), a.offset(), composition(a.inner(), rhs));
}

template <int... Is, class O, class F, class I> TESSERA_HOST_DEVICE constexpr auto shape(ComposedLayout<O, F, I> const& l) { return shape<Is...>(l.inner()); }
template <int... Is, class O, class F, class I> TESSERA_HOST_DEVICE constexpr auto size(ComposedLayout<O, F, I> const& l) { return size<Is...>(l.inner()); }
template <int... Is, class O, class F, class I> TESSERA_HOST_DEVICE constexpr auto rank(ComposedLayout<O, F, I> const& l) { return rank<Is...>(l.inner()); }
template <int... Is, class O, class F, class I> TESSERA_HOST_DEVICE constexpr auto depth(ComposedLayout<O, F, I> const& l) { return depth<Is...>(l.inner()); }
// CuTe's cosize of Sw o off o L is cosize(L): neither the offset nor the swizzle counts.
// (A buffer for a swizzled tile needs cosize(L) rounded up to the swizzle's block when L
// does not fill whole blocks; the GMMA atoms always do.)
template <int B, int M, int S, class F, class I>
TESSERA_HOST_DEVICE constexpr auto cosize(ComposedLayout<Swizzle<B, M, S>, F, I> const& l) {
  return cosize(l.inner());
}

// Operations CuTe defines on a composed layout by applying them to the layout under the
// swizzle: op(Sw o off o L) = composition(Sw, off, op(L)) (decays to op(L) when Sw is the
// identity and off is 0). op(L) is found by argument-dependent lookup when instantiated.
// (A fixed number of arguments, no pack: a pack would make the overloads ambiguous with the
// generic ones on shapes.)
#define TESSERA_COMPOSED_ON_INNER(op)                                                                  \
  template <class O, class F, class I>                                                                 \
  TESSERA_HOST_DEVICE constexpr auto op(ComposedLayout<O, F, I> const& l) {                           \
    return composition(l.outer(), l.offset(), op(l.inner()));                                          \
  }                                                                                                    \
  template <class O, class F, class I, class A>                                                        \
  TESSERA_HOST_DEVICE constexpr auto op(ComposedLayout<O, F, I> const& l, A const& a) {               \
    return composition(l.outer(), l.offset(), op(l.inner(), a));                                       \
  }
TESSERA_COMPOSED_ON_INNER(coalesce)
TESSERA_COMPOSED_ON_INNER(filter)
TESSERA_COMPOSED_ON_INNER(flatten)
TESSERA_COMPOSED_ON_INNER(logical_divide)
TESSERA_COMPOSED_ON_INNER(zipped_divide)
TESSERA_COMPOSED_ON_INNER(tiled_divide)
TESSERA_COMPOSED_ON_INNER(flat_divide)
TESSERA_COMPOSED_ON_INNER(logical_product)
TESSERA_COMPOSED_ON_INNER(zipped_product)
TESSERA_COMPOSED_ON_INNER(tiled_product)
TESSERA_COMPOSED_ON_INNER(flat_product)
TESSERA_COMPOSED_ON_INNER(blocked_product)
TESSERA_COMPOSED_ON_INNER(raked_product)
#undef TESSERA_COMPOSED_ON_INNER

// tile_to_shape(Sw o off o L, shape[, order]) = composition(Sw, off, tile_to_shape(L, shape,
// order)), CuTe's definition: each block is L moved by a multiple of cosize(L) under the one
// swizzle (the block's copies are swizzled alike when cosize(L) is a multiple of the swizzle's
// period, as for every GMMA atom). The static tier's only swizzled tile_to_shape (the
// runtime tier applies rt::tile_to_shape under the swizzle through eval's generic rebuild).
template <class O, class F, class I, class T, class Order = LayoutLeft>
TESSERA_HOST_DEVICE constexpr auto tile_to_shape(ComposedLayout<O, F, I> const& block, T const& trg_shape,
                                                 Order const& order = {}) {
  return composition(block.outer(), block.offset(), tile_to_shape(block.inner(), trg_shape, order));
}
template <class O, class F, class I, class T, class Order = LayoutLeft>
TESSERA_HOST_DEVICE constexpr auto tile_to_shape_coalesced(ComposedLayout<O, F, I> const& block, T const& trg_shape,
                                                           Order const& order = {}) {
  return composition(block.outer(), block.offset(), tile_to_shape_coalesced(block.inner(), trg_shape, order));
}

// Mode I: Sw o off o mode I of L.
template <std::size_t... Is, class O, class F, class I>
TESSERA_HOST_DEVICE constexpr auto get(ComposedLayout<O, F, I> const& l) {
  return composition(l.outer(), l.offset(), get<Is...>(l.inner()));
}
// The offsets L does not reach (the swizzle plays no part).
template <class O, class F, class I>
TESSERA_HOST_DEVICE constexpr auto complement(ComposedLayout<O, F, I> const& l) { return complement(l.inner()); }
template <class O, class F, class I, class T>
TESSERA_HOST_DEVICE constexpr auto complement(ComposedLayout<O, F, I> const& l, T const& cotarget) {
  return complement(l.inner(), cotarget);
}

// CuTe's make_swizzle<Y,Z>: the swizzle with source bits Y and target bits Z.
template <int64_t Y, int64_t Z>
TESSERA_HOST_DEVICE constexpr auto make_swizzle() {
  static_assert(Y >= 0 && Z >= 0 && Y < (int64_t(1) << 32) && Z < (int64_t(1) << 32),
                "tessera::make_swizzle: the bit masks must lie in [0, 2^32)");
  constexpr int b = std::popcount(uint64_t(Y));
  static_assert(b == std::popcount(uint64_t(Z)),
                "tessera::make_swizzle: a layout composed with a swizzle must carry its source (Y) and target (Z) "
                "bits to as many bits each (CuTe's make_swizzle rule)");
  constexpr int ty = Y == 0 ? 32 : std::countr_zero(uint64_t(Y)), tz = Z == 0 ? 32 : std::countr_zero(uint64_t(Z));
  constexpr int m = (ty < tz ? ty : tz) % 32, sh = ty - tz;
  constexpr int64_t ones = (int64_t(1) << b) - 1;
  static_assert((sh < 0 ? -sh : sh) >= b && (Y | Z) == ((ones << (m + (sh > 0 ? sh : 0))) | (ones << (m - (sh < 0 ? sh : 0)))),
                "tessera::make_swizzle: the layout scatters the swizzle's bits: their images are not two runs of bits "
                "a swizzle can name (CuTe's make_swizzle rule)");
  return Swizzle<b, m, sh>{};
}
// L o Sw = Sw' o L where Sw' has L's images of the swizzle's bits (CuTe's rule: exact when L
// carries those bits in order; it needs a static L).
template <class LS, class LD, int B, int M, int S>
TESSERA_HOST_DEVICE constexpr auto composition(Layout<LS, LD> const& l, Swizzle<B, M, S> const&) {
  static_assert(is_static_v<Layout<LS, LD>>, "tessera::composition(L, Swizzle) needs a static layout");
  using Y = decltype(l(C<Swizzle<B, M, S>::yyy_msk>{}));
  using Z = decltype(l(C<Swizzle<B, M, S>::zzz_msk>{}));
  return composition(make_swizzle<Y::value, Z::value>(), C<0>{}, l);
}
// Two swizzles of one shift merge their masks.
template <int B0, int M0, int S0, int B1, int M1, int S1>
TESSERA_HOST_DEVICE constexpr auto composition(Swizzle<B0, M0, S0> const&, Swizzle<B1, M1, S1> const&) {
  static_assert(S0 == S1, "tessera::composition: two swizzles merge only when their shifts agree");
  return make_swizzle<(Swizzle<B0, M0, S0>::yyy_msk ^ Swizzle<B1, M1, S1>::yyy_msk),
                      (Swizzle<B0, M0, S0>::zzz_msk ^ Swizzle<B1, M1, S1>::zzz_msk)>();
}
// L o (Sw o 0 o B) = (L o Sw) o B.
template <class LS, class LD, class O, class F, class I>
TESSERA_HOST_DEVICE constexpr auto composition(Layout<LS, LD> const& l, ComposedLayout<O, F, I> const& b) {
  static_assert(is_constant_v<0, F>, "tessera::composition: a composed right operand needs offset 0 (CuTe's rule)");
  return composition(composition(l, b.outer()), b.inner());
}

// A swizzle is its own inverse; with offset 0 the inverse of Sw o 0 o L is inverse(L) o Sw,
// itself a swizzled layout; otherwise inverse(L) o -off o Sw.
template <int B, int M, int S> TESSERA_HOST_DEVICE constexpr auto right_inverse(Swizzle<B, M, S> const& s) { return s; }
template <int B, int M, int S> TESSERA_HOST_DEVICE constexpr auto left_inverse(Swizzle<B, M, S> const& s) { return s; }
template <int B, int M, int S, class F, class I>
TESSERA_HOST_DEVICE constexpr auto right_inverse(ComposedLayout<Swizzle<B, M, S>, F, I> const& l) {
  if constexpr (is_constant_v<0, F>) return composition(right_inverse(l.inner()), l.outer());
  else return make_composed_layout(right_inverse(l.inner()), -l.offset(), l.outer());
}
template <int B, int M, int S, class F, class I>
TESSERA_HOST_DEVICE constexpr auto left_inverse(ComposedLayout<Swizzle<B, M, S>, F, I> const& l) {
  if constexpr (is_constant_v<0, F>) return composition(left_inverse(l.inner()), l.outer());
  else return make_composed_layout(left_inverse(l.inner()), -l.offset(), l.outer());
}

// L o off o Sw (an inverse's form): its inverse is Sw o -off o inverse(L) (a swizzle is its
// own inverse), a plain layout again when Sw is the identity and the offset 0.
template <class LS, class LD, class F, int B, int M, int S>
TESSERA_HOST_DEVICE constexpr auto right_inverse(ComposedLayout<Layout<LS, LD>, F, Swizzle<B, M, S>> const& l) {
  return composition(l.inner(), -l.offset(), right_inverse(l.outer()));
}
template <class LS, class LD, class F, int B, int M, int S>
TESSERA_HOST_DEVICE constexpr auto left_inverse(ComposedLayout<Layout<LS, LD>, F, Swizzle<B, M, S>> const& l) {
  return composition(l.inner(), -l.offset(), left_inverse(l.outer()));
}

// upcast<N> / downcast<N> of a swizzle: its bits move by log2 N (N a power of two); bits that
// would fall below bit 0 are lost.
template <int N, int B, int M, int S>
TESSERA_HOST_DEVICE constexpr auto upcast(Swizzle<B, M, S> const&) {
  static_assert(N > 0 && (N & (N - 1)) == 0, "tessera::upcast: a swizzle is cast by whole bits: N must be a power of two");
  constexpr int m = M - std::countr_zero(unsigned(N));
  if constexpr (m >= 0) return Swizzle<B, m, S>{};
  else return Swizzle<(B + m > 0 ? B + m : 0), 0, S>{};
}
template <int N, int B, int M, int S>
TESSERA_HOST_DEVICE constexpr auto downcast(Swizzle<B, M, S> const&) {
  static_assert(N > 0 && (N & (N - 1)) == 0, "tessera::downcast: a swizzle is cast by whole bits: N must be a power of two");
  return Swizzle<B, M + std::countr_zero(unsigned(N)), S>{};
}
template <int N, int B, int M, int S, class F, class I>
TESSERA_HOST_DEVICE constexpr auto upcast(ComposedLayout<Swizzle<B, M, S>, F, I> const& l) {
  static_assert(!is_static_v<F> || F::value % N == 0, "tessera::upcast: the offset must be a multiple of N");
  auto off = [&] {
    if constexpr (is_static_v<F>) return C<F::value / N>{};
    else return l.offset() / N;
  }();
  // The composed form stays even when the swizzle loses every bit (CuTe: the cast offset is
  // no longer the literal _0 that lets an identity swizzle decay).
  return make_composed_layout(upcast<N>(l.outer()), off, upcast<N>(l.inner()));
}
template <int N, int B, int M, int S, class F, class I>
TESSERA_HOST_DEVICE constexpr auto downcast(ComposedLayout<Swizzle<B, M, S>, F, I> const& l) {
  return make_composed_layout(downcast<N>(l.outer()), l.offset() * C<N>{}, downcast<N>(l.inner()));
}

// slice(coord, Sw o off o L), CuTe's definition (swizzle_layout.hpp, slice_and_offset):
// - an all-_ coordinate reshapes: Sw o off o slice(L);
// - otherwise the fixed modes' offset splits: its bits on the swizzle's Y or Z join the
//   offset, the others are dropped (as slice drops the offset of a plain layout); when the
//   kept modes touch only Y bits or only Z bits the swizzle is linear on them and the result
//   decays to a plain layout with signed strides. Which of the two depends on values: the
//   operands must be static (the call operator with _ keeps the whole offset instead).
namespace detail {
template <int B, int M, int S> struct swizzle_projection {
  static constexpr int abs_s = S < 0 ? -S : S;
  template <int E> using pow2 = C<(int64_t(1) << E)>;
  // (2^M, 2^B, 2^(|S|-B), 2^B, 1): the offset's bits below, on Z, between, on Y, above
  using shape = decltype(make_shape(pow2<M>{}, pow2<B>{}, pow2<abs_s - B>{}, pow2<B>{}, C<1>{}));
  // P: the projection of an offset onto the Y and Z bits
  static constexpr auto only_zy() {
    return make_layout(shape{}, make_stride(C<0>{}, pow2<M>{}, C<0>{}, pow2<M + abs_s>{}, C<0>{}));
  }
  // The swizzle seen from the offset `off`, on layouts that touch only Y or only Z bits:
  // each Z bit moves by +-2^i Z (the sign set by off's Y bit), each Y bit by (Y +- Z) 2^i
  // (the sign set by off's Z bit).
  template <int64_t Off> static constexpr auto linear_from() {
    constexpr int64_t zm = Swizzle<B, M, S>::zzz_msk, ym = Swizzle<B, M, S>::yyy_msk;
    constexpr int64_t z = zm & -zm, y = ym & -ym;
    auto strides = [&]<bool ZBased, std::size_t... I>(std::index_sequence<I...>) {
      if constexpr (ZBased)
        return make_stride(C<((Off & (y << I)) == 0 ? (z << I) : -(z << I))>{}...);
      else
        return make_stride(C<((Off & (z << I)) == 0 ? ((y + z) << I) : ((y - z) << I))>{}...);
    };
    auto lo = strides.template operator()<(z < y)>(std::make_index_sequence<B>{});
    auto hi = strides.template operator()<(z > y)>(std::make_index_sequence<B>{});
    auto twos = [&]<std::size_t... I>(std::index_sequence<I...>) { return make_shape((void(I), C<2>{})...); }(std::make_index_sequence<B>{});
    auto shp = tuple_cat(make_shape(pow2<M>{}), twos, make_shape(pow2<abs_s - B>{}), twos, make_shape(C<1>{}));
    auto std_ = tuple_cat(make_stride(C<1>{}), lo, make_stride(pow2<M + B>{}), hi, make_stride(pow2<M + B + abs_s>{}));
    return make_layout(shp, std_);
  }
};
}  // namespace detail

template <class Crd, int B, int M, int S, class F, class I>
TESSERA_HOST_DEVICE constexpr auto slice(Crd const& crd, ComposedLayout<Swizzle<B, M, S>, F, I> const& l) {
  if constexpr (all_underscore_v<Crd>) {
    return composition(l.outer(), l.offset(), slice(crd, l.inner()));
  } else {
    using Fixed = std::remove_cvref_t<decltype(get<1>(slice_and_offset(crd, l.inner())))>;
    static_assert(is_static_v<Fixed> && is_static_v<F> && is_static_v<I>,
                  "tessera::slice: slicing a swizzled layout (CuTe's decay to a plain layout) needs a static "
                  "layout, offset and coordinate");
    using P = detail::swizzle_projection<B, M, S>;
    using Sw = Swizzle<B, M, S>;
    auto sliced = slice(crd, l.inner());
    constexpr int64_t fixed = Fixed::value;
    static_assert(fixed >= 0, "tessera::slice: the fixed coordinates reach a negative offset, outside the swizzle's domain");
    constexpr int64_t offset_zy = F::value ^ (fixed & (Sw::yyy_msk | Sw::zzz_msk));
    auto reach = composition(P::only_zy(), sliced);  // P o sliced: its last value holds every Y/Z bit reached
    constexpr int64_t active = std::remove_cvref_t<decltype(reach(size(reach) - C<1>{}))>::value;
    if constexpr ((active & ~decltype(Sw::apply(C<active>{}))::value) != 0) {
      return composition(Sw{}, C<offset_zy>{}, sliced);  // both Y and Z: stays swizzled
    } else {
      return composition(P::template linear_from<offset_zy>(), sliced);
    }
  }
}

// max_common_vector / max_common_layout with a swizzled operand (either side): the swizzle
// leaves the 2^M lowest offsets in place, so the common part stops there.
template <int B, int M, int S, class F, class I, class SB, class DB>
TESSERA_HOST_DEVICE constexpr auto max_common_vector(ComposedLayout<Swizzle<B, M, S>, F, I> const& a, Layout<SB, DB> const& b) {
  auto v = max_common_vector(a.inner(), b);
  constexpr int64_t base = int64_t(1) << M;
  if constexpr (is_static_v<decltype(v)>) {
    if constexpr ((decltype(v)::value) < base) return v;
    else return C<base>{};
  } else {
    return v < base ? to_i64(v) : base;
  }
}
template <class SA, class DA, int B, int M, int S, class F, class I>
TESSERA_HOST_DEVICE constexpr auto max_common_vector(Layout<SA, DA> const& a, ComposedLayout<Swizzle<B, M, S>, F, I> const& b) {
  return max_common_vector(b, a);
}
template <int B0, int M0, int S0, class F0, class I0, int B1, int M1, int S1, class F1, class I1>
TESSERA_HOST_DEVICE constexpr auto max_common_vector(ComposedLayout<Swizzle<B0, M0, S0>, F0, I0> const& a,
                                                     ComposedLayout<Swizzle<B1, M1, S1>, F1, I1> const& b) {
  auto v = max_common_vector(a.inner(), b.inner());
  if constexpr (B0 == B1 && M0 == M1 && S0 == S1) {
    return v;  // the same swizzle on both sides cancels
  } else {
    constexpr int64_t base = int64_t(1) << (M0 < M1 ? M0 : M1);
    if constexpr (is_static_v<decltype(v)>) {
      if constexpr ((decltype(v)::value) < base) return v;
      else return C<base>{};
    } else {
      return v < base ? to_i64(v) : base;
    }
  }
}
template <int B, int M, int S, class F, class I, class SB, class DB>
TESSERA_HOST_DEVICE constexpr auto max_common_layout(ComposedLayout<Swizzle<B, M, S>, F, I> const& a, Layout<SB, DB> const& b) {
  auto common = max_common_layout(a.inner(), b);
  static_assert(is_static_v<decltype(size(common))>,
                "tessera::max_common_layout: with a swizzled operand the common layout's size must be static");
  constexpr int64_t base = int64_t(1) << M;
  if constexpr (base < decltype(size(common))::value) return composition(common, C<base>{});  // common truncated to 2^M
  else return common;
}
template <class SA, class DA, int B, int M, int S, class F, class I>
TESSERA_HOST_DEVICE constexpr auto max_common_layout(Layout<SA, DA> const& a, ComposedLayout<Swizzle<B, M, S>, F, I> const& b) {
  return max_common_layout(b, a);
}

template <class O, class F, class I> std::string to_string(ComposedLayout<O, F, I> const& l) {
  return to_string(l.outer()) + " o " + to_string(l.offset()) + " o " + to_string(l.inner());
}
template <class O, class F, class I> std::ostream& operator<<(std::ostream& os, ComposedLayout<O, F, I> const& l) { return os << to_string(l); }
}  // namespace tessera
