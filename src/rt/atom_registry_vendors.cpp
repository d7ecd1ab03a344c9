// Ada FP8 mma.sync, SM120 mma.sync (FP8/FP6/FP4, block-scaled), AMD MFMA/WMMA and Intel DPAS by
// name; every layout comes from the static atom (tessera/atom/mma_sm89.hpp, mma_sm120.hpp,
// mma_amd.hpp, mma_intel.hpp). Names:
//   SM89_16x8x32_F32E4M3E5M2F32_TN                CuTe's
//   SM120_16x8x32_TN_E2M1E4M3F32                  SM120_16x8x32_TN<e2m1, e4m3, float> (_F16: half_t)
//   SM120_16x8x32_TN_VS_E4M3E4M3F32_UE8M0x32      SM120::BLOCKSCALED::SM120_16x8x32_TN_VS<e4m3, e4m3, float, ue8m0, 32>
//   SM120_16x8x64_TN_VS_E2M1E2M1F32_UE4M3x16      SM120::BLOCKSCALED::SM120_16x8x64_TN_VS<e2m1, e2m1, float, ue4m3, 16>
//   AMD_CDNA3_MFMA_32x32x8_F32F16F16F32           v_mfma_f32_32x32x8_f16 on gfx942
//   AMD_RDNA3_WMMA_16x16x16_F32F16F16F32          v_wmma_f32_16x16x16_f16 on gfx1100
//   INTEL_XE_HPC_DPAS_8x16x16_F32BF16BF16F32      DPAS, repeat count 8, subgroup 16
#include "atom_registry_vendors.hpp"

#include <string>
#include <type_traits>
#include <utility>

#include "tessera/atom/mma_amd.hpp"
#include "tessera/atom/mma_intel.hpp"
#include "tessera/atom/mma_sm120.hpp"
#include "tessera/atom/mma_sm89.hpp"
#include "tessera/rt/to_runtime.hpp"

namespace tessera::rt::detail {

namespace {

template <class T> constexpr const char* tag() {
  if constexpr (std::is_same_v<T, float>) return "f32";
  else if constexpr (std::is_same_v<T, half_t>) return "f16";
  else if constexpr (std::is_same_v<T, bfloat16_t>) return "bf16";
  else if constexpr (std::is_same_v<T, float_e4m3_t>) return "e4m3";
  else if constexpr (std::is_same_v<T, float_e5m2_t>) return "e5m2";
  else if constexpr (std::is_same_v<T, float_e3m2_t>) return "e3m2";
  else if constexpr (std::is_same_v<T, float_e2m3_t>) return "e2m3";
  else if constexpr (std::is_same_v<T, float_e2m1_t>) return "e2m1";
  else if constexpr (std::is_same_v<T, float_ue8m0_t>) return "ue8m0";
  else if constexpr (std::is_same_v<T, float_ue4m3_t>) return "ue4m3";
  else if constexpr (std::is_same_v<T, float_e4m3fnuz_t>) return "e4m3fnuz";
  else if constexpr (std::is_same_v<T, float_e5m2fnuz_t>) return "e5m2fnuz";
  else if constexpr (std::is_same_v<T, int8_t>) return "s8";
  else if constexpr (std::is_same_v<T, int32_t>) return "s32";
  else static_assert(sizeof(T) == 0, "a value type without a registry tag");
}
std::string upper(std::string s) {
  for (char& c : s) c = char(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  return s;
}

// One atom's entry from its traits (the layouts converted once per call: these atoms are few).
template <class Op>
[[gnu::noinline]] MmaAtomInfo info(std::string name, const char* arch, const char* vendor, int wave_size) {
  using T = MMA_Traits<Op>;
  using MNK = typename T::Shape_MNK;
  MmaAtomInfo i;
  i.name = std::move(name);
  i.arch = arch;
  i.vendor = vendor;
  i.wave_size = wave_size;
  i.types = std::string("D=") + tag<typename T::ValTypeD>() + " A=" + tag<typename T::ValTypeA>() +
            " B=" + tag<typename T::ValTypeB>() + " C=" + tag<typename T::ValTypeC>();
  i.m = std::remove_cvref_t<decltype(get<0>(MNK{}))>::value;
  i.n = std::remove_cvref_t<decltype(get<1>(MNK{}))>::value;
  i.k = std::remove_cvref_t<decltype(get<2>(MNK{}))>::value;
  i.thr_id = rt::to_runtime(typename T::ThrID{});
  i.a_tv = rt::to_runtime(typename T::ALayout{});
  i.b_tv = rt::to_runtime(typename T::BLayout{});
  i.c_tv = rt::to_runtime(typename T::CLayout{});
  i.a_bits = sizeof_bits_v<typename T::ValTypeA>;
  i.b_bits = sizeof_bits_v<typename T::ValTypeB>;
  if constexpr (requires { T::SFVecSize; }) {
    i.sf_vec = T::SFVecSize;
    i.sf_type = tag<typename T::ValTypeSF>();
    i.sfa_tv = rt::to_runtime(typename T::SFALayout{});
    i.sfb_tv = rt::to_runtime(typename T::SFBLayout{});
  }
  if constexpr (requires { T::instruction; }) i.instruction = T::instruction;
  return i;
}

// SM120 kind::f8f6f4 (f32 and f16 accumulators) and kind::mxf8f6f4: A and B of every FP8/FP6/FP4 type.
template <class A, class... Bs>
void add_sm120_row(std::vector<MmaAtomInfo>& v) {
  const std::string a = upper(tag<A>());
  ((v.push_back(info<SM120_16x8x32_TN<A, Bs, float>>("SM120_16x8x32_TN_" + a + upper(tag<Bs>()) + "F32", "SM120a",
                                                      "nvidia", 32))),
   ...);
  ((v.push_back(info<SM120_16x8x32_TN<A, Bs, half_t>>("SM120_16x8x32_TN_" + a + upper(tag<Bs>()) + "F16", "SM120a",
                                                       "nvidia", 32))),
   ...);
  ((v.push_back(info<SM120::BLOCKSCALED::SM120_16x8x32_TN_VS<A, Bs, float, float_ue8m0_t, 32>>(
       "SM120_16x8x32_TN_VS_" + a + upper(tag<Bs>()) + "F32_UE8M0x32", "SM120a", "nvidia", 32))),
   ...);
}
template <class... As>
void add_sm120_types(std::vector<MmaAtomInfo>& v) {
  (add_sm120_row<As, float_e4m3_t, float_e5m2_t, float_e3m2_t, float_e2m3_t, float_e2m1_t>(v), ...);
}

template <template <int> class Op, int... RC>
void add_dpas(std::vector<MmaAtomInfo>& v, const char* family, const char* types, const char* arch,
              std::integer_sequence<int, RC...>) {
  (v.push_back([&] {
     using T = MMA_Traits<Op<RC + 1>>;
     MmaAtomInfo i = info<Op<RC + 1>>("", arch, "intel", T::wave_size);
     i.name = std::string(family) + std::to_string(i.m) + "x" + std::to_string(i.n) + "x" + std::to_string(i.k) + "_" + types;
     i.instruction = "dpas.8x" + std::to_string(RC + 1);
     return i;
   }()),
   ...);
}

}  // namespace

void append_sm89_mma(std::vector<MmaAtomInfo>& v) {
#define TESSERA_ADD(OP) v.push_back(info<OP>(#OP, "SM89", "nvidia", 32));
  TESSERA_ADD(SM89_16x8x32_F32E4M3E4M3F32_TN)
  TESSERA_ADD(SM89_16x8x32_F32E4M3E5M2F32_TN)
  TESSERA_ADD(SM89_16x8x32_F32E5M2E4M3F32_TN)
  TESSERA_ADD(SM89_16x8x32_F32E5M2E5M2F32_TN)
  TESSERA_ADD(SM89_16x8x32_F16E4M3E4M3F16_TN)
  TESSERA_ADD(SM89_16x8x32_F16E4M3E5M2F16_TN)
  TESSERA_ADD(SM89_16x8x32_F16E5M2E4M3F16_TN)
  TESSERA_ADD(SM89_16x8x32_F16E5M2E5M2F16_TN)
#undef TESSERA_ADD
}

void append_sm120_mma(std::vector<MmaAtomInfo>& v) {
  add_sm120_types<float_e4m3_t, float_e5m2_t, float_e3m2_t, float_e2m3_t, float_e2m1_t>(v);
  using namespace SM120::BLOCKSCALED;
  v.push_back(info<SM120_16x8x64_TN_VS<float_e2m1_t, float_e2m1_t, float, float_ue8m0_t, 32>>(
      "SM120_16x8x64_TN_VS_E2M1E2M1F32_UE8M0x32", "SM120a", "nvidia", 32));
  v.push_back(info<SM120_16x8x64_TN_VS<float_e2m1_t, float_e2m1_t, float, float_ue8m0_t, 16>>(
      "SM120_16x8x64_TN_VS_E2M1E2M1F32_UE8M0x16", "SM120a", "nvidia", 32));
  v.push_back(info<SM120_16x8x64_TN_VS<float_e2m1_t, float_e2m1_t, float, float_ue4m3_t, 16>>(
      "SM120_16x8x64_TN_VS_E2M1E2M1F32_UE4M3x16", "SM120a", "nvidia", 32));
}

void append_amd_mma(std::vector<MmaAtomInfo>& v) {
#define TESSERA_ADD(OP, ARCH) v.push_back(info<OP>(#OP, ARCH, "amd", MMA_Traits<OP>::wave_size));
  TESSERA_ADD(AMD_CDNA3_MFMA_32x32x2_F32F32F32F32, "gfx942")
  TESSERA_ADD(AMD_CDNA3_MFMA_16x16x4_F32F32F32F32, "gfx942")
  TESSERA_ADD(AMD_CDNA3_MFMA_32x32x8_F32F16F16F32, "gfx942")
  TESSERA_ADD(AMD_CDNA3_MFMA_16x16x16_F32F16F16F32, "gfx942")
  TESSERA_ADD(AMD_CDNA3_MFMA_32x32x8_F32BF16BF16F32, "gfx942")
  TESSERA_ADD(AMD_CDNA3_MFMA_16x16x16_F32BF16BF16F32, "gfx942")
  TESSERA_ADD(AMD_CDNA3_MFMA_32x32x16_S32S8S8S32, "gfx942")
  TESSERA_ADD(AMD_CDNA3_MFMA_16x16x32_S32S8S8S32, "gfx942")
  TESSERA_ADD(AMD_CDNA3_MFMA_32x32x16_F32FP8FP8F32, "gfx942")
  TESSERA_ADD(AMD_CDNA3_MFMA_16x16x32_F32FP8FP8F32, "gfx942")
  TESSERA_ADD(AMD_CDNA3_MFMA_32x32x16_F32FP8BF8F32, "gfx942")
  TESSERA_ADD(AMD_CDNA3_MFMA_16x16x32_F32FP8BF8F32, "gfx942")
  TESSERA_ADD(AMD_CDNA3_MFMA_32x32x16_F32BF8FP8F32, "gfx942")
  TESSERA_ADD(AMD_CDNA3_MFMA_16x16x32_F32BF8FP8F32, "gfx942")
  TESSERA_ADD(AMD_CDNA3_MFMA_32x32x16_F32BF8BF8F32, "gfx942")
  TESSERA_ADD(AMD_CDNA3_MFMA_16x16x32_F32BF8BF8F32, "gfx942")
  TESSERA_ADD(AMD_RDNA3_WMMA_16x16x16_F32F16F16F32, "gfx1100")
  TESSERA_ADD(AMD_RDNA3_WMMA_16x16x16_F32BF16BF16F32, "gfx1100")
  TESSERA_ADD(AMD_RDNA3_WMMA_16x16x16_F16F16F16F16, "gfx1100")
  TESSERA_ADD(AMD_RDNA3_WMMA_16x16x16_S32S8S8S32, "gfx1100")
  TESSERA_ADD(AMD_RDNA4_WMMA_16x16x16_F32F16F16F32, "gfx1200")
  TESSERA_ADD(AMD_RDNA4_WMMA_16x16x16_F32BF16BF16F32, "gfx1200")
  TESSERA_ADD(AMD_RDNA4_WMMA_16x16x16_F16F16F16F16, "gfx1200")
  TESSERA_ADD(AMD_RDNA4_WMMA_16x16x16_S32S8S8S32, "gfx1200")
  TESSERA_ADD(AMD_RDNA4_WMMA_16x16x16_F32E4M3E4M3F32, "gfx1200")
  TESSERA_ADD(AMD_RDNA4_WMMA_16x16x16_F32E4M3E5M2F32, "gfx1200")
  TESSERA_ADD(AMD_RDNA4_WMMA_16x16x16_F32E5M2E4M3F32, "gfx1200")
  TESSERA_ADD(AMD_RDNA4_WMMA_16x16x16_F32E5M2E5M2F32, "gfx1200")
#undef TESSERA_ADD
}

void append_intel_mma(std::vector<MmaAtomInfo>& v) {
  const auto rc = std::make_integer_sequence<int, 8>{};  // repeat counts 1-8
  add_dpas<INTEL_XE_HPC_DPAS_F32BF16BF16F32>(v, "INTEL_XE_HPC_DPAS_", "F32BF16BF16F32", "xe-hpc", rc);
  add_dpas<INTEL_XE_HPC_DPAS_F32F16F16F32>(v, "INTEL_XE_HPC_DPAS_", "F32F16F16F32", "xe-hpc", rc);
  add_dpas<INTEL_XE_HPC_DPAS_S32S8S8S32>(v, "INTEL_XE_HPC_DPAS_", "S32S8S8S32", "xe-hpc", rc);
  add_dpas<INTEL_XE_HPG_DPAS_F32BF16BF16F32>(v, "INTEL_XE_HPG_DPAS_", "F32BF16BF16F32", "xe-hpg", rc);
  add_dpas<INTEL_XE_HPG_DPAS_F32F16F16F32>(v, "INTEL_XE_HPG_DPAS_", "F32F16F16F32", "xe-hpg", rc);
  add_dpas<INTEL_XE_HPG_DPAS_S32S8S8S32>(v, "INTEL_XE_HPG_DPAS_", "S32S8S8S32", "xe-hpg", rc);
}

}  // namespace tessera::rt::detail
