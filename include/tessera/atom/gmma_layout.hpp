#pragma once
// Shared-memory layout atoms for Hopper's wgmma (GMMA) operands, as swizzled layouts
// (coordinate (MN, K) -> element offset).
//
// The PTX ISA builds an operand in shared memory from "swizzle atoms": rows of S bytes
// (S = 16: no swizzle, or 32, 64, 128), 8 of them, where the 16-byte chunks of row r are
// permuted by XOR with r (mod S/16). In elements of `Bits` bits, with T = 128 / Bits the
// elements of one 16-byte chunk and W = S / 16 the chunks of one row:
//   K-major:  (8, W*T) : (W*T, 1)    8 rows of W*T consecutive K elements
//   MN-major: (W*T, 8) : (1, W*T)    the same storage, MN running along the row
// and the swizzle Sw<log2 W, log2 T, 3> (the chunk bits [log2 T, log2 T + log2 W) of an
// offset XOR the row bits 3 above them: the row of W*T elements is 2^(log2 W + log2 T)).
// Everything is derived from (Bits, Major, S): no tables.
#include "tessera/algebra/tile_to_shape.hpp"
#include "tessera/atom/detail/mma_ops.hpp"
#include "tessera/atom/numeric.hpp"
#include "tessera/composed_layout.hpp"

namespace tessera {
namespace GMMA {

namespace detail {
TESSERA_HOST_DEVICE constexpr int log2_exact(int64_t x) {
  int l = 0;
  while ((int64_t(1) << l) < x) ++l;
  return l;
}
}  // namespace detail

// Bytes of one swizzled row: 16 is GMMA's "no swizzle" (interleaved core matrices).
inline constexpr int kSwizzleNone = 16;

template <int Bits, Major MJ, int SwizzleBytes>
struct layout_atom {
  static_assert(Bits == 8 || Bits == 16 || Bits == 32,
                "GMMA smem layout atom: the element width must be 8, 16 or 32 bits (wgmma's operand types)");
  static_assert(SwizzleBytes == 16 || SwizzleBytes == 32 || SwizzleBytes == 64 || SwizzleBytes == 128,
                "GMMA smem layout atom: the swizzle width must be 16 (none), 32, 64 or 128 bytes");
  static constexpr int elements_per_chunk = 128 / Bits;        // T: one 16-byte chunk
  static constexpr int chunks_per_row = SwizzleBytes / 16;     // W
  static constexpr int row = elements_per_chunk * chunks_per_row;  // elements in one swizzled row
  using swizzle = Swizzle<detail::log2_exact(chunks_per_row), detail::log2_exact(elements_per_chunk), 3>;
  using inner = std::conditional_t<MJ == Major::K, Layout<tuple<_8, C<row>>, tuple<C<row>, _1>>,
                                   Layout<tuple<C<row>, _8>, tuple<_1, C<row>>>>;
  using type = ComposedLayout<swizzle, C<0>, inner>;
};

// Layout_Atom<Bits, Major, SwizzleBytes>, and the spellings CuTe users know, per element type.
template <int Bits, Major MJ, int SwizzleBytes>
using Layout_Atom = typename layout_atom<Bits, MJ, SwizzleBytes>::type;

template <class T> using Layout_K_INTER_Atom = Layout_Atom<sizeof_bits_v<T>, Major::K, 16>;
template <class T> using Layout_K_SW32_Atom = Layout_Atom<sizeof_bits_v<T>, Major::K, 32>;
template <class T> using Layout_K_SW64_Atom = Layout_Atom<sizeof_bits_v<T>, Major::K, 64>;
template <class T> using Layout_K_SW128_Atom = Layout_Atom<sizeof_bits_v<T>, Major::K, 128>;
template <class T> using Layout_MN_INTER_Atom = Layout_Atom<sizeof_bits_v<T>, Major::MN, 16>;
template <class T> using Layout_MN_SW32_Atom = Layout_Atom<sizeof_bits_v<T>, Major::MN, 32>;
template <class T> using Layout_MN_SW64_Atom = Layout_Atom<sizeof_bits_v<T>, Major::MN, 64>;
template <class T> using Layout_MN_SW128_Atom = Layout_Atom<sizeof_bits_v<T>, Major::MN, 128>;

// The staged smem tile of one operand: the atom repeated to (MN, K, stages). `order` says
// which mode the atoms walk first (LayoutLeft: MN, then K, then stages; CuTe's collectives
// walk K first for MN-major operands, tuple<_2,_1,_3>): any order gives a tile every
// wgmma descriptor can describe.
template <int Bits, Major MJ, int SwizzleBytes, class Shape, class Order = LayoutLeft>
TESSERA_HOST_DEVICE constexpr auto make_smem_layout(Shape const& mn_k_stages, Order const& order = {}) {
  // tile_to_shape(atom, ...) with the composed form kept even for the "no swizzle" atoms
  // (Swizzle<0,..>): a wgmma descriptor reads its layout type off the swizzle. (CuTe's atoms
  // keep it through their smem_ptr_flag offset; composition(Sw<0,..>, 0, L) would decay to L.)
  // Coalesced per mode (CuTe 3.7's tile_to_shape): one flat (MN, K, stages) mode each, the
  // types the descriptors and the kernels' measured code were built on; the same offsets as
  // current CuTe's uncoalesced tile_to_shape.
  return make_composed_layout(
      typename layout_atom<Bits, MJ, SwizzleBytes>::swizzle{}, C<0>{},
      tile_to_shape_coalesced(typename layout_atom<Bits, MJ, SwizzleBytes>::inner{}, mn_k_stages, order));
}

}  // namespace GMMA
}  // namespace tessera
