// The static tier's composed layouts Sw o off o L: results checked at compile time against
// CuTe's answers (each also a line of tests/data/conformance/cute_swizzled.jsonl, checked by
// both tiers there), then printed once at run time.
#include <catch2/catch.hpp>

#include <tessera/tessera.hpp>

using namespace tessera;

namespace {
template <class A, class B> constexpr bool same(A const&, B const&) { return std::is_same_v<A, B>; }

constexpr auto L = make_layout(make_shape(_8{}, _64{}), make_stride(_64{}, _1{}));
constexpr auto SL = composition(Swizzle<3, 3, 3>{}, L);
template <class T> using bare = std::remove_cvref_t<T>;
}  // namespace

// composition(Sw, L) keeps the layout under the swizzle, offset 0.
static_assert(same(SL, make_composed_layout(Swizzle<3, 3, 3>{}, _0{}, L)));
// An identity swizzle with offset 0 is the layout itself (CuTe's Swizzle<0,M,S> rule).
static_assert(same(composition(Swizzle<0, 4, 3>{}, L), L));
// right_inverse(Sw o 0 o L) = right_inverse(L) o Sw = Sw<3,0,-6> o 0 o (64,8):(8,1) (CuTe).
static_assert(same(right_inverse(SL),
                   composition(Swizzle<3, 0, -6>{}, make_layout(make_shape(_64{}, _8{}), make_stride(_8{}, _1{})))));
// With an offset the swizzle stays on the right: (64,8):(8,1) o -8 o Sw<3,3,3>.
static_assert(std::is_same_v<bare<decltype(right_inverse(composition(Swizzle<3, 3, 3>{}, _8{}, L)).offset())>, C<-8>>);
// upcast<16>: Sw<2,0,3> o 0 o (8,4):(4,1); downcast<2>: Sw<3,4,3> o 0 o (8,128):(128,1).
static_assert(same(upcast<16>(SL), make_composed_layout(Swizzle<2, 0, 3>{}, C<0>{}, make_layout(make_shape(_8{}, _4{}), make_stride(_4{}, _1{})))));
static_assert(std::is_same_v<bare<decltype(downcast<2>(SL).outer())>, Swizzle<3, 4, 3>>);
// upcast by 512 loses every bit but stays composed: Sw<0,0,3> o 0 o (1,1):(1,1).
static_assert(std::is_same_v<bare<decltype(upcast<512>(SL).outer())>, Swizzle<0, 0, 3>>);
// composition(L, Sw<3,3,3> o 0 o L) = Sw<3,0,3> o 0 o (8,(8,8)):(8,(64,1)).
static_assert(std::is_same_v<bare<decltype(composition(L, SL).outer())>, Swizzle<3, 0, 3>>);
// Two swizzles of one shift merge: Sw<2,3,3> o Sw<1,2,3> = Sw<3,2,3>.
static_assert(same(composition(Swizzle<2, 3, 3>{}, Swizzle<1, 2, 3>{}), Swizzle<3, 2, 3>{}));
// The divide, product and tile_to_shape families act on the layout under the swizzle.
static_assert(same(logical_divide(SL, make_tile(_2{}, _8{})).inner(), logical_divide(L, make_tile(_2{}, _8{}))));
static_assert(same(blocked_product(SL, make_layout(make_shape(_2{}, _2{}))).inner(), blocked_product(L, make_layout(make_shape(_2{}, _2{})))));
static_assert(same(tile_to_shape(SL, make_shape(_128{}, _64{}, _3{})).inner(), tile_to_shape(L, make_shape(_128{}, _64{}, _3{}))));
static_assert(size(SL) == 512 && rank(SL) == 2 && depth(SL) == 1);
// CuTe's cosize of Sw o off o L is cosize(L): the offset does not count.
static_assert(cosize(composition(Swizzle<1, 2, 1>{}, C<96>{}, make_layout(make_shape(_8{}, _8{}, _2{}), make_stride(_16{}, _2{}, _1{})))) == 128);
static_assert(cosize(composition(Swizzle<2, 1, 3>{}, _0{}, make_layout(_2{}, _1{}))) == 2);
// slice: an all-_ coordinate reshapes; a fixed row of Sw<3,3,3> o (8,64):(64,1) touches
// only Z bits, so it decays to the plain layout ((16,2,2)):((1,-16,32)) (CuTe); a fixed
// column touches Y and Z bits of different rows only: (8):(72).
static_assert(same(slice(make_coord(_, _), SL), SL));
static_assert(same(slice(make_coord(_2{}, _), SL),
                   make_layout(make_shape(make_shape(_16{}, _2{}, _2{})), make_stride(make_stride(_1{}, C<-16>{}, _32{})))));
static_assert(same(slice(make_coord(_, _3{}), SL), make_layout(make_shape(_8{}), make_stride(C<72>{}))));
// Kept modes that touch both Y and Z bits stay swizzled, the fixed part's Y/Z bits joining
// the offset: slice(Sw<1,2,-1> o 96 o ((2,8),8,4):((256,32),4,1), (2,_,0)) = Sw<1,2,-1> o 96 o (8):(4).
static_assert(same(slice(make_coord(_2{}, _, _0{}), composition(Swizzle<1, 2, -1>{}, C<96>{},
                                                                  make_layout(make_shape(make_shape(_2{}, _8{}), _8{}, _4{}),
                                                                              make_stride(make_stride(C<256>{}, _32{}), _4{}, _1{})))),
                   composition(Swizzle<1, 2, -1>{}, C<96>{}, make_layout(make_shape(_8{}), make_stride(_4{})))));
// Common vectors stop at the swizzle's 2^M unchanged offsets (either argument swizzled).
constexpr auto L84 = make_layout(make_shape(_8{}, _4{}), make_stride(_4{}, _1{}));
static_assert(max_common_vector(composition(Swizzle<3, 3, 4>{}, L84), L84) == 8);
static_assert(max_common_vector(L84, composition(Swizzle<3, 3, 4>{}, L84)) == 8);
static_assert(same(max_common_layout(composition(Swizzle<3, 3, 4>{}, L84), L84),
                   make_layout(make_shape(_4{}, _2{}), make_stride(_8{}, _1{}))));
static_assert(max_common_vector(SL, SL) == 512);  // the same swizzle on both sides cancels
// The inverse of L o off o Sw is Sw o -off o inverse(L).
static_assert(same(right_inverse(make_composed_layout(L84, C<16>{}, Swizzle<3, 2, 3>{})),
                   composition(Swizzle<3, 2, 3>{}, C<-16>{}, make_layout(make_shape(_4{}, _8{}), make_stride(_8{}, _1{})))));

TEST_CASE("composed layouts print as CuTe prints them", "[core][swizzle]") {
  CHECK(to_string(SL) == "Sw<3,3,3> o 0 o (8,64):(64,1)");
  CHECK(to_string(right_inverse(SL)) == "Sw<3,0,-6> o 0 o (64,8):(8,1)");
  CHECK(to_string(right_inverse(composition(Swizzle<3, 3, 3>{}, _8{}, L))) == "(64,8):(8,1) o -8 o Sw<3,3,3>");
  CHECK(to_string(upcast<512>(SL)) == "Sw<0,0,3> o 0 o (1,1):(1,1)");
  CHECK(to_string(composition(L, SL)) == "Sw<3,0,3> o 0 o (8,(8,8)):(8,(64,1))");
  CHECK(to_string(logical_divide(SL, make_tile(_2{}, _8{}))) == "Sw<3,3,3> o 0 o ((2,4),(8,8)):((64,128),(1,8))");
  // Pointwise: (Sw o 0 o L)(i) == Sw(L(i)).
  for (int64_t i = 0; i < 512; ++i) CHECK(to_i64(SL(i)) == to_i64(Swizzle<3, 3, 3>{}(to_i64(L(i)))));
}
