// Example 2: unit-test your own layouts with tessera's testing kit (tessera::testing).
//
// Three kinds of checks, from cheapest to broadest:
//   1. static_assert on static layouts: a broken layout does not compile;
//   2. Catch2 matchers: REQUIRE_THAT(layout, IsInjective()), with the first counterexample
//      (coordinate, index, offsets) and the layouts in CuTe notation when it fails;
//   3. rapidcheck properties over generated layouts: thousands of cases, and a failure
//      shrinks to a small layout you can read.
// Run: ./example_test_my_layout   (any Catch2 options work, e.g. -s to see every check).
#define CATCH_CONFIG_MAIN  // this file provides main(); in your project, one TU does this
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>  // rc::prop inside a TEST_CASE

#include <tessera/check.hpp>          // constexpr is_injective / is_bijective / ...
#include <tessera/layout.hpp>
#include <tessera/testing/kit.hpp>    // matchers + generators + printing

using namespace tessera;
using namespace tessera::testing;

// The layout under test: an 8x8 shared-memory tile, column-major with one element of
// padding per column (stride 9), the classic way to spread a row over different banks.
using PaddedTile = Layout<tuple<_8, _8>, tuple<_1, C<9>>>;

// 1. Compile time: no two coordinates share an element; the padding makes it non-compact.
static_assert(is_injective(PaddedTile{}), "the padded tile must not alias");
static_assert(!is_bijective(PaddedTile{}), "padding leaves holes, so it is not a bijection");

TEST_CASE("the padded tile: injective, cosize 71, not compact") {
  REQUIRE_THAT(PaddedTile{}, IsInjective());
  REQUIRE_THAT(PaddedTile{}, HasCosize(71));  // (8-1)*1 + (8-1)*9 + 1
  REQUIRE_THAT(PaddedTile{}, !IsCompact());   // every 9th element is padding
  // Column j starts at 9j: as a function it is a composition of a column-major 8x8
  // tile with the padded one, written down explicitly here.
  REQUIRE_THAT(PaddedTile{}, EqualsFunction(rt::Layout(rt::IntTuple::tuple({8, 8}), rt::IntTuple::tuple({1, 9}))));
}

// A function of your own over runtime layouts: swap the two modes of a rank-2 layout
// (transpose the tile). Its properties below are checked on 2000 generated layouts each
// (set RC_PARAMS=max_success=2000; rapidcheck's default is 100).
rt::Layout transpose(const rt::Layout& l) { return rt::make_layout({l.mode(1), l.mode(0)}); }

TEST_CASE("transpose: properties over generated layouts") {
  const LayoutOptions rank2{.min_rank = 2, .max_rank = 2, .max_depth = 2};

  rc::prop("transpose of a compact layout is a bijection", [&] {
    const rt::Layout l = *gen::compact_layout(rank2);
    RC_ASSERT(IsBijective().match(transpose(l)));
  });

  rc::prop("transposing twice gives the layout back, to the letter", [&] {
    const rt::Layout l = *gen::layout(rank2);
    RC_ASSERT(EqualsExactly(l).match(transpose(transpose(l))));
  });

  rc::prop("transpose keeps injectivity and the cosize", [&] {
    const rt::Layout l = *gen::injective_layout(rank2);
    const rt::Layout t = transpose(l);
    RC_ASSERT(IsInjective().match(t));
    RC_ASSERT(HasCosize(l.cosize()).match(t));
  });

  // When a property fails, rapidcheck prints the shrunk counterexample in CuTe notation,
  // e.g. "(2,1):(0,0)"; a matcher's describe() says which coordinate broke the claim:
  //   const auto m = IsInjective();
  //   if (!m.match(l)) RC_FAIL(m.describe());
}
