#pragma once
// rapidcheck generators for the static tier's property tests: the structure of a
// layout is fixed at compile time, its values (int64) are drawn by rapidcheck.
#include <rapidcheck.h>
#include <tessera/tessera.hpp>
#include <cstdint>

namespace tessera_test {
using namespace tessera;

inline int64_t shape_value(int64_t hi = 6) { return *rc::gen::inRange<int64_t>(1, hi + 1); }
inline int64_t stride_value() { return *rc::gen::element<int64_t>(0, 1, 2, 3, 4, 5, 6, 8, 12, 16, 24, 32, 48); }
inline int64_t pow2(int64_t max_log = 3) { return int64_t(1) << *rc::gen::inRange<int64_t>(0, max_log + 1); }

// Number of fixed structures: scalar, (a,b), ((a,b),c), (a,(b,c)), (a,b,c).
inline constexpr int num_structures = 5;

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
  int n = k == 0 ? 1 : k == 1 ? 2 : 3;
  int64_t sh[3], st[3];
  for (int i = 0; i < n; ++i) sh[i] = shape_value(5);
  auto order = *rc::gen::element<int>(0, 1, 2, 3, 4, 5);
  int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  int64_t cur = 1;
  for (int j = 0, m = 0; j < 3; ++j) {
    int i = perms[order][j];
    if (i >= n) continue;
    st[i] = cur * *rc::gen::inRange<int64_t>(1, 4);
    cur = st[i] * sh[i];
    ++m;
  }
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
  int n = k == 0 ? 1 : k == 1 ? 2 : 3;
  int64_t sh[3], st[3];
  for (int i = 0; i < n; ++i) sh[i] = pow2(2);
  auto order = *rc::gen::element<int>(0, 1, 2, 3, 4, 5);
  int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  int64_t cur = 1;
  for (int j = 0; j < 3; ++j) {
    int i = perms[order][j];
    if (i >= n) continue;
    st[i] = cur * pow2(1);
    cur = st[i] * sh[i];
  }
  int si = 0;
  with_structure(k, [&] { return sh[si++]; }, [&](int i) { return st[i]; }, f);
}

}  // namespace tessera_test
