#pragma once
// composition(A, B) = A o B: R(c) == A(B(c)) for every coordinate c of B, with
// R compatible with B. A tiler (tuple) composes mode by mode; a plain integer N
// in a tiler means the layout N:1.
//
// R is built as CuTe builds it: each mode of B is composed with coalesce(A) on its own.
// That is A o B only when the pair is admissible: B's modes must not overlap in A's
// mixed radix (docs/notation.md: composition((2,2):(1,6), (2,2):(1,1)) would give (2,2):(1,1),
// yet A(B(3)) = 6), and CuTe's stride and shape divisibility rules must hold.
// - Static operands: every rule is a static_assert naming it.
// - Dynamic operands: is_admissible_composition(a, b) (check.hpp) says whether the pair
//   is admissible: R has B's size and R(i) == A(B(i)) for every i of B's domain, A read past
//   its size as CuTe reads it (its last mode continued: CuTe's post-condition; the divide
//   family checks its own rule on the whole divide instead). Call it first when the operands
//   come from outside.
//   composition() itself only asserts it in debug host builds (the first 2^16 indices).
//   In release builds and on the device an inadmissible pair still gives a well-formed
//   layout -- CuTe's mode-by-mode R, which differs from A o B somewhere -- and never
//   divides by zero: an empty mode (size 0) of A or B yields modes of size 0 (the
//   checker rejects that R unless B is empty). 64-bit overflow of strides is not checked.
//   As in CuTe, A's modes merge only where that is statically known, so the same values
//   can be admissible as static integers and not as dynamic ones:
//   ((4,2),1):((2,8),3) o 2:6 is 2:12 with static leaves, inadmissible with dynamic ones.
#include "coalesce.hpp"

namespace tessera {

namespace detail {

// ceil_div in the composition walk: a dynamic zero divisor (an empty mode of A) gives 0
// instead of trapping; static operands are unchanged (a static zero does not compile).
template <class A, class B> TESSERA_HOST_DEVICE constexpr auto walk_ceil_div(A const& a, B const& b) {
  if constexpr (is_static_v<B>) return ceil_div(a, b);
  else return to_i64(b) == 0 ? int64_t(0) : to_i64(ceil_div(a, b));
}

// lhs is coalesced (flat), rhs is (shape, stride).
template <class LS, class LD, class RS, class RD>
TESSERA_HOST_DEVICE constexpr auto composition_impl(LS const& lhs_shape, LD const& lhs_stride, RS const& rhs_shape, RD const& rhs_stride) {
  if constexpr (is_tuple_v<RS>) {
    // right-distributivity: compose each mode of B
    return transform_layout(rhs_shape, rhs_stride, [&](auto const& s, auto const& d) {
      return composition_impl(lhs_shape, lhs_stride, s, d);
    });
  } else if constexpr (is_constant_v<0, RD>) {
    return make_layout(rhs_shape, rhs_stride);
  } else if constexpr (!is_tuple_v<LS>) {
    return make_layout(rhs_shape, rhs_stride * lhs_stride);
  } else {
    constexpr int R = rank_v<LS>;
    // Walk A's modes (all but the last): divide B's stride out of them, then take B's shape.
    auto st = fold(iota<R - 1>(),
                   make_tuple(tuple<>{}, tuple<>{}, rhs_shape, rhs_stride),
                   [&](auto const& init, auto i) {
                     constexpr std::size_t k = decltype(i)::value;
                     auto result_shape = get<0>(init);
                     auto result_stride = get<1>(init);
                     auto rest_shape = get<2>(init);
                     auto rest_stride = get<3>(init);
                     auto curr_shape = get<k>(lhs_shape);
                     auto curr_stride = get<k>(lhs_stride);
                     if constexpr (is_static_v<decltype(curr_shape)> && is_static_v<decltype(rest_stride)>) {
                       static_assert(decltype(rest_stride)::value % decltype(curr_shape)::value == 0 ||
                                         decltype(rest_stride)::value < decltype(curr_shape)::value,
                                     "tessera::composition: stride divisibility condition violated "
                                     "(B's stride must be a multiple of A's mode size, or smaller than it)");
                     }
                     // A dynamic stride of 0 (a run-time broadcast) keeps every mode at
                     // size 1 and stride 0 instead of dividing by it.
                     auto next_shape = [&] {
                       if constexpr (is_static_v<decltype(rest_stride)>) return ceil_div(curr_shape, abs(rest_stride));
                       else return to_i64(rest_stride) == 0 ? int64_t(1) : to_i64(ceil_div(curr_shape, abs(rest_stride)));
                     }();
                     auto next_stride = walk_ceil_div(abs(rest_stride), curr_shape) * signum(rest_stride);
                     if constexpr (is_constant_v<1, decltype(next_shape)> || is_constant_v<1, decltype(rest_shape)>) {
                       return make_tuple(result_shape, result_stride, rest_shape, next_stride);
                     } else {
                       auto new_shape = tessera::min(next_shape, rest_shape);
                       if constexpr (is_static_v<decltype(new_shape)> && is_static_v<decltype(rest_shape)>) {
                         static_assert(decltype(rest_shape)::value % decltype(new_shape)::value == 0,
                                       "tessera::composition: shape divisibility condition violated "
                                       "(B's size must be a multiple of what remains of A's mode)");
                       }
                       // (dynamic: a size-0 mode of A or B makes new_shape 0; nothing is left then)
                       auto next_rest = [&] {
                         if constexpr (is_static_v<decltype(new_shape)>) return rest_shape / new_shape;
                         else return to_i64(new_shape) == 0 ? int64_t(1) : to_i64(rest_shape) / to_i64(new_shape);
                       }();
                       return make_tuple(append(result_shape, new_shape), append(result_stride, rest_stride * curr_stride),
                                         next_rest, next_stride);
                     }
                   });
    auto result_shape = get<0>(st);
    auto result_stride = get<1>(st);
    auto rest_shape = get<2>(st);
    auto rest_stride = get<3>(st);
    if constexpr (rank_v<decltype(result_shape)> == 0) {
      return make_layout(rest_shape, rest_stride * get<R - 1>(lhs_stride));
    } else if constexpr (is_constant_v<1, decltype(rest_shape)>) {
      return make_layout(unwrap(result_shape), unwrap(result_stride));
    } else {
      return make_layout(append(result_shape, rest_shape), append(result_stride, rest_stride * get<R - 1>(lhs_stride)));
    }
  }
}

// Exactness of a composition (rule 1): R has B's size and R(i) == A(B(i)) for the first
// `limit` indices i of B, A read at any integer as CuTe's crd2idx reads it: its last flat mode
// continued without bound (past size(A)), C++'s truncating division (below 0, where B has a
// negative stride). That is CuTe's own post-condition, result(c) == lhs(rhs(c)).
// Composing B mode by mode is only A o B when B's modes do not overlap in A's
// mixed radix (no carries between them); CuTe does not check this.
inline constexpr int64_t composition_check_limit = 1 << 16;

// A layout flattened into plain arrays: cheap to evaluate inside constant evaluation.
template <int N> struct flat_function {
  int64_t shape[N];
  int64_t stride[N];
  TESSERA_HOST_DEVICE constexpr int64_t operator()(int64_t i) const {
    int64_t off = 0;
    for (int k = 0; k + 1 < N; ++k) { off += (i % shape[k]) * stride[k]; i /= shape[k]; }
    return off + i * stride[N - 1];
  }
  TESSERA_HOST_DEVICE constexpr int64_t size() const {
    int64_t n = 1;
    for (int k = 0; k < N; ++k) n *= shape[k];
    return n;
  }
};
template <class L> TESSERA_HOST_DEVICE constexpr auto to_flat_function_(L const& l) {
  auto fs = flatten_to_tuple(l.shape());
  auto fd = flatten_to_tuple(l.stride());
  constexpr int N = rank_v<decltype(fs)>;
  flat_function<N> f{};
  [&]<std::size_t... I>(std::index_sequence<I...>) { ((f.shape[I] = to_i64(get<I>(fs)), f.stride[I] = to_i64(get<I>(fd))), ...); }(std::make_index_sequence<N>{});
  return f;
}
template <class L> TESSERA_HOST_DEVICE constexpr auto to_flat_function(L const& l) {
  using S = std::remove_cvref_t<decltype(l.shape())>;
  using D = std::remove_cvref_t<decltype(l.stride())>;
  if constexpr (has_static_leaves_v<S, D>) {
    constexpr std::size_t N = static_leaves<S>::count;  // read off the types: no tuple work
    flat_function<int(N)> f{};
    static_leaves<S>::put(f.shape);
    static_leaves<D>::put(f.stride);
    return f;
  } else {
    return to_flat_function_(l);
  }
}

template <class A, class B, class R>
TESSERA_HOST_DEVICE constexpr bool composition_is_exact(A const& a, B const& b, R const& r,
                                                        int64_t limit = composition_check_limit) {
  if constexpr (static_leaves<std::remove_cvref_t<decltype(b.shape())>>::count == 0) {
    return true;
  } else {
    auto fa = to_flat_function(a);
    auto fb = to_flat_function(b);
    auto fr = to_flat_function(r);
    int64_t n = fb.size();
    if (fr.size() != n) return false;  // R must keep B's domain
    if (n > 0 && fa.size() == 0) return false;  // an empty A has nothing to compose with
    if (limit >= 0 && n > limit) n = limit;
    for (int64_t i = 0; i < n; ++i)
      if (fr(i) != fa(fb(i))) return false;  // fa reads A past its size as CuTe does
    return true;
  }
}

}  // namespace detail

namespace detail {
// composition_impl on static values: A's flat modes `a` (coalesce_x), one leaf rs:rd of
// B. The same walk as the generic path; error 1 / 2 name the broken rule (stride /
// shape divisibility) for the static_assert of the caller.
template <std::size_t N>
TESSERA_HOST_DEVICE constexpr flat_modes<N + 1> compose_values(flat_modes<N> const& a, int64_t rs, int64_t rd) {
  flat_modes<N + 1> r{};
  if (rd == 0) { r.push(rs, rd); return r; }
  if (a.n == 1) { r.push(rs, rd * a.d[0]); return r; }
  auto ceil_div = [](int64_t x, int64_t y) { return (x + y - 1) / y; };
  auto abs = [](int64_t x) { return x < 0 ? -x : x; };
  int64_t rest_shape = rs, rest_stride = rd;
  for (int k = 0; k + 1 < a.n; ++k) {
    int64_t const curr_shape = a.s[k], curr_stride = a.d[k];
    if (!(rest_stride % curr_shape == 0 || rest_stride < curr_shape)) { r.error = 1; return r; }
    int64_t const next_shape = ceil_div(curr_shape, abs(rest_stride));
    int64_t const next_stride = ceil_div(abs(rest_stride), curr_shape) * ((rest_stride > 0) - (rest_stride < 0));
    if (next_shape != 1 && rest_shape != 1) {
      int64_t const new_shape = next_shape < rest_shape ? next_shape : rest_shape;
      if (rest_shape % new_shape != 0) { r.error = 2; return r; }
      r.push(new_shape, rest_stride * curr_stride);
      rest_shape /= new_shape;
    }
    rest_stride = next_stride;
  }
  if (r.n == 0 || rest_shape != 1) r.push(rest_shape, rest_stride * a.d[a.n - 1]);
  return r;
}


// The result type of composing the flat static A (its modes: `Flat`) with static B = RS:RD,
// mode by mode as composition_impl does: B's nesting, each leaf's result in its place.
template <auto const& Flat, class RS, class RD> struct static_composition {
  static constexpr auto modes = compose_values(Flat, RS::value, RD::value);
  static_assert(modes.error != 1, "tessera::composition: stride divisibility condition violated "
                                  "(B's stride must be a multiple of A's mode size, or smaller than it)");
  static_assert(modes.error != 2, "tessera::composition: shape divisibility condition violated "
                                  "(B's size must be a multiple of what remains of A's mode)");
  using type = flat_layout_t<modes>;
};
template <auto const& Flat, class... RS, class... RD>
struct static_composition<Flat, tuple<RS...>, tuple<RD...>> {
  using type = Layout<tuple<typename layout_parts<typename static_composition<Flat, RS, RD>::type>::shape...>,
                      tuple<typename layout_parts<typename static_composition<Flat, RS, RD>::type>::stride...>>;
};

// CuTe's mode-by-mode composition without the exactness check (for callers that
// verify what they use of the result, like max_common_layout).
template <class LS, class LD, class RS, class RD>
TESSERA_HOST_DEVICE constexpr auto composition_unchecked(Layout<LS, LD> const& lhs, Layout<RS, RD> const& rhs) {
  if constexpr (has_static_leaves_v<LS, LD> && is_static_v<RS> && is_static_v<RD>) {
    return typename static_composition<static_coalesced_v<LS, LD, true>, RS, RD>::type{};
  } else {
    auto flat = coalesce_x(lhs);
    return composition_impl(flat.shape(), flat.stride(), rhs.shape(), rhs.stride());
  }
}
// composition_is_exact for static A, B and R, read off the types once per triple.
template <class A, class B, class R> inline constexpr bool static_composition_exact_v = [] {
  using AP = layout_parts<A>;
  using BP = layout_parts<B>;
  using RP = layout_parts<R>;
  if constexpr (static_leaves<typename BP::shape>::count == 0) {
    return true;
  } else {
    constexpr auto a = static_flat_modes<typename AP::shape, typename AP::stride>();
    constexpr auto b = static_flat_modes<typename BP::shape, typename BP::stride>();
    constexpr auto r = static_flat_modes<typename RP::shape, typename RP::stride>();
    int64_t n = b.size();
    if (r.size() != n) return false;  // R must keep B's domain
    if (n > 0 && a.size() == 0) return false;  // an empty A has nothing to compose with
    if (n > composition_check_limit) n = composition_check_limit;
    for (int64_t i = 0; i < n; ++i)
      if (r(i) != a(b(i))) return false;  // a reads A past its size as CuTe does
    return true;
  }
}();
}  // namespace detail

template <class LS, class LD, class RS, class RD>
TESSERA_HOST_DEVICE constexpr auto composition(Layout<LS, LD> const& lhs, Layout<RS, RD> const& rhs) {
  auto result = detail::composition_unchecked(lhs, rhs);
#ifndef TESSERA_DEBUG_SKIP_COMPOSITION_CHECK
  if constexpr (is_static_v<Layout<LS, LD>> && is_static_v<Layout<RS, RD>>) {
    static_assert(detail::static_composition_exact_v<Layout<LS, LD>, Layout<RS, RD>, decltype(result)>,
                  "tessera::composition: inadmissible composition: the mode-by-mode result R does not satisfy "
                  "R(i) == A(B(i)) at every index of B (A read past its size as CuTe reads it, its last mode "
                  "continued): B's modes overlap in A's mixed radix, or a step of CuTe's walk is no split into "
                  "A's digits (docs/notation.md, rule 1)");
  } else {
    TESSERA_EXPECTS(detail::composition_is_exact(lhs, rhs, result),
                    "tessera::composition: inadmissible composition (R(i) != A(B(i)))");
  }
#endif
  return result;
}

// composition with a tiler: a tuple composes mode by mode (modes of A that the
// tiler does not reach are dropped), _ keeps the mode, N means N:1.
template <class LS, class LD, class T>
TESSERA_HOST_DEVICE constexpr auto composition(Layout<LS, LD> const& lhs, T const& tiler) {
  if constexpr (is_tuple_v<T>) {
    static_assert(rank_v<T> <= rank_v<LS>, "tessera::composition: the tiler has more modes than the layout");
    constexpr int R = rank_v<T>;
    auto w = make_layout(wrap(lhs.shape()), wrap(lhs.stride()));
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      auto modes = make_tuple(composition(get<I>(w), get<I>(tiler))...);
      return make_layout(make_shape(get<I>(modes).shape()...), make_stride(get<I>(modes).stride()...));
    }(std::make_index_sequence<R>{});
  } else if constexpr (is_underscore_v<T>) {
    return lhs;
  } else {
    static_assert(is_integral_v<T>, "tessera::composition: the right operand must be a layout, a tiler or an integer");
    return composition(lhs, make_layout(tiler, C<1>{}));
  }
}

}  // namespace tessera
