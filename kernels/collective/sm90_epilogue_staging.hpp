// The SM90 TMA-store epilogue's staging tile, its CTA-tile view, and the stmatrix copy that
// fills it from the accumulators (host-includable: the host test emulates the copy warp by
// warp and checks what lands in the buffers). DMajor: the kernel's D major (its staging's).
//  - staging, column-major D: one warpgroup's (64, Cols) of D, column-major, the
//    128B-swizzled MN-major GMMA atom tiled with the atoms walking the columns first (an f32
//    atom is 32 rows: rows first, a TMA box would end after 8 columns); at most a staging
//    buffer (epilogue_staging_bytes, 16 KiB): Cols = its bytes / 64 rows, or the widest
//    16-column multiple below that divides BN.
//  - staging, row-major D: (64, Cols) row-major, the 128B-swizzled K-major GMMA atom (8 rows of
//    one 128-byte swizzle row: 64 16-bit or 32 f32 columns) tiled rows first, so that each
//    atom column of 64 rows is one TMA box (128 bytes x 64 rows, 8 KiB); Cols the widest
//    multiple of the atom's columns that divides BN and fits a buffer (a 192-column 16-bit
//    tile: three parts of 64, a 256-column one two of 128).
//  - view: the CTA tile (BM, BN) over the buffers: rows (staging rows, warpgroups, M repeats)
//    : (staging's, buffer, 0) and columns (staging columns, Parts) : (staging's, 0) under
//    the swizzle -- the M repeats and the parts share their warpgroup's buffer in turn.
//  - stsm (16-bit D): make_tiled_copy_C of the TiledMma with stmatrix x4, .trans into a
//    column-major staging (each 8x8 matrix row a 16-byte column segment), without .trans
//    into a row-major one (a 16-byte row segment: the accumulators' own pairs): one
//    instruction stores 8 values of a thread (four 8x8 matrices, 16 columns of its warp's 16
//    rows), where the per-value stores took 8 instructions. The
//    copy's values are the TiledMma's C values in their order (its TV layout is the MMA's),
//    so instruction k of an M repeat holds values 8k .. 8k+7: part h is M repeat h / Parts,
//    instructions (h % Parts) K .. (h % Parts) K + K - 1 (K = Cols / 16; checked at compile
//    time by instructions_in_value_order and end to end by the host test).
//  - part_origin: where in D (and C) part h of a warpgroup's share of a CTA tile lies, the
//    origin of its TMA store (and load): the CTA tile of D's coordinate tensor seen through
//    the view's modes, at the part's rows and columns (either major: coordinates, not offsets).
#pragma once

#include <type_traits>
#include <utility>

#include <tessera/atom/copy_sm90.hpp>
#include <tessera/atom/copy_sm90_tma.hpp>
#include <tessera/atom/tma_coord.hpp>
#include <tessera/atom/gmma_layout.hpp>
#include <tessera/coordinate_tensor.hpp>
#include <tessera/layout.hpp>
#include <tessera/tiled_copy.hpp>
#include <tessera/kernels/gemm_arguments.hpp>

#include "../kernel/sm90_shared_storage.hpp"

namespace tessera::kernels::sm90 {

template <int Bits, int BN, int ConsumerWarpgroups, int AtomsM, Major DMajor = Major::Col>
struct EpilogueStaging {
  static_assert(Bits == 16 || Bits == 32, "the staging tile is the 16- or 32-bit 128B GMMA atom");
  static constexpr bool row_major = DMajor == Major::Row;
  // The columns a part holds a multiple of: a 16-column stmatrix group (column-major), one
  // K-major atom's 128-byte row (row-major: a TMA box's inner extent).
  static constexpr int col_unit = row_major ? 1024 / Bits : 16;
  // The elements of a staging buffer (its stride in the kernel's shared storage).
  static constexpr int buffer_elements = epilogue_staging_bytes * 8 / Bits;
  // Staging columns: the widest whole 16-column stmatrix groups that divide BN and fit a
  // staging buffer of 64-row columns: a buffer (128 of 16 bits) where it divides BN, the whole
  // tile where it is narrower (a 64-column 16-bit tile stages in half a buffer: one part per M
  // repeat), else a divisor of BN (192 columns of 16 bits: two parts of 96, 12 KiB each).
  static constexpr int widest_cols() {
    const int most = buffer_elements / 64 < BN ? buffer_elements / 64 : BN;
    for (int c = most - most % col_unit; c >= col_unit; c -= col_unit)
      if (BN % c == 0 && c % 16 == 0) return c;
    return 0;
  }
  static constexpr int Cols = widest_cols();
  static_assert(Cols > 0 || row_major, "the staging tile holds whole 16-column stmatrix groups of the C fragment: BN a multiple of 16");
  static_assert(Cols > 0 || !row_major,
                "a row-major staging tile holds whole 128-byte rows of the K-major atom: BN a multiple of 64 (16-bit) or 32 (f32)");
  static constexpr int Parts = BN / Cols;                 // stores per M repeat
  static_assert(BN % Cols == 0 && Cols % 16 == 0, "the staging tile holds whole 16-column stmatrix groups of the C fragment");
  static constexpr auto make_staging() {
    if constexpr (row_major) return GMMA::make_smem_layout<Bits, GMMA::Major::K, 128>(make_shape(_64{}, C<Cols>{}));
    else return GMMA::make_smem_layout<Bits, GMMA::Major::MN, 128>(make_shape(_64{}, C<Cols>{}), tuple<_2, _1>{});
  }
  static constexpr auto staging = make_staging();
  // TMA boxes per part: one per 128-byte swizzle row of the contiguous mode (64 rows of a
  // column-major 16-bit tile, 32 of f32; Cols / col_unit of a row-major one).
  static constexpr int boxes = row_major ? Cols / col_unit : 64 * Bits / 8 / 128;
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

  // 16-bit D: the stmatrix copy of the TiledMma's C fragment (.trans into column-major staging).
  using StsmOp = std::conditional_t<row_major, SM90_U32x4_STSM_N, SM90_U16x8_STSM_T>;
  template <class ElementD, class TiledMma> TESSERA_HOST_DEVICE static constexpr auto stsm(TiledMma const& tiled) {
    static_assert(Bits == 16, "stmatrix stores 16-bit values");
    return make_tiled_copy_C(Copy_Atom<StsmOp, ElementD>{}, tiled);
  }
  // A thread's whole fragment of D values (value i at offset i: accumulator i's), shaped as
  // the TiledMma's C partition of the view, which the stmatrix copy retiles: the epilogue
  // under the next tile packs every value into it before any staging (the tile's values in
  // registers while the next tile's wgmmas run), then stages it part by part. (Only its shape
  // is the view's: no view is made.)
  template <class TiledMma>
  using FragmentShape = decltype(shape(std::declval<TiledMma const&>().get_slice(0).partition_C(tensor(static_cast<uint16_t*>(nullptr)))));
  template <class T, class TiledMma> TESSERA_HOST_DEVICE static constexpr auto fragment(T* values, TiledMma const&) {
    return make_tensor(values, make_layout(FragmentShape<TiledMma>{}));
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
