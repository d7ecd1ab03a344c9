#pragma once
// rapidcheck generators of runtime layouts for property tests of your own layouts:
//
//   rc::prop("my op keeps the size", [] {
//     const auto L = *tessera::testing::gen::layout({.max_rank = 2});
//     RC_ASSERT(my_op(L).size() == L.size());
//   });
//
//   gen::layout(o)            any layout: random hierarchical shape, strides in [0, max_stride]
//   gen::compact_layout(o)    a bijection onto [0,size): compact strides in a random mode order
//   gen::injective_layout(o)  injective, strides (sorted) divide each other, so complement works
//   gen::tiler_dividing(L)    a tiler that logical_divide(L, tiler) accepts
//   gen::swizzle(), gen::swizzled_layout(o)
//
// Every generator shrinks toward small counterexamples: fewer modes, smaller extents,
// depth 1 (a nested mode shrinks to a single leaf), strides toward 0 (or toward the compact
// column-major order), tiles toward 1. rc::Arbitrary<rt::Layout> is gen::layout().
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include <rapidcheck.h>

#include "tessera/rt/algebra.hpp"
#include "tessera/testing/layout_arg.hpp"

namespace tessera::testing {

struct LayoutOptions {
  int min_rank = 1;                 // top-level modes, at least...
  int max_rank = 3;                 // ...and at most (nested modes have 1..max_rank sub-modes)
  int max_depth = 2;                // depth of the shape: 0 an integer, 1 a flat tuple, 2 one nesting level
  std::int64_t max_extent = 8;      // each leaf of the shape in [1, max_extent]
  std::int64_t max_size = 1024;     // size (product of the shape); leaves are clamped to stay below
  std::int64_t max_stride = 32;     // gen::layout: |stride| <= max_stride
  bool negative_strides = false;    // gen::layout: allow strides in [-max_stride, max_stride]
  std::int64_t max_gap = 3;         // gen::injective_layout: stride = (span below) * gap, gap in [1, max_gap]
};

namespace gen {

namespace detail {

// Clamps leaves left to right so that the product stays <= max_size (keeps shrinking monotone).
inline rt::IntTuple cap_size(const rt::IntTuple& shape, std::int64_t max_size) {
  std::int64_t running = 1;
  return rt::transform_leaf(shape, [&](std::int64_t e) {
    const std::int64_t room = std::max<std::int64_t>(1, max_size / running);
    const std::int64_t v = std::min(e, room);
    running *= v;
    return v;
  });
}

// A mode: a leaf e:d, or (when depth allows) a tuple of 1..max_rank sub-modes.
// Shrinking turns a nested mode into a leaf.
inline rc::Gen<rt::Layout> mode(const LayoutOptions& o, int depth_left, const rc::Gen<std::int64_t>& stride) {
  rc::Gen<rt::Layout> leaf =
      rc::gen::map(rc::gen::pair(rc::gen::inRange<std::int64_t>(1, o.max_extent + 1), stride),
                   [](const std::pair<std::int64_t, std::int64_t>& p) { return rt::Layout(p.first, p.second); });
  if (depth_left <= 0) return leaf;
  auto sub = mode(o, depth_left - 1, stride);
  auto nested = rc::gen::mapcat(rc::gen::inRange(1, std::max(1, o.max_rank) + 1), [sub](int r) {
    return rc::gen::map(rc::gen::container<std::vector<rt::Layout>>(static_cast<std::size_t>(r), sub),
                        [](const std::vector<rt::Layout>& m) { return rt::make_layout(m); });
  });
  // Not rc::gen::oneOf: it never shrinks its choice. A choice from inRange shrinks to 0, the leaf.
  return rc::gen::mapcat(rc::gen::inRange(0, 2), [leaf, nested](int k) { return k == 0 ? leaf : nested; });
}

// The whole layout: an integer layout (max_depth 0) or a tuple of min_rank..max_rank modes.
inline rc::Gen<rt::Layout> tree(const LayoutOptions& o, const rc::Gen<std::int64_t>& stride) {
  rc::Gen<rt::Layout> g = mode(o, 0, stride);
  if (o.max_depth > 0) {
    auto sub = mode(o, o.max_depth - 1, stride);
    g = rc::gen::mapcat(rc::gen::inRange(std::max(1, o.min_rank), std::max(o.min_rank, o.max_rank) + 1), [sub](int r) {
      return rc::gen::map(rc::gen::container<std::vector<rt::Layout>>(static_cast<std::size_t>(r), sub),
                          [](const std::vector<rt::Layout>& m) { return rt::make_layout(m); });
    });
  }
  const std::int64_t max_size = o.max_size;
  return rc::gen::map(g, [max_size](const rt::Layout& l) {
    return rt::Layout(cap_size(l.shape, max_size), l.stride);
  });
}

// Strides 0, -1, 1, -2, 2, ... so that shrinking goes toward 0.
inline rc::Gen<std::int64_t> stride(const LayoutOptions& o) {
  if (!o.negative_strides) return rc::gen::inRange<std::int64_t>(0, o.max_stride + 1);
  return rc::gen::map(rc::gen::inRange<std::int64_t>(0, 2 * o.max_stride + 1),
                      [](std::int64_t x) { return x % 2 ? -(x + 1) / 2 : x / 2; });
}

// Lehmer code -> permutation of 0..n-1; the all-zero code (where shrinking goes) is the identity.
inline std::vector<std::size_t> permutation(const std::vector<int>& code) {
  std::vector<std::size_t> pool(code.size()), out;
  for (std::size_t i = 0; i < pool.size(); ++i) pool[i] = i;
  for (std::size_t k = 0; k < code.size(); ++k) {
    const auto at = static_cast<std::size_t>(code[k]) % pool.size();
    out.push_back(pool[at]);
    pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(at));
  }
  return out;
}

// Strides in the order `order` (leaf indices, innermost first): each is the span of the
// leaves before it times a gap (1 everywhere: compact).
inline rt::Layout ordered(const rt::IntTuple& shape, const std::vector<std::size_t>& order,
                          const std::vector<std::int64_t>& gaps) {
  const std::vector<std::int64_t> e = rt::leaves(shape);
  std::vector<std::int64_t> d(e.size(), 0);
  std::int64_t span = 1;
  for (std::size_t k = 0; k < order.size(); ++k) {
    span *= gaps.empty() ? 1 : gaps[k];
    d[order[k]] = span;
    span *= e[order[k]];
  }
  return rt::Layout(shape, rt::unflatten(shape, d));
}

// The values v that divide the leaves f from the left without remainder: v = f0*...*f(j-1)*e
// with e | fj. These are the tile sizes and strides CuTe's composition accepts for a mode.
inline std::vector<std::int64_t> left_divisors(const std::vector<std::int64_t>& f) {
  std::vector<std::int64_t> out{1};
  std::int64_t prefix = 1;
  for (std::int64_t x : f) {
    for (std::int64_t e = 1; e <= x; ++e)
      if (x % e == 0) out.push_back(prefix * e);
    prefix *= x;
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// The leaves left after dividing out a left divisor v (what composition's shape_div does).
inline std::vector<std::int64_t> divide_out(std::vector<std::int64_t> f, std::int64_t v) {
  for (auto& x : f) {
    if (v == 1) break;
    if (v >= x) { v /= x; x = 1; }
    else { x /= v; v = 1; }
  }
  return f;
}

// One tile d:s of a mode with leaves f, from two picks (shrink to 0: the tile 1:1).
inline rt::Layout tile_of(const std::vector<std::int64_t>& f, int pick_stride, int pick_size) {
  const auto strides = left_divisors(f);
  const std::int64_t s = strides[static_cast<std::size_t>(pick_stride) % strides.size()];
  const auto sizes = left_divisors(divide_out(f, s));
  const std::int64_t d = sizes[static_cast<std::size_t>(pick_size) % sizes.size()];
  return rt::Layout(d, s);
}

}  // namespace detail

// Any layout (strides need not be injective or compact).
inline rc::Gen<rt::Layout> layout(const LayoutOptions& o = {}) { return detail::tree(o, detail::stride(o)); }

// A compact layout: a bijection onto [0, size), its modes ordered at random.
inline rc::Gen<rt::Layout> compact_layout(const LayoutOptions& o = {}) {
  auto shapes = rc::gen::map(detail::tree(o, rc::gen::just<std::int64_t>(0)), [](const rt::Layout& l) { return l.shape; });
  return rc::gen::mapcat(shapes, [](const rt::IntTuple& s) {
    const std::size_t n = rt::leaves(s).size();
    return rc::gen::map(rc::gen::container<std::vector<int>>(n, rc::gen::inRange(0, 1 << 16)),
                        [s](const std::vector<int>& code) { return detail::ordered(s, detail::permutation(code), {}); });
  });
}

// An injective layout whose strides, sorted, divide each other (complement-admissible):
// modes in random order, each stride = (span of the modes inside it) * a gap in [1, max_gap].
inline rc::Gen<rt::Layout> injective_layout(const LayoutOptions& o = {}) {
  auto shapes = rc::gen::map(detail::tree(o, rc::gen::just<std::int64_t>(0)), [](const rt::Layout& l) { return l.shape; });
  const std::int64_t max_gap = std::max<std::int64_t>(1, o.max_gap);
  return rc::gen::mapcat(shapes, [max_gap](const rt::IntTuple& s) {
    const std::size_t n = rt::leaves(s).size();
    return rc::gen::map(
        rc::gen::pair(rc::gen::container<std::vector<int>>(n, rc::gen::inRange(0, 1 << 16)),
                      rc::gen::container<std::vector<std::int64_t>>(n, rc::gen::inRange<std::int64_t>(1, max_gap + 1))),
        [s](const std::pair<std::vector<int>, std::vector<std::int64_t>>& p) {
          return detail::ordered(s, detail::permutation(p.first), p.second);
        });
  });
}

// A tiler that divides `l`: either one tile d:s per top-level mode (for a prefix of the
// modes), or one tile of the whole 1-D domain. d and s divide the mode's leaves from the
// left, so logical_divide(l, tiler) is admissible. Shrinks toward by-mode tiles of size 1.
inline rc::Gen<rt::Tiler> tiler_dividing(const rt::Layout& l) {
  const std::size_t modes = l.shape.is_leaf() ? 0 : l.rank();
  auto picks = rc::gen::container<std::vector<int>>(2 * std::max<std::size_t>(modes, 1) + 2, rc::gen::inRange(0, 1 << 16));
  return rc::gen::map(picks, [l, modes](const std::vector<int>& p) {
    const bool whole = modes == 0 || p[0] % 4 == 3;  // a quarter of the time: one 1-D tile
    if (whole) return rt::Tiler::of_layout(detail::tile_of(rt::leaves(l.shape), p[2], p[3]));
    const std::size_t count = 1 + static_cast<std::size_t>(p[1]) % modes;  // shrinks to 1 mode
    std::vector<rt::Tiler> tiles;
    for (std::size_t i = 0; i < count; ++i)
      tiles.push_back(rt::Tiler::of_layout(detail::tile_of(rt::leaves(l.shape[i]), p[2 + 2 * i], p[3 + 2 * i])));
    return rt::Tiler::of_tuple(std::move(tiles));
  });
}

// Swizzle<B,M,S>: B in [0,3], M in [0,4], S in [B, B+3] (so |S| >= B).
inline rc::Gen<rt::Swizzle> swizzle() {
  return rc::gen::map(rc::gen::tuple(rc::gen::inRange(0, 4), rc::gen::inRange(0, 5), rc::gen::inRange(0, 4)),
                      [](const std::tuple<int, int, int>& t) {
                        const auto [b, m, extra] = t;
                        return rt::Swizzle(b, m, b + extra);
                      });
}

// A swizzle over a compact layout (what a swizzled shared-memory tile looks like).
inline rc::Gen<rt::SwizzledLayout> swizzled_layout(const LayoutOptions& o = {}) {
  return rc::gen::map(rc::gen::pair(swizzle(), compact_layout(o)),
                      [](const std::pair<rt::Swizzle, rt::Layout>& p) { return rt::SwizzledLayout{p.first, p.second}; });
}

}  // namespace gen
}  // namespace tessera::testing

namespace rc {
template <>
struct Arbitrary<tessera::rt::Layout> {
  static Gen<tessera::rt::Layout> arbitrary() { return tessera::testing::gen::layout(); }
};
template <>
struct Arbitrary<tessera::rt::Swizzle> {
  static Gen<tessera::rt::Swizzle> arbitrary() { return tessera::testing::gen::swizzle(); }
};
}  // namespace rc
