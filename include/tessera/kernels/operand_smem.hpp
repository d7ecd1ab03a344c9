// The swizzled shared-memory layout of a 16-bit operand tile, and the offset steps that pass
// through its swizzle unchanged.
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
// The bits set in d, 2d, ..., (n-1)d.
constexpr std::int64_t repeat_bits(std::int64_t d, int n) {
  std::int64_t bits = 0;
  for (int i = 1; i < n; ++i) bits |= i * d;
  return bits;
}

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
  // offset(r + DR, c + DC) - offset(r, c) when it is the same for every (r, c): the plain
  // layout is linear, and a plain step whose lowest set bit lies above every bit the
  // swizzle reads or writes passes through the swizzle unchanged.  Lets the kernels step
  // from one copy (or k16 step) to the next by a constant instead of re-evaluating the
  // swizzle; tests/kernels/tile_loader_test.cpp checks it against offset() everywhere.
  template <int DR, int DC>
  static constexpr std::int64_t plain_step = DR >= 0 && DC >= 0 ? std::int64_t(decltype(Plain{}(make_coord(C<(DR > 0 ? DR : 0)>{}, C<(DC > 0 ? DC : 0)>{})))::value) : 0;
  template <int DR, int DC>
  static constexpr bool uniform_step =
      DR >= 0 && DC >= 0 && (plain_step<DR, DC> == 0 || (plain_step<DR, DC> & -plain_step<DR, DC>) > (Sw::yyy_msk | Sw::zzz_msk));
  // The weaker claim for steps that are not uniform: a plain step d that misses the bits the
  // swizzle reads (yyy) moves any coordinate whose plain offset x has d's bits clear by an
  // XOR, sw(x + d) = sw(x ^ d) = sw(x) ^ d.  (The K-major k16 step: the ldmatrix sources of
  // step 0 sit in columns 0..15, so for the later steps offset = step-0 offset ^ 16 kk.)
  template <int DR, int DC>
  static constexpr bool xor_step = DR >= 0 && DC >= 0 && (plain_step<DR, DC> & Sw::yyy_msk) == 0;
  // Every coordinate before the step (rows < dr where dr > 0, columns < dc where dc > 0) has a
  // plain offset with `bits` clear.
  static constexpr bool first_step_clear(int dr, int dc, std::int64_t bits) {
    for (int r = 0; r < (dr > 0 ? dr : MN); ++r)
      for (int c = 0; c < (dc > 0 ? dc : BK); ++c)
        if (((r * plain_step<1, 0> + c * plain_step<0, 1>) & bits) != 0) return false;
    return true;
  }
  // Repeats of a step: plain offsets x + i d, i < N, d a power of two, from an x that has the
  // bits of every i d clear pass through the swizzle unchanged when no i d has a bit the
  // swizzle reads or writes: x + i d = x | i d, and sw(x | i d) = sw(x) | i d.  The claim is
  // for x before the first step (a thread's copy 0 lies there), which first_step_clear checks
  // coordinate by coordinate.  (Deep MN-major copies: d = 64 elements, the 128-byte line bits
  // above the swizzled chunk and below the k row.)
  template <int DR, int DC, int N>
  static constexpr bool repeat_step = DR >= 0 && DC >= 0 && plain_step<DR, DC> > 0 &&
                                      (plain_step<DR, DC> & (plain_step<DR, DC> - 1)) == 0 &&
                                      (repeat_bits(plain_step<DR, DC>, N) & (Sw::yyy_msk | Sw::zzz_msk)) == 0 &&
                                      first_step_clear(DR, DC, repeat_bits(plain_step<DR, DC>, N));
};

}  // namespace tessera::kernels
