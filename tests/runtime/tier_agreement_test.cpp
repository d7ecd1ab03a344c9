// The two tiers agree: static-tier results converted with to_runtime equal the runtime
// tier's results on the same inputs (exactly for static integers; as functions for
// dynamic integers, where CuTe's static/dynamic decisions may differ).
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "tessera/rt/algebra.hpp"
#include "tessera/rt/to_runtime.hpp"
#include "tier_generators.hpp"
#include "tessera/algebra/coalesce.hpp"
#include "tessera/algebra/complement.hpp"
#include "tessera/algebra/composition.hpp"
#include "tessera/algebra/divide.hpp"
#include "tessera/algebra/filter.hpp"
#include "tessera/algebra/inverse.hpp"
#include "tessera/algebra/product.hpp"
#include "tessera/check.hpp"
#include "tessera/layout.hpp"

namespace st = tessera;
namespace rt = tessera::rt;
using st::C;
using namespace tessera::tier_testing;

namespace {

// Run every unary/binary operation on one pair of static layouts in both tiers.
template <class A, class B>
void agree_static(A const& a, B const& b) {
  const rt::Layout ra = rt::to_runtime(a), rb = rt::to_runtime(b);
  INFO("A = " << rt::to_string(ra) << ", B = " << rt::to_string(rb));
  CHECK(str(st::coalesce(a)) == rt::to_string(rt::coalesce(ra)));
  CHECK(str(st::filter(a)) == rt::to_string(rt::filter(ra)));
  CHECK(str(st::right_inverse(a)) == rt::to_string(rt::right_inverse(ra)));
  CHECK(str(st::composition(a, b)) == rt::to_string(rt::composition(ra, rb)));
  CHECK(str(st::logical_divide(a, b)) == rt::to_string(rt::logical_divide(ra, tiler(rb))));
  CHECK(str(st::zipped_divide(a, b)) == rt::to_string(rt::zipped_divide(ra, tiler(rb))));
  CHECK(str(st::logical_product(a, b)) == rt::to_string(rt::logical_product(ra, tiler(rb))));
  // (The static tier does not compile blocked/raked products of two rank-1 layouts yet.)
  if constexpr (st::rank_v<decltype(a.shape())> + st::rank_v<decltype(b.shape())> > 2) {
    CHECK(str(st::blocked_product(a, b)) == rt::to_string(rt::blocked_product(ra, rb)));
    CHECK(str(st::raked_product(a, b)) == rt::to_string(rt::raked_product(ra, rb)));
  }
}

template <class A>
void agree_injective(A const& a) {
  const rt::Layout ra = rt::to_runtime(a);
  INFO("A = " << rt::to_string(ra));
  CHECK(str(st::complement(a)) == rt::to_string(rt::complement(ra)));
  CHECK(str(st::complement(a, C<256>{})) == rt::to_string(rt::complement(ra, 256)));
  // left_inverse is compared as a function on the image: the static tier returns a
  // different (coalesced / stride-0) but equally valid inverse for some inputs.
  const rt::Layout sl = rt::to_runtime(st::left_inverse(a)), rl = rt::left_inverse(ra);
  for (std::int64_t i = 0; i < ra.size(); ++i) CHECK(sl(ra(i)) == rl(ra(i)));
}

}  // namespace

TEST_CASE("tier agreement on static layouts (exact)", "[runtime][tiers]") {
  using namespace examples;
  agree_static(a0, b0);
  agree_static(a0, b1);
  agree_static(a1, b0);
  agree_static(a1, b2);
  agree_static(a2, b2);
  agree_static(a3, b0);
  agree_static(a3, b1);
  agree_injective(a0);
  agree_injective(a1);
  agree_injective(a2);
  agree_injective(a3);
  agree_injective(b1);
}

TEST_CASE("tier agreement on dynamic layouts (as functions)", "[runtime][tiers][property]") {
  rc::prop("evaluation, size, cosize, coalesce and composition agree", [] {
    const Dyn2 d = gen_dyn2(8, 32);
    const std::int64_t n = *rc::gen::inRange<std::int64_t>(1, 17), r = *rc::gen::inRange<std::int64_t>(1, 9);
    // (r >= 1: the static tier divides by a dynamic stride-0 right operand)
    const auto a = d.st_layout();
    const auto b = st::make_layout(n, r);
    const rt::Layout ra = rt::to_runtime(a), rb = rt::to_runtime(b);
    RC_ASSERT(rt::to_string(ra) == "(" + std::to_string(d.s0) + "," + std::to_string(d.s1) + "):(" +
                                       std::to_string(d.d0) + "," + std::to_string(d.d1) + ")");
    RC_ASSERT(static_cast<std::int64_t>(st::size(a)) == ra.size());
    RC_ASSERT(static_cast<std::int64_t>(st::cosize(a)) == ra.cosize());
    for (std::int64_t i = 0; i < ra.size(); ++i) RC_ASSERT(static_cast<std::int64_t>(a(i)) == ra(i));
    const auto ca = st::coalesce(a);
    const rt::Layout rca = rt::coalesce(ra);
    for (std::int64_t i = 0; i < ra.size(); ++i) RC_ASSERT(static_cast<std::int64_t>(ca(i)) == rca(i));
    rt::Layout rc;
    try {
      rc = rt::composition(ra, rb);
    } catch (const rt::Error&) {
      RC_DISCARD("inadmissible in the runtime tier");
    }
    const auto sc = st::composition(a, b);
    // With dynamic integers the static tier does not coalesce A first (CuTe merges only
    // static modes), and for strides that do not divide, its mode-by-mode result can be
    // wrong, e.g. A = (2,2):(5,10), B = 2:3 gives 2:(5,20) (A(B(1)) = A(3) = 15). Its own
    // exactness check (off under NDEBUG) flags those; compare where it holds.
    RC_CLASSIFY(!st::detail::composition_is_exact(a, b, sc), "static tier inexact (dynamic ints)");
    if (!st::detail::composition_is_exact(a, b, sc)) return;
    for (std::int64_t i = 0; i < rb.size(); ++i) {
      const std::int64_t bi = rb(i);
      if (bi < ra.size()) RC_ASSERT(static_cast<std::int64_t>(sc(i)) == rc(i));
    }
  });
}

// cosize with negative strides is CuTe's size(coshape): 1 + sum (s-1)*|d|, in both tiers,
// which is the extent max - min + 1 of the offsets the layout reaches (`tessera info`'s image).
TEST_CASE("cosize with negative strides: CuTe's coshape in both tiers", "[runtime][tiers][property]") {
  CHECK(rt::Layout(rt::IntTuple::tuple({4, 2}), rt::IntTuple::tuple({-1, 4})).cosize() == 8);
  static_assert(st::cosize(st::make_layout(st::make_tuple(C<4>{}, C<2>{}), st::make_tuple(C<-1>{}, C<4>{}))) == 8);
  rc::prop("cosize = 1 + sum (s-1)|d| = max - min + 1, static == runtime", [] {
    const std::int64_t s0 = *rc::gen::inRange<std::int64_t>(1, 9), s1 = *rc::gen::inRange<std::int64_t>(1, 9);
    const std::int64_t d0 = *rc::gen::inRange<std::int64_t>(-24, 25), d1 = *rc::gen::inRange<std::int64_t>(-24, 25);
    const auto a = st::make_layout(st::make_tuple(s0, s1), st::make_tuple(d0, d1));
    const rt::Layout ra = rt::to_runtime(a);
    std::int64_t lo = ra(0), hi = ra(0);
    for (std::int64_t i = 0; i < ra.size(); ++i) {
      lo = std::min(lo, ra(i));
      hi = std::max(hi, ra(i));
    }
    RC_ASSERT(ra.cosize() == 1 + (s0 - 1) * (d0 < 0 ? -d0 : d0) + (s1 - 1) * (d1 < 0 ? -d1 : d1));
    RC_ASSERT(ra.cosize() == hi - lo + 1);
    RC_ASSERT(static_cast<std::int64_t>(st::cosize(a)) == ra.cosize());
  });
}

// The admissibility rule (docs/notation.md), one named case per place the tiers once departed
// from it or from each other (tests/runtime/exhaustive_test.cpp checks every small pair).
namespace {
std::string rt_eval(const rt::Layout& a, const rt::Layout& b) { return rt::to_string(rt::composition(a, b)); }
std::string refusal(const std::function<void()>& f) {
  try {
    f();
  } catch (const rt::Error& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("admissibility: composition((5,2):(0,1), 4:3) is CuTe's (2,2):(0,1) in both tiers", "[runtime][tiers][admissibility]") {
  // The stride 3 neither divides nor is a multiple of the mode 5; CuTe's ceil_div walk takes it
  // (rule 2 holds: 3 < 5), and the result is exact (A's mode 5:0 hides the inexact step).
  const auto a = st::make_layout(st::make_tuple(C<5>{}, C<2>{}), st::make_tuple(C<0>{}, C<1>{}));
  const auto b = st::make_layout(C<4>{}, C<3>{});
  CHECK(str(st::composition(a, b)) == "(2,2):(0,1)");
  CHECK(rt_eval(rt::to_runtime(a), rt::to_runtime(b)) == "(2,2):(0,1)");
}

TEST_CASE("admissibility: composition((2,1):(1,1), (2,2):(1,1)) is refused by both tiers (A read past its size)", "[runtime][tiers][admissibility]") {
  // B(3) = 2 lies past size(A) = 2, where CuTe reads A with its last mode continued: A(2) = 1,
  // while CuTe's result (2,2):(1,1) gives 2 there. The static tier once checked A's domain only.
  const auto a = st::make_layout(st::make_tuple(C<2>{}, C<1>{}), st::make_tuple(C<1>{}, C<1>{}));
  const auto b = st::make_layout(st::make_tuple(C<2>{}, C<2>{}), st::make_tuple(C<1>{}, C<1>{}));
  static_assert(!st::is_admissible_composition(a, b));
  CHECK(refusal([&] { rt_eval(rt::to_runtime(a), rt::to_runtime(b)); }).find("overlap in the mixed radix") != std::string::npos);
}

TEST_CASE("admissibility: negative strides of B, CuTe's walk and A read as CuTe reads it, in both tiers", "[runtime][tiers][admissibility]") {
  const auto a = st::make_layout(st::make_tuple(C<2>{}, C<2>{}), st::make_tuple(C<1>{}, C<6>{}));
  // composition((2,2):(1,6), 4:-1): B(i) = -i, A(-1) = -1, A(-2) = -6, A(-3) = -7 (C++'s
  // truncating division, as CuTe's crd2idx): CuTe's (2,2):(-1,-6) is that function.
  const auto b = st::make_layout(C<4>{}, C<-1>{});
  CHECK(str(st::composition(a, b)) == "(2,2):(-1,-6)");
  CHECK(rt_eval(rt::to_runtime(a), rt::to_runtime(b)) == "(2,2):(-1,-6)");
  // composition((2,2):(1,6), (2,2):(-1,2)): CuTe's (2,2):(-1,6) gives 5 at index 3, A(B(3)) = A(1) = 1.
  const auto c = st::make_layout(st::make_tuple(C<2>{}, C<2>{}), st::make_tuple(C<-1>{}, C<2>{}));
  static_assert(!st::is_admissible_composition(a, c));
  CHECK(refusal([&] { rt_eval(rt::to_runtime(a), rt::to_runtime(c)); }).find("gives 5 at index 3") != std::string::npos);
}

TEST_CASE("admissibility: logical_divide((1,3,1):(0,1,4), 4:2) is CuTe's ((2,2),2):((2,4),1) in both tiers", "[runtime][tiers][admissibility]") {
  // The tile 4:2 alone is no admissible composition with A (A(4) = 5 reading A's last mode 1:4
  // on), but the divide's rule admits reading A's last mode of size > 1 (3:1) on instead, which
  // the whole result follows: the runtime tier once refused it, checking each part on its own.
  const auto a = st::make_layout(st::make_tuple(C<1>{}, C<3>{}, C<1>{}), st::make_tuple(C<0>{}, C<1>{}, C<4>{}));
  const auto b = st::make_layout(C<4>{}, C<2>{});
  CHECK(str(st::logical_divide(a, b)) == "((2,2),2):((2,4),1)");
  CHECK(rt::to_string(rt::logical_divide(rt::to_runtime(a), tiler(rt::to_runtime(b)))) == "((2,2),2):((2,4),1)");
  CHECK(!refusal([&] { rt_eval(rt::to_runtime(a), rt::to_runtime(b)); }).empty());
}

TEST_CASE("admissibility: raked_product(2:2, 4:1) names the rule it breaks", "[runtime][admissibility]") {
  // logical_product(2:2, 4:1) = (2:2, (2,2):(1,4)): the copies have two modes, the block one;
  // raked_product zips the copies with the block mode by mode (CuTe does not compile it).
  const std::string m = refusal([] { rt::raked_product(rt::Layout(2, 2), rt::Layout(4, 1)); });
  CHECK(m.find("the copies complement(A, size(A)*cosize(B)) o B = (2,2):(1,4) have 2 modes, and the block 2:2 only 1") !=
        std::string::npos);
  CHECK(rt::to_string(rt::blocked_product(rt::Layout(2, 2), rt::Layout(4, 1))) == "((2,(2,2))):((2,(1,4)))");
}

TEST_CASE("admissibility: complement((1,4):(-16,2), 16) drops the size-1 mode's negative stride in both tiers", "[runtime][tiers][admissibility]") {
  // CuTe's complement walks filter(L): the mode 1:-16 is filtered away, so the stride's sign
  // does not matter; the runtime tier once refused every negative stride, the static tier
  // took one of a mode of size > 1 into its walk (both refuse that now: a static_assert).
  const auto l = st::make_layout(st::make_tuple(C<1>{}, C<4>{}), st::make_tuple(C<-16>{}, C<2>{}));
  CHECK(str(st::complement(l, C<16>{})) == "(2,2):(1,8)");
  CHECK(rt::to_string(rt::complement(rt::to_runtime(l), 16)) == "(2,2):(1,8)");
  CHECK(refusal([] { rt::complement(rt::Layout(rt::IntTuple::tuple({2, 4}), rt::IntTuple::tuple({-16, 2})), 16); })
            .find("negative strides are not supported") != std::string::npos);
}
