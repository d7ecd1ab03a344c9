// Identities of the static tier proved by static_assert alone: this file
// compiling is the test (the TEST_CASE only makes it a runnable binary).
#include <catch2/catch.hpp>
#include <tessera/tessera.hpp>

using namespace tessera;

namespace {
template <class A, class B> constexpr bool same(A const&, B const&) { return std::is_same_v<A, B>; }

// static arithmetic
static_assert(same(_2{} * _4{}, _8{}));
static_assert(same(_7{} / _2{}, _3{}));
static_assert(same(tessera::max(_3{}, _5{}), _5{}));
static_assert(same(ceil_div(_7{}, _2{}), _4{}));
static_assert(same(shape_div(make_shape(_4{}, _6{}), _8{}), make_shape(_1{}, _3{})));

// layouts
constexpr auto L = make_layout(make_shape(make_shape(_4{}, _2{}), make_shape(_2{}, make_shape(_2{}, _2{}))));
static_assert(decltype(size(L))::value == 64 && decltype(cosize(L))::value == 64);
static_assert(decltype(depth(L))::value == 3 && decltype(rank(L))::value == 2);
static_assert(decltype(L(_13{}))::value == 13);
static_assert(is_bijective(L));
static_assert(decltype(coalesce(L) == make_layout(_64{}, _1{}))::value);  // compact column-major coalesces to 64:1

constexpr auto RowMajor = make_layout(make_shape(_4{}, _8{}), LayoutRight{});
static_assert(decltype(RowMajor == make_layout(make_shape(_4{}, _8{}), make_stride(_8{}, _1{})))::value);

// coalesce: size-1 modes vanish, all-size-1 gives 1:0, mergeable neighbours merge
static_assert(decltype(coalesce(make_layout(make_shape(_2{}, make_shape(_1{}, _6{})), make_stride(_1{}, make_stride(_6{}, _2{})))) ==
                       make_layout(_12{}, _1{}))::value);
static_assert(decltype(coalesce(make_layout(make_shape(_1{}, _1{}), make_stride(_4{}, _8{}))) == make_layout(_1{}, _0{}))::value);

// composition: A o (layout of A's shape) == A as a function; identity layouts are neutral
constexpr auto A = make_layout(make_shape(_4{}, _6{}), make_stride(_6{}, _1{}));
static_assert(is_functionally_equal(composition(A, make_layout(_24{})), A));
static_assert(is_functionally_equal(composition(make_layout(_24{}), A), A));
static_assert(decltype(composition(make_layout(_20{}, _2{}), make_layout(make_shape(_4{}, _5{}), make_stride(_1{}, _4{}))) ==
                       make_layout(make_shape(_4{}, _5{}), make_stride(_2{}, _8{})))::value);

// complement: (A, complement(A, M)) is a bijection of [0, M)
constexpr auto T = make_layout(make_shape(_2{}, _2{}), make_stride(_1{}, _6{}));
static_assert(decltype(complement(T, _24{}) == make_layout(make_shape(_3{}, _2{}), make_stride(_2{}, _12{})))::value);
static_assert(is_bijective(make_layout(T, complement(T, _24{}))));

// inverses
static_assert(is_functionally_equal(composition(A, right_inverse(A)), make_layout(size(A))));
static_assert(is_functionally_equal(composition(left_inverse(A), A), make_layout(size(A))));

// divide / product laws (by definition, and as functions)
constexpr auto B = make_layout(_4{}, _2{});
static_assert(decltype(logical_divide(make_layout(_24{}), B) == composition(make_layout(_24{}), make_layout(B, complement(B, _24{}))))::value);
constexpr auto T2 = make_layout(make_shape(_2{}, _2{}), make_stride(_1{}, _4{}));
static_assert(decltype(logical_product(T2, B) == make_layout(T2, composition(complement(T2, size(T2) * cosize(B)), B)))::value);
static_assert(decltype(flatten(zipped_divide(A, make_shape(_2{}, _3{}))) == flatten(tiled_divide(A, make_shape(_2{}, _3{}))))::value);
static_assert(decltype(flat_divide(A, make_shape(_2{}, _3{})) == flatten(zipped_divide(A, make_shape(_2{}, _3{}))))::value);
static_assert(is_bijective(blocked_product(make_layout(make_shape(_2{}, _2{})), make_layout(make_shape(_3{}, _4{})))));
static_assert(is_bijective(raked_product(make_layout(make_shape(_2{}, _2{})), make_layout(make_shape(_3{}, _4{})))));
static_assert(decltype(equal(shape(tile_to_shape(make_layout(make_shape(_2{}, _2{})), make_shape(_8{}, _6{}))),
                             make_shape(make_shape(_2{}, _4{}), make_shape(_2{}, _3{}))))::value);

// max_common_vector of two column-major layouts of the same shape is their size
static_assert(decltype(max_common_vector(make_layout(make_shape(_4{}, _8{})), make_layout(make_shape(_4{}, _8{}))))::value == 32);
static_assert(decltype(max_common_vector(make_layout(make_shape(_4{}, _8{})), make_layout(make_shape(_4{}, _8{}), LayoutRight{})))::value == 1);

// upcast / downcast round trip on a layout with a stride-1 mode
constexpr auto V = make_layout(make_shape(_8{}, _4{}), make_stride(_1{}, _8{}));
static_assert(decltype(downcast<2>(upcast<2>(V)) == V)::value);

// swizzle: involution on its domain
constexpr bool swizzle_involution() {
  Swizzle<3, 3, 3> s;
  for (int64_t i = 0; i < 512; ++i) if (s(s(i)) != i) return false;
  return true;
}
static_assert(swizzle_involution());
static_assert(is_static_v<decltype(composition(Swizzle<3, 3, 3>{}, make_layout(make_shape(_8{}, _64{}), LayoutRight{})))>);
// ---- more identities: every algebra operation gives a static result ---------------
template <class T> constexpr bool all_static(T const&) { return is_static_v<T>; }
template <class A, class B> constexpr bool same_layout(A const& a, B const& b) { return decltype(a == b)::value; }

// int tuples: static structure and values
static_assert(same(idx2crd(_13{}, make_shape(_4{}, _8{})), make_coord(_1{}, _3{})));
static_assert(same(crd2idx(make_coord(_1{}, _3{}), make_shape(_4{}, _8{}), make_stride(_8{}, _1{})), _11{}));
static_assert(same(crd2crd(make_coord(_1{}, _2{}), make_shape(_2{}, _3{}), _6{}), _5{}));
static_assert(same(prefix_product(make_shape(_2{}, _3{}, _4{})), make_shape(_1{}, _2{}, _6{})));
static_assert(decltype(congruent(make_shape(_2{}, make_shape(_3{}, _4{})), make_shape(_5{}, make_shape(_6{}, _7{}))))::value);
static_assert(decltype(compatible(_12{}, make_shape(_3{}, _4{})))::value);

// slicing: sub-layout and offset are static
static_assert(same_layout(get<0>(slice_and_offset(make_coord(_, _2{}), A)), make_layout(make_shape(_4{}), make_stride(_6{}))));
static_assert(same(get<1>(slice_and_offset(make_coord(_, _2{}), A)), _2{}));
static_assert(same_layout(make_ordered_layout(make_shape(_2{}, _3{}, _4{}), make_step(_2{}, _0{}, _1{})),
                          make_layout(make_shape(_2{}, _3{}, _4{}), make_stride(_12{}, _1{}, _3{}))));

// coalesce by mode, filter
constexpr auto H = make_layout(make_shape(make_shape(_2{}, _2{}), make_shape(_1{}, _3{})), make_stride(make_stride(_1{}, _2{}), make_stride(_7{}, _0{})));
static_assert(same_layout(coalesce(H, make_shape(_1{}, _1{})), make_layout(make_shape(_4{}, _3{}), make_stride(_1{}, _0{}))));
static_assert(same_layout(filter(H), make_layout(_4{}, _1{})));
static_assert(all_static(filter(H)) && all_static(coalesce(H)));

// composition with a tiler of layouts and with a plain shape: mode by mode
static_assert(same_layout(composition(A, make_tile(make_layout(_2{}, _2{}), make_layout(_3{}, _2{}))),
                          make_layout(make_shape(_2{}, _3{}), make_stride(_12{}, _2{}))));
static_assert(same_layout(composition(A, make_shape(_2{}, _3{})), make_layout(make_shape(_2{}, _3{}), make_stride(_6{}, _1{}))));
static_assert(is_admissible_composition(A, B) && !is_admissible_composition(
    make_layout(make_shape(_2{}, _2{}), make_stride(_1{}, _6{})), make_layout(make_shape(_2{}, _2{}), make_stride(_1{}, _1{}))));

// complement without codomain: the gaps of T below its cosize
static_assert(same_layout(complement(T), make_layout(_3{}, _2{})));
static_assert(all_static(complement(T)) && all_static(right_inverse(A)) && all_static(left_inverse(A)));
static_assert(same_layout(right_inverse(A), make_layout(make_shape(_6{}, _4{}), make_stride(_4{}, _1{}))));

// divides and products: static, with the tile in mode 0
static_assert(all_static(zipped_divide(A, make_shape(_2{}, _3{}))) && all_static(tiled_divide(A, B)) && all_static(flat_divide(A, B)));
static_assert(same(shape(zipped_divide(A, make_shape(_2{}, _3{}))), make_shape(make_shape(_2{}, _3{}), make_shape(_2{}, _2{}))));
static_assert(same(shape(zipped_product(T2, make_shape(_3{}, _2{}))), make_shape(make_shape(_2{}, _2{}), make_shape(_3{}, _2{}))));
static_assert(same(shape(tiled_product(T2, make_shape(_3{}, _2{}))), make_shape(make_shape(_2{}, _2{}), _3{}, _2{})));
static_assert(same(shape(flat_product(T2, make_shape(_3{}, _2{}))), make_shape(_2{}, _2{}, _3{}, _2{})));
static_assert(all_static(blocked_product(T2, B)) && all_static(raked_product(T2, B)) && all_static(logical_product(T2, B)));

// tile_to_shape is the blocked product (CuTe 4.x); tile_to_shape_coalesced coalesces each target
// mode (CuTe 3.7): ((2,2),(3,3)):((3,6),(1,12)) -> (4,(3,3)):(3,(1,12))
static_assert(same_layout(tile_to_shape(make_layout(make_shape(_2{}, _3{}), make_stride(_3{}, _1{})), make_shape(_4{}, _9{})),
                          make_layout(make_shape(make_shape(_2{}, _2{}), make_shape(_3{}, _3{})),
                                      make_stride(make_stride(_3{}, _6{}), make_stride(_1{}, _12{})))));
static_assert(same_layout(tile_to_shape_coalesced(make_layout(make_shape(_2{}, _3{}), make_stride(_3{}, _1{})), make_shape(_4{}, _9{})),
                          make_layout(make_shape(_4{}, make_shape(_3{}, _3{})), make_stride(_3{}, make_stride(_1{}, _12{})))));

// max_common_layout, upcast/downcast
static_assert(same_layout(max_common_layout(make_layout(make_shape(_4{}, _8{})), make_layout(make_shape(_4{}, _8{}))), make_layout(_32{}, _1{})));
static_assert(same_layout(upcast<2>(V), make_layout(make_shape(_4{}, _4{}), make_stride(_1{}, _4{}))));
static_assert(same_layout(downcast<2>(V), make_layout(make_shape(_16{}, _4{}), make_stride(_1{}, _16{}))));

// swizzle and composed layouts: static offsets stay static
static_assert(same(Swizzle<3, 3, 3>{}(C<0b111000000>{}), C<0b111111000>{}));
constexpr auto SW = composition(Swizzle<3, 3, 3>{}, make_layout(make_shape(_8{}, _64{}), LayoutRight{}));
static_assert(same(SW(_1{}, _0{}), C<64 ^ 8>{}));
static_assert(decltype(size(SW))::value == 512 && decltype(cosize(SW))::value == 512);

// checks on static layouts, and an identity tensor read at a static coordinate
static_assert(is_injective(T) && !is_surjective(T, _8{}) && !is_compact(T) && is_compact(A));
static_assert(!is_injective(make_layout(make_shape(_2{}, _2{}), make_stride(_1{}, _1{}))));
// compact: broadcast (stride 0) allowed, aliasing not ((2,2):(1,1) covers [0,3) yet is not compact)
static_assert(is_compact(make_layout(make_shape(_4{}, _8{}), make_stride(_0{}, _1{}))) &&
              !is_compact(make_layout(make_shape(_2{}, _2{}), make_stride(_1{}, _1{}))));
static_assert(same(make_identity_tensor(make_shape(_4{}, _8{}))(_13{}), make_coord(_1{}, _3{})));
// logical_divide past size(A) (docs/notation.md): admissible when CuTe's result is A continued
// along its last mode -- (4,3):(1,10) / 8:1 -- or, that mode having size 1, along its last
// mode of size > 1 -- (6,1):(4,15) / 2:4 is (2,4):(16,4), as 6:4 / 2:4 is. The refused
// counterpart is tests/core/misuse/divide_leaves_domain_inconsistently.cpp.
static_assert(same(logical_divide(make_layout(make_shape(_4{}, _3{}), make_stride(_1{}, C<10>{})), make_layout(_8{}, _1{})),
                   make_layout(make_shape(make_shape(_4{}, _2{}), _2{}), make_stride(make_stride(_1{}, C<10>{}), C<20>{}))));
static_assert(same(logical_divide(make_layout(make_shape(_6{}, _1{}), make_stride(_4{}, C<15>{})), make_layout(_2{}, _4{})),
                   make_layout(make_shape(_2{}, _4{}), make_stride(_16{}, _4{}))));
static_assert(same(logical_divide(make_layout(_6{}, _4{}), make_layout(_2{}, _4{})), make_layout(make_shape(_2{}, _4{}), make_stride(_16{}, _4{}))));
}  // namespace

TEST_CASE("static identities compile", "[core][static]") { SUCCEED("all identities are static_asserts"); }
