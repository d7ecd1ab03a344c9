// The SM90 mainloop's TMA arrangements of a stage tile, derived at compile time (host and
// device; kernels/collective/sm90_mainloop_tma_wgmma.cuh keeps one per operand and
// arrangement, and its producer issues their boxes with copy_static), and the gmem
// coordinates its copies start at: the TMA copies' partitions of the operands' coordinate
// tensors.
#pragma once

#include <cstdint>

#include <tessera/atom/copy_sm90_tma.hpp>
#include <tessera/atom/tma_coord.hpp>

namespace tessera::kernels::sm90 {

// How an operand's tensor map is laid out over its gmem tensor: one TMA dim per gmem mode or
// divided by the stage tile's structure (tma::make_divided_arguments), and whether the
// tensor has a batch mode L. The device adapter picks one per operand and problem; the
// producer issues that arrangement's compile-time boxes.
enum class TmaArrangement : int { per_mode, divided, batched, batched_divided };
// Every arrangement, in the enumerators' order (TmaArrangement(i) is the i-th: device code
// counts on it, where a namespace-scope array cannot be read).
inline constexpr TmaArrangement tma_arrangements[] = {TmaArrangement::per_mode, TmaArrangement::divided, TmaArrangement::batched,
                                                      TmaArrangement::batched_divided};
inline constexpr int tma_arrangement_count = int(sizeof(tma_arrangements) / sizeof(tma_arrangements[0]));
static_assert([] {
  for (int i = 0; i < tma_arrangement_count; ++i)
    if (tma_arrangements[i] != TmaArrangement(i)) return false;
  return true;
}(), "tma_arrangements lists the enumerators in order");
TESSERA_HOST_DEVICE constexpr TmaArrangement tma_arrangement(bool batched, bool divided) {
  return batched ? (divided ? TmaArrangement::batched_divided : TmaArrangement::batched)
                 : (divided ? TmaArrangement::divided : TmaArrangement::per_mode);
}
TESSERA_HOST_DEVICE constexpr bool is_batched(TmaArrangement a) {
  return a == TmaArrangement::batched || a == TmaArrangement::batched_divided;
}
TESSERA_HOST_DEVICE constexpr bool is_divided(TmaArrangement a) {
  return a == TmaArrangement::divided || a == TmaArrangement::batched_divided;
}

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
constexpr TmaPlan<MaxBoxes> make_tma_plan(Stage const& stage, bool k_major, int64_t tile_rows, int64_t tile_k,
                                          TmaArrangement arrangement) {
  const bool batched = is_batched(arrangement), divided = is_divided(arrangement);
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

// The boxes of one arrangement of a stage tile, as a type whose `value`
// is a constant (what copy_static issues). Keyed by what the plan depends on, not by the kernel
// that uses it: every kernel of a translation unit that shares an operand's stage tile (f16 and
// bf16, every D type and epilogue) names one specialization, so the compilers evaluate each
// plan once per TU instead of once per kernel. `Stage` is a static layout type (its value is
// its default).
template <int MaxBoxes, int Bits, class Stage, bool KMajor, int64_t TileRows, int64_t TileK, TmaArrangement Arrangement>
struct TmaPlanBoxes {
  static constexpr tma::TileBoxes<MaxBoxes> value = make_tma_plan<MaxBoxes, Bits>(Stage{}, KMajor, TileRows, TileK, Arrangement).boxes;
};

// Where the producer's copies start: each operand as a coordinate tensor over the tensor
// map's coordinates, (rows, K, L) (A: M rows, B: N rows), cut by the tiles its TMA copies
// fill. A cluster along an operand's rows (ClusterM for A, ClusterN for B) takes that many of
// its tiles, one per CTA; a cluster along the other operand's rows shares one tile of this
// one, which each CTA brings a part of (multicast to all). `tile` is the shape (rows, BK) of
// the operand's stage, `copy` that of this CTA's copy into it: the whole tile, or its part
// (tile rows / the cluster's extent across). `Tiles`: the cluster's extent along this
// operand's rows (1 when it shares the tile or has no cluster); `rank`: the CTA's place in
// the cluster, which picks its tile (Tiles > 1) or its part of the shared tile. The results
// are (rows, BK, k-tiles) coordinate tensors: element (0, 0, k) is the origin of the copy of
// k-tile k, the boxes' corners are the copy's (TmaPlanBoxes). The operands' coordinate
// tensors are the tensor maps' (tma::coordinate_tensor): the copies clip what lies past a
// problem's edge.
template <int Tiles, class Tile, class Copy, class I>
TESSERA_HOST_DEVICE constexpr auto cta_copy_coordinates(Tile const& tile, Copy const& copy, I const& index, I const& l, int rank) {
  const auto g = local_tile(tma::coordinate_tensor<3>(), make_shape(C<Tiles>{} * get<0>(tile), get<1>(tile)),
                            make_coord(index, _, l));  // the cluster's tiles
  return local_tile(g, copy, make_coord(rank, _0{}));   // this CTA's tile or part
}
}  // namespace tessera::kernels::sm90
