#pragma once
// Layout<Shape,Stride>: a function from coordinates (1-D index, n-D or hierarchical)
// to offsets, offset = inner_product(coordinate, stride).
#include "int_tuple.hpp"

namespace tessera {

// ---- the slicing marker _ ------------------------------------------------------
struct Underscore {};
TESSERA_INLINE_CONSTANT Underscore _{};
template <class T> inline constexpr bool is_underscore_v = std::is_same_v<std::remove_cvref_t<T>, Underscore>;

template <class T> inline constexpr bool has_underscore_v = [] {
  if constexpr (is_underscore_v<T>) return true;
  else if constexpr (is_tuple_v<T>) {
    return []<std::size_t... I>(std::index_sequence<I...>) {
      return (false || ... || has_underscore_v<std::remove_cvref_t<decltype(get<I>(std::declval<T>()))>>);
    }(seq_of<T>{});
  } else return false;
}();

// Every leaf is _ (a slice that only reshapes).
template <class T> inline constexpr bool all_underscore_v = [] {
  if constexpr (is_underscore_v<T>) return true;
  else if constexpr (is_tuple_v<T>) {
    return []<std::size_t... I>(std::index_sequence<I...>) {
      return (true && ... && all_underscore_v<std::remove_cvref_t<decltype(get<I>(std::declval<T>()))>>);
    }(seq_of<T>{});
  } else return false;
}();

// slice(crd, t): keep the parts of t where crd has _, concatenated one level.
namespace detail {
template <class Crd, class T> TESSERA_HOST_DEVICE constexpr auto lift_slice(Crd const& c, T const& t);
}
template <class Crd, class T>
TESSERA_HOST_DEVICE constexpr auto slice(Crd const& c, T const& t) {
  if constexpr (is_tuple_v<Crd>) {
    static_assert(is_tuple_v<T> && rank_v<Crd> == rank_v<T>, "tessera::slice: coordinate rank does not match");
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return tuple_cat(tuple<>{}, detail::lift_slice(get<I>(c), get<I>(t))...);
    }(seq_of<T>{});
  } else if constexpr (is_underscore_v<Crd>) {
    return t;
  } else {
    return tuple<>{};
  }
}
// dice(crd, t): the complement of slice: keep the parts where crd is an integer.
template <class Crd, class T>
TESSERA_HOST_DEVICE constexpr auto dice(Crd const& c, T const& t) {
  if constexpr (is_tuple_v<Crd>) {
    static_assert(is_tuple_v<T> && rank_v<Crd> == rank_v<T>, "tessera::dice: coordinate rank does not match");
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return tuple_cat(tuple<>{}, [&](auto const& ci, auto const& ti) {
        if constexpr (is_tuple_v<decltype(ci)>) return dice(ci, ti);
        else if constexpr (is_underscore_v<decltype(ci)>) return tuple<>{};
        else return make_tuple(ti);
      }(get<I>(c), get<I>(t))...);
    }(seq_of<T>{});
  } else if constexpr (is_underscore_v<Crd>) {
    return tuple<>{};
  } else {
    return t;
  }
}
namespace detail {
template <class Crd, class T> TESSERA_HOST_DEVICE constexpr auto lift_slice(Crd const& c, T const& t) {
  if constexpr (is_tuple_v<Crd>) return slice(c, t);
  else if constexpr (is_underscore_v<Crd>) return make_tuple(t);
  else return tuple<>{};
}
// replace every _ by 0 (the offset of a slice)
template <class Crd> TESSERA_HOST_DEVICE constexpr auto zero_underscores(Crd const& c) {
  if constexpr (is_tuple_v<Crd>) return transform(c, [](auto const& x) { return zero_underscores(x); });
  else if constexpr (is_underscore_v<Crd>) return C<0>{};
  else return c;
}
}  // namespace detail

// ---- Layout -------------------------------------------------------------------
struct LayoutLeft {};   // column-major (compact, first mode fastest)
struct LayoutRight {};  // row-major (compact, last mode fastest)

template <class Shape, class Stride> struct Layout;
template <class T> struct is_layout : std::false_type {};
template <class S, class D> struct is_layout<Layout<S, D>> : std::true_type {};
template <class T> inline constexpr bool is_layout_v = is_layout<std::remove_cvref_t<T>>::value;

template <class S, class D> TESSERA_HOST_DEVICE constexpr auto make_layout(S const& s, D const& d);
template <class S, class D> struct stateless<Layout<S, D>> : std::bool_constant<stateless_v<S> && stateless_v<D>> {};

namespace detail {
// A Layout's two members, as distinct bases so that static (empty) ones take no room.
// Plain members, not a tuple<Shape, Stride>: every Layout type would otherwise
// instantiate one more tuple type and its constructors (a measured share of the
// algebra's compile time, bench/compile_time/NOTES.md).
// A stateless member (static shape or stride) is not stored at all: it is T{}.
template <class T, bool = stateless_v<T>> struct shape_slot {
  T shape_;
  constexpr shape_slot() = default;
  TESSERA_HOST_DEVICE constexpr shape_slot(T const& t) : shape_(t) {}
  TESSERA_HOST_DEVICE constexpr T const& shape() const { return shape_; }
};
template <class T> struct shape_slot<T, true> {
  constexpr shape_slot() = default;
  TESSERA_HOST_DEVICE constexpr shape_slot(T const&) {}
  TESSERA_HOST_DEVICE constexpr T shape() const { return T{}; }
};
template <class T, bool = stateless_v<T>> struct stride_slot {
  T stride_;
  constexpr stride_slot() = default;
  TESSERA_HOST_DEVICE constexpr stride_slot(T const& t) : stride_(t) {}
  TESSERA_HOST_DEVICE constexpr T const& stride() const { return stride_; }
};
template <class T> struct stride_slot<T, true> {
  constexpr stride_slot() = default;
  TESSERA_HOST_DEVICE constexpr stride_slot(T const&) {}
  TESSERA_HOST_DEVICE constexpr T stride() const { return T{}; }
};
}  // namespace detail

template <class Shape, class Stride>
struct Layout : detail::shape_slot<Shape>, detail::stride_slot<Stride> {
  static_assert(!is_layout_v<Shape> && !is_layout_v<Stride>, "tessera::Layout: shape and stride must be IntTuples");
  static_assert(same_profile_v<Shape, Stride>, "tessera::Layout: shape and stride must be congruent (same nesting)");
  constexpr Layout() = default;
  TESSERA_HOST_DEVICE constexpr Layout(Shape const& s, Stride const& d) : detail::shape_slot<Shape>(s), detail::stride_slot<Stride>(d) {}

  static constexpr int rank = rank_v<Shape>;

  using detail::shape_slot<Shape>::shape;    // Shape const& (Shape{} when static)
  using detail::stride_slot<Stride>::stride;

  // Evaluation by 1-D index, n-D or hierarchical coordinate; a coordinate holding _
  // returns the sliced sub-layout (use slice_and_offset for the offset).
  template <class Crd>
  TESSERA_HOST_DEVICE constexpr auto operator()(Crd const& crd) const {
    if constexpr (has_underscore_v<Crd>) return make_layout(slice(crd, shape()), slice(crd, stride()));
    else return crd2idx(crd, shape(), stride());
  }
  template <class C0, class C1, class... Cs>
  TESSERA_HOST_DEVICE constexpr auto operator()(C0 const& c0, C1 const& c1, Cs const&... cs) const {
    return operator()(make_coord(c0, c1, cs...));
  }
  // Coordinate of a 1-D index within the shape (colexicographic).
  template <class I> TESSERA_HOST_DEVICE constexpr auto get_hier_coord(I const& idx) const { return idx2crd(idx, shape(), stride()); }
  template <class I> TESSERA_HOST_DEVICE constexpr auto get_1d_coord(I const& idx) const { return idx2crd(idx, shape()); }
  template <class I> TESSERA_HOST_DEVICE constexpr auto get_flat_coord(I const& idx) const {
    return crd2crd(get_hier_coord(idx), shape(), product_each(shape()));
  }
};

template <class S, class D> TESSERA_HOST_DEVICE constexpr auto make_layout(S const& s, D const& d) {
  static_assert(!is_layout_v<S>, "tessera::make_layout(shape, stride): shape is a layout");
  if constexpr (stateless_v<S> && stateless_v<D>) return Layout<S, D>{};
  else return Layout<S, D>(s, d);
}
template <class S> TESSERA_HOST_DEVICE constexpr auto make_layout(S const& s, LayoutLeft) { return make_layout(s, compact_col_major(s)); }
template <class S> TESSERA_HOST_DEVICE constexpr auto make_layout(S const& s, LayoutRight) { return make_layout(s, compact_row_major(s)); }
template <class S> TESSERA_HOST_DEVICE constexpr auto make_layout(S const& s) {
  if constexpr (is_layout_v<S>) return s;
  else return make_layout(s, compact_col_major(s));
}
// make_layout(L1, L2, ...): each layout becomes one mode.
template <class S0, class D0, class S1, class D1, class... Ls>
TESSERA_HOST_DEVICE constexpr auto make_layout(Layout<S0, D0> const& l0, Layout<S1, D1> const& l1, Ls const&... ls) {
  return make_layout(make_shape(l0.shape(), l1.shape(), ls.shape()...), make_stride(l0.stride(), l1.stride(), ls.stride()...));
}
template <class S0, class D0, class S1, class D1, class... Ls>
TESSERA_HOST_DEVICE constexpr auto make_layout(Layout<S0, D0> const& l0, Layout<S1, D1> const& l1, LayoutLeft) = delete;

// make_ordered_layout(shape, order): compact layout whose modes get increasing
// strides in the order given (ties by position).
template <class S, class O> TESSERA_HOST_DEVICE constexpr auto make_ordered_layout(S const& shape, O const& order) {
  if constexpr (std::is_same_v<O, LayoutLeft> || std::is_same_v<O, LayoutRight>) return make_layout(shape, O{});
  else {
    auto fs = flatten_to_tuple(shape);
    auto fo = flatten_to_tuple(order);
    static_assert(rank_v<decltype(fs)> == rank_v<decltype(fo)>, "tessera::make_ordered_layout: order must have one entry per leaf of shape");
    // N hoisted: the GCC that nvcc uses on the GPU machines rejects make_index_sequence<sizeof...(I)>
    // inside the pack expansion below ("sorry, unimplemented: __integer_pack").
    constexpr std::size_t N = rank_v<decltype(fs)>;
    auto strides = [&]<std::size_t... I>(std::index_sequence<I...>) {
      return make_tuple([&](auto i) {
        constexpr std::size_t k = decltype(i)::value;
        auto st = [&]<std::size_t... J>(std::index_sequence<J...>) {
          return (C<1>{} * ... * conditional_return<(std::remove_cvref_t<decltype(get<J>(fo))>::value < std::remove_cvref_t<decltype(get<k>(fo))>::value) ||
                                                 (std::remove_cvref_t<decltype(get<J>(fo))>::value == std::remove_cvref_t<decltype(get<k>(fo))>::value && J < k)>(
                                 get<J>(fs), C<1>{}));
        }(std::make_index_sequence<N>{});
        return conditional_return<is_constant_v<1, decltype(get<k>(fs))>>(C<0>{}, st);
      }(C<I>{})...);
    }(seq_of<decltype(fs)>{});
    return make_layout(shape, unflatten(strides, shape));
  }
}

// ---- queries --------------------------------------------------------------------
template <int... I, class S, class D> TESSERA_HOST_DEVICE constexpr auto shape(Layout<S, D> const& l) {
  if constexpr (sizeof...(I) == 0) return l.shape(); else return get<I...>(l.shape());
}
template <int... I, class S, class D> TESSERA_HOST_DEVICE constexpr auto stride(Layout<S, D> const& l) {
  if constexpr (sizeof...(I) == 0) return l.stride(); else return get<I...>(l.stride());
}
template <int... I, class S, class D> TESSERA_HOST_DEVICE constexpr auto size(Layout<S, D> const& l) { return size(shape<I...>(l)); }
template <int... I, class S, class D> TESSERA_HOST_DEVICE constexpr auto rank(Layout<S, D> const& l) { return rank(shape<I...>(l)); }
template <int... I, class S, class D> TESSERA_HOST_DEVICE constexpr auto depth(Layout<S, D> const& l) { return depth(shape<I...>(l)); }
// shape(x) of a plain IntTuple is itself (used where a layout or a shape is accepted)
template <class T> requires(!is_layout_v<T>) TESSERA_HOST_DEVICE constexpr auto shape(T const& t) { return t; }

// get<I>(layout) / layout<I>(layout): the I-th mode as a layout
template <std::size_t... I, class S, class D> TESSERA_HOST_DEVICE constexpr auto get(Layout<S, D> const& l) {
  return make_layout(get<I...>(l.shape()), get<I...>(l.stride()));
}
template <std::size_t... I, class S, class D> TESSERA_HOST_DEVICE constexpr auto layout(Layout<S, D> const& l) {
  if constexpr (sizeof...(I) == 0) return l; else return get<I...>(l);
}

// cosize: one past the largest offset, L(size-1)+1 (for non-negative strides)
template <class S, class D> TESSERA_HOST_DEVICE constexpr auto cosize(Layout<S, D> const& l) {
  auto hi = transform_leaf(l.shape(), l.stride(), [](auto const& s, auto const& d) { return (s - C<1>{}) * abs(d); });
  return sum(hi) + C<1>{};
}

template <std::size_t... I, class S, class D> TESSERA_HOST_DEVICE constexpr auto select(Layout<S, D> const& l) {
  return make_layout(select<I...>(wrap(l.shape())), select<I...>(wrap(l.stride())));
}
template <int B, int E, class S, class D> TESSERA_HOST_DEVICE constexpr auto take(Layout<S, D> const& l) {
  return make_layout(take<B, E>(wrap(l.shape())), take<B, E>(wrap(l.stride())));
}
template <class S, class D> TESSERA_HOST_DEVICE constexpr auto flatten(Layout<S, D> const& l) {
  return make_layout(flatten(l.shape()), flatten(l.stride()));
}
template <class S, class D, class S2 = C<1>, class D2 = C<0>>
TESSERA_HOST_DEVICE constexpr auto append(Layout<S, D> const& l, Layout<S2, D2> const& x = {}) {
  return make_layout(append(l.shape(), x.shape()), append(l.stride(), x.stride()));
}
template <int N, class S, class D, class S2 = C<1>, class D2 = C<0>>
TESSERA_HOST_DEVICE constexpr auto append(Layout<S, D> const& l, Layout<S2, D2> const& x = {}) {
  return make_layout(append<N>(l.shape(), x.shape()), append<N>(l.stride(), x.stride()));
}
template <class S, class D, class S2 = C<1>, class D2 = C<0>>
TESSERA_HOST_DEVICE constexpr auto prepend(Layout<S, D> const& l, Layout<S2, D2> const& x = {}) {
  return make_layout(prepend(l.shape(), x.shape()), prepend(l.stride(), x.stride()));
}
template <int N, class S, class D, class S2 = C<1>, class D2 = C<0>>
TESSERA_HOST_DEVICE constexpr auto prepend(Layout<S, D> const& l, Layout<S2, D2> const& x = {}) {
  return make_layout(prepend<N>(l.shape(), x.shape()), prepend<N>(l.stride(), x.stride()));
}
template <int N, class S, class D, class S2, class D2>
TESSERA_HOST_DEVICE constexpr auto replace(Layout<S, D> const& l, Layout<S2, D2> const& x) {
  return make_layout(replace<N>(l.shape(), x.shape()), replace<N>(l.stride(), x.stride()));
}
template <int B, int E, class S, class D> TESSERA_HOST_DEVICE constexpr auto group(Layout<S, D> const& l) {
  return make_layout(group<B, E>(l.shape()), group<B, E>(l.stride()));
}
template <class S, class D> TESSERA_HOST_DEVICE constexpr auto zip(Layout<S, D> const& l) {
  return make_layout(zip(l.shape()), zip(l.stride()));
}
template <class S0, class D0, class S1, class D1>
TESSERA_HOST_DEVICE constexpr auto zip(Layout<S0, D0> const& a, Layout<S1, D1> const& b) {
  // CuTe: zip of (a, b) whose first element is an integer mode is the one mode ((a,b)):((da,db)).
  if constexpr (!is_tuple_v<S0>)
    return make_layout(make_tuple(make_tuple(a.shape(), b.shape())), make_tuple(make_tuple(a.stride(), b.stride())));
  else return make_layout(zip(a.shape(), b.shape()), zip(a.stride(), b.stride()));
}

// Equality: same shape and same stride (structure and values).
template <class S0, class D0, class S1, class D1>
TESSERA_HOST_DEVICE constexpr auto operator==(Layout<S0, D0> const& a, Layout<S1, D1> const& b) {
  return equal(a.shape(), b.shape()) && equal(a.stride(), b.stride());
}
template <class S0, class D0, class S1, class D1>
TESSERA_HOST_DEVICE constexpr auto operator!=(Layout<S0, D0> const& a, Layout<S1, D1> const& b) { return !(a == b); }

// ---- slicing ---------------------------------------------------------------------
template <class Crd, class S, class D> TESSERA_HOST_DEVICE constexpr auto slice(Crd const& crd, Layout<S, D> const& l) {
  return make_layout(slice(crd, l.shape()), slice(crd, l.stride()));
}
// (sub-layout, offset of the slice's origin)
template <class Crd, class S, class D> TESSERA_HOST_DEVICE constexpr auto slice_and_offset(Crd const& crd, Layout<S, D> const& l) {
  return make_tuple(slice(crd, l), crd2idx(detail::zero_underscores(crd), l.shape(), l.stride()));
}
template <class Crd, class S, class D> TESSERA_HOST_DEVICE constexpr auto dice(Crd const& crd, Layout<S, D> const& l) {
  return make_layout(dice(crd, l.shape()), dice(crd, l.stride()));
}

// transform_layout(l0, l1, f): f on the common modes, the rest of l0 then l1 appended.
template <class L0, class L1, class F>
TESSERA_HOST_DEVICE constexpr auto transform_layout(L0 const& l0, L1 const& l1, F&& f) {
  constexpr int R0 = rank_v<decltype(shape(l0))>, R1 = rank_v<decltype(shape(l1))>;
  constexpr int R = R0 < R1 ? R0 : R1;
  auto w0 = [&] { if constexpr (is_layout_v<L0>) return make_layout(wrap(l0.shape()), wrap(l0.stride())); else return wrap(l0); }();
  auto w1 = [&] { if constexpr (is_layout_v<L1>) return make_layout(wrap(l1.shape()), wrap(l1.stride())); else return wrap(l1); }();
  auto mode = [](auto const& w, auto i) {
    constexpr std::size_t k = decltype(i)::value;
    if constexpr (is_layout_v<decltype(w)>) return get<k>(w); else return get<k>(w);
  };
  return [&]<std::size_t... I, std::size_t... J, std::size_t... K>(std::index_sequence<I...>, std::index_sequence<J...>, std::index_sequence<K...>) {
    auto modes = make_tuple(f(mode(w0, C<I>{}), mode(w1, C<I>{}))..., mode(w0, C<R + J>{})..., mode(w1, C<R + K>{})...);
    return [&]<std::size_t... M>(std::index_sequence<M...>) {
      return make_layout(make_shape(get<M>(modes).shape()...), make_stride(get<M>(modes).stride()...));
    }(seq_of<decltype(modes)>{});
  }(std::make_index_sequence<R>{}, std::make_index_sequence<(R0 > R ? R0 - R : 0)>{}, std::make_index_sequence<(R1 > R ? R1 - R : 0)>{});
}

// ---- host printing -----------------------------------------------------------------
template <class S, class D> std::string to_string(Layout<S, D> const& l) {
  return to_string(l.shape()) + ":" + to_string(l.stride());
}
template <class S, class D> std::ostream& operator<<(std::ostream& os, Layout<S, D> const& l) { return os << to_string(l); }

}  // namespace tessera
