// The kit's matchers: each one passes good layouts (static and runtime) and fails bad ones
// with a message that names the first counterexample and prints layouts in CuTe notation.
#include <string>

#include <catch2/catch.hpp>

#include "tessera/rt/parse.hpp"
#include "tessera/rt/eval.hpp"
#include "tessera/check.hpp"
#include "tessera/layout.hpp"
#include "tessera/testing/kit.hpp"

using namespace tessera::testing;
using tessera::rt::IntTuple;
using tessera::rt::Layout;
using Catch::Matchers::Contains;

namespace {

// A runtime layout from text, e.g. L("(4,2):(1,4)").
Layout L(const std::string& text) {
  return tessera::rt::evaluate(tessera::rt::parse(text)).layout();
}

// Runs a matcher directly and returns what Catch would print after "... " on failure.
template <class M>
std::string failure_of(const M& m, const LayoutArg& arg) {
  REQUIRE_FALSE(m.match(arg));
  return m.describe();
}

}  // namespace

TEST_CASE("EqualsFunction: same size and the same offset at every index") {
  REQUIRE_THAT(L("(4,2):(1,4)"), EqualsFunction(L("8:1")));
  REQUIRE_THAT(L("((2,2),2):((1,2),4)"), EqualsFunction(L("(4,2):(1,4)")));
  // A static layout on either side.
  using namespace tessera;
  const auto col = make_layout(make_shape(Int<4>{}, Int<2>{}));
  REQUIRE_THAT(col, EqualsFunction(L("8:1")));
  REQUIRE_THAT(L("8:1"), EqualsFunction(col));

  const auto m = EqualsFunction(L("8:1"));
  const std::string msg = failure_of(m, L("(4,2):(2,1)"));
  CHECK(msg == "equals 8:1 as a function; but at coordinate (1,0) (index 1) of (4,2):(2,1) the offset is 2, "
               "expected 1 (coordinate 1 of 8:1)");
  CHECK(m.failure() == msg.substr(msg.find("but ") + 4));

  CHECK_THAT(failure_of(m, L("(4,3):(1,4)")), Contains("(4,3):(1,4) has size 12, expected 8"));
  // Broadcast is allowed: 2:0 is not 2:1 at index 1.
  CHECK_THAT(failure_of(EqualsFunction(L("2:1")), L("2:0")),
             Contains("at coordinate 1 (index 1) of 2:0 the offset is 0, expected 1"));
}

TEST_CASE("EqualsExactly: shape and stride to the letter") {
  REQUIRE_THAT(L("(4,2):(1,4)"), EqualsExactly(L("(4,2):(1,4)")));
  using namespace tessera;
  REQUIRE_THAT(make_layout(make_shape(Int<4>{}, Int<2>{})), EqualsExactly(L("(4,2):(1,4)")));

  // Equal as functions, different to the letter.
  CHECK(failure_of(EqualsExactly(L("8:1")), L("(4,2):(1,4)")) ==
        "equals 8:1 exactly (shape and stride); but in (4,2):(1,4) the shape is (4,2), expected 8");
  CHECK_THAT(failure_of(EqualsExactly(L("(4,(2,2)):(2,(1,8))")), L("(4,(2,2)):(2,(1,16))")),
             Contains("in (4,(2,2)):(2,(1,16)) mode (1,1) of the stride is 16, expected 8"));
  CHECK_THAT(failure_of(EqualsExactly(L("(8):(1)")), L("8:1")), Contains("the shape is 8, expected (8)"));
  CHECK_THAT(failure_of(EqualsExactly(L("(2,3):(1,2)")), L("(2,4):(1,2)")),
             Contains("mode 1 of the shape is 4, expected 3"));
}

TEST_CASE("IsInjective: no two coordinates share an offset") {
  REQUIRE_THAT(L("(4,2):(1,4)"), IsInjective());
  REQUIRE_THAT(L("(4,2):(2,1)"), IsInjective());
  REQUIRE_THAT(L("(2,2):(1,5)"), IsInjective());  // holes are fine
  CHECK(failure_of(IsInjective(), L("(4,2):(1,2)")) ==
        "is injective; but in (4,2):(1,2) coordinate (2,0) (index 2) and coordinate (0,1) (index 4) both map to "
        "offset 2");
  CHECK_THAT(failure_of(IsInjective(), L("(4,2):(1,0)")), Contains("both map to offset 0"));
}

TEST_CASE("IsSurjectiveOnto: every offset in [0,n) is reached and nothing outside") {
  REQUIRE_THAT(L("(4,2):(1,4)"), IsSurjectiveOnto(8));
  REQUIRE_THAT(L("(4,2):(1,0)"), IsSurjectiveOnto(4));  // broadcast still reaches everything
  CHECK(failure_of(IsSurjectiveOnto(10), L("(4,2):(1,4)")) ==
        "is surjective onto [0,10); but in (4,2):(1,4) offset 8 in [0,10) is never reached");
  CHECK_THAT(failure_of(IsSurjectiveOnto(8), L("(4,2):(1,5)")),
             Contains("in (4,2):(1,5) coordinate (3,1) (index 7) maps to offset 8, outside [0,8)"));
  CHECK_THAT(failure_of(IsSurjectiveOnto(-1), L("4:1")), Contains("codomain size -1 is out of range"));
}

TEST_CASE("IsBijective: a permutation of [0,size)") {
  REQUIRE_THAT(L("(2,2):(2,1)"), IsBijective());
  REQUIRE_THAT(L("((2,2),(2,2)):((1,4),(2,8))"), IsBijective());
  using namespace tessera;
  REQUIRE_THAT(make_layout(make_shape(Int<4>{}, Int<8>{}), LayoutRight{}), IsBijective());
  CHECK(failure_of(IsBijective(), L("4:2")) ==
        "is a bijection onto [0,size); but in 4:2 coordinate 2 (index 2) maps to offset 4, outside [0,4)");
  CHECK_THAT(failure_of(IsBijective(), L("(2,2):(0,1)")),
             Contains("coordinate (0,0) (index 0) and coordinate (1,0) (index 1) both map to offset 0"));
  // A swizzled layout is checked as the whole function Sw o L.
  const auto sw = tessera::rt::evaluate(tessera::rt::parse("Sw<2,0,2> o (4,4):(1,4)")).swizzled();
  REQUIRE_THAT(sw, IsBijective());
}

TEST_CASE("IsCompact: filter(L) is dense storage, no holes or repeats") {
  REQUIRE_THAT(L("(4,2):(1,0)"), IsCompact());  // broadcast mode filtered out
  REQUIRE_THAT(L("(4,1,2):(2,7,1)"), IsCompact());
  CHECK(failure_of(IsCompact(), L("(4,2):(1,5)")) ==
        "is compact; but in filter((4,2):(1,5)) = (4,2):(1,5) offset 4 in [0,9) is never reached");
  CHECK_THAT(failure_of(IsCompact(), L("(2,2,3):(1,1,0)")),
             Contains("filter((2,2,3):(1,1,0)) = (2,2):(1,1) coordinate (1,0) (index 1) and coordinate (0,1) (index 2) "
                      "both map to offset 1"));
}

TEST_CASE("HasCosize: CuTe's cosize") {
  REQUIRE_THAT(L("(4,2):(1,5)"), HasCosize(9));
  REQUIRE_THAT(L("(4,2):(0,1)"), HasCosize(2));
  CHECK(failure_of(HasCosize(8), L("(4,2):(1,5)")) ==
        "has cosize 8; but (4,2):(1,5) has cosize 9 (largest offset 8 at coordinate (3,1) (index 7))");
}

TEST_CASE("CoversTileOnce: every tile cell is hit by exactly one (thread, value)") {
  // 4 threads, 2 values each, over a 4x2 tile: thread t holds column-major cells t and t+4.
  REQUIRE_THAT(L("(4,2):(1,4)"), CoversTileOnce(IntTuple::tuple({4, 2})));
  // 2x2 threads, each holding a 2-value row piece of a (4,2) tile with rows interleaved.
  REQUIRE_THAT(L("((2,2),2):((1,4),2)"), CoversTileOnce(IntTuple::tuple({4, 2})));
  using namespace tessera;
  REQUIRE_THAT(make_layout(make_shape(Int<4>{}, Int<2>{}), make_stride(Int<2>{}, Int<1>{})),
               CoversTileOnce(make_shape(Int<4>{}, Int<2>{})));

  const auto tile = CoversTileOnce(IntTuple::tuple({4, 2}));
  CHECK(failure_of(tile, L("(4,2):(1,2)")) ==
        "covers the tile (4,2) once; but in (4,2):(1,2) tile coordinate (2,0) (index 2) is hit by (T2,V0) and by "
        "(T0,V1) (2 cells never hit, 2 repeated hits)");
  CHECK_THAT(failure_of(tile, L("(4,2):(1,5)")),
             Contains("(T3,V1) maps to tile index 8, outside the tile (4,2) of 8 cells"));
  CHECK_THAT(failure_of(tile, L("(4,1):(1,0)")),
             Contains("tile coordinate (0,1) (index 4) is never hit (4 cells never hit, 0 repeated hits)"));
  CHECK_THAT(failure_of(tile, L("8:1")), Contains("8:1 is not a TV layout: expected rank 2"));
}

TEST_CASE("Layouts too large to walk are reported, not walked") {
  CHECK_THAT(failure_of(IsInjective(), L("(65536,65536):(1,65536)")),
             Contains("(65536,65536):(1,65536) cannot be checked: it has 4294967296 elements"));
}

TEST_CASE("Offsets that overflow 64 bits are reported, never wrapped") {
  // 2^62 + 2^62 = 2^63 does not fit in int64.
  const Layout big(IntTuple::tuple({2, 2}), IntTuple::tuple({std::int64_t{1} << 62, std::int64_t{1} << 62}));
  CHECK_THAT(failure_of(IsInjective(), big), Contains("cannot be checked: an offset overflows 64 bits"));
  CHECK_THAT(failure_of(EqualsFunction(big), L("4:1")), Contains("an offset overflows 64 bits"));
  const Layout neg(IntTuple::tuple({2, 2}), IntTuple::tuple({-(std::int64_t{1} << 62), -(std::int64_t{1} << 62) - 1}));
  CHECK_THAT(failure_of(IsBijective(), neg), Contains("an offset overflows 64 bits"));
}

TEST_CASE("Compile-time checks of static layouts read like the claim") {
  using namespace tessera;
  constexpr auto col = make_layout(make_shape(Int<4>{}, Int<8>{}));                // (4,8):(1,4)
  constexpr auto row = make_layout(make_shape(Int<4>{}, Int<8>{}), LayoutRight{});  // (4,8):(8,1)
  constexpr auto bcast = make_layout(make_shape(Int<4>{}, Int<2>{}), make_stride(Int<1>{}, Int<0>{}));
  static_assert(is_bijective(col));
  static_assert(is_bijective(row));
  static_assert(is_injective(row) && is_compact(row));
  static_assert(!is_injective(bcast) && is_surjective(bcast, Int<4>{}));
  static_assert(is_functionally_equal(col, make_layout(Int<32>{}, Int<1>{})));
  // The same layouts through the matchers (runtime, with messages).
  REQUIRE_THAT(row, IsBijective());
  REQUIRE_THAT(bcast, IsCompact());
  REQUIRE_THAT(col, EqualsExactly(L("(4,8):(1,4)")));
}

TEST_CASE("Claims work without Catch: verify() gives the matcher's sentence") {
  CHECK(IsInjectiveClaim{}.verify(L("(4,2):(1,4)")).empty());
  CHECK(CoversTileOnceClaim(IntTuple::tuple({4, 2})).verify(L("(4,2):(1,4)")).empty());
  const auto m = IsInjective();
  REQUIRE_FALSE(m.match(L("(4,2):(1,2)")));
  CHECK(IsInjectiveClaim{}.verify(L("(4,2):(1,2)")) == m.describe());
  const LayoutClaim& claim = HasCosizeClaim(8);
  CHECK(claim.verify(L("(4,2):(1,5)")) ==
        "has cosize 8; but (4,2):(1,5) has cosize 9 (largest offset 8 at coordinate (3,1) (index 7))");
}
