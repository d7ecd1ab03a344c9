#pragma once
// rapidcheck helpers for runtime layouts: called inside rc::prop lambdas (they use *gen).
#include <rapidcheck.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "tessera/rt/algebra.hpp"

namespace tessera::rt::testing {

// A shape tree: rank 1..3 per level, depth up to `depth`, leaves 1..max_leaf.
inline IntTuple gen_shape(int depth, std::int64_t max_leaf = 6) {
  if (depth == 0 || *rc::gen::inRange(0, 3) == 0) return IntTuple(*rc::gen::inRange<std::int64_t>(1, max_leaf + 1));
  const int r = *rc::gen::inRange(1, 4);
  std::vector<IntTuple> e;
  for (int i = 0; i < r; ++i) e.push_back(gen_shape(depth - 1, max_leaf));
  return IntTuple::tuple(std::move(e));
}

// A shape of at most `max_size` elements (so properties can walk the whole domain).
inline IntTuple gen_small_shape(int depth, std::int64_t max_size = 4096) {
  for (int attempt = 0; attempt < 8; ++attempt) {
    IntTuple s = gen_shape(depth);
    if (product(s) <= max_size) return s;
  }
  return gen_shape(0);
}

// Any layout: random shape, strides in [0, max_stride].
inline Layout gen_layout(int depth = 2, std::int64_t max_stride = 48) {
  IntTuple s = gen_small_shape(depth);
  std::vector<std::int64_t> d(leaves(s).size());
  for (auto& x : d) x = *rc::gen::inRange<std::int64_t>(0, max_stride + 1);
  return Layout(s, unflatten(s, d));
}

// An injective layout whose sorted strides divide each other (complement-admissible):
// modes in a random order, each stride = (span of the modes below it) * a gap factor.
inline Layout gen_injective(int depth = 2, int max_gap = 3) {
  IntTuple s = gen_small_shape(depth, 1024);
  std::vector<std::int64_t> fs = leaves(s), d(fs.size());
  std::vector<std::size_t> order(fs.size());
  std::iota(order.begin(), order.end(), 0);
  for (std::size_t i = order.size(); i > 1; --i)
    std::swap(order[i - 1], order[*rc::gen::inRange<std::size_t>(0, i)]);
  std::int64_t span = 1;
  for (auto k : order) {
    span *= *rc::gen::inRange<std::int64_t>(1, max_gap + 1);
    d[k] = span;
    span *= fs[k];
  }
  return Layout(s, unflatten(s, d));
}

// Offsets of a layout over its domain.
inline std::vector<std::int64_t> image(const Layout& l) {
  std::vector<std::int64_t> v;
  for (std::int64_t i = 0; i < l.size(); ++i) v.push_back(l(i));
  return v;
}

}  // namespace tessera::rt::testing
