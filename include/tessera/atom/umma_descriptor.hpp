#pragma once
// tcgen05.mma shared-memory matrix descriptors computed from a shared-memory tile's layout.
//
// The descriptor (PTX ISA, tcgen05 "Shared Memory Descriptor") is 64 bits:
//   bits  0-13  start address        encode(addr) = (addr & 0x3FFFF) >> 4
//   bits 16-29  leading byte offset  (LBO), encoded the same way
//   bits 32-45  stride byte offset   (SBO), encoded the same way
//   bits 46-48  the constant 0b001   (the descriptor's version: SM90's wgmma has none)
//   bits 49-51  base offset          (pattern start addr >> 7) & 7 off the repeat boundary
//   bit  52     LBO mode             0: relative byte offset (1, absolute, is sm_103a's)
//   bits 61-63  swizzle mode         0 none, 1 128B with 32B atoms, 2 128B, 4 64B, 6 32B
// The canonical layouts are wgmma's (core matrices of 8 rows x 16 bytes; see
// tessera/atom/gmma_descriptor.hpp), so the fields are read off a tile the same way; the
// differences are the encoding of the swizzle mode, the version bits, and that tcgen05.mma
// also reads MN-major 8- and 32-bit operands (the ISA's transpose bits in the instruction
// descriptor are valid for f16, bf16, tf32, e4m3, e5m2 and the 8-bit integers). The 128B mode
// with 32-byte atoms (mode 1) has no GMMA layout atom and is not produced here.
#include <cstdint>

#include "tessera/atom/detail/mma_ops_sm100.hpp"
#include "tessera/atom/gmma_descriptor.hpp"

namespace tessera {
namespace UMMA {

enum class LayoutType : int { SWIZZLE_NONE = 0, SWIZZLE_128B_BASE32B = 1, SWIZZLE_128B = 2, SWIZZLE_64B = 4, SWIZZLE_32B = 6 };

TESSERA_HOST_DEVICE constexpr LayoutType layout_type_of(GMMA::LayoutType t) {
  return t == GMMA::LayoutType::B128 ? LayoutType::SWIZZLE_128B
         : t == GMMA::LayoutType::B64 ? LayoutType::SWIZZLE_64B
         : t == GMMA::LayoutType::B32 ? LayoutType::SWIZZLE_32B
                                      : LayoutType::SWIZZLE_NONE;
}
TESSERA_HOST_DEVICE constexpr GMMA::Major gmma_major(Major m) { return m == Major::K ? GMMA::Major::K : GMMA::Major::MN; }

struct SmemDescriptor {
  uint64_t desc = 0;

  TESSERA_HOST_DEVICE constexpr uint32_t start_address() const { return uint32_t(desc & 0x3FFF); }  // in 16 B
  TESSERA_HOST_DEVICE constexpr uint32_t leading_byte_offset() const { return uint32_t((desc >> 16) & 0x3FFF); }
  TESSERA_HOST_DEVICE constexpr uint32_t stride_byte_offset() const { return uint32_t((desc >> 32) & 0x3FFF); }
  TESSERA_HOST_DEVICE constexpr uint32_t version() const { return uint32_t((desc >> 46) & 0x7); }
  TESSERA_HOST_DEVICE constexpr uint32_t base_offset() const { return uint32_t((desc >> 49) & 0x7); }
  TESSERA_HOST_DEVICE constexpr uint32_t lbo_mode() const { return uint32_t((desc >> 52) & 0x1); }
  TESSERA_HOST_DEVICE constexpr LayoutType layout_type() const { return LayoutType(int((desc >> 61) & 0x7)); }

  // Fields in bytes (start, LBO, SBO) as the ISA defines them; the 16-byte units are taken here.
  TESSERA_HOST_DEVICE static constexpr SmemDescriptor make(uint64_t start_bytes, uint64_t lbo_bytes, uint64_t sbo_bytes,
                                                           uint32_t base_offset, LayoutType type) {
    SmemDescriptor d;
    d.desc = GMMA::GmmaDescriptor::encode(start_bytes) | (GMMA::GmmaDescriptor::encode(lbo_bytes) << 16) |
             (GMMA::GmmaDescriptor::encode(sbo_bytes) << 32) | (uint64_t(1) << 46) | (uint64_t(base_offset & 0x7) << 49) |
             (uint64_t(int(type)) << 61);
    return d;
  }
  // The same tile `bytes` further on (the next K block inside a swizzle row).
  TESSERA_HOST_DEVICE constexpr SmemDescriptor advanced(int64_t bytes) const {
    SmemDescriptor d = *this;
    d.desc = (desc & ~uint64_t(0x3FFF)) | GMMA::GmmaDescriptor::encode((uint64_t(start_address()) << 4) + uint64_t(bytes));
    return d;
  }
};

// The descriptor from the fields (GMMA::gmma_descriptor_fields, which both tiers compute) and
// the buffer's shared-memory byte address; the base offset as for wgmma.
TESSERA_HOST_DEVICE constexpr SmemDescriptor make_umma_descriptor(GMMA::DescriptorFields const& f, uint32_t buffer_address) {
  const GMMA::GmmaDescriptor g = GMMA::make_gmma_descriptor(f, buffer_address);
  return SmemDescriptor::make(uint64_t(g.start_address()) << 4, uint64_t(f.lbo_bytes), uint64_t(f.sbo_bytes), g.base_offset(),
                              layout_type_of(f.type));
}

// make_umma_descriptor<Major, Bits>(tile, buffer_address): the descriptor of the (MN, K) operand
// tile = Sw o off o L of one tcgen05.mma (K * Bits == 256) whose buffer starts at shared-memory
// byte address buffer_address. A static L no descriptor describes does not compile.
template <Major MJ, int Bits, int B, int M, int S, class F, class I>
TESSERA_HOST_DEVICE constexpr SmemDescriptor make_umma_descriptor(ComposedLayout<Swizzle<B, M, S>, F, I> const& tile,
                                                                  uint32_t buffer_address) {
  static_assert(I::rank == 2, "make_umma_descriptor: the tile must be rank 2, (MN, K)");
  static_assert(is_static_v<I>, "make_umma_descriptor: the tile's layout must be static (the slice offset may be dynamic)");
  constexpr GMMA::DescriptorFields f = GMMA::detail::static_descriptor_fields<gmma_major(MJ), Bits, B, M, S, I>(true);
  static_assert(f.rule != GMMA::DescriptorRule::element_bits, "make_umma_descriptor: operands have 8-, 16- or 32-bit elements");
  static_assert(f.rule != GMMA::DescriptorRule::swizzle,
                "make_umma_descriptor: the swizzle must be Sw<B, log2(16 bytes / element), 3> with B = 0..3");
  static_assert(f.rule != GMMA::DescriptorRule::k_extent,
                "make_umma_descriptor: the tile must be (MN, K) with K * element bits == 256 (32 bytes of K per tcgen05.mma)");
  static_assert(f.rule != GMMA::DescriptorRule::mn_extent,
                "make_umma_descriptor: MN must be a multiple of 8 (K-major) or of the swizzle atom's MN extent (MN-major)");
  static_assert(f.rule != GMMA::DescriptorRule::not_canonical,
                "make_umma_descriptor: the layout is not a canonical layout (8-row x 16-byte core matrices at strides LBO, SBO)");
  static_assert(f.rule != GMMA::DescriptorRule::offset_alignment, "make_umma_descriptor: LBO and SBO must be multiples of 16 bytes");
  static_assert(f.rule != GMMA::DescriptorRule::offset_range, "make_umma_descriptor: LBO and SBO must lie in [0, 2^18) bytes");
  GMMA::DescriptorFields g = f;
  g.start_bytes += int64_t(to_i64(tile.offset())) * Bits / 8;
  return make_umma_descriptor(g, buffer_address);
}

// A plain layout is the unswizzled case; its offset in elements is an argument, as for
// make_gmma_descriptor (a slice of a plain Layout drops its origin's offset).
template <Major MJ, int Bits, class Sh, class St, class Offset>
TESSERA_HOST_DEVICE constexpr SmemDescriptor make_umma_descriptor(Layout<Sh, St> const& tile, Offset const& offset,
                                                                  uint32_t buffer_address) {
  return make_umma_descriptor<MJ, Bits>(make_composed_layout(Swizzle<0, 4, 3>{}, offset, tile), buffer_address);
}
// make_umma_descriptor<MJ, Bits>(slice_and_offset(crd, l), address)
template <Major MJ, int Bits, class Sh, class St, class Offset>
TESSERA_HOST_DEVICE constexpr SmemDescriptor make_umma_descriptor(tuple<Layout<Sh, St>, Offset> const& slice_offset,
                                                                  uint32_t buffer_address) {
  return make_umma_descriptor<MJ, Bits>(get<0>(slice_offset), get<1>(slice_offset), buffer_address);
}

}  // namespace UMMA
}  // namespace tessera
