#pragma once
// A TMA copy's origin from a coordinate of the global tensor.
//
// The copies of a tile (copy(tma.with(map, barrier), origin, smem), copy_static) take the
// tile's origin in the global tensor, one integer per gmem mode. The algebra gives that
// origin as an element of a tiled identity tensor: the coordinate tensor of the gmem tensor,
// cut into the smem tile's tiles,
//   auto cA = local_tile(make_identity_tensor(shape(mA)), shape(stage), make_coord(m, _));
//   copy(tma.with(&map, bar), tma::coord_of(cA(0, 0, k)), smem);   // tile (m, k)
// (a tile past the edge keeps counting past it, and TMA fills what lies outside with zeros).
// coord_of flattens the coordinate (a nested one: one entry per leaf, mode 0 first) into
// tma::Coord; the coordinate must have at most tma::kMaxRank leaves (static_assert) and each
// must fit TMA's signed 32-bit coordinates (checked in debug builds).
#include <cstdint>

#include "tessera/atom/copy_sm90_tma.hpp"
#include "tessera/config.hpp"
#include "tessera/coordinate_tensor.hpp"
#include "tessera/int_tuple.hpp"

namespace tessera::tma {

// The coordinates a tensor map takes (int32 per mode) as a coordinate tensor of R modes
// (tessera/coordinate_tensor.hpp: make_identity_tensor's coordinates without its divisions): a
// kernel cuts its copies' origins from it with local_tile by its tiles. An origin may lie past
// the problem's edge; the copy clips there.
inline constexpr int64_t coordinate_extent = int64_t(1) << 31;
template <int R>
TESSERA_HOST_DEVICE constexpr auto coordinate_tensor() {
  const int64_t e = coordinate_extent;  // (dynamic: extents never enter a coordinate)
  return make_coordinate_tensor(repeat<R>(e));
}

template <class Crd>
TESSERA_HOST_DEVICE constexpr Coord coord_of(Crd const& crd) {
  const auto flat = flatten_to_tuple(crd);
  constexpr int R = int(rank_v<std::remove_cvref_t<decltype(flat)>>);
  static_assert(R >= 1 && R <= kMaxRank, "tma::coord_of: a TMA coordinate has 1 to 5 modes (tensorRank <= 5)");
  Coord c;
  [&]<int... I>(std::integer_sequence<int, I...>) {
    ((TESSERA_EXPECTS(int64_t(get<I>(flat)) >= INT32_MIN && int64_t(get<I>(flat)) <= INT32_MAX,
                      "tma::coord_of: a TMA coordinate is a signed 32-bit integer"),
      c.c[I] = int32_t(get<I>(flat))),
     ...);
  }(std::make_integer_sequence<int, R>{});
  return c;
}

}  // namespace tessera::tma
