// The kit's rapidcheck generators: each one keeps its promise on 2000 generated cases
// (RC_PARAMS from tests/CMakeLists.txt), and a false property shrinks to a small layout.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <type_traits>
#include <vector>

#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include "tessera/testing/kit.hpp"

using namespace tessera;
using namespace tessera::testing;

namespace {

std::vector<std::int64_t> sorted_offsets(const rt::Layout& l) {
  std::vector<std::int64_t> off;
  rt::for_each_offset(l, [&](std::int64_t o) { off.push_back(o); });
  std::sort(off.begin(), off.end());
  return off;
}

// Runs a property with its own parameters (independent of RC_PARAMS) and returns the last
// input it failed on: the counterexample rapidcheck ends with after shrinking.
template <class T = rt::Layout, class Gen>
std::optional<T> shrunk_counterexample(Gen gen, std::type_identity_t<bool (*)(const T&)> property) {
  std::optional<T> last_failure;
  rc::detail::TestParams params;
  params.seed = 20261123;
  params.maxSuccess = 2000;
  params.maxSize = 100;
  const auto result = rc::detail::checkTestable([&] {
    const T l = *gen;
    const bool ok = property(l);
    if (!ok) last_failure = l;
    RC_ASSERT(ok);
  }, rc::detail::TestMetadata{}, params);
  REQUIRE(result.template is<rc::detail::FailureResult>());
  return last_failure;
}

}  // namespace

TEST_CASE("gen::layout respects its options") {
  rc::prop("rank, depth, extents, size and strides stay in bounds", [] {
    const LayoutOptions o{.min_rank = 1, .max_rank = 3, .max_depth = 2, .max_extent = 8, .max_size = 256,
                          .max_stride = 16, .negative_strides = true};
    const rt::Layout l = *gen::layout(o);
    RC_ASSERT(l.shape.is_tuple());
    RC_ASSERT(l.rank() >= 1u);
    RC_ASSERT(l.rank() <= 3u);
    RC_ASSERT(l.depth() <= 2);
    RC_ASSERT(l.size() <= 256);
    for (std::int64_t e : rt::leaves(l.shape)) RC_ASSERT(e >= 1 && e <= 8);
    for (std::int64_t d : rt::leaves(l.stride)) RC_ASSERT(d >= -16 && d <= 16);
  });
  rc::prop("max_depth 0 gives an integer layout", [] {
    const rt::Layout l = *gen::layout({.max_depth = 0});
    RC_ASSERT(l.shape.is_leaf());
  });
  rc::prop("rc::Arbitrary<rt::Layout> is gen::layout()", [](const rt::Layout& l) {
    RC_ASSERT(l.depth() <= 2);
    RC_ASSERT(l.size() <= 1024);
  });
}

TEST_CASE("gen::compact_layout is a bijection onto [0,size) in a random mode order") {
  int column_major = 0, total = 0;
  rc::prop("compact", [&] {
    const rt::Layout l = *gen::compact_layout({.max_rank = 3, .max_depth = 2});
    RC_ASSERT(IsBijective().match(l));
    RC_ASSERT(IsCompact().match(l));
    ++total;
    if (l == rt::Layout::column_major(l.shape)) ++column_major;
  });
  // Random order: most cases with several modes are not column-major.
  CHECK(column_major < total);
}

TEST_CASE("gen::injective_layout is injective and complement-admissible") {
  rc::prop("injective, and (L, complement(L)) is a bijection onto [0, its size)", [] {
    const rt::Layout l = *gen::injective_layout({.max_rank = 3, .max_depth = 2, .max_gap = 3});
    RC_ASSERT(IsInjective().match(l));
    const rt::Layout c = rt::complement(l);
    const rt::Layout both = rt::make_layout({l, c});
    RC_ASSERT(IsBijective().match(both));
  });
}

TEST_CASE("gen::tiler_dividing(L) gives tilers that logical_divide accepts") {
  rc::prop("logical_divide(L, T) keeps L's offsets and its first mode is the tile", [] {
    const rt::Layout l = *gen::layout({.max_rank = 3, .max_depth = 2, .max_size = 512});
    const rt::Tiler t = *gen::tiler_dividing(l);
    const rt::Layout d = rt::logical_divide(l, t);  // throws (fails the property) when inadmissible
    RC_ASSERT(d.size() == l.size());
    RC_ASSERT(sorted_offsets(d) == sorted_offsets(l));
    if (t.is_layout) {
      RC_ASSERT(d.mode(0).size() == t.layout.size());
      RC_ASSERT(l.size() % t.layout.size() == 0);
    } else {
      for (std::size_t i = 0; i < t.rank(); ++i) RC_ASSERT(d.mode(i).mode(0).size() == t.elems[i].layout.size());
    }
  });
}

TEST_CASE("gen::swizzle gives valid swizzles; swizzled layouts are bijections") {
  rc::prop("Swizzle<B,M,S>: |S| >= B, and it is its own inverse", [](const rt::Swizzle& s) {
    RC_ASSERT(s.bits >= 0);
    RC_ASSERT(s.base >= 0);
    RC_ASSERT(s.shift >= s.bits);
    for (std::int64_t x = 0; x < 4096; ++x) RC_ASSERT(s(s(x)) == x);
  });
  rc::prop("Sw o compact is a bijection of [0, 2^k) when size is a power of two", [] {
    const rt::SwizzledLayout sl = *gen::swizzled_layout({.max_rank = 2, .max_depth = 1});
    const std::int64_t n = sl.size();
    std::vector<std::int64_t> off;
    for (std::int64_t i = 0; i < n; ++i) off.push_back(sl(i));
    std::sort(off.begin(), off.end());
    RC_ASSERT(std::adjacent_find(off.begin(), off.end()) == off.end());  // injective always
  });
}

TEST_CASE("A false property shrinks to a small counterexample") {
  // "Every layout is injective" is false; the smallest counterexample is one mode 2:0.
  const auto inj = shrunk_counterexample(gen::layout(), [](const rt::Layout& l) { return IsInjective().match(l); });
  REQUIRE(inj.has_value());
  INFO("shrunk to " << rt::to_string(*inj));
  CHECK(rt::leaves(inj->shape).size() == 1);
  CHECK(inj->size() == 2);
  CHECK(rt::leaves(inj->stride) == std::vector<std::int64_t>{0});
  CHECK(inj->depth() <= 1);

  // "Layouts have rank <= 2" is false for rank 3; the smallest counterexample is flat, with
  // extents 1 and strides 0: nested modes shrink to leaves.
  const auto r3 = shrunk_counterexample(gen::layout({.min_rank = 1, .max_rank = 3}),
                                        [](const rt::Layout& l) { return l.rank() <= 2; });
  REQUIRE(r3.has_value());
  CHECK(rt::to_string(*r3) == "(1,1,1):(0,0,0)");

  // "Compact layouts have cosize <= 8" is false. Shrinking ends at a small layout that is
  // minimal leaf by leaf: making any extent one smaller gives a layout that passes.
  const auto big = shrunk_counterexample(gen::compact_layout(), [](const rt::Layout& l) { return l.cosize() <= 8; });
  REQUIRE(big.has_value());
  INFO("shrunk to " << rt::to_string(*big));
  CHECK(big->size() > 8);
  CHECK(big->size() <= 16);
  CHECK(rt::leaves(big->shape).size() <= 3);
  for (std::int64_t e : rt::leaves(big->shape)) CHECK(big->size() / e * (e - 1) <= 8);
  // Its strides shrink toward column-major order.
  CHECK(*big == rt::Layout::column_major(big->shape));
}

TEST_CASE("Every generator shrinks: injective layouts, tilers, swizzles") {
  // "Injective layouts have size <= 4" is false. Gaps shrink to 1 and the mode order to the
  // identity, so the counterexample is column-major, and minimal leaf by leaf.
  const auto inj = shrunk_counterexample(gen::injective_layout(), [](const rt::Layout& l) { return l.size() <= 4; });
  REQUIRE(inj.has_value());
  INFO("shrunk to " << rt::to_string(*inj));
  CHECK(inj->size() > 4);
  CHECK(inj->size() <= 8);
  CHECK(*inj == rt::Layout::column_major(inj->shape));
  for (std::int64_t e : rt::leaves(inj->shape)) CHECK(inj->size() / e * (e - 1) <= 4);

  // "Tilers of (8,12):(1,8) tile nothing" (every tile has size 1) is false. The smallest
  // counterexample tiles one mode by the smallest tile that is not trivial: 2:1.
  static const rt::Layout target = rt::make_layout({rt::Layout(8, 1), rt::Layout(12, 8)});  // (8,12):(1,8)
  const auto tiler = shrunk_counterexample<rt::Tiler>(gen::tiler_dividing(target), [](const rt::Tiler& t) {
    return rt::product(t.shape()) == 1;
  });
  REQUIRE(tiler.has_value());
  CHECK(rt::to_string(*tiler) == "(2:1)");

  // "Swizzles never swizzle" (B == 0) is false: the smallest one that does is Sw<1,0,1>.
  const auto sw = shrunk_counterexample<rt::Swizzle>(gen::swizzle(), [](const rt::Swizzle& s) { return s.bits == 0; });
  REQUIRE(sw.has_value());
  CHECK(rt::to_string(*sw) == "Sw<1,0,1>");
}
