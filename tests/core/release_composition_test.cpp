// composition() on inadmissible dynamic operands in a release build (NDEBUG: no debug
// assertion), under UBSan where the compiler has it: no trap and no undefined behaviour,
// the result is a well-formed layout (CuTe's mode-by-mode R), and
// is_admissible_composition tells admissible pairs from the others. Empty modes (size 0)
// of either operand used to divide by zero here.
#ifndef NDEBUG
#error "release_composition.cpp must be compiled with NDEBUG (tests/core/CMakeLists.txt sets it)"
#endif
#include <catch2/catch.hpp>
#include <rapidcheck/catch.h>
#include "gen.hpp"

using namespace tessera;
using namespace tessera_test;

namespace {
// Leaves: shapes 0..6 (0 now and then), strides with 0, gaps and negatives.
template <class F> void edgy_layout(F&& f) {
  with_structure(*rc::gen::inRange(0, num_structures),
                 [] { return *rc::gen::inRange(0, 8) == 0 ? int64_t(0) : shape_value(); },
                 [](int) { return *rc::gen::inRange(0, 6) == 0 ? -stride_value() : stride_value(); }, f);
}
}  // namespace

TEST_CASE("release build: composition of inadmissible dynamic operands is well-defined", "[core][composition][release]") {
  rc::prop("no trap; R == CuTe's mode-by-mode layout with non-negative shapes; admissible pairs give A o B", [] {
    edgy_layout([](auto A) {
      edgy_layout([&](auto B) {
        auto R = composition(A, B);
        RC_ASSERT(to_string(R) == to_string(detail::composition_unchecked(A, B)));
        transform_leaf(R.shape(), [](auto const& s) { RC_ASSERT(int64_t(s) >= 0); return 0; });
        bool ok = is_admissible_composition(A, B);
        RC_TAG(ok ? "admissible" : "inadmissible");
        if (ok) {
          RC_ASSERT(int64_t(size(R)) == int64_t(size(B)));
          for (int64_t i = 0; i < size(B); ++i) {
            int64_t bi = B(i);
            if (0 <= bi && bi < int64_t(size(A))) RC_ASSERT(int64_t(R(i)) == int64_t(A(bi)));
          }
        }
      });
    });
  });
}

TEST_CASE("release build: empty modes and known inadmissible pairs", "[core][composition][release]") {
  auto a = make_layout(make_shape(2, 2), make_stride(1, 6));
  auto b = make_layout(make_shape(2, 2), make_stride(1, 1));
  // mode by mode (dynamic size-1 modes stay): R(3) == 2 but A(B(3)) == A(2) == 6
  CHECK(to_string(composition(a, b)) == "((2,1),(2,1)):((1,6),(1,6))");
  CHECK(!is_admissible_composition(a, b));
  auto empty_a = make_layout(make_shape(0, 2), make_stride(1, 5));
  CHECK(size(composition(empty_a, make_layout(4, 1))) == 0);
  CHECK(!is_admissible_composition(empty_a, make_layout(4, 1)));
  auto c = make_layout(make_shape(2, 3), make_stride(1, 10));
  CHECK(size(composition(c, make_layout(make_shape(3, 0), make_stride(1, 2)))) == 0);
  CHECK(is_admissible_composition(c, make_layout(make_shape(3, 0), make_stride(1, 2))));
  CHECK(size(composition(c, make_layout(3, 1))) == 2);  // 3 does not divide into A's mode 2
  CHECK(!is_admissible_composition(c, make_layout(3, 1)));
}
