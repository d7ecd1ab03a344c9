#pragma once
// wgmma matrix descriptors computed from a shared-memory tile's layout.
//
// The descriptor (PTX ISA, "Matrix Descriptor Format" of wgmma) is 64 bits:
//   bits  0-13  start address        encode(addr) = (addr & 0x3FFFF) >> 4
//   bits 16-29  leading byte offset  (LBO), encoded the same way
//   bits 32-45  stride byte offset   (SBO), encoded the same way
//   bits 49-51  base offset          (pattern start addr >> 7) & 7 when the swizzle
//                                    pattern does not start on its repeat boundary
//   bits 62-63  swizzle mode         0 none (interleave), 1 128B, 2 64B, 3 32B
// It describes a "canonical layout": core matrices of 8 rows x 16 bytes. With T = 128/bits
// elements per 16 bytes and W = swizzle bytes / 16 (1 without swizzle), in elements:
//   K-major,  (MN, K) = ((8, m), (T, 2)):
//     none:     ((1T, SBO), (1, LBO))      swizzled: ((W*T, SBO), (1, T))  (LBO unused: 1)
//   MN-major, (MN, K) = ((T, W, m), (8, k)), 16-bit elements only:
//     none:     ((1, -, SBO), (T, LBO))    swizzled: ((1, T, LBO), (W*T, SBO))
// followed by the swizzle of the mode on the absolute byte address. So a tessera tile
// Sw o off o L whose buffer starts on the swizzle's repeat (256/512/1024 bytes) is described
// exactly when L, read at the core-matrix corners, is that canonical layout: this file reads
// LBO and SBO off L at those corners and then checks L against the canonical layout at
// every coordinate. A static layout that fails is refused at compile time.
#include <cstdint>

#include "tessera/algebra/static_leaves.hpp"
#include "tessera/atom/gmma_layout.hpp"

namespace tessera {
namespace GMMA {

enum class LayoutType : int { INTERLEAVE = 0, B128 = 1, B64 = 2, B32 = 3 };

TESSERA_HOST_DEVICE constexpr LayoutType layout_type_of_swizzle_bytes(int bytes) {
  return bytes == 128 ? LayoutType::B128 : bytes == 64 ? LayoutType::B64 : bytes == 32 ? LayoutType::B32 : LayoutType::INTERLEAVE;
}
TESSERA_HOST_DEVICE constexpr int swizzle_bytes_of(LayoutType t) {
  return t == LayoutType::B128 ? 128 : t == LayoutType::B64 ? 64 : t == LayoutType::B32 ? 32 : 16;
}
inline const char* to_string(LayoutType t) {
  return t == LayoutType::B128 ? "128B" : t == LayoutType::B64 ? "64B" : t == LayoutType::B32 ? "32B" : "none (interleave)";
}

struct GmmaDescriptor {
  uint64_t desc = 0;

  TESSERA_HOST_DEVICE static constexpr uint64_t encode(uint64_t bytes) { return (bytes & 0x3FFFF) >> 4; }
  TESSERA_HOST_DEVICE constexpr uint32_t start_address() const { return uint32_t(desc & 0x3FFF); }   // in 16 B
  TESSERA_HOST_DEVICE constexpr uint32_t leading_byte_offset() const { return uint32_t((desc >> 16) & 0x3FFF); }
  TESSERA_HOST_DEVICE constexpr uint32_t stride_byte_offset() const { return uint32_t((desc >> 32) & 0x3FFF); }
  TESSERA_HOST_DEVICE constexpr uint32_t base_offset() const { return uint32_t((desc >> 49) & 0x7); }
  TESSERA_HOST_DEVICE constexpr LayoutType layout_type() const { return LayoutType(int((desc >> 62) & 0x3)); }

  // Fields given in bytes (start, LBO, SBO) as the ISA defines them; the 16-byte units are
  // taken here.
  TESSERA_HOST_DEVICE static constexpr GmmaDescriptor make(uint64_t start_bytes, uint64_t lbo_bytes, uint64_t sbo_bytes,
                                                           uint32_t base_offset, LayoutType type) {
    GmmaDescriptor d;
    d.desc = encode(start_bytes) | (encode(lbo_bytes) << 16) | (encode(sbo_bytes) << 32) |
             (uint64_t(base_offset & 0x7) << 49) | (uint64_t(int(type)) << 62);
    return d;
  }
  // The descriptor of the same tile `bytes` further on (the next k-block of a K-major tile
  // inside its swizzle row): only the start address moves.
  TESSERA_HOST_DEVICE constexpr GmmaDescriptor advanced(int64_t bytes) const {
    GmmaDescriptor d = *this;
    d.desc = (desc & ~uint64_t(0x3FFF)) | encode((uint64_t(start_address()) << 4) + uint64_t(bytes));
    return d;
  }
};

// The byte address (in the 2^18-byte shared window) the hardware reads for element (mn, k) of
// the (MN, K) operand tile a descriptor describes, read off its fields as the ISA defines the
// canonical layouts: 8-row x 16-byte core matrices, K-major rows `swizzle bytes` apart (core
// matrices SBO apart along MN; along K 16 bytes apart in a swizzled row, LBO apart without a
// swizzle), MN-major k-rows `swizzle bytes` apart (16-byte chunks of a row consecutive, rows
// of chunks LBO apart along MN and SBO apart along K in 8-row groups; without a swizzle chunks
// SBO and k-groups LBO apart); then the swizzle on the address (chunk bits [4, 4+b) XOR bits
// [7, 7+b)). The base offset is taken as 0 (buffers on the swizzle's repeat). make_gmma_descriptor
// is its inverse over a tile: descriptor_address(make_gmma_descriptor(tile, base), ...)(mn, k)
// is base + the bytes of the swizzled tile(mn, k) (tests/hopper/gmma_test.cpp); on the host,
// gemm's wgmma emulation reads the operands through it.
TESSERA_HOST_DEVICE constexpr uint32_t descriptor_address(GmmaDescriptor d, Major major, int bits, int64_t mn, int64_t k) {
  const int64_t row = swizzle_bytes_of(d.layout_type()), chunks = row / 16;
  const int64_t per_chunk = 128 / bits, eb = bits / 8;
  const int64_t lbo = int64_t(d.leading_byte_offset()) << 4, sbo = int64_t(d.stride_byte_offset()) << 4;
  int64_t a = int64_t(d.start_address()) << 4;
  if (major == Major::K) {
    a += (mn / 8) * sbo + (mn % 8) * row + (k % per_chunk) * eb + (k / per_chunk) * (chunks == 1 ? lbo : 16);
  } else {
    const int64_t chunk = mn / per_chunk;
    a += (k % 8) * row + (mn % per_chunk) * eb;
    a += chunks == 1 ? chunk * sbo + (k / 8) * lbo : (chunk % chunks) * 16 + (chunk / chunks) * lbo + (k / 8) * sbo;
  }
  a ^= ((a >> 7) & (chunks - 1)) << 4;
  return uint32_t(a & 0x3FFFF);
}

// Why a layout cannot be described (ok when it can); each names one rule of the ISA.
enum class DescriptorRule : int {
  ok = 0,
  element_bits,        // elements must be 8, 16 or 32 bits
  mn_major_bits,       // wgmma reads MN-major (transposed) operands of 16-bit types only
  swizzle,             // the swizzle is not Sw<B, log2(16 bytes / element), 3>, B in 0..3
  k_extent,            // one wgmma reads K * bits == 256 (32 bytes) of each row
  mn_extent,           // MN a multiple of 8 (K-major) or of the atom's MN extent (MN-major)
  not_canonical,       // the layout is not the canonical layout at some coordinate
  offset_alignment,    // start, LBO, SBO must be multiples of 16 bytes
  offset_range,        // LBO and SBO must lie in [0, 2^18) bytes
};

inline const char* to_string(DescriptorRule r) {
  switch (r) {
    case DescriptorRule::ok: return "ok";
    case DescriptorRule::element_bits: return "wgmma operands have 8-, 16- or 32-bit elements";
    case DescriptorRule::mn_major_bits: return "wgmma reads MN-major operands of 16-bit elements only (f16, bf16)";
    case DescriptorRule::swizzle:
      return "the swizzle must be GMMA's Sw<B, log2(16 bytes / element), 3>, B = 0 (none), 1 (32B), 2 (64B) or 3 (128B)";
    case DescriptorRule::k_extent: return "the tile must be (MN, K) with K * element bits == 256 (the 32 bytes one wgmma reads)";
    case DescriptorRule::mn_extent:
      return "MN must be a multiple of 8 (K-major) or of the swizzle atom's MN extent (MN-major)";
    case DescriptorRule::not_canonical:
      return "the layout is not GMMA's canonical layout (core matrices of 8 rows x 16 bytes at strides LBO, SBO)";
    case DescriptorRule::offset_alignment: return "the start address, LBO and SBO must be multiples of 16 bytes";
    case DescriptorRule::offset_range: return "LBO and SBO must lie in [0, 2^18) bytes";
  }
  return "?";
}

// What the descriptor of a tile holds, in bytes, before encoding.
struct DescriptorFields {
  DescriptorRule rule = DescriptorRule::ok;
  LayoutType type = LayoutType::INTERLEAVE;
  int64_t start_bytes = 0;  // byte offset of element (0,0) before the swizzle, from the buffer
  int64_t lbo_bytes = 0;    // as written into the descriptor (1 where the ISA says "unused, 1")
  int64_t sbo_bytes = 0;
  int64_t bad_mn = -1, bad_k = -1;  // the first coordinate where the layout is not canonical
};

// The flat core, shared by both tiers: `offset(mn, k)` is the tile's element offset before
// the swizzle (the slice offset included), over mn < mn_extent, k < k_extent; the swizzle
// is Sw<swz_bits, swz_base, swz_shift> (swz_bits 0: none). The canonical layouts are the same
// for tcgen05.mma (tessera/atom/umma_descriptor.hpp), which also reads MN-major 8- and 32-bit
// operands: mn_major_any_width.
template <class Offset>
TESSERA_HOST_DEVICE constexpr DescriptorFields gmma_descriptor_fields(Major major, int bits, int swz_bits, int swz_base,
                                                                      int swz_shift, int64_t mn_extent, int64_t k_extent,
                                                                      Offset const& offset, bool mn_major_any_width = false) {
  DescriptorFields r;
  if (bits != 8 && bits != 16 && bits != 32) { r.rule = DescriptorRule::element_bits; return r; }
  if (major == Major::MN && bits != 16 && !mn_major_any_width) { r.rule = DescriptorRule::mn_major_bits; return r; }
  const int64_t T = 128 / bits;
  if (swz_bits != 0 && (swz_bits > 3 || swz_base != detail::log2_exact(T) || swz_shift != 3)) {
    r.rule = DescriptorRule::swizzle;
    return r;
  }
  const int64_t W = int64_t(1) << swz_bits;
  r.type = layout_type_of_swizzle_bytes(int(16 * W));
  if (k_extent * bits != 256) { r.rule = DescriptorRule::k_extent; return r; }
  if (mn_extent <= 0 || mn_extent % (major == Major::K ? 8 : T * W) != 0) { r.rule = DescriptorRule::mn_extent; return r; }

  const int64_t o = offset(int64_t(0), int64_t(0));
  auto delta = [&](int64_t mn, int64_t k) { return int64_t(offset(mn, k)) - o; };
  // Strides of the canonical form, in elements, read off the layout (0 where unused).
  int64_t lbo = 0, sbo = 0;
  if (major == Major::K) {
    sbo = mn_extent > 8 ? delta(8, 0) : 0;
    lbo = W == 1 ? delta(0, T) : T;
  } else if (W == 1) {
    sbo = mn_extent > T ? delta(T, 0) : 0;
    lbo = k_extent > 8 ? delta(0, 8) : 0;
  } else {
    lbo = mn_extent > T * W ? delta(T * W, 0) : 0;
    sbo = k_extent > 8 ? delta(0, 8) : 0;
  }
  for (int64_t k = 0; k < k_extent; ++k) {
    for (int64_t mn = 0; mn < mn_extent; ++mn) {
      int64_t canonical = 0;
      if (major == Major::K) {
        const int64_t row = mn % 8, group = mn / 8, c = k % T, j = k / T;
        canonical = row * W * T + group * sbo + c + j * lbo;
      } else if (W == 1) {
        const int64_t c = mn % T, group = mn / T, row = k % 8, j = k / 8;
        canonical = c + row * T + group * sbo + j * lbo;
      } else {
        const int64_t c = mn % T, chunk = (mn / T) % W, group = mn / (T * W), row = k % 8, j = k / 8;
        canonical = c + chunk * T + row * W * T + group * lbo + j * sbo;
      }
      if (delta(mn, k) != canonical) {
        r.rule = DescriptorRule::not_canonical;
        r.bad_mn = mn;
        r.bad_k = k;
        return r;
      }
    }
  }
  // Elements to bytes; an offset in elements that is not a whole number of 16-byte units fails.
  auto bytes16 = [&](int64_t elements, int64_t& out) {
    if ((elements * bits) % 128 != 0) return false;
    out = elements * bits / 8;
    return true;
  };
  if (!bytes16(o, r.start_bytes) || !bytes16(lbo, r.lbo_bytes) || !bytes16(sbo, r.sbo_bytes)) {
    r.rule = DescriptorRule::offset_alignment;
    return r;
  }
  if (r.lbo_bytes < 0 || r.sbo_bytes < 0 || r.lbo_bytes >= (int64_t(1) << 18) || r.sbo_bytes >= (int64_t(1) << 18) ||
      r.start_bytes < 0) {
    r.rule = DescriptorRule::offset_range;
    return r;
  }
  if (major == Major::K && W != 1) r.lbo_bytes = 16;  // "not used, assumed 1" (in 16-byte units)
  return r;
}

// The descriptor from the fields and the buffer's shared-memory byte address (where the
// swizzled layout's offset 0 lies). The base offset is the ISA's (addr >> 7) & 7 of a
// pattern that does not start on its repeat boundary; tessera's swizzled tiles are
// functions of the offset from the buffer, so buffers should start on the boundary
// (then the base offset is 0 and the descriptor addresses exactly the layout's elements).
TESSERA_HOST_DEVICE constexpr GmmaDescriptor make_gmma_descriptor(DescriptorFields const& f, uint32_t buffer_address) {
  const uint32_t repeat = uint32_t(8 * swizzle_bytes_of(f.type));
  const uint32_t base = f.type == LayoutType::INTERLEAVE || buffer_address % repeat == 0 ? 0u : (buffer_address >> 7) & 7u;
  return GmmaDescriptor::make(uint64_t(buffer_address) + uint64_t(f.start_bytes), uint64_t(f.lbo_bytes),
                              uint64_t(f.sbo_bytes), base, f.type);
}

namespace detail {
// A static (MN, K) layout as the sum of its two modes' flat functions on int64 arrays:
// offset(mn, k) == Inner{}(mn, k) at every coordinate inside the tile (each mode's leaves
// split the mode's index colexicographically, as crd2idx splits it level by level), without
// crd2idx's tuple recursion at each of the tile's points in constant evaluation.
template <class Inner> struct static_tile_offsets {
  using S = typename tessera::detail::layout_parts<Inner>::shape;
  using D = typename tessera::detail::layout_parts<Inner>::stride;
  template <std::size_t I> using mode_t = std::remove_cvref_t<decltype(get<I>(std::declval<S const&>()))>;
  template <std::size_t I> using stride_t = std::remove_cvref_t<decltype(get<I>(std::declval<D const&>()))>;
  static constexpr auto mn_modes = tessera::detail::static_flat_modes<mode_t<0>, stride_t<0>>();
  static constexpr auto k_modes = tessera::detail::static_flat_modes<mode_t<1>, stride_t<1>>();
  TESSERA_HOST_DEVICE constexpr int64_t operator()(int64_t mn, int64_t k) const { return mn_modes(mn) + k_modes(k); }
};
template <Major MJ, int Bits, int B, int M, int S, class Inner>
TESSERA_HOST_DEVICE constexpr DescriptorFields static_descriptor_fields(bool mn_major_any_width = false) {
  return gmma_descriptor_fields(MJ, Bits, B, M, S, static_tile_offsets<Inner>::mn_modes.size(),
                                static_tile_offsets<Inner>::k_modes.size(), static_tile_offsets<Inner>{}, mn_major_any_width);
}
}  // namespace detail

// make_gmma_descriptor<Major, Bits>(tile, buffer_address): the descriptor of the (MN, K)
// operand tile `tile` = Sw o off o L (a slice of a staged smem tile) whose buffer starts at
// shared-memory byte address `buffer_address`. A static L that no descriptor can describe
// does not compile; the static_assert names the rule.
template <Major MJ, int Bits, int B, int M, int S, class F, class I>
TESSERA_HOST_DEVICE constexpr GmmaDescriptor make_gmma_descriptor(ComposedLayout<Swizzle<B, M, S>, F, I> const& tile,
                                                                  uint32_t buffer_address) {
  static_assert(I::rank == 2, "make_gmma_descriptor: the tile must be rank 2, (MN, K) (slice a divided tile as ((_, m), (_, k)))");
  static_assert(is_static_v<I>, "make_gmma_descriptor: the tile's layout must be static (the slice offset may be dynamic)");
  constexpr DescriptorFields f = detail::static_descriptor_fields<MJ, Bits, B, M, S, I>();
  static_assert(f.rule != DescriptorRule::element_bits, "make_gmma_descriptor: wgmma operands have 8-, 16- or 32-bit elements");
  static_assert(f.rule != DescriptorRule::mn_major_bits,
                "make_gmma_descriptor: wgmma reads MN-major operands of 16-bit elements only (f16, bf16)");
  static_assert(f.rule != DescriptorRule::swizzle,
                "make_gmma_descriptor: the swizzle must be GMMA's Sw<B, log2(16 bytes / element), 3> with B = 0..3");
  static_assert(f.rule != DescriptorRule::k_extent,
                "make_gmma_descriptor: the tile must be (MN, K) with K * element bits == 256 (32 bytes of K per wgmma)");
  static_assert(f.rule != DescriptorRule::mn_extent,
                "make_gmma_descriptor: MN must be a multiple of 8 (K-major) or of the swizzle atom's MN extent (MN-major)");
  static_assert(f.rule != DescriptorRule::not_canonical,
                "make_gmma_descriptor: the layout is not GMMA's canonical layout (8-row x 16-byte core matrices at strides LBO, SBO)");
  static_assert(f.rule != DescriptorRule::offset_alignment,
                "make_gmma_descriptor: LBO and SBO must be multiples of 16 bytes");
  static_assert(f.rule != DescriptorRule::offset_range, "make_gmma_descriptor: LBO and SBO must lie in [0, 2^18) bytes");
  if constexpr (is_static_v<F>)
    static_assert((F::value * Bits) % 128 == 0, "make_gmma_descriptor: the tile must start on a 16-byte boundary");
  // The slice offset (possibly dynamic) moves the start address only.
  DescriptorFields g = f;
  g.start_bytes += int64_t(to_i64(tile.offset())) * Bits / 8;
  return make_gmma_descriptor(g, buffer_address);
}
// A plain layout is the unswizzled (interleaved) case. A plain Layout carries no offset: a
// slice of one, l(crd), has dropped the offset of its origin (a composed layout's slice keeps
// it), so the offset in elements is an argument here; slice_and_offset(crd, l) gives both.
template <Major MJ, int Bits, class Sh, class St, class Offset>
TESSERA_HOST_DEVICE constexpr GmmaDescriptor make_gmma_descriptor(Layout<Sh, St> const& tile, Offset const& offset,
                                                                  uint32_t buffer_address) {
  return make_gmma_descriptor<MJ, Bits>(make_composed_layout(Swizzle<0, 4, 3>{}, offset, tile), buffer_address);
}
// make_gmma_descriptor<MJ, Bits>(slice_and_offset(crd, l), address)
template <Major MJ, int Bits, class Sh, class St, class Offset>
TESSERA_HOST_DEVICE constexpr GmmaDescriptor make_gmma_descriptor(tuple<Layout<Sh, St>, Offset> const& slice_offset,
                                                                  uint32_t buffer_address) {
  return make_gmma_descriptor<MJ, Bits>(get<0>(slice_offset), get<1>(slice_offset), buffer_address);
}
// Refused: a plain Layout without its offset (the trap: a slice's offset silently lost).
template <Major MJ, int Bits, class Sh, class St>
TESSERA_HOST_DEVICE constexpr GmmaDescriptor make_gmma_descriptor(Layout<Sh, St> const&, uint32_t) {
  static_assert(sizeof(Sh) == 0,
                "make_gmma_descriptor: a plain Layout carries no slice offset; pass it: make_gmma_descriptor<Major, Bits>(tile, "
                "offset, address), or make_gmma_descriptor<Major, Bits>(slice_and_offset(crd, layout), address)");
  return {};
}

}  // namespace GMMA
}  // namespace tessera
