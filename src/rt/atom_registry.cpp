#include "tessera/rt/atom_registry.hpp"

#include "atom_registry_sm100.hpp"
#include "atom_registry_vendors.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "tessera/rt/to_runtime.hpp"
#include "tessera/atom/copy.hpp"
#include "tessera/atom/mma.hpp"
#include "tessera/atom/mma_sm90_8bit.hpp"

namespace tessera::rt {

namespace {

template <class T> constexpr const char* type_tag() {
  if constexpr (std::is_same_v<T, float>) return "f32";
  else if constexpr (std::is_same_v<T, double>) return "f64";
  else if constexpr (std::is_same_v<T, half_t>) return "f16";
  else if constexpr (std::is_same_v<T, bfloat16_t>) return "bf16";
  else if constexpr (std::is_same_v<T, tfloat32_t>) return "tf32";
  else if constexpr (std::is_same_v<T, float_e4m3_t>) return "e4m3";
  else if constexpr (std::is_same_v<T, float_e5m2_t>) return "e5m2";
  else if constexpr (std::is_same_v<T, int8_t>) return "s8";
  else if constexpr (std::is_same_v<T, uint8_t>) return "u8";
  else if constexpr (std::is_same_v<T, int32_t>) return "s32";
  else return "?";
}

// What the registry needs of an atom's traits, as constants: the work per atom is a constant
// table entry and one call of the (ThrID, A, B, C) layouts' conversion, which the atoms that
// share those layouts share (the wgmma atoms of one N and operand source, across value types).
// Building each entry's strings and layouts inline per atom made this file's compile time
// grow with the number of atoms.
struct AtomFacts {
  const char *d, *a, *b, *c;
  int64_t m, n, k;
  int a_bits, b_bits;
  void (*layouts)(MmaAtomInfo&);
};

template <class Thr, class A, class B, class C>
void set_tv_layouts(MmaAtomInfo& i) {
  i.thr_id = rt::to_runtime(Thr{});
  i.a_tv = rt::to_runtime(A{});
  i.b_tv = rt::to_runtime(B{});
  i.c_tv = rt::to_runtime(C{});
}

template <class Op>
constexpr AtomFacts facts_of() {
  using T = MMA_Traits<Op>;
  return {type_tag<typename T::ValTypeD>(),
          type_tag<typename T::ValTypeA>(),
          type_tag<typename T::ValTypeB>(),
          type_tag<typename T::ValTypeC>(),
          int64_t(std::remove_cvref_t<decltype(get<0>(typename T::Shape_MNK{}))>::value),
          int64_t(std::remove_cvref_t<decltype(get<1>(typename T::Shape_MNK{}))>::value),
          int64_t(std::remove_cvref_t<decltype(get<2>(typename T::Shape_MNK{}))>::value),
          int(sizeof_bits_v<typename T::ValTypeA>),
          int(sizeof_bits_v<typename T::ValTypeB>),
          &set_tv_layouts<typename T::ThrID, typename T::ALayout, typename T::BLayout, typename T::CLayout>};
}

MmaAtomInfo make_info(std::string name, std::string arch, const AtomFacts& f) {
  MmaAtomInfo i;
  i.name = std::move(name);
  i.arch = std::move(arch);
  i.types = std::string("D=") + f.d + " A=" + f.a + " B=" + f.b + " C=" + f.c;
  i.m = f.m;
  i.n = f.n;
  i.k = f.k;
  f.layouts(i);
  i.a_bits = f.a_bits;
  i.b_bits = f.b_bits;
  return i;
}

template <class Op>
MmaAtomInfo mma_info(std::string name, std::string arch) {
  return make_info(std::move(name), std::move(arch), facts_of<Op>());
}

// wgmma atoms of every N in `facts` (one entry per N), named SM90_64x<N>x<K>_<types>_<SS|RS><suffix>.
void add_wgmma_facts(std::vector<MmaAtomInfo>& v, const AtomFacts* facts, std::size_t count, const std::string& types_tag,
                     const std::string& src, const std::string& suffix = "") {
  for (std::size_t j = 0; j < count; ++j) {
    const AtomFacts& f = facts[j];
    v.push_back(make_info("SM90_64x" + std::to_string(f.n) + "x" + std::to_string(f.k) + "_" + types_tag + "_" + src + suffix,
                          "SM90a", f));
    v.back().a_smem = src == "SS";
    v.back().b_smem = true;
  }
}

template <template <int, GMMA::Major, GMMA::Major, GMMA::ScaleIn, GMMA::ScaleIn> class Op>
void add_wgmma(std::vector<MmaAtomInfo>& v, const std::string& types_tag, const std::string& src) {
  static constexpr auto facts = []<int... I>(std::integer_sequence<int, I...>) {
    return std::array<AtomFacts, sizeof...(I)>{
        facts_of<Op<8 * (I + 1), GMMA::Major::K, GMMA::Major::K, GMMA::ScaleIn::One, GMMA::ScaleIn::One>>()...};
  }(std::make_integer_sequence<int, 32>{});
  add_wgmma_facts(v, facts.data(), facts.size(), types_tag, src);
}

// ---- Hopper wgmma on 8-bit types (m64nNk32), named as CuTe names them (ending in _TN: A and
// B K-major). e4m3/e5m2 take every N = 8..256 in steps of 8, s8/u8 N = 8, 16, 24, 32 and then
// multiples of 16 (the PTX ISA's shapes).
template <int... I> constexpr auto times_8(std::integer_sequence<int, I...>) { return std::integer_sequence<int, 8 * (I + 1)...>{}; }
using Fp8WgmmaNs = decltype(times_8(std::make_integer_sequence<int, 32>{}));
using Int8WgmmaNs = std::integer_sequence<int, 8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256>;

template <template <int, GMMA::Major, GMMA::Major, GMMA::ScaleIn, GMMA::ScaleIn> class Op, int... N>
void add_wgmma_8bit(std::vector<MmaAtomInfo>& v, const std::string& types_tag, const std::string& src,
                    std::integer_sequence<int, N...>) {
  static constexpr std::array<AtomFacts, sizeof...(N)> facts{
      facts_of<Op<N, GMMA::Major::K, GMMA::Major::K, GMMA::ScaleIn::One, GMMA::ScaleIn::One>>()...};
  add_wgmma_facts(v, facts.data(), facts.size(), types_tag, src, "_TN");
}

void add_wgmma_8bit_atoms(std::vector<MmaAtomInfo>& v) {
#define TESSERA_ADD_8BIT(TAG, NS)                                   \
  add_wgmma_8bit<SM90_64xNx32_##TAG##_SS>(v, #TAG, "SS", NS{});     \
  add_wgmma_8bit<SM90_64xNx32_##TAG##_RS>(v, #TAG, "RS", NS{});
  TESSERA_ADD_8BIT(F16E4M3E4M3, Fp8WgmmaNs)
  TESSERA_ADD_8BIT(F16E4M3E5M2, Fp8WgmmaNs)
  TESSERA_ADD_8BIT(F16E5M2E4M3, Fp8WgmmaNs)
  TESSERA_ADD_8BIT(F16E5M2E5M2, Fp8WgmmaNs)
  TESSERA_ADD_8BIT(F32E4M3E4M3, Fp8WgmmaNs)
  TESSERA_ADD_8BIT(F32E4M3E5M2, Fp8WgmmaNs)
  TESSERA_ADD_8BIT(F32E5M2E4M3, Fp8WgmmaNs)
  TESSERA_ADD_8BIT(F32E5M2E5M2, Fp8WgmmaNs)
  TESSERA_ADD_8BIT(S32S8S8, Int8WgmmaNs)
  TESSERA_ADD_8BIT(S32S8U8, Int8WgmmaNs)
  TESSERA_ADD_8BIT(S32U8S8, Int8WgmmaNs)
  TESSERA_ADD_8BIT(S32U8U8, Int8WgmmaNs)
#undef TESSERA_ADD_8BIT
}
// ---- end of the 8-bit wgmma atoms

std::vector<MmaAtomInfo> build_mma() {
  std::vector<MmaAtomInfo> v;
  v.push_back(mma_info<UniversalFMA<float>>("UniversalFMA", "any"));
  v.back().vendor = "any";
#define TESSERA_ADD(OP, ARCH) v.push_back(mma_info<OP>(#OP, ARCH));
  TESSERA_ADD(SM70_8x8x4_F16F16F16F16_TN, "SM70")
  TESSERA_ADD(SM70_8x8x4_F16F16F16F16_NT, "SM70")
  TESSERA_ADD(SM70_8x8x4_F16F16F16F16_NN, "SM70")
  TESSERA_ADD(SM70_8x8x4_F16F16F16F16_TT, "SM70")
  TESSERA_ADD(SM70_8x8x4_F32F16F16F32_TN, "SM70")
  TESSERA_ADD(SM70_8x8x4_F32F16F16F32_NT, "SM70")
  TESSERA_ADD(SM70_8x8x4_F32F16F16F32_NN, "SM70")
  TESSERA_ADD(SM70_8x8x4_F32F16F16F32_TT, "SM70")
  TESSERA_ADD(SM75_16x8x8_F32F16F16F32_TN, "SM75")
  TESSERA_ADD(SM80_16x8x8_F16F16F16F16_TN, "SM80")
  TESSERA_ADD(SM80_16x8x8_F32F16F16F32_TN, "SM80")
  TESSERA_ADD(SM80_16x8x8_F32BF16BF16F32_TN, "SM80")
  TESSERA_ADD(SM80_16x8x16_F16F16F16F16_TN, "SM80")
  TESSERA_ADD(SM80_16x8x16_F32F16F16F32_TN, "SM80")
  TESSERA_ADD(SM80_16x8x16_F32BF16BF16F32_TN, "SM80")
  TESSERA_ADD(SM80_16x8x8_F32TF32TF32F32_TN, "SM80")
  TESSERA_ADD(SM80_8x8x4_F64F64F64F64_TN, "SM80")
  TESSERA_ADD(SM80_16x8x32_S32S8S8S32_TN, "SM80")
#undef TESSERA_ADD
  detail::append_sm89_mma(v);  // Ada FP8 mma.sync (atom_registry_vendors.cpp, as SM120, AMD, Intel below)
  add_wgmma<SM90_64xNx16_F16F16F16_SS>(v, "F16F16F16", "SS");
  add_wgmma<SM90_64xNx16_F16F16F16_RS>(v, "F16F16F16", "RS");
  add_wgmma<SM90_64xNx16_F32F16F16_SS>(v, "F32F16F16", "SS");
  add_wgmma<SM90_64xNx16_F32F16F16_RS>(v, "F32F16F16", "RS");
  add_wgmma<SM90_64xNx16_F32BF16BF16_SS>(v, "F32BF16BF16", "SS");
  add_wgmma<SM90_64xNx16_F32BF16BF16_RS>(v, "F32BF16BF16", "RS");
  add_wgmma<SM90_64xNx8_F32TF32TF32_SS>(v, "F32TF32TF32", "SS");
  add_wgmma<SM90_64xNx8_F32TF32TF32_RS>(v, "F32TF32TF32", "RS");
  add_wgmma_8bit_atoms(v);      // Hopper 8-bit wgmma (e4m3/e5m2, s8/u8)
  detail::append_sm100_mma(v);  // Blackwell tcgen05.mma (atom_registry_sm100.cpp)
  detail::append_sm120_mma(v);  // SM120 mma.sync: FP8/FP6/FP4, block-scaled
  detail::append_amd_mma(v);    // AMD CDNA3 MFMA, RDNA3/4 WMMA
  detail::append_intel_mma(v);  // Intel Xe-HPC / Xe-HPG DPAS
  return v;
}

template <class Op>
CopyAtomInfo copy_info(std::string name, std::string arch, std::string smem_side, int default_bits) {
  using T = Copy_Traits<Op>;
  CopyAtomInfo i;
  i.name = std::move(name);
  i.arch = std::move(arch);
  i.smem_side = std::move(smem_side);
  i.default_bits = default_bits;
  i.thr_id = rt::to_runtime(typename T::ThrID{});
  i.src_bits = rt::to_runtime(typename T::SrcLayout{});
  i.dst_bits = rt::to_runtime(typename T::DstLayout{});
  i.ref_bits = rt::to_runtime(typename T::RefLayout{});
  i.ref_is_dst = std::is_same_v<typename T::RefLayout, typename T::DstLayout> &&
                 !std::is_same_v<typename T::RefLayout, typename T::SrcLayout>;
  if (i.arch == "any") i.vendor = "any";
  return i;
}

std::vector<CopyAtomInfo> build_copy() {
  std::vector<CopyAtomInfo> v;
  v.push_back(copy_info<UniversalCopy<uint8_t>>("UniversalCopy<uint8_t>", "any", "either", 8));
  v.push_back(copy_info<UniversalCopy<uint16_t>>("UniversalCopy<uint16_t>", "any", "either", 16));
  v.push_back(copy_info<UniversalCopy<uint32_t>>("UniversalCopy<uint32_t>", "any", "either", 32));
  v.push_back(copy_info<UniversalCopy<uint64_t>>("UniversalCopy<uint64_t>", "any", "either", 16));
  v.push_back(copy_info<UniversalCopy<uint128_t>>("UniversalCopy<uint128_t>", "any", "either", 16));
  v.push_back(copy_info<SM75_U32x1_LDSM_N>("SM75_U32x1_LDSM_N", "SM75", "src", 16));
  v.push_back(copy_info<SM75_U32x2_LDSM_N>("SM75_U32x2_LDSM_N", "SM75", "src", 16));
  v.push_back(copy_info<SM75_U32x4_LDSM_N>("SM75_U32x4_LDSM_N", "SM75", "src", 16));
  v.push_back(copy_info<SM75_U16x2_LDSM_T>("SM75_U16x2_LDSM_T", "SM75", "src", 16));
  v.push_back(copy_info<SM75_U16x4_LDSM_T>("SM75_U16x4_LDSM_T", "SM75", "src", 16));
  v.push_back(copy_info<SM75_U16x8_LDSM_T>("SM75_U16x8_LDSM_T", "SM75", "src", 16));
  v.push_back(copy_info<SM90_U32x1_STSM_N>("SM90_U32x1_STSM_N", "SM90", "dst", 16));
  v.push_back(copy_info<SM90_U32x2_STSM_N>("SM90_U32x2_STSM_N", "SM90", "dst", 16));
  v.push_back(copy_info<SM90_U32x4_STSM_N>("SM90_U32x4_STSM_N", "SM90", "dst", 16));
  v.push_back(copy_info<SM90_U16x2_STSM_T>("SM90_U16x2_STSM_T", "SM90", "dst", 16));
  v.push_back(copy_info<SM90_U16x4_STSM_T>("SM90_U16x4_STSM_T", "SM90", "dst", 16));
  v.push_back(copy_info<SM90_U16x8_STSM_T>("SM90_U16x8_STSM_T", "SM90", "dst", 16));
  v.push_back(copy_info<SM80_CP_ASYNC_CACHEALWAYS<4>>("SM80_CP_ASYNC_CACHEALWAYS<4>", "SM80", "dst", 16));
  v.push_back(copy_info<SM80_CP_ASYNC_CACHEALWAYS<8>>("SM80_CP_ASYNC_CACHEALWAYS<8>", "SM80", "dst", 16));
  v.push_back(copy_info<SM80_CP_ASYNC_CACHEALWAYS<16>>("SM80_CP_ASYNC_CACHEALWAYS<16>", "SM80", "dst", 16));
  v.push_back(copy_info<SM80_CP_ASYNC_CACHEGLOBAL<16>>("SM80_CP_ASYNC_CACHEGLOBAL<16>", "SM80", "dst", 16));
  detail::append_sm100_copy(v);  // Blackwell tcgen05.ld/st (atom_registry_sm100.cpp)
  return v;
}

// CLI-friendly spellings: "UniversalCopy_128" for "UniversalCopy<uint128_t>", "..._16" for "<16>".
std::string canonical(const std::string& name) {
  static const std::pair<const char*, const char*> aliases[] = {
      {"UniversalCopy_8", "UniversalCopy<uint8_t>"},     {"UniversalCopy_16", "UniversalCopy<uint16_t>"},
      {"UniversalCopy_32", "UniversalCopy<uint32_t>"},   {"UniversalCopy_64", "UniversalCopy<uint64_t>"},
      {"UniversalCopy_128", "UniversalCopy<uint128_t>"}, {"SM80_CP_ASYNC_CACHEALWAYS_4", "SM80_CP_ASYNC_CACHEALWAYS<4>"},
      {"SM80_CP_ASYNC_CACHEALWAYS_8", "SM80_CP_ASYNC_CACHEALWAYS<8>"},
      {"SM80_CP_ASYNC_CACHEALWAYS_16", "SM80_CP_ASYNC_CACHEALWAYS<16>"},
      {"SM80_CP_ASYNC_CACHEGLOBAL_16", "SM80_CP_ASYNC_CACHEGLOBAL<16>"}};
  for (auto& [a, n] : aliases)
    if (name == a) return n;
  return name;
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t sub = prev[j - 1] + (std::tolower(a[i - 1]) == std::tolower(b[j - 1]) ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

const std::vector<MmaAtomInfo>& mma_atoms() {
  static const std::vector<MmaAtomInfo> v = build_mma();
  return v;
}
const std::vector<CopyAtomInfo>& copy_atoms() {
  static const std::vector<CopyAtomInfo> v = build_copy();
  return v;
}

const MmaAtomInfo* find_mma(const std::string& name) {
  for (const auto& a : mma_atoms())
    if (a.name == name) return &a;
  return nullptr;
}
const CopyAtomInfo* find_copy(const std::string& name) {
  const std::string n = canonical(name);
  for (const auto& a : copy_atoms())
    if (a.name == n) return &a;
  return nullptr;
}

std::vector<std::string> mma_names() {
  std::vector<std::string> v;
  for (const auto& a : mma_atoms()) v.push_back(a.name);
  return v;
}
std::vector<std::string> copy_names() {
  std::vector<std::string> v;
  for (const auto& a : copy_atoms()) v.push_back(a.name);
  return v;
}

std::vector<std::string> close_matches(const std::string& name, const std::vector<std::string>& known,
                                       std::size_t limit) {
  // Rank: names containing the query (case-insensitive) first, then by edit distance.
  const std::string q = lower(name);
  std::vector<std::pair<std::size_t, std::string>> scored;
  for (const auto& k : known) {
    const bool contains = !q.empty() && lower(k).find(q) != std::string::npos;
    std::size_t d = edit_distance(name, k);
    if (contains || d <= std::max<std::size_t>(3, name.size() / 3)) scored.emplace_back(contains ? 0 : d + 1, k);
  }
  std::stable_sort(scored.begin(), scored.end(), [](auto& a, auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (auto& s : scored) {
    if (out.size() == limit) break;
    out.push_back(s.second);
  }
  return out;
}

}  // namespace tessera::rt
