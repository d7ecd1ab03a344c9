// The swizzled shared-memory layout of a 16-bit operand tile.  (Which offset steps pass through
// a swizzle unchanged is the algebra's: Swizzle::image_bits and swizzle_fold, swizzle.hpp.)
#pragma once

#include <cstdint>
#include <type_traits>

#include "tessera/swizzle.hpp"
#include "tessera/composed_layout.hpp"
#include "tessera/kernels/thread_coords.hpp"

namespace tessera::kernels {

// Shared-memory operand tile (mn, k) -> element offset of one stage, 16-bit elements,
// Swizzle<B,3,S> o (row-major tile): the swizzle XORs row bits into the 16-byte chunk bits,
// so every 16-byte vector stays contiguous (cp.async and ldmatrix rows stay legal).
//
// Why these swizzles (8 accesses of 16 bytes per phase; conflict-free iff the 8 rows of a
// phase land in 8 different 16-byte bank groups of a 128-byte line; figures from the bank
// model, tests/kernels/partition_trace_test.cpp "bank model"):
//  * K-major, BK = 32: a row (one m) is 64 bytes, two rows per 128-byte line.  ldmatrix
//    reads 8 consecutive rows at one k-chunk c: unswizzled they hit groups {c, 4+c} four
//    times each -- 4 wavefronts per 8x8 matrix instead of 1, 16 per ldmatrix.x4.
//    Swizzle<2,3,3> (chunk ^= (row >> 1) & 3): 1 wavefront per matrix, 4 per x4 (ideal).
//  * K-major, BK = 64: a row is a whole line: 8-way unswizzled; Swizzle<3,3,3>: ideal.
//  * MN-major: a row is one k, MN elements (>= 128 bytes).  ldmatrix.trans reads 8
//    consecutive k at one mn-chunk: unswizzled all 8 sit in one group (8-way, 32 per x4);
//    Swizzle<3,3,log2(MN)-3> (chunk ^= k & 7): ideal.
//  cp.async writes (2 rows x 4 chunks, or 8 chunks of one row, per phase) stay ideal under
//  the same swizzles.
constexpr int log2_exact(int v) { return v <= 1 ? 0 : 1 + log2_exact(v / 2); }
template <int MN, int BK, bool KMajor, bool Swizzled = true>
struct OperandSmem {
  static_assert(!KMajor || BK == 32 || BK == 64, "K-major swizzles are derived for 64-byte (BK = 32) and 128-byte (BK = 64) rows");
  static_assert(KMajor || MN % 64 == 0, "MN-major tiles need rows of at least 128 bytes");
  using Plain = std::conditional_t<KMajor, Layout<tuple<C<MN>, C<BK>>, tuple<C<BK>, _1>>,
                                   Layout<tuple<C<MN>, C<BK>>, tuple<_1, C<MN>>>>;
  using Sw = std::conditional_t<!Swizzled, Swizzle<0, 4, 0>,
                                std::conditional_t<KMajor, std::conditional_t<BK == 32, Swizzle<2, 3, 3>, Swizzle<3, 3, 3>>,
                                                   Swizzle<3, 3, log2_exact(MN) - 3>>>;
  using Layout_ = decltype(composition(Sw{}, Plain{}));
  static constexpr int size = MN * BK, Depth = BK;
  TESSERA_HOST_DEVICE static constexpr std::int64_t offset(TileCoord c) {
    return std::int64_t(Layout_{}(make_coord(c.row, c.col)));
  }
};

}  // namespace tessera::kernels
