#pragma once
// ComposedLayout<Outer, Offset, Inner>: c -> outer(offset + inner(c)); the usual
// case is a swizzle over a layout (swizzled shared-memory tiles). Printed as
// "Sw<B,M,S> o layout" (offset 0) or "Sw<B,M,S> o off o layout".
#include "swizzle.hpp"
#include "algebra/composition.hpp"
#include "algebra/divide.hpp"

namespace tessera {

template <class Outer, class Offset, class Inner>
struct ComposedLayout {
  tuple<Outer, Offset, Inner> data_;
  TESSERA_HOST_DEVICE constexpr ComposedLayout() = default;
  TESSERA_HOST_DEVICE constexpr ComposedLayout(Outer const& o, Offset const& off, Inner const& i) : data_(o, off, i) {}

  TESSERA_HOST_DEVICE constexpr decltype(auto) outer() const { return boost::hana::at_c<0>(data_); }
  TESSERA_HOST_DEVICE constexpr decltype(auto) offset() const { return boost::hana::at_c<1>(data_); }
  TESSERA_HOST_DEVICE constexpr decltype(auto) inner() const { return boost::hana::at_c<2>(data_); }
  TESSERA_HOST_DEVICE constexpr auto shape() const { return inner().shape(); }
  static constexpr int rank = Inner::rank;

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
// swizzle o layout
template <int B, int M, int S, class LS, class LD>
TESSERA_HOST_DEVICE constexpr auto composition(Swizzle<B, M, S> const& sw, Layout<LS, LD> const& l) {
  return make_composed_layout(sw, C<0>{}, l);
}
// (outer o offset o inner) o rhs == outer o offset o (inner o rhs)
template <class O, class F, class I, class R>
TESSERA_HOST_DEVICE constexpr auto composition(ComposedLayout<O, F, I> const& a, R const& rhs) {
  return make_composed_layout(a.outer(), a.offset(), composition(a.inner(), rhs));
}

template <int... Is, class O, class F, class I> TESSERA_HOST_DEVICE constexpr auto shape(ComposedLayout<O, F, I> const& l) { return shape<Is...>(l.inner()); }
template <int... Is, class O, class F, class I> TESSERA_HOST_DEVICE constexpr auto size(ComposedLayout<O, F, I> const& l) { return size<Is...>(l.inner()); }
template <int... Is, class O, class F, class I> TESSERA_HOST_DEVICE constexpr auto rank(ComposedLayout<O, F, I> const& l) { return rank<Is...>(l.inner()); }
template <int... Is, class O, class F, class I> TESSERA_HOST_DEVICE constexpr auto depth(ComposedLayout<O, F, I> const& l) { return depth<Is...>(l.inner()); }
// The codomain of a swizzle over a layout: the swizzle only permutes within aligned
// blocks of its own size, so it is cosize(inner) rounded up to that block.
template <int B, int M, int S, class F, class I>
TESSERA_HOST_DEVICE constexpr auto cosize(ComposedLayout<Swizzle<B, M, S>, F, I> const& l) {
  auto n = l.offset() + cosize(l.inner());
  auto blk = Swizzle<B, M, S>::size();
  return ceil_div(n, blk) * blk;
}
template <class O, class F, class I> TESSERA_HOST_DEVICE constexpr auto coalesce(ComposedLayout<O, F, I> const& l) {
  return make_composed_layout(l.outer(), l.offset(), coalesce(l.inner()));
}
template <class O, class F, class I, class T> TESSERA_HOST_DEVICE constexpr auto logical_divide(ComposedLayout<O, F, I> const& l, T const& tiler) {
  return make_composed_layout(l.outer(), l.offset(), logical_divide(l.inner(), tiler));
}
template <class O, class F, class I, class T> TESSERA_HOST_DEVICE constexpr auto zipped_divide(ComposedLayout<O, F, I> const& l, T const& tiler) {
  return make_composed_layout(l.outer(), l.offset(), zipped_divide(l.inner(), tiler));
}
template <class O, class F, class I, class T> TESSERA_HOST_DEVICE constexpr auto tiled_divide(ComposedLayout<O, F, I> const& l, T const& tiler) {
  return make_composed_layout(l.outer(), l.offset(), tiled_divide(l.inner(), tiler));
}

template <class O, class F, class I> std::string to_string(ComposedLayout<O, F, I> const& l) {
  std::string s = to_string(l.outer()) + " o ";
  if constexpr (!is_constant_v<0, F>) s += to_string(l.offset()) + " o ";
  return s + to_string(l.inner());
}
template <class O, class F, class I> std::ostream& operator<<(std::ostream& os, ComposedLayout<O, F, I> const& l) { return os << to_string(l); }

}  // namespace tessera
