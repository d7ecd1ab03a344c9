// tessera::testing from the installed package: a Catch2 test with the kit's matchers and a
// rapidcheck property over its generators (the package finds Catch2 2 and rapidcheck).  The
// runner (main) is Catch2's: CMakeLists.txt links it.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <tessera/testing/kit.hpp>

using namespace tessera;
using namespace tessera::testing;

TEST_CASE("the kit's matchers and generators") {
  REQUIRE_THAT(rt::Layout(rt::IntTuple::tuple({8, 8}), rt::IntTuple::tuple({1, 9})), IsInjective() && !IsCompact());
  rc::prop("a compact layout is a bijection", [] { RC_ASSERT(IsBijective().match(*gen::compact_layout({}))); });
}
