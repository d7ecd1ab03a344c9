// Shared-memory operand tiles of the tensor-core mainloop, and why they are swizzled.
//
// A stage holds an MN x BK tile of one operand in 16-bit elements.  Two readers/writers
// touch it, each in 16-byte rows (8 elements):
//   * cp.async writes: one thread one 16-byte vector along the operand's contiguous mode;
//   * ldmatrix (x4) reads: each 8-lane phase hands in 8 row addresses of one 8x8 matrix.
// Shared memory has 32 banks x 4 bytes, i.e. 8 bank groups of 16 bytes per 128-byte line.
// A phase of 8 accesses is conflict-free iff its 8 rows land in 8 different groups.
//
// K-major tile (A row-major / B column-major), BK = 32: a row (one m or n) is 64 bytes, so
// two rows share a 128-byte line.  ldmatrix reads 8 consecutive rows at one k-chunk c:
// unswizzled they hit groups {c, 4+c} four times each (4-way conflict).  Swizzle<2,3,3>
// (chunk' = chunk ^ ((row >> 1) & 3)) sends rows 0..7 to groups c, 4+c, c^1, 4+(c^1), ...:
// 8 distinct.  cp.async writes 2 rows x 4 chunks per phase: also 8 distinct groups.
//
// MN-major tile (A column-major / B row-major): a row is one k, MN elements (>= 128 bytes).
// ldmatrix.trans reads 8 consecutive k at one mn-chunk: unswizzled all 8 sit in one group
// (8-way conflict).  Swizzle<3,3,log2(MN)-3> (chunk' = chunk ^ (k & 7)) spreads them over
// the 8 groups; cp.async writes 8 consecutive chunks of one k: a permutation of 8 groups.
//
// Both are Swizzle<B,3,S> o (row-major tile): the swizzle XORs row bits into the 16-byte
// chunk bits, so every 16-byte vector stays contiguous (cp.async and ldmatrix rows legal).
#pragma once

#include <cstdint>
#include <type_traits>

namespace tessera::kernels {

// Swizzle<B,M,S>: XOR bits [M+S, M+S+B) of an offset into bits [M, M+B).
template <int B, int M, int S>
struct Swizzle {
  static constexpr std::uint32_t mask = ((1u << B) - 1u) << (M + S);
  __host__ __device__ static constexpr std::uint32_t apply(std::uint32_t off) {
    return off ^ ((off & mask) >> S);
  }
};

constexpr int log2_exact(int v) { return v <= 1 ? 0 : 1 + log2_exact(v / 2); }

// (mn, k) -> element offset within one stage of an MN x BK operand tile.
template <int MN, int BK, bool KMajor>
struct OperandSmemLayout;

template <int MN, int BK>
struct OperandSmemLayout<MN, BK, true> {
  static_assert(BK == 32 || BK == 64, "K-major swizzles are derived for 64-byte (BK = 32) and 128-byte (BK = 64) rows");
  // BK = 64: a row is a whole 128-byte line; 8 consecutive rows at one chunk all sit in
  // group c, so chunk' = chunk ^ (row & 7) = Swizzle<3,3,3>.
  using Sw = std::conditional_t<BK == 32, Swizzle<2, 3, 3>, Swizzle<3, 3, 3>>;
  static constexpr int size = MN * BK;
  __host__ __device__ static constexpr std::uint32_t offset(int mn, int k) {
    return Sw::apply(std::uint32_t(mn * BK + k));
  }
};

template <int MN, int BK>
struct OperandSmemLayout<MN, BK, false> {
  static_assert(MN % 64 == 0, "MN-major tiles need rows of at least 128 bytes");
  using Sw = Swizzle<3, 3, log2_exact(MN) - 3>;
  static constexpr int size = MN * BK;
  __host__ __device__ static constexpr std::uint32_t offset(int mn, int k) {
    return Sw::apply(std::uint32_t(k * MN + mn));
  }
};

}  // namespace tessera::kernels
