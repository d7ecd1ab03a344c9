#pragma once
// rapidcheck generators for the static tier's property tests: the structure of a
// layout is fixed at compile time, its values (int64) are drawn by rapidcheck.
#include <rapidcheck.h>
#include <tessera/tessera.hpp>
#include <cstdint>
#include <utility>
#include <vector>

namespace tessera_test {
using namespace tessera;

inline int64_t shape_value(int64_t hi = 6) { return *rc::gen::inRange<int64_t>(1, hi + 1); }
inline int64_t stride_value() { return *rc::gen::element<int64_t>(0, 1, 2, 3, 4, 5, 6, 8, 12, 16, 24, 32, 48); }
inline int64_t pow2(int64_t max_log = 3) { return int64_t(1) << *rc::gen::inRange<int64_t>(0, max_log + 1); }

// Number of fixed structures: scalar, (a,b), ((a,b),c), (a,(b,c)), (a,b,c).
inline constexpr int num_structures = 5;
inline int leaves_of(int structure) { return structure == 0 ? 1 : structure == 1 ? 2 : 3; }

// Calls visit(i) for each leaf i < n, in a random one of the 6 orders of 3 leaves: the
// order in which a generator chains the modes' strides.
template <class Visit> void in_random_order(int n, Visit&& visit) {
  static constexpr int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  const int order = *rc::gen::element<int>(0, 1, 2, 3, 4, 5);
  for (int i : perms[order])
    if (i < n) visit(i);
}

// Build a layout of structure k whose leaves come from the functions s() and d(),
// and hand it to f (each structure is a different type).
template <class S, class D, class F> void with_structure(int k, S&& s, D&& d, F&& f) {
  switch (k) {
    case 0: { auto a = s(); f(make_layout(a, d(0))); break; }
    case 1: { auto a = s(), b = s(); auto x = d(0), y = d(1); f(make_layout(make_shape(a, b), make_stride(x, y))); break; }
    case 2: { auto a = s(), b = s(), c = s(); auto x = d(0), y = d(1), z = d(2);
              f(make_layout(make_shape(make_shape(a, b), c), make_stride(make_stride(x, y), z))); break; }
    case 3: { auto a = s(), b = s(), c = s(); auto x = d(0), y = d(1), z = d(2);
              f(make_layout(make_shape(a, make_shape(b, c)), make_stride(x, make_stride(y, z)))); break; }
    default: { auto a = s(), b = s(), c = s(); auto x = d(0), y = d(1), z = d(2);
               f(make_layout(make_shape(a, b, c), make_stride(x, y, z))); break; }
  }
}
// Any layout: sizes 1..6 (size-1 modes included), strides with 0 and gaps.
template <class F> void any_layout(F&& f) {
  with_structure(*rc::gen::inRange(0, num_structures), [] { return shape_value(); }, [](int) { return stride_value(); }, f);
}

// An injective layout: modes visited in a random order, each stride a multiple
// (1..3) of the extent reached so far. `cur` gets the extent of the chain.
template <class F> void injective_layout(F&& f, int64_t* cur_out = nullptr) {
  int k = *rc::gen::inRange(0, num_structures);
  int n = leaves_of(k);
  int64_t sh[3], st[3];
  for (int i = 0; i < n; ++i) sh[i] = shape_value(5);
  int64_t cur = 1;
  in_random_order(n, [&](int i) {
    st[i] = cur * *rc::gen::inRange<int64_t>(1, 4);
    cur = st[i] * sh[i];
  });
  if (cur_out) *cur_out = cur;
  int si = 0;
  with_structure(k, [&] { return sh[si++]; }, [&](int i) { return st[i]; }, f);
}

// A layout with power-of-two shapes and arbitrary strides (an A for composition).
template <class F> void pow2_layout(F&& f) {
  with_structure(*rc::gen::inRange(0, num_structures), [] { return pow2(); }, [](int) { return stride_value(); }, f);
}
// A B that is admissible against any pow2 A: power-of-two shapes whose digit
// ranges (stride, stride*shape) are disjoint, in a random order.
template <class F> void pow2_disjoint_layout(F&& f) {
  int k = *rc::gen::inRange(0, num_structures);
  int n = leaves_of(k);
  int64_t sh[3], st[3];
  for (int i = 0; i < n; ++i) sh[i] = pow2(2);
  int64_t cur = 1;
  in_random_order(n, [&](int i) {
    st[i] = cur * pow2(1);
    cur = st[i] * sh[i];
  });
  int si = 0;
  with_structure(k, [&] { return sh[si++]; }, [&](int i) { return st[i]; }, f);
}

}  // namespace tessera_test

// ---- admissible right operands ----------------------------------------------------
// A layout's domain is the mixed radix of its flat shape (a_0, ..., a_{n-1}).
// Splitting every a_k = q_k * r_k (q_k a divisor) gives a finer radix. A B whose
// modes are disjoint runs of consecutive fine digits (stride = weight of the run's
// first digit, shape = product of the run) never carries from one of its modes into
// another, so composition(A, B) is admissible and equals A o B; broadcasts (stride 0)
// and size-1 modes are admissible too.
namespace tessera_test {
struct Mode { int64_t shape, stride; };
struct Radix { int n = 0; int64_t size[8]{}, weight[8]{}; };

template <class L> std::vector<int64_t> flat_shape(L const& l) {
  auto fs = flatten_to_tuple(l.shape());
  std::vector<int64_t> v;
  [&]<std::size_t... I>(std::index_sequence<I...>) { (v.push_back(int64_t(get<I>(fs))), ...); }(seq_of<decltype(fs)>{});
  return v;
}
inline Radix fine_radix(std::vector<int64_t> const& leaves) {
  Radix r;
  int64_t w = 1;
  for (int64_t a : leaves) {
    std::vector<int64_t> divs;
    for (int64_t d = 1; d <= a; ++d) if (a % d == 0) divs.push_back(d);
    int64_t q = *rc::gen::elementOf(divs);
    r.size[r.n] = q; r.weight[r.n] = w; ++r.n; w *= q;
    r.size[r.n] = a / q; r.weight[r.n] = w; ++r.n; w *= a / q;
  }
  return r;
}
// `count` modes: disjoint runs of fine digits in a random order, padded with
// broadcasts (when allowed) or size-1 modes.
inline std::vector<Mode> digit_runs(Radix const& r, int count, bool allow_broadcast = true) {
  std::vector<Mode> runs;
  int i = 0;
  while (i < r.n && int(runs.size()) < count) {
    if (*rc::gen::inRange(0, 3) == 0) { ++i; continue; }  // leave a gap
    int len = *rc::gen::inRange(1, r.n - i + 1);
    int64_t s = 1;
    for (int k = i; k < i + len; ++k) s *= r.size[k];
    runs.push_back({s, r.weight[i]});
    i += len;
  }
  while (int(runs.size()) < count) {
    if (allow_broadcast && *rc::gen::arbitrary<bool>()) runs.push_back({shape_value(4), 0});
    // a dynamic size-1 mode still claims [0, stride) in complement (CuTe only drops
    // static ones), so where B must divide A's domain its size-1 modes sit at stride 1
    else runs.push_back({1, allow_broadcast ? stride_value() : int64_t(1)});
  }
  for (int k = int(runs.size()) - 1; k > 0; --k) std::swap(runs[k], runs[*rc::gen::inRange(0, k + 1)]);
  return runs;
}
// A layout of a random structure whose leaves are the given modes (padded if needed).
template <class F> void layout_of_runs(Radix const& r, bool allow_broadcast, F&& f) {
  int k = *rc::gen::inRange(0, num_structures);
  auto m = digit_runs(r, leaves_of(k), allow_broadcast);
  int i = 0;
  with_structure(k, [&] { return m[i++].shape; }, [&](int j) { return m[j].stride; }, f);
}
// A B admissible against A (see above).
template <class A, class F> void admissible_for(A const& a, F&& f, bool allow_broadcast = true) {
  layout_of_runs(fine_radix(flat_shape(a)), allow_broadcast, f);
}

// ---- static and mixed leaves ----------------------------------------------------
// pick<V...>(f): f(C<V_k>{}) for a random k.
template <int64_t... V, class F> void pick(F&& f) {
  constexpr int64_t vals[] = {V...};
  int k = *rc::gen::inRange<int>(0, int(sizeof...(V)));
  [&]<std::size_t... I>(std::index_sequence<I...>) { ((k == int(I) ? (f(C<vals[I]>{}), 0) : 0), ...); }(std::make_index_sequence<sizeof...(V)>{});
}
// One leaf (shape, stride): each static from a few values or dynamic, so that the
// static tier's compile-time decisions (merging, dropping size-1 and stride-0 modes)
// are exercised next to the run-time ones.
template <class F> void mixed_leaf(F&& f) {
  // (few static values: every combination is its own type, and compile time counts)
  int s = *rc::gen::inRange(0, 3), d = *rc::gen::inRange(0, 4);
  auto with_shape = [&](auto sh) {
    switch (d) {
      case 0: f(sh, C<0>{}); break;
      case 1: f(sh, C<1>{}); break;
      case 2: f(sh, C<2>{}); break;
      default: f(sh, stride_value()); break;
    }
  };
  switch (s) {
    case 0: with_shape(C<1>{}); break;
    case 1: with_shape(C<2>{}); break;
    default: with_shape(shape_value()); break;
  }
}
// (a,b) or ((a,b),c): a and b mixed leaves, c dynamic.
template <class F> void mixed_layout(F&& f) {
  bool nested = *rc::gen::arbitrary<bool>();
  mixed_leaf([&](auto s0, auto d0) {
    mixed_leaf([&](auto s1, auto d1) {
      if (nested) f(make_layout(make_shape(make_shape(s0, s1), shape_value()), make_stride(make_stride(d0, d1), stride_value())));
      else f(make_layout(make_shape(s0, s1), make_stride(d0, d1)));
    });
  });
}
// A static injective layout (s0,s1): s0 from {1,2,3}, s1 from {2,3}, modes chained in a
// random order, with a gap (factor 2) before the first mode, before the second, or none.
template <class F> void static_injective(F&& f) {
  pick<1, 2, 3>([&](auto s0) { pick<2, 3>([&](auto s1) { pick<0, 1, 2>([&](auto gap) {
    pick<0, 1>([&](auto order) {
      constexpr int64_t S0 = decltype(s0)::value, S1 = decltype(s1)::value;
      constexpr int64_t M0 = decltype(gap)::value == 1 ? 2 : 1, M1 = decltype(gap)::value == 2 ? 2 : 1;
      constexpr bool first0 = decltype(order)::value == 0;
      constexpr int64_t D0 = first0 ? M0 : M0 * M1 * S1;
      constexpr int64_t D1 = first0 ? M1 * M0 * S0 : M1;
      f(make_layout(make_shape(s0, s1), make_stride(C<D0>{}, C<D1>{})));
    });
  }); }); });
}
}  // namespace tessera_test
