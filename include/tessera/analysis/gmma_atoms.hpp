#pragma once
// Runtime tier of the GMMA shared-memory layout atoms (include/tessera/atom/gmma_layout.hpp)
// and of wgmma descriptors, for the CLI and for tests over generated tile sizes.
//
// Atom names, as the CLI takes them:  gmma_<major>_<swizzle>_<type>
//   major    k | mn
//   swizzle  inter (no swizzle) | sw32 | sw64 | sw128
//   type     an element type (f16 bf16 tf32 f32 s8 u8 e4m3 e5m2) or its width (b8 b16 b32)
// e.g. gmma_k_sw128_bf16 is Sw<3,3,3> o (8,64):(64,1).
#include <optional>
#include <string>
#include <string_view>

#include "tessera/rt/layout.hpp"
#include "tessera/atom/gmma_descriptor.hpp"

namespace tessera::analysis {

struct GmmaAtomSpec {
  int bits = 16;
  GMMA::Major major = GMMA::Major::K;
  int swizzle_bytes = 128;  // 16 = no swizzle
};

// The atom of a spec (same derivation as the static tier's GMMA::Layout_Atom).
// Throws rt::Error for a width or swizzle wgmma does not have.
rt::SwizzledLayout gmma_layout_atom(const GmmaAtomSpec& spec);

// Parse an atom name (see above); nullopt if `name` does not start with "gmma_", an
// rt::Error naming the bad part (with its position) if it does but is malformed.
std::optional<GmmaAtomSpec> parse_gmma_atom_name(std::string_view name);
std::string gmma_atom_name(const GmmaAtomSpec& spec);  // canonical spelling (type by width: b16)

// Descriptor fields of an (MN, K) operand tile of a runtime swizzled layout (rank 2).
GMMA::DescriptorFields gmma_descriptor_fields(GMMA::Major major, int bits, const rt::SwizzledLayout& tile,
                                              std::int64_t slice_offset = 0);

}  // namespace tessera::analysis
