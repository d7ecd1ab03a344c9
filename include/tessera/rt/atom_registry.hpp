// The atoms the CLI knows, by name, with their TV layouts as runtime values.  Every
// layout comes from the static atom (include/tessera/atom) through to_runtime, so there
// is one definition.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tessera/rt/layout.hpp"

namespace tessera::rt {

struct MmaAtomInfo {
  std::string name;
  std::string arch;         // "SM80", "SM90a", "gfx942", "xe-hpc", "any"
  std::string vendor = "nvidia";  // "nvidia", "amd", "intel"; "any" (UniversalFMA)
  // Lanes of the warp (NVIDIA: 32), wavefront (AMD CDNA: 64, RDNA: 32) or subgroup (Intel Xe:
  // 16 or 8) the atom's threads belong to: drawings and analyses group threads by it.
  int wave_size = 32;
  std::string instruction;  // the vendor's mnemonic where the name is not it (AMD: v_mfma_...)
  std::string types;        // "D=f32 A=f16 B=f16 C=f32"
  std::int64_t m = 1, n = 1, k = 1;
  rt::Layout thr_id;        // atom thread -> thread in the warp / warpgroup
  rt::Layout a_tv, b_tv, c_tv;  // (thread, value) -> column-major (m,k) / (n,k) / (m,n)
  int a_bits = 0, b_bits = 0;   // element widths of A and B
  // A / B read from shared memory through a wgmma descriptor (SM90 SS: both; RS: B), not
  // from registers: their TV layouts give every thread the whole operand.
  bool a_smem = false, b_smem = false;
  // Blackwell tcgen05.mma (0 elsewhere): its CTAs (1, or 2 for a CTA pair: the atom's "threads"
  // are CTAs), A read from tensor memory (_TS), and where one CTA's accumulator lives in tensor
  // memory: (m, n) of its (M/cta_group, N) tile -> lane + 128 * column.
  int cta_group = 0;
  bool a_tmem = false;
  std::uint32_t idesc = 0;  // the instruction descriptor (A and B K-major, no negation)
  rt::Layout tmem_c;
  // Block-scaled atoms (SM120 mma.sync and SM100 tcgen05.mma .kind::mxf8f6f4 / .kind::mxf4 /
  // .kind::mxf4nvf4; sf_vec 0 elsewhere): one scale
  // factor of type sf_type per sf_vec consecutive K elements, and which thread holds it, as
  // layouts like a_tv / b_tv: (thread, value) -> m + M*k (SFA) and n + N*k (SFB).
  int sf_vec = 0;
  std::string sf_type;
  rt::Layout sfa_tv, sfb_tv;
  // Block-scaled tcgen05.mma (SM100): the scale factors' block in global and shared memory
  // (CUTLASS's 128 x 4 block: (mn, k) -> offset), and where one MMA's scale factors sit in one
  // CTA's tensor memory: ((mn, copy), k) -> lane + 128 * byte, mn the rows of A that CTA holds
  // (M / cta_group) or B's N rounded up to 128 (empty for other atoms).
  rt::Layout sf_atom, tmem_sfa, tmem_sfb;
};

struct CopyAtomInfo {
  std::string name;
  std::string arch;
  std::string vendor = "nvidia";  // "any" for UniversalCopy
  std::string smem_side;    // "src" (ldmatrix), "dst" (cp.async), "either", "none" (tensor memory)
  int default_bits = 16;    // element width used when the CLI is not told
  rt::Layout thr_id;
  rt::Layout src_bits, dst_bits, ref_bits;  // (thread, value) -> bit of the data moved
  bool ref_is_dst = false;
  // Tensor-memory atoms (tcgen05.ld/st; empty elsewhere): the atom's logical bit -> tensor-memory
  // bit address lane * 2^21 + 32 * column + bit, CuTe's ValID.
  rt::Layout val_id;
  bool tmem_src = false, tmem_dst = false;  // which side is tensor memory
};

const std::vector<MmaAtomInfo>& mma_atoms();
const std::vector<CopyAtomInfo>& copy_atoms();

// nullptr when unknown.
const MmaAtomInfo* find_mma(const std::string& name);
const CopyAtomInfo* find_copy(const std::string& name);

// Known names closest to `name` (edit distance, substrings first), at most `limit`.
std::vector<std::string> close_matches(const std::string& name, const std::vector<std::string>& known,
                                       std::size_t limit = 5);
std::vector<std::string> mma_names();
std::vector<std::string> copy_names();

}  // namespace tessera::rt
