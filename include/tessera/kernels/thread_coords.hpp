// Which tile coordinate each value of a thread holds: the partition of an identity tensor of
// the tile by a tiled MMA operand or a tiled copy side (see partitions.hpp for the pattern).
#pragma once

#include <type_traits>

#include "tessera/tensor.hpp"

namespace tessera::kernels {

// Tile coordinate (row, col) of a thread's value: both modes of a rank-2 tile.
struct TileCoord {
  int row, col;
};

template <class Crd>
TESSERA_HOST_DEVICE constexpr TileCoord to_tile_coord(Crd const& c) {
  return {int(get<0>(c)), int(get<1>(c))};
}

// Thread t's values of a partitioned identity tensor: coord(v) = tile coordinate of value v.
template <class ValLayout, class Tile>
struct ThreadCoords {
  Tensor<IdentityIterator<Tile, int>, ValLayout> id;  // int offsets: tiles are small
  template <class V>
  TESSERA_HOST_DEVICE constexpr TileCoord operator()(V const& v) const { return to_tile_coord(id[v]); }
  static constexpr int size() { return int(decltype(tessera::size(ValLayout{}))::value); }
};

template <class Tile, class PartitionResult>
TESSERA_HOST_DEVICE constexpr auto thread_coords(PartitionResult const& p) {
  using L = std::remove_cvref_t<decltype(get<0>(p))>;
  IdentityIterator<Tile, int> it{Tile{}, int(get<1>(p))};
  return ThreadCoords<L, Tile>{make_tensor(it, get<0>(p))};
}

// How many values each thread holds in a TV layout ((thread, value) -> tile index), and in a
// tiled copy's partition of a tile that is a whole number of the copy's tiles (the size of
// copy_src_coords<Tile> and copy_dst_coords<Tile>), read off the types: cheap class-level
// checks that need no thread's partition.
template <class LayoutTV> inline constexpr int tv_values_per_thread = int(decltype(size<1>(LayoutTV{}))::value);
template <class Tile, class TiledCopy_>
inline constexpr int copy_values_per_thread = [] {
  constexpr int64_t tile = decltype(size(Tile{}))::value, copy_tile = decltype(size(typename TiledCopy_::Tiler_MN{}))::value;
  static_assert(tile % copy_tile == 0, "copy_values_per_thread: the tile must be a whole number of the copy's tiles");
  return int(tv_values_per_thread<typename TiledCopy_::TiledLayout_TV> * (tile / copy_tile));
}();

// Source / destination coordinates of thread t in a TiledCopy over its whole tile `Tile`
// (the tile may be larger than the copy's own tile: the rest modes then count repeats).
template <class Tile, class TiledCopy_>
TESSERA_HOST_DEVICE constexpr auto copy_src_coords(TiledCopy_ const& tc, int t) {
  return thread_coords<Tile>(tc.get_slice(t).partition_S_layout(make_layout(Tile{})));
}
template <class Tile, class TiledCopy_>
TESSERA_HOST_DEVICE constexpr auto copy_dst_coords(TiledCopy_ const& tc, int t) {
  return thread_coords<Tile>(tc.get_slice(t).partition_D_layout(make_layout(Tile{})));
}
template <class Tile, class TiledMma_>
TESSERA_HOST_DEVICE constexpr auto mma_a_coords(TiledMma_ const& mma, int t) {
  return thread_coords<Tile>(mma.get_slice(t).partition_A_layout(make_layout(Tile{})));
}
template <class Tile, class TiledMma_>
TESSERA_HOST_DEVICE constexpr auto mma_b_coords(TiledMma_ const& mma, int t) {
  return thread_coords<Tile>(mma.get_slice(t).partition_B_layout(make_layout(Tile{})));
}
template <class Tile, class TiledMma_>
TESSERA_HOST_DEVICE constexpr auto mma_c_coords(TiledMma_ const& mma, int t) {
  return thread_coords<Tile>(mma.get_slice(t).partition_C_layout(make_layout(Tile{})));
}

}  // namespace tessera::kernels
