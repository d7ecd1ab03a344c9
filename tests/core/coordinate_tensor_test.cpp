// The coordinate tensor (tessera/coordinate_tensor.hpp): its elements, tiles and slices are
// make_identity_tensor's, for generated dynamic extents, static tilers and tile coordinates,
// and each coordinate is its definition (tile origin + position in the tile), also past the
// edge of a shape the tiles do not divide.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <cstdint>
#include <type_traits>

#include <tessera/coordinate_tensor.hpp>

using namespace tessera;

namespace {
int64_t i64(auto const& x) { return int64_t(x); }

// Every element of the tile at (bm, bk, l) (the k-tiles mode whole) of a (M, K, L) shape cut
// by (TM, TK), against the identity tensor's and the definition.
template <int TM, int TK>
void check_tiles() {
  const int64_t m = *rc::gen::inRange<int64_t>(1, 5 * TM), k = *rc::gen::inRange<int64_t>(1, 5 * TK);
  const int64_t l = *rc::gen::inRange<int64_t>(1, 4);
  const auto shape3 = make_shape(m, k, l);
  const auto ct = make_coordinate_tensor(shape3);
  const auto id = make_identity_tensor(shape3);
  const int64_t tiles_m = (m + TM - 1) / TM, tiles_k = (k + TK - 1) / TK;
  const int64_t bm = *rc::gen::inRange<int64_t>(0, tiles_m), bl = *rc::gen::inRange<int64_t>(0, l);
  const auto tiler = make_shape(C<TM>{}, C<TK>{});
  const auto g = local_tile(ct, tiler, make_coord(bm, _, bl));  // (TM, TK, k-tiles)
  const auto gi = local_tile(id, tiler, make_coord(bm, _, bl));
  RC_ASSERT(i64(size<0>(g)) == TM);
  RC_ASSERT(i64(size<1>(g)) == TK);
  RC_ASSERT(i64(size<2>(g)) == tiles_k);
  const int64_t kt = *rc::gen::inRange<int64_t>(0, tiles_k);
  for (int64_t i = 0; i < TM; ++i)
    for (int64_t j = 0; j < TK; ++j) {
      const auto c = g(i, j, kt);
      const auto e = gi(i, j, kt);
      RC_ASSERT(i64(get<0>(c)) == bm * TM + i);
      RC_ASSERT(i64(get<1>(c)) == kt * TK + j);
      RC_ASSERT(i64(get<2>(c)) == bl);
      RC_ASSERT(i64(get<0>(c)) == i64(get<0>(e)));
      RC_ASSERT(i64(get<1>(c)) == i64(get<1>(e)));
      RC_ASSERT(i64(get<2>(c)) == i64(get<2>(e)));
    }
  // A tile of the tile (the part one of Parts CTAs copies): rows part * TM / Parts ..
  constexpr int Parts = TM >= 4 ? 4 : 1;
  const int64_t part = *rc::gen::inRange<int64_t>(0, Parts);
  const auto p = local_tile(g, make_shape(C<TM / Parts>{}, C<TK>{}), make_coord(part, _0{}));  // (TM / Parts, TK, k-tiles)
  const auto pi = local_tile(gi, make_shape(C<TM / Parts>{}, C<TK>{}), make_coord(part, _0{}));
  for (int64_t i = 0; i < TM / Parts; ++i)
    for (int64_t j = 0; j < TK; ++j) {
      RC_ASSERT(i64(get<0>(p(i, j, kt))) == bm * TM + part * (TM / Parts) + i);
      RC_ASSERT(i64(get<0>(p(i, j, kt))) == i64(get<0>(pi(i, j, kt))));
      RC_ASSERT(i64(get<1>(p(i, j, kt))) == i64(get<1>(pi(i, j, kt))));
    }
  // Slicing is the same coordinates: the k-tile's (TM, TK) slice.
  const auto s = g(_, _, kt);
  const int64_t i = *rc::gen::inRange<int64_t>(0, TM), j = *rc::gen::inRange<int64_t>(0, TK);
  RC_ASSERT(i64(get<0>(s(i, j))) == i64(get<0>(g(i, j, kt))));
  RC_ASSERT(i64(get<1>(s(i, j))) == i64(get<1>(g(i, j, kt))));
  // A linear index into the tile is the tile's column-major coordinate, as for any tensor.
  const int64_t q = *rc::gen::inRange<int64_t>(0, TM * TK);
  RC_ASSERT(i64(get<0>(s(q))) == i64(get<0>(s(q % TM, q / TM))));
  RC_ASSERT(i64(get<1>(s(q))) == i64(get<1>(s(q % TM, q / TM))));
}
}  // namespace

TEST_CASE("a coordinate tensor's tiles are the identity tensor's", "[core][property][tensor]") {
  rc::prop("local_tile(coordinate tensor (M, K, L), (TM, TK), (bm, _, l))(i, j, k) == (bm TM + i, k TK + j, l)", [] {
    check_tiles<1, 1>();
    check_tiles<4, 2>();
    check_tiles<8, 16>();
    check_tiles<128, 64>();
  });
}

TEST_CASE("a coordinate tensor of a static shape reads its coordinates at compile time", "[core][tensor]") {
  constexpr auto ct = make_coordinate_tensor(make_shape(_256{}, _64{}, _2{}));
  constexpr auto tile = local_tile(ct, make_shape(_64{}, _16{}), make_coord(_2{}, _, _1{}));
  constexpr auto c = tile(_3{}, _5{}, _2{});
  static_assert(std::remove_cvref_t<decltype(get<0>(c))>::value == 131 && std::remove_cvref_t<decltype(get<1>(c))>::value == 37 &&
                std::remove_cvref_t<decltype(get<2>(c))>::value == 1);
  // Extents never enter a coordinate: a bound on them (a TMA map's int32 range) gives the same.
  const int64_t big = int64_t(1) << 31;
  const auto g = local_tile(make_coordinate_tensor(make_shape(big, big, big)), make_shape(_64{}, _16{}), make_coord(int64_t(2), _, int64_t(1)));
  CHECK(int64_t(get<0>(g(3, 5, 2))) == 131);
  CHECK(int64_t(get<1>(g(3, 5, 2))) == 37);
  CHECK(int64_t(get<2>(g(3, 5, 2))) == 1);
  const int64_t far = int64_t(1) << 24;  // tile coordinates far past 2^20 (the units' spacing): still exact
  const auto h = local_tile(make_coordinate_tensor(make_shape(big, big, big)), make_shape(_128{}, _64{}), make_coord(far, _, far));
  CHECK(int64_t(get<0>(h(127, 63, far))) == far * 128 + 127);
  CHECK(int64_t(get<1>(h(127, 63, far))) == far * 64 + 63);
  CHECK(int64_t(get<2>(h(127, 63, far))) == far);
}
