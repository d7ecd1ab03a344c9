// The SM90 TMA-store epilogue's staging tile, its CTA-tile view, and the stmatrix copy that
// fills it from the accumulators (host-includable: the host test emulates the copy warp by
// warp and checks what lands in the buffers).
//  - staging: one warpgroup's (64, Cols) of D, column-major, the 128B-swizzled MN-major GMMA
//    atom tiled with the atoms walking the columns first (an f32 atom is 32 rows: rows first,
//    a TMA box would end after 8 columns); at most a staging buffer (epilogue_staging_bytes,
//    16 KiB): Cols = its bytes / 64 rows, or the widest 16-column multiple below that divides
//    BN.
//  - view: the CTA tile (BM, BN) over the buffers: rows (staging rows, warpgroups, M repeats)
//    : (staging's, buffer, 0) and columns (staging columns, Parts) : (staging's, 0) under
//    the swizzle -- the M repeats and the parts share their warpgroup's buffer in turn.
//  - stsm (16-bit D): make_tiled_copy_C of the TiledMma with stmatrix x4 .trans: one
//    instruction stores 8 values of a thread (four 8x8 matrices, 16 columns of its warp's 16
//    rows) as 16-byte column segments, where the per-value stores took 8 instructions. The
//    copy's values are the TiledMma's C values in their order (its TV layout is the MMA's),
//    so instruction k of an M repeat holds values 8k .. 8k+7: part h is M repeat h / Parts,
//    instructions (h % Parts) K .. (h % Parts) K + K - 1 (K = Cols / 16; checked at compile
//    time by instructions_in_value_order and end to end by the host test).
//  - part_origin: where in D (and C) part h of a warpgroup's share of a CTA tile lies, the
//    origin of its TMA store (and load): the CTA tile of D's coordinate tensor seen through
//    the view's modes, at the part's rows and columns.
#pragma once

#include <tessera/atom/copy_sm90.hpp>
#include <tessera/atom/copy_sm90_tma.hpp>
#include <tessera/atom/tma_coord.hpp>
#include <tessera/atom/gmma_layout.hpp>
#include <tessera/coordinate_tensor.hpp>
#include <tessera/layout.hpp>
#include <tessera/tiled_copy.hpp>

#include "../kernel/sm90_shared_storage.hpp"

namespace tessera::kernels::sm90 {

template <int Bits, int BN, int ConsumerWarpgroups, int AtomsM>
struct EpilogueStaging {
  static_assert(Bits == 16 || Bits == 32, "the staging tile is the 16- or 32-bit MN-major 128B GMMA atom");
  // The elements of a staging buffer (its stride in the kernel's shared storage).
  static constexpr int buffer_elements = epilogue_staging_bytes * 8 / Bits;
  // Staging columns: the widest whole 16-column stmatrix groups that divide BN and fit a
  // staging buffer of 64-row columns: a buffer (128 of 16 bits) where it divides BN, the whole
  // tile where it is narrower (a 64-column 16-bit tile stages in half a buffer: one part per M
  // repeat), else a divisor of BN (192 columns of 16 bits: two parts of 96, 12 KiB each).
  static constexpr int widest_cols() {
    for (int c = buffer_elements / 64 < BN ? buffer_elements / 64 : BN; c >= 16; c -= 16)
      if (BN % c == 0 && c % 16 == 0) return c;
    return 0;
  }
  static constexpr int Cols = widest_cols();
  static_assert(Cols > 0, "the staging tile holds whole 16-column stmatrix groups of the C fragment: BN a multiple of 16");
  static constexpr int Parts = BN / Cols;                 // stores per M repeat
  static_assert(BN % Cols == 0 && Cols % 16 == 0, "the staging tile holds whole 16-column stmatrix groups of the C fragment");
  static constexpr auto staging =
      GMMA::make_smem_layout<Bits, GMMA::Major::MN, 128>(make_shape(_64{}, C<Cols>{}), tuple<_2, _1>{});
  static constexpr int elements = int(cosize(staging.inner()));
  static constexpr int bytes = elements * Bits / 8;
  static_assert(bytes % 1024 == 0 && bytes <= epilogue_staging_bytes,
                "the staging tile fits one staging buffer and ends on the swizzle's 1 KiB repeat");

  // (coalesced: the 16-bit tile's column mode (8, Cols/8):(64, 512) is one stride, 64)
  static constexpr auto view_layout() {
    constexpr auto L = staging.inner();
    return make_layout(
        make_layout(coalesce(layout<0>(L)), Layout<C<ConsumerWarpgroups>, C<buffer_elements>>{}, Layout<C<AtomsM>, _0>{}),
        make_layout(coalesce(layout<1>(L)), Layout<C<Parts>, _0>{}));
  }
  static constexpr auto view = view_layout();
  // Staging sets (slots: the ping-pong kernel's consumers store different tiles at once, a set
  // each): slot s holds the ConsumerWarpgroups buffers from first(s) on, warpgroup wg writing
  // buffer(s, wg), the view's buffer mode from there. The named barrier of a buffer has its index.
  TESSERA_HOST_DEVICE static constexpr int first(int slot) { return slot * ConsumerWarpgroups; }
  TESSERA_HOST_DEVICE static constexpr int buffer(int slot, int wg) { return first(slot) + wg; }
  // The CTA-tile view over buffers starting at `first` (the slot's first buffer).
  template <class T> TESSERA_HOST_DEVICE static constexpr auto tensor(T* first) {
    return make_tensor(first, make_composed_layout(staging.outer(), C<0>{}, view));
  }

  // Part h of warpgroup wg (M repeat h / Parts, column part h % Parts) of CTA tile (tile_m,
  // tile_n) of batch l: its first element's coordinate (m, n, l) in D, the parts' origin.
  // D's coordinates over the CTA tile, rows as (staging rows, warpgroups, M repeats) and
  // columns as (staging columns, parts): the view's modes.
  static constexpr int BM = 64 * ConsumerWarpgroups * AtomsM;
  template <class I> TESSERA_HOST_DEVICE static constexpr auto part_origin(I const& tile_m, I const& tile_n, I const& l, int wg, int h) {
    const auto gD = local_tile(tma::coordinate_tensor<3>(), make_shape(C<BM>{}, C<BN>{}), make_coord(tile_m, tile_n, l));
    const auto parts = composition(gD, make_tile(make_layout(make_shape(_64{}, C<ConsumerWarpgroups>{}, C<AtomsM>{})),
                                                 make_layout(make_shape(C<Cols>{}, C<Parts>{}))));
    const auto part = idx2crd(h, make_shape(C<Parts>{}, C<AtomsM>{}));  // h = column part + Parts * M repeat
    return parts(make_coord(make_coord(_0{}, wg, get<1>(part)), make_coord(_0{}, get<0>(part))));
  }

  // 16-bit D: the stmatrix copy of the TiledMma's C fragment.
  template <class ElementD, class TiledMma> TESSERA_HOST_DEVICE static constexpr auto stsm(TiledMma const& tiled) {
    static_assert(Bits == 16, "stmatrix stores 16-bit values");
    return make_tiled_copy_C(Copy_Atom<SM90_U16x8_STSM_T, ElementD>{}, tiled);
  }
  static constexpr int values_per_instruction = 8;
  static constexpr int instructions_per_part = Cols / 16;

  // Instruction k of a retiled fragment ((8, instructions), AtomsM, 1) holds values 8k ..
  // 8k+7 of its M repeat, in order: what makes part h's instructions a contiguous range.
  template <class RetiledLayout> TESSERA_HOST_DEVICE static constexpr bool instructions_in_value_order(RetiledLayout const& r) {
    constexpr int n = int(decltype(size<0>(RetiledLayout{}))::value);
    for (int j = 0; j < n; ++j)
      if (int64_t(r(j, 0, 0)) != j) return false;
    return n == Parts * instructions_per_part * values_per_instruction;
  }
};

}  // namespace tessera::kernels::sm90
