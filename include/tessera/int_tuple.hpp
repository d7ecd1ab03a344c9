#pragma once
// IntTuple: an integer (static C<N> or dynamic) or a tuple of IntTuples.
// tuple is only storage: every algorithm here is written with index sequences and
// fold expressions so that it is usable in device code.
#include <cstddef>
#include <string>
#include <ostream>
#include <utility>
#include "int.hpp"

namespace tessera {

template <class... Ts> struct tuple;

// stateless_v<T>: every value of T is T{} (static integers, tuples of them, static
// layouts, _). Such values need not be stored or copied: T{} is the same value. Layout
// specialises it in layout.hpp.
template <class T> struct stateless : std::bool_constant<std::is_empty_v<T> && std::is_default_constructible_v<T>> {};
template <class... Ts> struct stateless<tuple<Ts...>> : std::bool_constant<(stateless<Ts>::value && ...)> {};
template <class T> inline constexpr bool stateless_v = stateless<std::remove_cvref_t<T>>::value;

namespace detail {
// One element of a tuple: a base of its own per index, so that get<I> finds it by
// deduction. A stateless element (a static integer, a tuple of them) is not stored at all:
// its leaf is an empty base that takes an initializer and ignores it (no
// [[no_unique_address]] member: g++ 13 and 14 refuse constant expressions that read
// overlapping empty members of nested tuples).
template <std::size_t I, class T, bool = stateless_v<T>> struct tuple_leaf {
  T value{};
};
template <std::size_t I, class T> struct tuple_leaf<I, T, true> {
  tuple_leaf() = default;
  TESSERA_HOST_DEVICE constexpr tuple_leaf(T const&) {}
};
template <class Indices, class... Ts> struct tuple_leaves;
template <std::size_t... I, class... Ts>
struct tuple_leaves<std::index_sequence<I...>, Ts...> : tuple_leaf<I, Ts>... {};
// The element at I, found by deducing T from the one base tuple_leaf<I, T>: one function
// per (index, element type), shared by every tuple that has that element there.
template <std::size_t I, class T>
TESSERA_HOST_DEVICE constexpr T const& leaf_value(tuple_leaf<I, T, false> const& leaf) { return leaf.value; }
template <std::size_t I, class T>
TESSERA_HOST_DEVICE constexpr T leaf_value(tuple_leaf<I, T, true> const&) { return T{}; }
}  // namespace detail

// tuple<Ts...>: an aggregate of its elements, built with braces, tuple<A, B>{a, b}.
// Being an aggregate, it has no constructor of its own to instantiate, copy or inline: the
// compilers spend nothing on it beyond its members, in host code and in kernels alike
// (its accessors and constructors were a measured share of the kernels' compile time:
// bench/notes/ci_time.md). Default-constructed elements are value-initialised (zero).
template <class... Ts> struct tuple : detail::tuple_leaves<std::index_sequence_for<Ts...>, Ts...> {};

template <class T> struct is_tuple : std::false_type {};
template <class... Ts> struct is_tuple<tuple<Ts...>> : std::true_type {};
template <class T> inline constexpr bool is_tuple_v = is_tuple<std::remove_cvref_t<T>>::value;

template <class... Ts> struct is_static<tuple<Ts...>>
    : std::bool_constant<(is_static_v<Ts> && ...)> {};

template <class T> struct tuple_size;
template <class... Ts> struct tuple_size<tuple<Ts...>> : std::integral_constant<std::size_t, sizeof...(Ts)> {};

// rank: 1 for an integer, the number of modes for a tuple
template <class T> inline constexpr int rank_v = [] {
  if constexpr (is_tuple_v<T>) return int(tuple_size<std::remove_cvref_t<T>>::value);
  else return 1;
}();


template <class... T>
TESSERA_HOST_DEVICE constexpr auto make_tuple(T const&... t) {
  if constexpr ((stateless_v<T> && ...)) return tuple<T...>{};
  else return tuple<T...>{t...};
}
template <class... T> TESSERA_HOST_DEVICE constexpr auto make_shape(T const&... t) { return make_tuple(t...); }
template <class... T> TESSERA_HOST_DEVICE constexpr auto make_stride(T const&... t) { return make_tuple(t...); }
template <class... T> TESSERA_HOST_DEVICE constexpr auto make_coord(T const&... t) { return make_tuple(t...); }
template <class... T> TESSERA_HOST_DEVICE constexpr auto make_tile(T const&... t) { return make_tuple(t...); }
template <class... T> TESSERA_HOST_DEVICE constexpr auto make_step(T const&... t) { return make_tuple(t...); }

// get<I>(t), get<I,J,...>(t); get<0> of an integer is the integer itself.
template <std::size_t I, class T>
TESSERA_HOST_DEVICE constexpr decltype(auto) get(T const& t) {
  if constexpr (is_tuple_v<T>) {
    static_assert(I < tuple_size<std::remove_cvref_t<T>>::value, "tessera::get: index out of range");
    return detail::leaf_value<I>(t);
  } else {
    static_assert(I == 0, "tessera::get: an integer has a single mode");
    return (t);
  }
}
template <std::size_t I0, std::size_t I1, std::size_t... Is, class T>
TESSERA_HOST_DEVICE constexpr decltype(auto) get(T const& t) { return get<I1, Is...>(get<I0>(t)); }

// iota<N>(): (C<0>, C<1>, ..., C<N-1>), to fold over static indices
template <int N> TESSERA_HOST_DEVICE constexpr auto iota() {
  return []<std::size_t... I>(std::index_sequence<I...>) { return tuple<C<int64_t(I)>...>{}; }(std::make_index_sequence<N>{});
}

template <class T> using seq_of = std::make_index_sequence<std::size_t(rank_v<T>)>;

template <int... Is, class T> TESSERA_HOST_DEVICE constexpr auto rank(T const& t) {
  if constexpr (sizeof...(Is) == 0) return C<rank_v<T>>{}; else return rank(get<Is...>(t));
}

template <class T> TESSERA_HOST_DEVICE constexpr int depth_of() {
  if constexpr (is_tuple_v<T>) {
    return []<std::size_t... I>(std::index_sequence<I...>) {
      int d = 0;
      ((d = d < depth_of<std::remove_cvref_t<decltype(get<I>(std::declval<T>()))>>() ? depth_of<std::remove_cvref_t<decltype(get<I>(std::declval<T>()))>>() : d), ...);
      return 1 + d;
    }(seq_of<T>{});
  } else {
    return 0;
  }
}
template <class T> TESSERA_HOST_DEVICE constexpr auto depth(T const&) { return C<depth_of<T>()>{}; }

// ---- structural algorithms ---------------------------------------------------
template <class T, class F>
TESSERA_HOST_DEVICE constexpr auto transform(T const& t, F&& f) {
  if constexpr (is_tuple_v<T>) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) { return make_tuple(f(get<I>(t))...); }(seq_of<T>{});
  } else {
    return f(t);
  }
}
template <class T0, class T1, class F>
TESSERA_HOST_DEVICE constexpr auto transform(T0 const& t0, T1 const& t1, F&& f) {
  if constexpr (is_tuple_v<T0>) {
    static_assert(rank_v<T0> == rank_v<T1>, "tessera::transform: mismatched ranks");
    return [&]<std::size_t... I>(std::index_sequence<I...>) { return make_tuple(f(get<I>(t0), get<I>(t1))...); }(seq_of<T0>{});
  } else {
    return f(t0, t1);
  }
}
// Apply f at the leaves.
template <class T, class F>
TESSERA_HOST_DEVICE constexpr auto transform_leaf(T const& t, F&& f) {
  if constexpr (is_tuple_v<T>) return transform(t, [&](auto const& e) { return transform_leaf(e, f); });
  else return f(t);
}
template <class T0, class T1, class F>
TESSERA_HOST_DEVICE constexpr auto transform_leaf(T0 const& t0, T1 const& t1, F&& f) {
  if constexpr (is_tuple_v<T0>) return transform(t0, t1, [&](auto const& a, auto const& b) { return transform_leaf(a, b, f); });
  else return f(t0, t1);
}

namespace detail {
template <std::size_t I, std::size_t N, class T, class V, class F>
TESSERA_HOST_DEVICE constexpr auto fold_(T const& t, V const& v, F& f) {
  if constexpr (I == N) return v;
  else return fold_<I + 1, N>(t, f(v, get<I>(t)), f);
}
}  // namespace detail

// fold(t, init, f): f(...f(f(init, t0), t1)..., tn); an integer is a one-element sequence.
template <class T, class V, class F>
TESSERA_HOST_DEVICE constexpr auto fold(T const& t, V const& init, F&& f) {
  if constexpr (is_tuple_v<T>) return detail::fold_<0, std::size_t(rank_v<T>)>(t, init, f);
  else return f(init, t);
}

namespace detail {
template <class A, class B, std::size_t... I, std::size_t... J>
TESSERA_HOST_DEVICE constexpr auto cat2_(A const& a, B const& b, std::index_sequence<I...>, std::index_sequence<J...>) {
  return make_tuple(get<I>(a)..., get<J>(b)...);
}
}  // namespace detail
TESSERA_HOST_DEVICE constexpr auto tuple_cat() { return tuple<>{}; }
template <class A> TESSERA_HOST_DEVICE constexpr auto tuple_cat(A const& a) { return a; }
template <class A, class B, class... R>
TESSERA_HOST_DEVICE constexpr auto tuple_cat(A const& a, B const& b, R const&... r) {
  return tuple_cat(detail::cat2_(a, b, seq_of<A>{}, seq_of<B>{}), r...);
}

template <class T> TESSERA_HOST_DEVICE constexpr auto flatten_to_tuple(T const& t) {
  if constexpr (is_tuple_v<T>) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) { return tuple_cat(tuple<>{}, flatten_to_tuple(get<I>(t))...); }(seq_of<T>{});
  } else {
    return make_tuple(t);
  }
}
// flatten: an integer stays an integer; a tuple becomes a flat tuple.
template <class T> TESSERA_HOST_DEVICE constexpr auto flatten(T const& t) {
  if constexpr (is_tuple_v<T>) return flatten_to_tuple(t); else return t;
}

// unflatten(flat, profile): give a flat tuple the nesting of profile.
namespace detail {
template <class P> inline constexpr std::size_t leaf_count_v = [] {
  if constexpr (is_tuple_v<P>) {
    return []<std::size_t... I>(std::index_sequence<I...>) {
      return (std::size_t(0) + ... + leaf_count_v<std::remove_cvref_t<decltype(get<I>(std::declval<P>()))>>);
    }(seq_of<P>{});
  } else return std::size_t(1);
}();
template <class P, std::size_t K> inline constexpr std::size_t leaf_offset_v = [] {
  return []<std::size_t... I>(std::index_sequence<I...>) {
    return (std::size_t(0) + ... + leaf_count_v<std::remove_cvref_t<decltype(get<I>(std::declval<P>()))>>);
  }(std::make_index_sequence<K>{});
}();
template <std::size_t Off, class Flat, class P>
TESSERA_HOST_DEVICE constexpr auto unflatten_(Flat const& flat, P const& p) {
  if constexpr (is_tuple_v<P>) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return make_tuple(unflatten_<Off + leaf_offset_v<P, I>>(flat, get<I>(p))...);
    }(seq_of<P>{});
  } else {
    return get<Off>(flat);
  }
}
}  // namespace detail
template <class Flat, class P> TESSERA_HOST_DEVICE constexpr auto unflatten(Flat const& flat, P const& profile) {
  return detail::unflatten_<0>(flatten_to_tuple(flat), profile);
}

template <std::size_t... I, class T> TESSERA_HOST_DEVICE constexpr auto select(T const& t) { return make_tuple(get<I>(t)...); }

template <int B, int E, class T> TESSERA_HOST_DEVICE constexpr auto take(T const& t) {
  static_assert(0 <= B && B <= E && E <= rank_v<T>, "tessera::take: bad range");
  return [&]<std::size_t... I>(std::index_sequence<I...>) { return make_tuple(get<B + I>(t)...); }(std::make_index_sequence<E - B>{});
}

template <class T> TESSERA_HOST_DEVICE constexpr auto wrap(T const& t) {
  if constexpr (is_tuple_v<T>) return t; else return make_tuple(t);
}
template <class T> TESSERA_HOST_DEVICE constexpr auto unwrap(T const& t) {
  if constexpr (is_tuple_v<T>) {
    if constexpr (rank_v<T> == 1) return unwrap(get<0>(t)); else return t;
  } else return t;
}

template <class T, class X> TESSERA_HOST_DEVICE constexpr auto append(T const& t, X const& x) {
  if constexpr (is_tuple_v<T>) return tuple_cat(t, make_tuple(x)); else return make_tuple(t, x);
}
template <class T, class X> TESSERA_HOST_DEVICE constexpr auto prepend(T const& t, X const& x) {
  if constexpr (is_tuple_v<T>) return tuple_cat(make_tuple(x), t); else return make_tuple(x, t);
}
// append<N>(t, x): pad t with copies of x up to rank N (an integer with N == 1 stays an integer).
template <int N, class T, class X> TESSERA_HOST_DEVICE constexpr auto append(T const& t, X const& x) {
  if constexpr (!is_tuple_v<T>) {
    if constexpr (N == 1) return t; else return append<N>(make_tuple(t), x);
  } else {
    static_assert(rank_v<T> <= N, "tessera::append<N>: tuple already longer than N");
    if constexpr (rank_v<T> == N) return t; else return append<N>(append(t, x), x);
  }
}
template <int N, class T, class X> TESSERA_HOST_DEVICE constexpr auto prepend(T const& t, X const& x) {
  if constexpr (!is_tuple_v<T>) {
    if constexpr (N == 1) return t; else return prepend<N>(make_tuple(t), x);
  } else {
    static_assert(rank_v<T> <= N, "tessera::prepend<N>: tuple already longer than N");
    if constexpr (rank_v<T> == N) return t; else return prepend<N>(prepend(t, x), x);
  }
}
template <int N, class T, class X> TESSERA_HOST_DEVICE constexpr auto replace(T const& t, X const& x) {
  if constexpr (!is_tuple_v<T>) { static_assert(N == 0, "tessera::replace: index out of range"); return x; }
  else return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return make_tuple(conditional_return<int(I) == N>(x, get<I>(t))...);
  }(seq_of<T>{});
}
template <int N, class T> TESSERA_HOST_DEVICE constexpr auto remove(T const& t) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return tuple_cat(tuple<>{}, conditional_return<int(I) == N>(tuple<>{}, make_tuple(get<I>(t)))...);
  }(seq_of<T>{});
}
template <class T> TESSERA_HOST_DEVICE constexpr decltype(auto) front(T const& t) { return get<0>(t); }
template <class T> TESSERA_HOST_DEVICE constexpr decltype(auto) back(T const& t) { return get<rank_v<T> - 1>(t); }
template <class T, class X> TESSERA_HOST_DEVICE constexpr auto replace_front(T const& t, X const& x) { return replace<0>(t, x); }
template <class T, class X> TESSERA_HOST_DEVICE constexpr auto replace_back(T const& t, X const& x) { return replace<rank_v<T> - 1>(t, x); }

// group<B,E>(t): modes [B,E) become one mode.
template <int B, int E, class T> TESSERA_HOST_DEVICE constexpr auto group(T const& t) {
  constexpr int R = rank_v<T>;
  constexpr int EE = E < 0 ? R : E;
  return tuple_cat(take<0, B>(wrap(t)), make_tuple(take<B, EE>(wrap(t))), take<EE, R>(wrap(t)));
}

template <int N, class X> TESSERA_HOST_DEVICE constexpr auto repeat(X const& x) {
  if constexpr (N == 1) return x;
  else return [&]<std::size_t... I>(std::index_sequence<I...>) { return make_tuple(((void)I, x)...); }(std::make_index_sequence<N>{});
}
// repeat_like(t, x): t's profile with x at every leaf.
template <class T, class X> TESSERA_HOST_DEVICE constexpr auto repeat_like(T const& t, X const& x) {
  return transform_leaf(t, [&](auto const&) { return x; });
}

// zip: transpose a tuple of tuples; zip(a, b, ...) zips its arguments.
template <class T> TESSERA_HOST_DEVICE constexpr auto zip(T const& t) {
  if constexpr (is_tuple_v<T>) {
    using T0 = std::remove_cvref_t<decltype(get<0>(t))>;
    if constexpr (is_tuple_v<T0>) {
      return [&]<std::size_t... J>(std::index_sequence<J...>) {
        return make_tuple([&]<std::size_t... I>(std::index_sequence<I...>, auto j) {
          return make_tuple(get<decltype(j)::value>(get<I>(t))...);
        }(seq_of<T>{}, C<J>{})...);
      }(seq_of<T0>{});
    } else return t;
  } else return t;
}
template <class T0, class T1, class... Ts> TESSERA_HOST_DEVICE constexpr auto zip(T0 const& t0, T1 const& t1, Ts const&... ts) {
  return zip(make_tuple(t0, t1, ts...));
}

// ---- numeric reductions ------------------------------------------------------
template <class T> TESSERA_HOST_DEVICE constexpr auto product(T const& t) {
  if constexpr (is_tuple_v<T>) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return (C<1>{} * ... * product(get<I>(t)));
    }(seq_of<T>{});
  } else return t;
}
template <class T> TESSERA_HOST_DEVICE constexpr auto size(T const& t) { return product(t); }
template <class T> TESSERA_HOST_DEVICE constexpr auto sum(T const& t) {
  if constexpr (is_tuple_v<T>) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) { return (C<0>{} + ... + sum(get<I>(t))); }(seq_of<T>{});
  } else return t;
}
// product of each top-level mode
template <class T> TESSERA_HOST_DEVICE constexpr auto product_each(T const& t) {
  if constexpr (is_tuple_v<T>) return transform(t, [](auto const& e) { return product(e); });
  else return t;
}
template <class T> TESSERA_HOST_DEVICE constexpr auto max_leaf(T const& t) {
  if constexpr (is_tuple_v<T>) return fold(flatten(t), C<0>{}, [](auto const& a, auto const& b) { return tessera::max(a, b); });
  else return t;
}

template <class A, class B> TESSERA_HOST_DEVICE constexpr auto inner_product(A const& a, B const& b) {
  if constexpr (is_tuple_v<A>) {
    static_assert(rank_v<A> == rank_v<B>, "tessera::inner_product: mismatched ranks");
    return [&]<std::size_t... I>(std::index_sequence<I...>) { return (C<0>{} + ... + inner_product(get<I>(a), get<I>(b))); }(seq_of<A>{});
  } else return a * b;
}

// elem_scale(a, b): a scaled by b, mode by mode.
template <class A, class B> TESSERA_HOST_DEVICE constexpr auto elem_scale(A const& a, B const& b) {
  if constexpr (is_tuple_v<A>) return transform(a, b, [](auto const& x, auto const& y) { return elem_scale(x, y); });
  else return a * product(b);
}

// ---- structural predicates (static answers) -----------------------------------
// same_profile_v<A, B>: A and B have the same nesting (repeat_like(a, 0) and
// repeat_like(b, 0) would have one type), as a class template: no function is
// instantiated, and every Layout type checks it.
namespace detail {
template <class A, class B> struct same_profile : std::bool_constant<!is_tuple_v<A> && !is_tuple_v<B>> {};
template <class... As, class... Bs> struct same_profile<tuple<As...>, tuple<Bs...>> {
  static constexpr bool value = [] {
    if constexpr (sizeof...(As) != sizeof...(Bs)) return false;
    else return (same_profile<As, Bs>::value && ...);
  }();
};
}  // namespace detail
template <class A, class B> inline constexpr bool same_profile_v =
    detail::same_profile<std::remove_cvref_t<A>, std::remove_cvref_t<B>>::value;

template <class A, class B> TESSERA_HOST_DEVICE constexpr auto congruent(A const&, B const&) {
  return bool_constant<same_profile_v<A, B>>{};
}
// weakly_congruent(a, b): b refines the profile of a.
template <class A, class B> TESSERA_HOST_DEVICE constexpr auto weakly_congruent(A const& a, B const& b) {
  if constexpr (!is_tuple_v<A>) return C<1>{};
  else if constexpr (!is_tuple_v<B>) return C<0>{};
  else if constexpr (rank_v<A> != rank_v<B>) return C<0>{};
  else return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return bool_constant<(decltype(weakly_congruent(get<I>(a), get<I>(b)))::value && ...)>{};
  }(seq_of<A>{});
}
// compatible(a, b): size(a) == size(b) and every coordinate of a is a coordinate of b.
template <class A, class B> TESSERA_HOST_DEVICE constexpr auto compatible(A const& a, B const& b) {
  if constexpr (!is_tuple_v<A>) return size(a) == size(b);
  else if constexpr (!is_tuple_v<B>) return C<0>{};
  else if constexpr (rank_v<A> != rank_v<B>) return C<0>{};
  else return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return (C<1>{} && ... && compatible(get<I>(a), get<I>(b)));
  }(seq_of<A>{});
}

// equal(a, b): same profile and same values.
template <class A, class B> TESSERA_HOST_DEVICE constexpr auto equal(A const& a, B const& b) {
  if constexpr (is_tuple_v<A> != is_tuple_v<B>) return C<0>{};
  else if constexpr (!is_tuple_v<A>) return a == b;
  else if constexpr (rank_v<A> != rank_v<B>) return C<0>{};
  else return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return (C<1>{} && ... && equal(get<I>(a), get<I>(b)));
  }(seq_of<A>{});
}

// ---- division ----------------------------------------------------------------
// shape_div(a, b): a / b where one divides the other (CuTe's rule: a/b, or 1 when b is a multiple of a).
template <class A, class B> TESSERA_HOST_DEVICE constexpr auto shape_div(A const& a, B const& b) {
  if constexpr (is_tuple_v<A>) {
    if constexpr (is_tuple_v<B>) return transform(a, b, [](auto const& x, auto const& y) { return shape_div(x, y); });
    else {
      auto r = fold(a, make_tuple(tuple<>{}, b), [](auto const& init, auto const& ai) {
        return make_tuple(append(get<0>(init), shape_div(ai, get<1>(init))), shape_div(get<1>(init), ai));
      });
      return get<0>(r);
    }
  } else if constexpr (is_tuple_v<B>) {
    return shape_div(a, product(b));
  } else if constexpr (is_static_v<A> && is_static_v<B>) {
    static_assert(B::value != 0 && A::value % B::value == 0 || (A::value != 0 && B::value % A::value == 0),
                  "tessera::shape_div: static values do not divide each other (shape divisibility rule)");
    if constexpr (A::value / B::value != 0) return C<A::value / B::value>{};
    else return signum(a) * signum(b);
  } else {
    TESSERA_EXPECTS(to_i64(b) != 0 && (to_i64(a) % to_i64(b) == 0 || (to_i64(a) != 0 && to_i64(b) % to_i64(a) == 0)),
                    "tessera::shape_div: values do not divide each other");
    int64_t q = to_i64(a) / to_i64(b);
    return q != 0 ? q : to_i64(signum(a)) * to_i64(signum(b));
  }
}

// ceil_div(a, b): tuple a by integer b divides the leading modes first.
template <class A, class B> TESSERA_HOST_DEVICE constexpr auto ceil_div(A const& a, B const& b) {
  if constexpr (is_tuple_v<A>) {
    if constexpr (is_tuple_v<B>) {
      static_assert(rank_v<A> >= rank_v<B>, "tessera::ceil_div: mismatched ranks");
      return transform(a, append<rank_v<A>>(b, C<1>{}), [](auto const& x, auto const& y) { return ceil_div(x, y); });
    } else {
      auto r = fold(a, make_tuple(tuple<>{}, b), [](auto const& init, auto const& ai) {
        return make_tuple(append(get<0>(init), ceil_div(ai, get<1>(init))), ceil_div(get<1>(init), ai));
      });
      return get<0>(r);
    }
  } else if constexpr (is_tuple_v<B>) {
    return ceil_div(a, size(b));
  } else {
    return (a + b - C<1>{}) / b;
  }
}

// safe_div(a, b): exact division
template <class A, class B> TESSERA_HOST_DEVICE constexpr auto safe_div(A const& a, B const& b) {
  if constexpr (is_static_v<A> && is_static_v<B>) {
    static_assert(B::value != 0 && A::value % B::value == 0, "tessera::safe_div: not divisible");
    return a / b;
  } else {
    TESSERA_EXPECTS(to_i64(b) != 0 && to_i64(a) % to_i64(b) == 0, "tessera::safe_div: not divisible");
    return to_i64(a) / to_i64(b);
  }
}

// ---- prefix products: compact strides -------------------------------------------
// Static size-1 modes get stride 0 (indexing through them never moves).
template <class S, class Cur = C<1>>
TESSERA_HOST_DEVICE constexpr auto compact_col_major(S const& s, Cur const& cur = {}) {
  if constexpr (is_tuple_v<S>) {
    auto r = fold(s, make_tuple(tuple<>{}, cur), [](auto const& init, auto const& si) {
      return make_tuple(append(get<0>(init), compact_col_major(si, get<1>(init))), get<1>(init) * product(si));
    });
    return get<0>(r);
  } else if constexpr (is_constant_v<1, S>) {
    return C<0>{};
  } else {
    return cur;
  }
}
namespace detail {
template <class T> TESSERA_HOST_DEVICE constexpr auto reverse(T const& t) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) { return make_tuple(get<sizeof...(I) - 1 - I>(t)...); }(seq_of<T>{});
}
}  // namespace detail
template <class S, class Cur = C<1>>
TESSERA_HOST_DEVICE constexpr auto compact_row_major(S const& s, Cur const& cur = {}) {
  if constexpr (is_tuple_v<S>) {
    auto r = fold(detail::reverse(s), make_tuple(tuple<>{}, cur), [](auto const& init, auto const& si) {
      return make_tuple(prepend(get<0>(init), compact_row_major(si, get<1>(init))), get<1>(init) * product(si));
    });
    return get<0>(r);
  } else if constexpr (is_constant_v<1, S>) {
    return C<0>{};
  } else {
    return cur;
  }
}
// exclusive prefix product of the top-level modes: (1, s0, s0*s1, ...)
template <class S, class Init = C<1>>
TESSERA_HOST_DEVICE constexpr auto prefix_product(S const& s, Init const& init = {}) {
  if constexpr (is_tuple_v<S>) {
    auto r = fold(s, make_tuple(tuple<>{}, init), [](auto const& st, auto const& si) {
      return make_tuple(append(get<0>(st), prefix_product(si, get<1>(st))), get<1>(st) * product(si));
    });
    return get<0>(r);
  } else return init;
}

// ---- coordinates -----------------------------------------------------------------
// crd2idx(crd, shape, stride): an integer coordinate into a tuple shape is split
// colexicographically; the last mode takes what remains (no modulo).
template <class Crd, class S, class D>
TESSERA_HOST_DEVICE constexpr auto crd2idx(Crd const& crd, S const& shape, D const& stride) {
  if constexpr (is_tuple_v<Crd>) {
    static_assert(is_tuple_v<S> && is_tuple_v<D>, "tessera::crd2idx: coordinate deeper than the shape");
    static_assert(rank_v<Crd> == rank_v<S> && rank_v<S> == rank_v<D>, "tessera::crd2idx: coordinate rank does not match the shape rank");
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return (C<0>{} + ... + crd2idx(get<I>(crd), get<I>(shape), get<I>(stride)));
    }(seq_of<S>{});
  } else if constexpr (is_tuple_v<S>) {
    static_assert(rank_v<S> == rank_v<D>, "tessera::crd2idx: shape and stride ranks differ");
    constexpr int R = rank_v<S>;
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      auto st = make_tuple(C<0>{}, crd);  // (index, remaining coordinate)
      auto step = [&](auto const& acc, auto i) {
        constexpr std::size_t k = decltype(i)::value;
        auto sz = product(get<k>(shape));
        return make_tuple(get<0>(acc) + crd2idx(get<1>(acc) % sz, get<k>(shape), get<k>(stride)), get<1>(acc) / sz);
      };
      auto last = fold(make_tuple(C<I>{}...), st, step);
      return get<0>(last) + crd2idx(get<1>(last), get<R - 1>(shape), get<R - 1>(stride));
    }(std::make_index_sequence<std::size_t(R - 1)>{});
  } else {
    return crd * stride;
  }
}

// idx2crd(idx, shape): colexicographic coordinate; the last mode is unbounded.
template <class Idx, class S>
TESSERA_HOST_DEVICE constexpr auto idx2crd(Idx const& idx, S const& shape) {
  if constexpr (is_tuple_v<Idx>) {
    return idx;  // already a coordinate
  } else if constexpr (is_tuple_v<S>) {
    constexpr int R = rank_v<S>;
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      auto step = [&](auto const& acc, auto i) {
        constexpr std::size_t k = decltype(i)::value;
        auto sz = product(get<k>(shape));
        return make_tuple(append(get<0>(acc), idx2crd(get<1>(acc) % sz, get<k>(shape))), get<1>(acc) / sz);
      };
      auto last = fold(make_tuple(C<I>{}...), make_tuple(tuple<>{}, idx), step);
      return append(get<0>(last), idx2crd(get<1>(last), get<R - 1>(shape)));
    }(std::make_index_sequence<std::size_t(R - 1)>{});
  } else {
    return idx;
  }
}
// idx2crd(idx, shape, stride): coordinate by (idx / stride) % shape at each leaf.
template <class Idx, class S, class D>
TESSERA_HOST_DEVICE constexpr auto idx2crd(Idx const& idx, S const& shape, D const& stride) {
  if constexpr (is_tuple_v<Idx>) return idx;
  else if constexpr (is_tuple_v<S>) return transform(shape, stride, [&](auto const& s, auto const& d) { return idx2crd(idx, s, d); });
  else if constexpr (is_constant_v<0, D>) return C<0>{};
  else return (idx / stride) % shape;
}
// crd2crd(crd, src_shape, dst_shape): same colexicographic index, other shape.
template <class Crd, class S0, class S1>
TESSERA_HOST_DEVICE constexpr auto crd2crd(Crd const& crd, S0 const& src, S1 const& dst) {
  if constexpr (is_tuple_v<Crd> && is_tuple_v<S0> && is_tuple_v<S1> && rank_v<Crd> == rank_v<S1> && rank_v<S0> == rank_v<S1>) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return make_tuple(crd2crd(get<I>(crd), get<I>(src), get<I>(dst))...);
    }(seq_of<S1>{});
  } else {
    return idx2crd(crd2idx(crd, src, compact_col_major(src)), dst);
  }
}

// ---- host printing: CuTe's format without static markers or spaces -----------
template <class T> std::string to_string(T const& t) {
  if constexpr (is_tuple_v<T>) {
    std::string s = "(";
    [&]<std::size_t... I>(std::index_sequence<I...>) { ((s += (I ? "," : "") + to_string(get<I>(t))), ...); }(seq_of<T>{});
    return s + ")";
  } else if constexpr (is_static_v<T>) {
    return std::to_string(T::value);
  } else {
    return std::to_string(static_cast<int64_t>(t));
  }
}
template <int64_t N> std::ostream& operator<<(std::ostream& os, C<N>) { return os << N; }

}  // namespace tessera
