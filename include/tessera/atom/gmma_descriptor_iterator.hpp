#pragma once
// Descriptor fragments: a wgmma operand in shared memory seen as a tensor of descriptors.
//
// A wgmma reads its shared-memory operand through one 64-bit descriptor of the whole (MN, K)
// atom tile (gmma_descriptor.hpp). The tiles one thread's instructions read, e.g. the
// (64, 16) tiles of A at every (m, k, stage) of a staged smem tile, differ only in where they
// start: the canonical layout (LBO, SBO, swizzle mode) is the same for all of them, because the
// smem layout Sw o off o L is affine in L. So they form a tensor whose iterator is a
// descriptor and whose strides are L's element strides in 16-byte units:
//
//   DescriptorIterator it{d}:  *it == d;  it + n  moves d's start address n x 16 bytes;
//                              it[n] == *(it + n)
//   make_descriptor_fragment<Major>(t):  t = (V, rest...) a thread's partition of a swizzled
//       smem tensor (partition_A/B of a TiledMma of a wgmma atom), V its (MN, K) atom tile
//       -> (1, rest...) : (0, rest's strides x Bits / 128) over DescriptorIterator{descriptor
//          of t(V) at t's address}
//
// Element (0, m, k, s) of the fragment is then make_gmma_descriptor of the tile at (m, k, s):
// the start address moves by the tile's offset before the swizzle, which is what the hardware
// wants (it applies the swizzle to the address bits it forms: the descriptor's swizzle mode).
// A stride that is not a whole number of 16-byte units has no descriptor step: refused.
#include <cstdint>
#include <type_traits>

#include "tessera/atom/gmma_descriptor.hpp"
#include "tessera/tensor.hpp"

namespace tessera {
namespace GMMA {

// The start address field is 14 bits of 16-byte units (the low 2^18 bytes of the shared
// window); moving it by `units` must stay inside it: a carry would run into the reserved bits
// and then into the LBO.
TESSERA_HOST_DEVICE constexpr bool start_address_stays_in_field(GmmaDescriptor d, int64_t units) {
  const int64_t moved = int64_t(d.start_address()) + units;
  return moved >= 0 && moved < (int64_t(1) << 14);
}

struct DescriptorIterator {
  using value_type = GmmaDescriptor;
  GmmaDescriptor desc_;

  TESSERA_HOST_DEVICE constexpr GmmaDescriptor operator*() const { return desc_; }
  template <class Units> TESSERA_HOST_DEVICE constexpr GmmaDescriptor operator[](Units const& units) const;
};

// it + units: the same descriptor with its start address `units` x 16 bytes further on.
// Only the low 32-bit word changes (one 32-bit add on the device); in-range operands never
// carry out of the 14-bit field, which debug host builds check.
template <class Units>
TESSERA_HOST_DEVICE constexpr DescriptorIterator operator+(DescriptorIterator const& it, Units const& units) {
  const int64_t n = int64_t(units);
  TESSERA_EXPECTS(start_address_stays_in_field(it.desc_, n),
                  "GMMA::DescriptorIterator: the start address left its 14-bit field (the shared window's 2^18 bytes)");
  const uint32_t lo = uint32_t(it.desc_.desc) + uint32_t(n);
  GmmaDescriptor d;
  d.desc = (it.desc_.desc & ~uint64_t(0xFFFFFFFFu)) | uint64_t(lo);
  return DescriptorIterator{d};
}
template <class Units>
TESSERA_HOST_DEVICE constexpr GmmaDescriptor DescriptorIterator::operator[](Units const& units) const {
  return *(*this + units);
}

// A descriptor fragment: a tensor over a DescriptorIterator (a view of a Tensor's slice too).
template <class T> inline constexpr bool is_descriptor_fragment_v = false;
template <class L> inline constexpr bool is_descriptor_fragment_v<Tensor<DescriptorIterator, L>> = true;
template <class T> inline constexpr bool is_descriptor_fragment_v<T const> = is_descriptor_fragment_v<T>;
template <class T> inline constexpr bool is_descriptor_fragment_v<T&> = is_descriptor_fragment_v<T>;
template <class T> inline constexpr bool is_descriptor_fragment_v<T&&> = is_descriptor_fragment_v<T>;

// The shared-memory byte address of a pointer into shared memory, as a descriptor takes it.
// On the device: the generic-to-shared conversion. On the host, where nothing is in shared
// memory, the pointer's value modulo the 2^18-byte window the descriptor encodes: a test that
// wants descriptors for buffer address A makes the tensor over reinterpret_cast<T*>(A) (or
// over a host buffer aligned as the smem buffer would be); only the value is used.
template <class T>
TESSERA_HOST_DEVICE inline uint32_t smem_address(T const* p) {
#if defined(__CUDA_ARCH__)
  return uint32_t(__cvta_generic_to_shared(p));
#else
  return uint32_t(reinterpret_cast<uintptr_t>(p) & 0x3FFFFu);
#endif
}

namespace detail {
// An element stride as a descriptor step: stride x Bits / 128 (16-byte units).
template <int Bits, class D>
TESSERA_HOST_DEVICE constexpr auto stride_in_16_bytes(D const& d) {
  if constexpr (is_static_v<D>) {
    static_assert((D::value * Bits) % 128 == 0,
                  "make_descriptor_fragment: every mode's stride must be a whole number of 16-byte units "
                  "(a wgmma descriptor's start address moves in 16-byte steps)");
    return C<D::value * Bits / 128>{};
  } else {
    TESSERA_EXPECTS((int64_t(d) * Bits) % 128 == 0,
                    "make_descriptor_fragment: every mode's stride must be a whole number of 16-byte units");
    return int64_t(d) * Bits / 128;
  }
}
}  // namespace detail

// make_descriptor_fragment<Major>(t): see the top of this file. `t` is a tensor of a raw
// pointer into shared memory (its address: smem_address) and a layout of rank >= 2 whose mode 0
// is one wgmma's (MN, K) operand tile: a swizzled Sw o off o L (the offset, static or
// dynamic, stays inside it, the pointer at the swizzle's repeat) or a plain Layout (no
// swizzle; the pointer at the slice's origin).
template <Major MJ, class T, class L>
TESSERA_HOST_DEVICE constexpr auto make_descriptor_fragment(Tensor<T*, L> const& t) {
  constexpr int Bits = sizeof_bits_v<T>;
  const uint32_t address = smem_address(t.data());
  TESSERA_EXPECTS(address % 16 == 0, "make_descriptor_fragment: the shared-memory tensor must start on a 16-byte boundary");
  auto units = [](auto const& l) {
    static_assert(rank_v<decltype(l.shape())> >= 2,
                  "make_descriptor_fragment: expects (V, rest...) with V one wgmma's (MN, K) tile (partition_A/B's result)");
    auto rest = take<1, rank_v<decltype(l.shape())>>(l);
    auto steps = transform_leaf(rest.stride(), [](auto const& d) { return detail::stride_in_16_bytes<Bits>(d); });
    return prepend(make_layout(rest.shape(), steps), Layout<_1, _0>{});
  };
  if constexpr (is_composed_layout_v<L>) {
    auto const& l = t.layout();
    auto tile = make_composed_layout(l.outer(), l.offset(), layout<0>(l.inner()));
    TESSERA_EXPECTS((int64_t(l.offset()) * Bits) % 128 == 0, "make_descriptor_fragment: the tile must start on a 16-byte boundary");
    return make_tensor(DescriptorIterator{make_gmma_descriptor<MJ, Bits>(tile, address)}, units(l.inner()));
  } else {
    return make_tensor(DescriptorIterator{make_gmma_descriptor<MJ, Bits>(layout<0>(t.layout()), C<0>{}, address)},
                       units(t.layout()));
  }
}

}  // namespace GMMA
}  // namespace tessera
