// The TileFrame of one thread of an SM90 TiledMma: which rows and columns of a tile its C
// fragment holds, and which lanes of its warp share them, read off the C partition of the tile's
// identity tensor (the algebra's answer, not a formula beside it).
// The wgmma C fragment is ((2, 2, G), R, 1) per thread: value (a, b, j) of M repeat r lies at
// row slot b + 2 r and column slot a + 2 j (Rows = 2 R, Cols = 2 G); kernels_epilogue_tree_test
// checks for every thread of the cooperative TiledMma that each value's coordinate is
// (m[row slot], n[column slot]) and that the lane masks name exactly the lanes holding the same
// rows or columns. A thread's coordinates are thread 0's (static) plus its value 0 (as the
// epilogues compute them).
#pragma once

#include <cstdint>
#include <utility>

#include "tessera/kernels/epilogue_tree/node.hpp"
#include "tessera/tensor.hpp"
#include "tessera/tiled_mma.hpp"

namespace tessera::kernels::tree {

template <class TiledMma, class TileShape>
struct WgmmaFragment {
  using Part = decltype(std::declval<TiledMma const&>().get_slice(0).partition_C(make_identity_tensor(std::declval<TileShape>())));
  static constexpr int repeats = int(decltype(size<1>(std::declval<Part const&>()))::value);
  static constexpr int groups = int(decltype(size<0, 2>(std::declval<Part const&>()))::value);
  static_assert(int(decltype(size<0>(std::declval<Part const&>()))::value) == 4 * groups &&
                    int(decltype(size<2>(std::declval<Part const&>()))::value) == 1,
                "WgmmaFragment: the C fragment's values are ((2, 2, G), R, 1)");
  static constexpr int rows = 2 * repeats, cols = 2 * groups;
  using Frame = TileFrame<rows, cols>;
  // value (a, b, j) of repeat r: register a + 2 b + 4 j + 4 G r
  TESSERA_HOST_DEVICE static constexpr int row_slot(int b, int r) { return b + 2 * r; }
  TESSERA_HOST_DEVICE static constexpr int col_slot(int a, int j) { return a + 2 * j; }
};

// Thread `thread`'s frame in tile (tile_m, tile_n) of shape tile_mn, batch l, problem s.
template <class TiledMma, class TileShape>
TESSERA_HOST_DEVICE TESSERA_INLINE typename WgmmaFragment<TiledMma, TileShape>::Frame wgmma_frame(
    TiledMma const& tiled, TileShape const& tile_mn, int thread, std::int64_t tile_m, std::int64_t tile_n, std::int64_t l,
    TreeShape const& s) {
  using F = WgmmaFragment<TiledMma, TileShape>;
  typename F::Frame f;
  const auto id = make_identity_tensor(tile_mn);
  const auto c0 = tiled.get_slice(0).partition_C(id);  // thread 0's: static
  const auto mine0 = tiled.get_slice(thread).partition_C(id)(0);
  f.m0 = tile_m * std::int64_t(get<0>(tile_mn)) + std::int64_t(get<0>(mine0));
  f.n0 = tile_n * std::int64_t(get<1>(tile_mn)) + std::int64_t(get<1>(mine0));
  f.resid_m = s.m - f.m0;
  f.resid_n = s.n - f.n0;
#pragma unroll
  for (int r = 0; r < F::repeats; ++r)
#pragma unroll
    for (int b = 0; b < 2; ++b) f.dm[F::row_slot(b, r)] = int(get<0>(c0(make_coord(make_coord(0, b, 0), r, 0))));
#pragma unroll
  for (int j = 0; j < F::groups; ++j)
#pragma unroll
    for (int a = 0; a < 2; ++a) f.dn[F::col_slot(a, j)] = int(get<1>(c0(make_coord(make_coord(a, 0, j), 0, 0))));
  // a lane bit whose flip keeps value 0's column (row) moves along the rows (columns) only: the
  // lanes that differ by such bits hold the same columns (rows)
  const auto t0 = c0(0);
#pragma unroll
  for (int bit = 0; bit < 5; ++bit) {
    const auto tb = tiled.get_slice(1 << bit).partition_C(id)(0);
    if (std::int64_t(get<1>(tb)) == std::int64_t(get<1>(t0))) f.same_columns |= 1u << bit;
    if (std::int64_t(get<0>(tb)) == std::int64_t(get<0>(t0))) f.same_rows |= 1u << bit;
  }
  f.l = l;
  return f;
}

}  // namespace tessera::kernels::tree
