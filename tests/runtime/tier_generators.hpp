#pragma once
// Helpers shared by the tier agreement tests (tier_agreement_test.cpp, tier_ops_test.cpp):
// printing a static result through to_runtime, the static example layouts both files run
// every operation on, and the generator of dynamic rank-2 layouts (used inside rc::prop).
#include <rapidcheck.h>

#include <cstdint>
#include <string>

#include "tessera/rt/algebra.hpp"
#include "tessera/rt/to_runtime.hpp"
#include "tessera/layout.hpp"

namespace tessera::tier_testing {

namespace st = tessera;
namespace rt = tessera::rt;
using st::C;

// A static-tier value printed the way the runtime tier prints its own results.
template <class T>
std::string str(T const& t) {
  return rt::to_string(rt::to_runtime(t));
}

inline rt::Tiler tiler(const rt::Layout& l) { return rt::Tiler::of_layout(l); }

// The static layouts (all integers static) both tier tests run the operations on
// (a test case says `using namespace examples;`).
namespace examples {
inline constexpr auto a0 = st::make_layout(st::make_tuple(C<4>{}, C<8>{}), st::make_tuple(C<1>{}, C<4>{}));
inline constexpr auto a1 = st::make_layout(st::make_tuple(C<4>{}, st::make_tuple(C<2>{}, C<4>{})),
                                           st::make_tuple(C<2>{}, st::make_tuple(C<1>{}, C<8>{})));
inline constexpr auto a2 = st::make_layout(st::make_tuple(C<2>{}, C<3>{}), st::make_tuple(C<3>{}, C<1>{}));
inline constexpr auto a3 = st::make_layout(C<16>{}, C<2>{});
inline constexpr auto b0 = st::make_layout(C<4>{}, C<1>{});
inline constexpr auto b1 = st::make_layout(st::make_tuple(C<2>{}, C<2>{}), st::make_tuple(C<1>{}, C<4>{}));
inline constexpr auto b2 = st::make_layout(C<2>{}, C<2>{});
}  // namespace examples

struct Dyn2 {  // (s0,s1):(d0,d1) with values only known at run time
  std::int64_t s0, s1, d0, d1;
  auto st_layout() const { return st::make_layout(st::make_tuple(s0, s1), st::make_tuple(d0, d1)); }
  rt::Layout rt_layout() const { return rt::to_runtime(st_layout()); }
};

// Draws s0, s1 in [min_shape, max_shape], then d0, d1 in [0, max_stride], in that order.
inline Dyn2 gen_dyn2(std::int64_t max_shape = 8, std::int64_t max_stride = 24, std::int64_t min_shape = 1) {
  return Dyn2{*rc::gen::inRange<std::int64_t>(min_shape, max_shape + 1),
              *rc::gen::inRange<std::int64_t>(min_shape, max_shape + 1),
              *rc::gen::inRange<std::int64_t>(0, max_stride + 1), *rc::gen::inRange<std::int64_t>(0, max_stride + 1)};
}

// Injective (s0,s1):(d0,d1) whose strides divide each other: complement-admissible.
inline Dyn2 gen_dyn2_injective() {
  const std::int64_t s0 = *rc::gen::inRange<std::int64_t>(1, 9), s1 = *rc::gen::inRange<std::int64_t>(1, 9);
  const std::int64_t g0 = *rc::gen::inRange<std::int64_t>(1, 4), g1 = *rc::gen::inRange<std::int64_t>(1, 4);
  if (*rc::gen::arbitrary<bool>()) return Dyn2{s0, s1, g0, g0 * s0 * g1};
  return Dyn2{s0, s1, g0 * s1 * g1, g0};
}

}  // namespace tessera::tier_testing
