// Exact answers (worked out by hand or from CuTe's documentation) and regression
// cases for the static tier.
#include <catch2/catch.hpp>
#include <tessera/tessera.hpp>
#include <vector>
#include <set>

using namespace tessera;

TEST_CASE("static integers stay static, dynamic ones mix in", "[core][int]") {
  STATIC_REQUIRE(std::is_same_v<decltype(_2{} * _4{}), C<8>>);
  STATIC_REQUIRE(std::is_same_v<decltype(_8{} / _2{}), C<4>>);
  STATIC_REQUIRE(std::is_same_v<decltype(_3{} < _4{}), C<1>>);
  STATIC_REQUIRE(std::is_same_v<decltype(_2{} * int64_t(3)), int64_t>);
  STATIC_REQUIRE(is_static_v<decltype(make_shape(_2{}, make_shape(_3{}, _4{})))>);
  STATIC_REQUIRE(!is_static_v<decltype(make_shape(_2{}, 3))>);
  STATIC_REQUIRE(is_constant_v<12, decltype(size(make_shape(_2{}, make_shape(_3{}, _2{}))))>);
  CHECK(size(make_shape(2, make_shape(_3{}, 4))) == 24);
  CHECK(tessera::gcd(12, 18) == 6);
  STATIC_REQUIRE(std::is_same_v<decltype(tessera::lcm(_4{}, _6{})), C<12>>);
}

TEST_CASE("int tuples: printing, prefix products, coordinates", "[core][int_tuple]") {
  auto s = make_shape(make_shape(_4{}, _2{}), make_shape(_2{}, make_shape(_2{}, _2{})));
  CHECK(to_string(s) == "((4,2),(2,(2,2)))");
  CHECK(to_string(_8{}) == "8");
  CHECK(to_string(make_shape(_8{})) == "(8)");
  CHECK(to_string(compact_col_major(s)) == "((1,4),(8,(16,32)))");
  CHECK(to_string(compact_row_major(make_shape(2, make_shape(3, 4)))) == "(12,(4,1))");
  CHECK(to_string(compact_col_major(make_shape(_1{}, _4{}))) == "(0,1)");  // static size-1 modes: stride 0
  CHECK(to_string(idx2crd(13, s)) == "((1,1),(1,(0,0)))");
  CHECK(crd2idx(idx2crd(int64_t(13), s), s, compact_col_major(s)) == 13);
  CHECK(to_string(shape_div(make_shape(_4{}, _6{}), _8{})) == "(1,3)");
  CHECK(to_string(ceil_div(make_shape(3, 4), 2)) == "(2,4)");
  CHECK(to_string(flatten(s)) == "(4,2,2,2,2)");
  CHECK(to_string(unflatten(flatten(s), s)) == to_string(s));
  CHECK(depth(s) == 3);
  CHECK(rank(s) == 2);
  STATIC_REQUIRE(decltype(congruent(s, s))::value);
  STATIC_REQUIRE(decltype(weakly_congruent(make_shape(1, 2), s))::value);
  STATIC_REQUIRE(!decltype(weakly_congruent(s, make_shape(1, 2)))::value);
  CHECK(bool(compatible(_64{}, s)));
  CHECK(!bool(compatible(make_shape(_4{}, _16{}), s)));
  CHECK(to_string(select<1, 0>(make_shape(1, 2, 3))) == "(2,1)");
  CHECK(to_string(append(make_shape(1, 2), 3)) == "(1,2,3)");
  CHECK(to_string(prepend(make_shape(1, 2), 3)) == "(3,1,2)");
  CHECK(to_string(replace<1>(make_shape(1, 2), 5)) == "(1,5)");
  CHECK(inner_product(make_shape(1, make_shape(2, 3)), make_shape(4, make_shape(5, 6))) == 4 + 10 + 18);
  CHECK(to_string(elem_scale(make_shape(2, 3), make_shape(4, 5))) == "(8,15)");
  CHECK(to_string(crd2crd(make_coord(1, 2), make_shape(2, 3), 6)) == "5");
}

TEST_CASE("layouts: evaluation, slicing, construction", "[core][layout]") {
  auto L = make_layout(make_shape(make_shape(_4{}, _2{}), make_shape(_2{}, make_shape(_2{}, _2{}))),
                       make_stride(make_stride(_1{}, _16{}), make_stride(_4{}, make_stride(_8{}, _32{}))));
  CHECK(to_string(L) == "((4,2),(2,(2,2))):((1,16),(4,(8,32)))");
  CHECK(L(5) == 17);
  CHECK(L(1, 2) == 9);
  CHECK(L(make_coord(make_coord(1, 1), make_coord(0, make_coord(1, 0)))) == 1 + 16 + 8);
  CHECK(cosize(L) == 64);
  CHECK(to_string(L(_, 1)) == "((4,2)):((1,16))");
  auto so = slice_and_offset(make_coord(_, 3), L);
  CHECK(to_string(get<0>(so)) == "((4,2)):((1,16))");
  CHECK(get<1>(so) == 4 + 8);
  CHECK(to_string(make_layout(make_shape(2, make_shape(3, 4)), LayoutRight{})) == "(2,(3,4)):(12,(4,1))");
  CHECK(to_string(make_ordered_layout(make_shape(_2{}, _3{}, _4{}), make_step(_2{}, _0{}, _1{}))) == "(2,3,4):(12,1,3)");
  CHECK(to_string(make_layout(make_layout(_4{}, _2{}), make_layout(_3{}, _1{}))) == "(4,3):(2,1)");
  CHECK(to_string(group<0, 2>(make_layout(make_shape(2, 3, 4)))) == "((2,3),4):((1,2),6)");
  CHECK(to_string(flatten(L)) == "(4,2,2,2,2):(1,16,4,8,32)");
  CHECK(to_string(get<1, 1>(L)) == "(2,2):(8,32)");
  CHECK(to_string(select<1>(L)) == "((2,(2,2))):((4,(8,32)))");
  CHECK(bool(L == L));
  CHECK(!bool(L == flatten(L)));
}

TEST_CASE("algebra: known CuTe answers", "[core][algebra]") {
  auto A = make_layout(make_shape(_2{}, make_shape(_1{}, _6{})), make_stride(_1{}, make_stride(_6{}, _2{})));
  CHECK(to_string(coalesce(A)) == "12:1");
  CHECK(to_string(coalesce(make_layout(make_shape(_1{}, _1{}), make_stride(_3{}, _5{})))) == "1:0");
  CHECK(to_string(composition(make_layout(_20{}, _2{}), make_layout(make_shape(_4{}, _5{}), make_stride(_1{}, _4{})))) == "(4,5):(2,8)");
  CHECK(to_string(complement(make_layout(make_shape(_2{}, _2{}), make_stride(_1{}, _6{})), _24{})) == "(3,2):(2,12)");
  CHECK(to_string(logical_divide(make_layout(make_shape(_4{}, _2{}, _3{}), make_stride(_2{}, _1{}, _8{})), make_layout(_4{}, _2{}))) ==
        "((2,2),(2,3)):((4,1),(2,8))");
  CHECK(to_string(logical_product(make_layout(make_shape(_2{}, _2{}), make_stride(_4{}, _1{})), make_layout(_6{}, _1{}))) ==
        "((2,2),(2,3)):((4,1),(2,8))");
  CHECK(to_string(tile_to_shape(make_layout(make_shape(_2{}, _2{})), make_shape(_4{}, _6{}))) == "((2,2),(2,3)):((1,4),(2,8))");
  CHECK(to_string(upcast<2>(make_layout(make_shape(_4{}, _8{}), make_stride(_1{}, _4{})))) == "(2,8):(1,2)");
  CHECK(to_string(downcast<2>(make_layout(make_shape(_4{}, _8{}), make_stride(_1{}, _4{})))) == "(8,8):(1,8)");
  CHECK(to_string(coalesce(make_layout(make_shape(_2{}, _4{}, _2{}), make_stride(_1{}, _2{}, _16{})), make_shape(_1{}, _1{}))) ==
        "(2,4,2):(1,2,16)");
}

TEST_CASE("tile_to_shape is CuTe's blocked product; tile_to_shape_coalesced is CuTe 3.7's", "[core][algebra][tile_to_shape]") {
  // Static leaves: CuTe 4.7's answers (blocked_product(block, copies), uncoalesced), printed
  // by CuTe itself for these operands.
  auto b0 = make_layout(make_shape(_2{}, _3{}), make_stride(_3{}, _1{}));
  CHECK(to_string(tile_to_shape(b0, make_shape(_4{}, _9{}))) == "((2,2),(3,3)):((3,6),(1,12))");
  STATIC_REQUIRE(is_static_v<decltype(tile_to_shape(b0, make_shape(_4{}, _9{})))>);
  auto b1 = make_layout(make_shape(_4{}, make_shape(_2{}, _4{})), make_stride(_2{}, make_stride(_1{}, _8{})));
  CHECK(to_string(tile_to_shape(b1, make_shape(_8{}, _16{}))) == "((4,2),((2,4),2)):((2,32),((1,8),64))");
  auto b2 = make_layout(make_shape(_8{}, _4{}), make_stride(_4{}, _1{}));
  CHECK(to_string(tile_to_shape(b2, make_shape(_16{}, _4{}))) == "((8,2),(4,1)):((4,32),(1,0))");
  CHECK(to_string(tile_to_shape(make_layout(make_shape(_3{}, _4{})), make_shape(_9{}, _12{}))) == "((3,3),(4,3)):((1,12),(3,36))");
  CHECK(to_string(tile_to_shape(make_layout(make_shape(_2{}, _2{})), make_shape(_8{}, _6{}))) == "((2,4),(2,3)):((1,4),(2,16))");
  CHECK(to_string(tile_to_shape(make_layout(_4{}, _2{}), make_shape(_8{}, _3{}))) == "((4,2),(1,3)):((2,1),(0,8))");
  CHECK(to_string(tile_to_shape(make_layout(make_shape(_2{}, _1{}), make_stride(_1{}, _0{})), make_shape(_4{}, _3{}))) ==
        "((2,2),(1,3)):((1,2),(0,4))");
  // CuTe's product_each wraps a scalar target: the copies are (4), a rank-1 tuple.
  CHECK(to_string(tile_to_shape(make_layout(_4{}, _1{}), _16{})) == "((4,(4))):((1,(4)))");
  CHECK(to_string(tile_to_shape(make_layout(make_shape(_4{}), make_stride(_1{})), make_shape(_16{}))) == "((4,4)):((1,4))");
  // LayoutRight order: the copies walk the last target mode first; a Step order: the copy
  // strides follow it, equal orders starting at the same stride (CuTe's compact_order).
  CHECK(to_string(tile_to_shape(b0, make_shape(_4{}, _9{}), LayoutRight{})) == "((2,2),(3,3)):((3,18),(1,6))");
  CHECK(to_string(tile_to_shape(b2, make_shape(_16{}, _8{}, _2{}), tuple<_2, _1, _3>{})) ==
        "((8,2),(4,2),(1,2)):((4,64),(1,32),(0,128))");
  CHECK(to_string(tile_to_shape(b2, make_shape(_16{}, _8{}, _2{}), tuple<_1, _1, _2>{})) ==
        "((8,2),(4,2),(1,2)):((4,32),(1,32),(0,128))");
  // A static block with a dynamic target: CuTe's answer (the size-1 copy mode keeps a stride).
  CHECK(to_string(tile_to_shape(b2, make_shape(16, 4))) == "((8,2),(4,1)):((4,32),(1,64))");
  CHECK(to_string(tile_to_shape(b0, make_shape(4, 9))) == "((2,2),(3,3)):((3,6),(1,12))");
  // tile_to_shape_coalesced: the same product coalesced mode by mode (CuTe 3.7's answer);
  // each mode the same function of its index.
  CHECK(to_string(tile_to_shape_coalesced(b0, make_shape(_4{}, _9{}))) == "(4,(3,3)):(3,(1,12))");
  CHECK(to_string(tile_to_shape_coalesced(b2, make_shape(_16{}, _4{}))) == "(16,4):(4,1)");
  CHECK(to_string(tile_to_shape_coalesced(make_layout(_4{}, _1{}), _16{})) == "(16):(1)");
  auto t = tile_to_shape(b1, make_shape(_8{}, _16{}));
  auto c = tile_to_shape_coalesced(b1, make_shape(_8{}, _16{}));
  for (int m = 0; m < 8; ++m)
    for (int n = 0; n < 16; ++n) CHECK(t(m, n) == c(m, n));
  // Dynamic leaves: the same function as the static answer.
  auto d0 = make_layout(make_shape(2, 3), make_stride(3, 1));
  auto dt = tile_to_shape(d0, make_shape(4, 9));
  auto st = tile_to_shape(b0, make_shape(_4{}, _9{}));
  for (int i = 0; i < 36; ++i) CHECK(int64_t(dt(i)) == int64_t(st(i)));
}

TEST_CASE("algebra: regression cases found during development", "[core][algebra][regression]") {
  // logical_divide whose rest mode runs past A's domain: checked only inside the domain
  auto A = make_layout(make_shape(_4{}, make_shape(_2{}, _4{}, _2{}), make_shape(_3{}, _1{})),
                       make_stride(_8{}, make_stride(_4{}, _1{}, _96{}), make_stride(_32{}, _8{})));
  CHECK(to_string(zipped_divide(A, make_layout(make_shape(_4{}), make_stride(_32{})))) == "(((2,2)),((4,2,4),2)):(((96,32)),((8,4,1),64))");
  // max_common_vector through an inadmissible internal composition falls back to 1
  auto a = make_layout(make_shape(make_shape(_4{}, _4{}), _3{}), make_stride(make_stride(_1{}, _6{}), _64{}));
  auto b = make_layout(make_shape(_3{}, make_shape(_2{}, _8{})), make_stride(_16{}, make_stride(_1{}, _2{})));
  CHECK(max_common_vector(a, b) == 1);
  // docs/notation.md's inadmissible composition is detected (a static_assert rejects the static form)
  auto a2 = make_layout(make_shape(2, 2), make_stride(1, 6));
  auto b2 = make_layout(make_shape(2, 2), make_stride(1, 1));
  CHECK(!is_admissible_composition(a2, b2));
  CHECK(is_admissible_composition(a2, make_layout(make_shape(2, 2), make_stride(1, 2))));
  // the shape divisibility rule broken at run time: R would have 2 elements for B's 3
  CHECK(!is_admissible_composition(make_layout(make_shape(2, 3), make_stride(1, 10)), make_layout(3, 1)));
  CHECK(is_admissible_composition(make_layout(make_shape(2, 3), make_stride(1, 10)), make_layout(make_shape(2, 3), make_stride(1, 2))));
  // empty modes do not trap (they used to divide by zero): an empty A composes with
  // nothing; an empty B composes with anything
  CHECK(!is_admissible_composition(make_layout(make_shape(0, 2), make_stride(1, 5)), make_layout(4, 1)));
  CHECK(is_admissible_composition(make_layout(make_shape(2, 3), make_stride(1, 10)), make_layout(0, 1)));
  CHECK(size(detail::composition_unchecked(make_layout(make_shape(0, 2), make_stride(1, 5)), make_layout(4, 1))) == 0);
  // with a tiler: mode by mode; _ and integers N (N:1) included
  auto a3 = make_layout(make_shape(make_shape(2, 2), 4), make_stride(make_stride(1, 6), 2));
  CHECK(!is_admissible_composition(a3, make_tile(b2, _)));
  CHECK(is_admissible_composition(a3, make_tile(_, 2)));
  CHECK(is_admissible_composition(a3, make_tile(make_layout(make_shape(2, 2), make_stride(1, 2)), 4)));
  STATIC_REQUIRE(!is_admissible_composition(make_layout(make_shape(make_shape(_2{}, _2{})), make_stride(make_stride(_1{}, _6{}))),
                                            make_tile(make_layout(make_shape(_2{}, _2{}), make_stride(_1{}, _1{})))));
}

TEST_CASE("swizzle and composed layouts", "[core][swizzle]") {
  Swizzle<3, 3, 3> sw;
  CHECK(sw(0) == 0);
  CHECK(sw(8 * 1 + 64 * 1) == 64);         // bit 6 set -> bit 3 flipped
  CHECK(sw(64 * 5 + 8 * 5 + 3) == 64 * 5 + 3);
  std::set<int64_t> img;
  for (int64_t i = 0; i < 512; ++i) { CHECK(sw(sw(i)) == i); img.insert(sw(i)); }
  CHECK(img.size() == 512);
  CHECK(*img.rbegin() == 511);
  auto sl = composition(sw, make_layout(make_shape(_8{}, _64{}), make_stride(_64{}, _1{})));
  CHECK(to_string(sl) == "Sw<3,3,3> o 0 o (8,64):(64,1)");
  CHECK(sl(1, 0) == sw(64));
  CHECK(size(sl) == 512);
  CHECK(cosize(sl) == 512);
  auto shifted = make_composed_layout(Swizzle<2, 0, -2>{}, _4{}, make_layout(_8{}));
  CHECK(to_string(shifted) == "Sw<2,0,-2> o 4 o 8:1");
  CHECK(shifted(1) == (Swizzle<2, 0, -2>{}(5)));
}

TEST_CASE("tensors: pointer and identity engines, local_tile, local_partition", "[core][tensor]") {
  std::vector<int> data(8 * 6);
  for (int i = 0; i < 48; ++i) data[i] = i;
  auto t = make_tensor(data.data(), make_layout(make_shape(_8{}, _6{}), make_stride(_6{}, _1{})));  // row-major 8x6
  CHECK(t(2, 3) == 15);
  CHECK(t[1] == 6);
  auto row = t(2, _);
  CHECK(size(row) == 6);
  CHECK(row(4) == 16);
  auto tile = local_tile(t, make_shape(_4{}, _3{}), make_coord(1, 1));
  CHECK(to_string(tile.layout()) == "(4,3):(6,1)");
  CHECK(tile(0, 0) == 4 * 6 + 3);
  auto id = make_identity_tensor(make_shape(_8{}, _6{}));
  CHECK(to_string(id(3, 4)) == "(3,4)");
  auto idtile = local_tile(id, make_shape(_4{}, _3{}), make_coord(1, 0));
  CHECK(to_string(idtile(2, 1)) == "(6,1)");
  // 2x3 threads (column-major) over the 8x6 identity: thread 4 is (0,2)
  auto part = local_partition(id, make_layout(make_shape(_2{}, _3{})), 4);
  CHECK(to_string(part.shape()) == "(4,2)");
  CHECK(to_string(part(0, 0)) == "(0,2)");
  CHECK(to_string(part(1, 1)) == "(2,5)");
  // every element of the identity tensor is owned by exactly one thread
  std::set<std::string> seen;
  for (int thr = 0; thr < 6; ++thr) {
    auto p = local_partition(id, make_layout(make_shape(_2{}, _3{})), thr);
    for (int i = 0; i < size(p); ++i) seen.insert(to_string(p(i)));
  }
  CHECK(seen.size() == 48);
}

TEST_CASE("checks", "[core][check]") {
  STATIC_REQUIRE(is_bijective(make_layout(make_shape(_4{}, _8{}), make_stride(_8{}, _1{}))));
  STATIC_REQUIRE(!is_injective(make_layout(make_shape(_4{}, _8{}), make_stride(_0{}, _1{}))));
  STATIC_REQUIRE(is_compact(make_layout(make_shape(_4{}, _8{}), make_stride(_0{}, _1{}))));
  STATIC_REQUIRE(!is_compact(make_layout(make_shape(_4{}), make_stride(_2{}))));
  // compact = filter(L) is a bijection onto [0, cosize): broadcast yes, aliasing no
  STATIC_REQUIRE(!is_compact(make_layout(make_shape(_2{}, _2{}), make_stride(_1{}, _1{}))));  // covers [0,3), offset 1 twice
  STATIC_REQUIRE(is_surjective(make_layout(make_shape(_2{}, _2{}), make_stride(_1{}, _1{})), _3{}));
  STATIC_REQUIRE(is_compact(make_layout(make_shape(_2{}, _3{}, _2{}), make_stride(_2{}, _0{}, _1{}))));
  STATIC_REQUIRE(is_compact(make_layout(make_shape(_1{}, _4{}), make_stride(_7{}, _1{}))));  // size-1 mode: any stride
  STATIC_REQUIRE(!is_compact(make_layout(make_shape(_2{}, _2{}, _2{}), make_stride(_1{}, _2{}, _2{}))));
  STATIC_REQUIRE(!is_compact(make_layout(make_shape(_4{}), make_stride(_m1{}))));  // offsets below 0
  CHECK(!is_compact(make_layout(make_shape(2, 2), make_stride(1, 1))));
  CHECK(is_compact(make_layout(make_shape(2, 3, 2), make_stride(2, 0, 1))));
  CHECK(is_compact(make_layout(make_shape(4, 1, 3), make_stride(3, 5, 1))));  // dynamic size-1 mode, stride 5
  CHECK(!is_compact(make_layout(make_shape(3, 2), make_stride(2, 3))));       // injective, but 1 and 4 unused
  CHECK(!is_compact(make_layout(make_shape(3, 2), make_stride(1, 2))));       // covers [0,5), offset 2 twice
  STATIC_REQUIRE(is_surjective(make_layout(make_shape(_4{}, _2{}), make_stride(_2{}, _1{})), _8{}));
  CHECK(is_injective(make_layout(make_shape(3, 2), make_stride(2, 3))));  // injective though strides interleave
  CHECK(!is_injective(make_layout(make_shape(3, 2), make_stride(1, 2))));
  CHECK(is_bijective(make_layout(make_shape(4, 8), make_stride(8, 1))));
}

// Failing cases found by the property tests, kept as regressions.
TEST_CASE("regressions from the property tests", "[core][regression]") {
  // composition with a run-time stride 0 in B divided by zero (SIGFPE); a run-time
  // broadcast must give the broadcast: every offset 0.
  auto A = make_layout(make_shape(int64_t(4), int64_t(3)), make_stride(int64_t(1), int64_t(5)));
  auto R = composition(A, make_layout(make_shape(int64_t(2), int64_t(3)), make_stride(int64_t(1), int64_t(0))));
  CHECK(to_string(R) == "((2,1),(1,3)):((1,5),(0,0))");
  for (int64_t i = 0; i < 6; ++i) CHECK(R(i) == A(i % 2));
  CHECK(to_string(composition(A, make_layout(int64_t(3), int64_t(0)))) == "(1,3):(0,0)");
  // complement of a rank-1 layout with a run-time stride 0 made a mode of size 0;
  // such a mode is dropped as filter() drops a static one.
  auto Cm = complement(make_layout(int64_t(4), int64_t(0)), int64_t(6));
  CHECK(size(Cm) == 6);
  for (int64_t i = 0; i < 6; ++i) CHECK(Cm(i) == i);
  // A run-time size-1 mode is dropped the same way, at every rank: the complement of
  // a single point is the whole codomain (CuTe, rank 1 only, would keep [0, 3) as a mode).
  CHECK(to_string(complement(make_layout(int64_t(1), int64_t(3)), int64_t(6))) == "(1,6):(0,1)");
  CHECK(to_string(complement(make_layout(make_shape(int64_t(1), int64_t(2)), make_stride(int64_t(3), int64_t(1))), int64_t(6))) ==
        "(1,1,3):(1,0,2)");  // the function i -> 2i
}
