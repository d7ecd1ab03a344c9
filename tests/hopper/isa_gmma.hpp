#pragma once
// An independent reading of a wgmma descriptor, straight from the PTX ISA: the byte address
// the hardware reads for element (mn, k) of an operand tile. Written in byte space from the
// decoded fields, core matrix by core matrix, with the swizzle applied to the absolute
// address (16-byte chunk bits [4, 4+b) XOR address bits [7, 7+b)). Tests compare it with the
// address tessera's layout gives the same element.
#include <cstdint>

#include "tessera/atom/gmma_descriptor.hpp"

namespace isa {

inline std::int64_t gmma_address(tessera::GMMA::GmmaDescriptor d, tessera::GMMA::Major major, int bits,
                                 std::int64_t mn, std::int64_t k) {
  using tessera::GMMA::LayoutType;
  const std::int64_t start = std::int64_t(d.start_address()) << 4;
  const std::int64_t lbo = std::int64_t(d.leading_byte_offset()) << 4;
  const std::int64_t sbo = std::int64_t(d.stride_byte_offset()) << 4;
  const LayoutType t = d.layout_type();
  const std::int64_t row_bytes = t == LayoutType::B128 ? 128 : t == LayoutType::B64 ? 64 : t == LayoutType::B32 ? 32 : 16;
  const std::int64_t per16 = 128 / bits;  // elements in 16 bytes
  const std::int64_t eb = bits / 8;
  std::int64_t a = start;
  if (major == tessera::GMMA::Major::K) {
    // core matrix (mn/8, k/per16): 8 rows of 16 bytes; rows row_bytes apart.
    const std::int64_t core_k = k / per16;
    a += (mn / 8) * sbo + (mn % 8) * row_bytes + (k % per16) * eb;
    a += t == LayoutType::INTERLEAVE ? core_k * lbo : core_k * 16;
  } else {
    // core matrix: 8 k-rows of 16 bytes along MN.
    const std::int64_t chunk = mn / per16;  // 16-byte chunk along MN
    a += (k % 8) * row_bytes + (mn % per16) * eb;
    if (t == LayoutType::INTERLEAVE) {
      a += chunk * sbo + (k / 8) * lbo;
    } else {
      const std::int64_t w = row_bytes / 16;
      a += (chunk % w) * 16 + (chunk / w) * lbo + (k / 8) * sbo;
    }
  }
  const std::int64_t w = row_bytes / 16;
  if (w > 1) a ^= ((a >> 7) & (w - 1)) << 4;
  return a;
}

}  // namespace isa
