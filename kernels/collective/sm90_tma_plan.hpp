// The SM90 mainloop's TMA arrangements of a stage tile, derived at compile time (host and
// device; kernels/collective/sm90_mainloop_tma_wgmma.cuh keeps one per operand, batched and
// divided, and its producer issues their boxes with copy_static).
#pragma once

#include <cstdint>

#include <tessera/atom/copy_sm90_tma.hpp>

namespace tessera::kernels::sm90 {

// A stage tile's TMA arrangement, derived at compile time over a representative tensor of the
// operand's majors (K-major: (rows, K):(K, 1); MN-major: (rows, K):(1, rows); batched: a third
// mode L). `divided`: the tensor map's dims follow the tile's structure
// (tma::make_divided_arguments: an MN-major tile of 64-row atoms is one (64, BK, rows / 64)
// box, not rows / 64 boxes of (64, BK)); else one dim per gmem mode. The device adapter
// rebinds `args` to the problem's extents and strides; the producer issues `boxes`.
template <int MaxBoxes>
struct TmaPlan {
  tma::Arguments args;
  tma::TileBoxes<MaxBoxes> boxes;
};
template <int MaxBoxes, int Bits, class Stage>
constexpr TmaPlan<MaxBoxes> make_tma_plan(Stage const& stage, bool k_major, int64_t tile_rows, int64_t tile_k, bool batched,
                                          bool divided) {
  constexpr int64_t rows = 1024, k = 1024;
  // (A K-major tile has nothing to divide: its divided arrangement is the per-mode one, which
  // is cheaper to derive at compile time.)
  auto derive = [&](auto const& g) {
    return divided && !k_major ? tma::make_divided_arguments<Bits>(g, stage) : tma::make_arguments<Bits>(g, stage);
  };
  TmaPlan<MaxBoxes> p;
  if (batched)
    p.args = k_major ? derive(make_layout(make_shape(rows, k, int64_t(2)), make_stride(k, int64_t(1), rows * k)))
                     : derive(make_layout(make_shape(rows, k, int64_t(2)), make_stride(int64_t(1), rows, rows * k)));
  else
    p.args = k_major ? derive(make_layout(make_shape(rows, k), make_stride(k, int64_t(1))))
                     : derive(make_layout(make_shape(rows, k), make_stride(int64_t(1), rows)));
  p.boxes = tma::make_tile_boxes<MaxBoxes>(p.args, stage);
  // The tile origins step by (tile_rows, tile_k, 1) along the modes: each must start on whole
  // parts of a divided mode (the producer splits the origin over its dims by shift and mask).
  const int64_t step[3] = {tile_rows, tile_k, 1};
  for (int d = 0; d < p.args.rank && p.args.rule == tma::Rule::ok; ++d) {
    const int64_t part = p.args.sub_extent[d] != 0 ? p.args.divisor[d] * p.args.sub_extent[d] : p.args.divisor[d];
    if (step[p.args.mode_of_dim[d]] % part != 0) p.boxes.fits = false;
  }
  return p;
}

// The boxes of one arrangement (2 * batched + divided) of a stage tile, as a type whose `value`
// is a constant (what copy_static issues). Keyed by what the plan depends on, not by the kernel
// that uses it: every kernel of a translation unit that shares an operand's stage tile (f16 and
// bf16, every D type and epilogue) names one specialization, so the compilers evaluate each
// plan once per TU instead of once per kernel. `Stage` is a static layout type (its value is
// its default).
template <int MaxBoxes, int Bits, class Stage, bool KMajor, int64_t TileRows, int64_t TileK, int Arrangement>
struct TmaPlanBoxes {
  static constexpr tma::TileBoxes<MaxBoxes> value =
      make_tma_plan<MaxBoxes, Bits>(Stage{}, KMajor, TileRows, TileK, Arrangement / 2 == 1, Arrangement % 2 == 1).boxes;
};

}  // namespace tessera::kernels::sm90
