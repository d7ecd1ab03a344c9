// Runtime GMMA atoms, their names, and descriptor fields of runtime tiles.
#include "tessera/analysis/gmma_atoms.hpp"

#include "tessera/rt/error.hpp"

namespace tessera::analysis {

namespace {
int log2_exact(int x) { return GMMA::detail::log2_exact(x); }
}  // namespace

rt::SwizzledLayout gmma_layout_atom(const GmmaAtomSpec& s) {
  if (s.bits != 8 && s.bits != 16 && s.bits != 32)
    throw rt::Error("a GMMA atom's elements are 8, 16 or 32 bits wide, not " + std::to_string(s.bits));
  if (s.swizzle_bytes != 16 && s.swizzle_bytes != 32 && s.swizzle_bytes != 64 && s.swizzle_bytes != 128)
    throw rt::Error("a GMMA atom's swizzle is 16 (none), 32, 64 or 128 bytes, not " + std::to_string(s.swizzle_bytes));
  const int T = 128 / s.bits, W = s.swizzle_bytes / 16, row = T * W;
  const rt::Layout inner = s.major == GMMA::Major::K
                               ? rt::Layout(rt::IntTuple::tuple({8, row}), rt::IntTuple::tuple({row, 1}))
                               : rt::Layout(rt::IntTuple::tuple({row, 8}), rt::IntTuple::tuple({1, row}));
  return rt::SwizzledLayout{rt::Swizzle(log2_exact(W), log2_exact(T), 3), inner};
}

std::optional<GmmaAtomSpec> parse_gmma_atom_name(std::string_view name) {
  constexpr std::string_view prefix = "gmma_";
  if (name.substr(0, prefix.size()) != prefix) return std::nullopt;
  // Three '_'-separated parts after the prefix.
  std::size_t pos = prefix.size();
  std::string_view part[3];
  std::size_t at[3] = {0, 0, 0};
  for (int i = 0; i < 3; ++i) {
    const std::size_t end = i < 2 ? name.find('_', pos) : name.size();
    if (end == std::string_view::npos)
      throw rt::Error("a GMMA atom name is gmma_<k|mn>_<inter|sw32|sw64|sw128>_<type>, e.g. gmma_k_sw128_bf16", pos);
    part[i] = name.substr(pos, end - pos);
    at[i] = pos;
    pos = end + 1;
  }
  GmmaAtomSpec s;
  if (part[0] == "k") s.major = GMMA::Major::K;
  else if (part[0] == "mn") s.major = GMMA::Major::MN;
  else throw rt::Error("GMMA atom: the major is k or mn, not '" + std::string(part[0]) + "'", at[0]);
  if (part[1] == "inter") s.swizzle_bytes = 16;
  else if (part[1] == "sw32") s.swizzle_bytes = 32;
  else if (part[1] == "sw64") s.swizzle_bytes = 64;
  else if (part[1] == "sw128") s.swizzle_bytes = 128;
  else throw rt::Error("GMMA atom: the swizzle is inter, sw32, sw64 or sw128, not '" + std::string(part[1]) + "'", at[1]);
  const std::string_view t = part[2];
  if (t == "f16" || t == "bf16" || t == "b16") s.bits = 16;
  else if (t == "tf32" || t == "f32" || t == "b32") s.bits = 32;
  else if (t == "s8" || t == "u8" || t == "e4m3" || t == "e5m2" || t == "b8") s.bits = 8;
  else
    throw rt::Error("GMMA atom: the element type is f16, bf16, tf32, f32, s8, u8, e4m3, e5m2 (or b8, b16, b32), not '" +
                        std::string(t) + "'",
                    at[2]);
  return s;
}

std::string gmma_atom_name(const GmmaAtomSpec& s) {
  const char* sw = s.swizzle_bytes == 16 ? "inter" : s.swizzle_bytes == 32 ? "sw32" : s.swizzle_bytes == 64 ? "sw64" : "sw128";
  return std::string("gmma_") + (s.major == GMMA::Major::K ? "k" : "mn") + "_" + sw + "_b" + std::to_string(s.bits);
}

GMMA::DescriptorFields gmma_descriptor_fields(GMMA::Major major, int bits, const rt::SwizzledLayout& tile,
                                              std::int64_t slice_offset) {
  if (tile.layout.rank() != 2) throw rt::Error("a wgmma operand tile is rank 2, (MN, K): " + rt::to_string(tile));
  const rt::Layout mn = tile.layout.mode(0), k = tile.layout.mode(1);
  return GMMA::gmma_descriptor_fields(major, bits, tile.swizzle.bits, tile.swizzle.base, tile.swizzle.shift, mn.size(),
                                      k.size(), [&](std::int64_t i, std::int64_t j) { return slice_offset + mn(i) + k(j); });
}

}  // namespace tessera::analysis
