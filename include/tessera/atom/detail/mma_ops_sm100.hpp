// The instruction side of tessera's Blackwell (SM100) MMA atoms: tcgen05.mma (PTX ISA,
// "TensorCore 5th Generation Family Instructions", tcgen05.mma). One thread issues the MMA for
// its CTA (cta_group::1) or for the CTA pair (cta_group::2); the operands are descriptors and
// tensor-memory addresses, not registers:
//   A  a shared-memory matrix descriptor (SS) or a tensor-memory address (TS)
//   B  a shared-memory matrix descriptor
//   D  a tensor-memory address (the accumulator, in place)
//   idesc  the 32-bit instruction descriptor (UMMA::make_instr_desc) that carries the kind's
//          types, M, N and the operands' majors.
// Layout traits (the atom's TV layouts) live in tessera/atom/mma_sm100.hpp.
#pragma once

#include <cstdint>
#include <type_traits>

#include "tessera/atom/detail/arch.hpp"
#include "tessera/atom/numeric.hpp"
#include "tessera/atom/numeric_narrow.hpp"

#if defined(__CUDA_ARCH_FEAT_SM100_ALL) || defined(__CUDA_ARCH_FEAT_SM103_ALL)
#define TESSERA_TCGEN05_ENABLED 1
#endif

namespace tessera {

namespace UMMA {
enum class Major : int { K = 0, MN = 1 };          // operand's contiguous mode
enum class ScaleIn : int { One = 0, Neg = 1 };     // negate an input operand (idesc bits 13, 14)
enum class ScaleOut : int { Zero = 0, One = 1 };   // D = A*B (Zero) or A*B + D (One)

// The instruction descriptor's type fields (PTX ISA, tcgen05 "Instruction descriptor"):
// D format (bits 4-5), A and B formats (bits 7-9, 10-12; their meaning depends on the kind).
enum class CFormat : int { F16 = 0, F32 = 1, S32 = 2 };
enum class F16F32Format : int { F16 = 0, BF16 = 1, TF32 = 2 };
enum class S8Format : int { U8 = 0, S8 = 1 };
// .kind::f8f6f4 and .kind::mxf8f6f4: each element in a byte of shared (or tensor) memory.
enum class F8F6F4Format : int { E4M3 = 0, E5M2 = 1, E2M3 = 3, E3M2 = 4, E2M1 = 5 };
// .kind::mxf4 and .kind::mxf4nvf4: two e2m1 elements a byte.
enum class F4Format : int { E2M1 = 1 };
// Block-scaled kinds: the scale factors' type (bit 23).
enum class ScaleFormat : int { UE4M3 = 0, UE8M0 = 1 };

template <class T>
TESSERA_HOST_DEVICE constexpr int c_format() {
  if constexpr (std::is_same_v<T, half_t>) return int(CFormat::F16);
  else if constexpr (std::is_same_v<T, float>) return int(CFormat::F32);
  else {
    static_assert(std::is_same_v<T, int32_t>, "tcgen05.mma accumulates in f16, f32 or s32");
    return int(CFormat::S32);
  }
}
template <class T>
TESSERA_HOST_DEVICE constexpr int ab_format() {
  if constexpr (std::is_same_v<T, half_t>) return int(F16F32Format::F16);
  else if constexpr (std::is_same_v<T, bfloat16_t>) return int(F16F32Format::BF16);
  else if constexpr (std::is_same_v<T, tfloat32_t>) return int(F16F32Format::TF32);
  else if constexpr (std::is_same_v<T, int8_t>) return int(S8Format::S8);
  else if constexpr (std::is_same_v<T, uint8_t>) return int(S8Format::U8);
  else if constexpr (std::is_same_v<T, float_e4m3_t>) return int(F8F6F4Format::E4M3);
  else if constexpr (std::is_same_v<T, float_e5m2_t>) return int(F8F6F4Format::E5M2);
  else if constexpr (std::is_same_v<T, float_e2m3_t>) return int(F8F6F4Format::E2M3);
  else if constexpr (std::is_same_v<T, float_e3m2_t>) return int(F8F6F4Format::E3M2);
  else {
    static_assert(std::is_same_v<T, float_e2m1_t>,
                  "tcgen05.mma: A and B are f16, bf16, tf32, s8, u8, e4m3, e5m2, e2m3, e3m2 or e2m1");
    return int(F8F6F4Format::E2M1);
  }
}
// A and B formats of a block-scaled kind: .kind::mxf4 and .kind::mxf4nvf4 number e2m1 apart.
template <class T, bool PackedF4>
TESSERA_HOST_DEVICE constexpr int block_scaled_ab_format() {
  if constexpr (PackedF4) {
    static_assert(std::is_same_v<T, float_e2m1_t>, "tcgen05.mma .kind::mxf4 / .kind::mxf4nvf4: A and B are e2m1");
    return int(F4Format::E2M1);
  } else {
    return ab_format<T>();
  }
}
template <class T>
TESSERA_HOST_DEVICE constexpr int scale_format() {
  if constexpr (std::is_same_v<T, float_ue4m3_t>) return int(ScaleFormat::UE4M3);
  else {
    static_assert(std::is_same_v<T, float_ue8m0_t>, "tcgen05.mma block scaling: scale factors are ue8m0 or ue4m3");
    return int(ScaleFormat::UE8M0);
  }
}

// The 32-bit instruction descriptor of the dense kinds f16, tf32, f8f6f4 and i8:
//   bits 0-1 sparsity selector, 2 sparsity, 3 saturate, 4-5 D format, 7-9 A format,
//   10-12 B format, 13/14 negate A/B, 15/16 transpose (MN-major) A/B, 17-22 N >> 3,
//   24-28 M >> 4, 30-31 maximum shift (.ws only).
struct InstrDescriptor {
  uint32_t desc = 0;
  TESSERA_HOST_DEVICE constexpr int c_format() const { return int((desc >> 4) & 0x3); }
  TESSERA_HOST_DEVICE constexpr int a_format() const { return int((desc >> 7) & 0x7); }
  TESSERA_HOST_DEVICE constexpr int b_format() const { return int((desc >> 10) & 0x7); }
  TESSERA_HOST_DEVICE constexpr bool a_negate() const { return (desc >> 13) & 1; }
  TESSERA_HOST_DEVICE constexpr bool b_negate() const { return (desc >> 14) & 1; }
  TESSERA_HOST_DEVICE constexpr Major a_major() const { return Major(int((desc >> 15) & 1)); }
  TESSERA_HOST_DEVICE constexpr Major b_major() const { return Major(int((desc >> 16) & 1)); }
  TESSERA_HOST_DEVICE constexpr int n() const { return int((desc >> 17) & 0x3F) << 3; }
  TESSERA_HOST_DEVICE constexpr int m() const { return int((desc >> 24) & 0x1F) << 4; }
};

// The descriptor from its fields' values (the formats' codes above); make_instr_desc names them by
// type, the registry by code.
TESSERA_HOST_DEVICE constexpr InstrDescriptor instr_desc(int c_fmt, int a_fmt, int b_fmt, int m, int n,
                                                         Major major_a = Major::K, Major major_b = Major::K,
                                                         ScaleIn neg_a = ScaleIn::One, ScaleIn neg_b = ScaleIn::One) {
  InstrDescriptor d;
  d.desc = (uint32_t(c_fmt) << 4) | (uint32_t(a_fmt) << 7) | (uint32_t(b_fmt) << 10) | (uint32_t(neg_a) << 13) |
           (uint32_t(neg_b) << 14) | (uint32_t(major_a) << 15) | (uint32_t(major_b) << 16) |
           (uint32_t(n >> 3) << 17) | (uint32_t(m >> 4) << 24);
  return d;
}
template <class A, class B, class C, int M, int N, Major MajorA, Major MajorB, ScaleIn NegA = ScaleIn::One,
          ScaleIn NegB = ScaleIn::One>
TESSERA_HOST_DEVICE constexpr InstrDescriptor make_instr_desc() {
  return instr_desc(c_format<C>(), ab_format<A>(), ab_format<B>(), M, N, MajorA, MajorB, NegA, NegB);
}

// The instruction descriptor of the block-scaled kinds mxf8f6f4, mxf4 and mxf4nvf4 (PTX ISA,
// tcgen05 "Instruction descriptor", the block-scaled column): no D format (D is f32), and
//   bits 0-1 sparsity selector, 2 sparsity, 4-5 B's scale-factor ID, 7-9 A format,
//   10-12 B format, 13/14 negate A/B, 15/16 transpose (MN-major) A/B, 17-22 N >> 3,
//   23 scale type (0 ue4m3, 1 ue8m0), 24-28 M >> 4, 29-30 A's scale-factor ID, 31 K
//   (0: K = 32 for mxf8f6f4, 64 for mxf4 and mxf4nvf4, dense).
// The scale-factor IDs pick the byte of a 32-bit tensor-memory column that the first scale
// factor sits in: the two top bits of the scale_A / scale_B tensor-memory address (CuTe's
// make_runtime_instr_desc_block_scaled); make_instr_desc_block_scaled leaves them 0.
struct InstrDescriptorBlockScaled {
  uint32_t desc = 0;
  TESSERA_HOST_DEVICE constexpr int b_sf_id() const { return int((desc >> 4) & 0x3); }
  TESSERA_HOST_DEVICE constexpr int a_format() const { return int((desc >> 7) & 0x7); }
  TESSERA_HOST_DEVICE constexpr int b_format() const { return int((desc >> 10) & 0x7); }
  TESSERA_HOST_DEVICE constexpr Major a_major() const { return Major(int((desc >> 15) & 1)); }
  TESSERA_HOST_DEVICE constexpr Major b_major() const { return Major(int((desc >> 16) & 1)); }
  TESSERA_HOST_DEVICE constexpr int n() const { return int((desc >> 17) & 0x3F) << 3; }
  TESSERA_HOST_DEVICE constexpr int scale_format() const { return int((desc >> 23) & 1); }
  TESSERA_HOST_DEVICE constexpr int m() const { return int((desc >> 24) & 0x1F) << 4; }
  TESSERA_HOST_DEVICE constexpr int a_sf_id() const { return int((desc >> 29) & 0x3); }
  // The descriptor the instruction takes, with the scale factors' tensor-memory addresses.
  TESSERA_HOST_DEVICE constexpr uint32_t with_scale_addresses(uint32_t tmem_sfa, uint32_t tmem_sfb) const {
    return (desc & ~((0x3u << 29) | (0x3u << 4))) | ((tmem_sfa >> 30) << 29) | ((tmem_sfb >> 30) << 4);
  }
};
TESSERA_HOST_DEVICE constexpr InstrDescriptorBlockScaled instr_desc_block_scaled(
    int a_fmt, int b_fmt, int sf_fmt, int m, int n, Major major_a = Major::K, Major major_b = Major::K,
    ScaleIn neg_a = ScaleIn::One, ScaleIn neg_b = ScaleIn::One) {
  InstrDescriptorBlockScaled d;
  d.desc = (uint32_t(a_fmt) << 7) | (uint32_t(b_fmt) << 10) | (uint32_t(neg_a) << 13) | (uint32_t(neg_b) << 14) |
           (uint32_t(major_a) << 15) | (uint32_t(major_b) << 16) | (uint32_t(n >> 3) << 17) |
           (uint32_t(sf_fmt) << 23) | (uint32_t(m >> 4) << 24);
  return d;
}
template <class A, class B, class SF, int M, int N, Major MajorA, Major MajorB, bool PackedF4,
          ScaleIn NegA = ScaleIn::One, ScaleIn NegB = ScaleIn::One>
TESSERA_HOST_DEVICE constexpr InstrDescriptorBlockScaled make_instr_desc_block_scaled() {
  return instr_desc_block_scaled(block_scaled_ab_format<A, PackedF4>(), block_scaled_ab_format<B, PackedF4>(),
                                 scale_format<SF>(), M, N, MajorA, MajorB, NegA, NegB);
}
}  // namespace UMMA

// The shapes the ISA allows (tcgen05 "Matrix Shape", dense, no .ws) for f16 and tf32:
//   cta_group::1: M = 64 or 128; N a multiple of 8 in [8, 256]
//   cta_group::2: M = 128 or 256; N a multiple of 16 in [16, 256]
// and for i8 those CuTe's SM100_MMA_S8 atoms take: N = 8 or a multiple of 16 (one CTA), a
// multiple of 32 (a pair).
// M and N of cta_group::2 are the pair's: each CTA holds M/2 rows of A and D, N/2 rows of B.
// With A in tensor memory (TS), CuTe's atoms take fewer N: a multiple of 16 for M = 128 and of
// 32 for cta_group::2; tessera's TS atoms follow CuTe's, so that each has CuTe's traits.
namespace detail {
template <int CtaGroup, int M, int N, bool I8, bool TS>
TESSERA_HOST_DEVICE constexpr bool umma_shape_ok() {
  if constexpr (CtaGroup == 1) {
    if (M != 64 && M != 128) return false;
    if (I8) return N == 8 || (N % 16 == 0 && N >= 16 && N <= 256);
    return N % (TS && M == 128 ? 16 : 8) == 0 && N >= 8 && N <= 256;
  } else {
    if (M != 128 && M != 256) return false;
    const int step = I8 || TS ? 32 : 16;
    return N % step == 0 && N >= step && N <= 256;
  }
}
// The block-scaled kinds take M = 128 (cta_group::1) and N a multiple of 8 in [8, 256], or M =
// 128 or 256 (cta_group::2) and N a multiple of 16 in [16, 256] (tcgen05 "Matrix Shape"); CuTe's
// SM100_MMA_MXF8F6F4_2x1SM_SS takes M = 256 only, and tessera's follows it.
template <int CtaGroup, int M, int N, bool MXF8F6F4>
TESSERA_HOST_DEVICE constexpr bool umma_block_scaled_shape_ok() {
  if constexpr (CtaGroup == 1) return M == 128 && N % 8 == 0 && N >= 8 && N <= 256;
  else return (M == 256 || (!MXF8F6F4 && M == 128)) && N % 16 == 0 && N >= 16 && N <= 256;
}
// MN-major (transposed) operands: the ISA's descriptor allows them for 8-, 16- and 32-bit formats
// only (e4m3, e5m2, s8, u8, f16, bf16, tf32), not for e2m3, e3m2 and e2m1.
template <class T, UMMA::Major Major>
TESSERA_HOST_DEVICE constexpr bool umma_major_ok() {
  return Major == UMMA::Major::K || sizeof_bits_v<T> >= 8;
}
}  // namespace detail

// TESSERA_UMMA_OP(NAME, CTA_GROUP, KIND, FORM, A_TYPE, A_OPERAND, I8, TYPES_OK, K): struct
// NAME<a_type, b_type, c_type, M, N, a_major, b_major, a_neg, b_neg>, CuTe's spelling; FORM S
// (A in shared memory) or T (A in tensor memory); K the instruction's K in elements. fma(a, desc_b, tmem_d, accumulate, idesc): a is
// A's shared-memory descriptor (SS) or tensor-memory address (TS); accumulate 0 writes D = A*B.
// One thread of the CTA (of the pair's first CTA, cta_group::2) calls it: the caller elects it.
#if defined(TESSERA_TCGEN05_ENABLED)
#define TESSERA_UMMA_ISSUE(CTA_GROUP, KIND, A_OPERAND, A_CONSTRAINT)                                          \
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\t"                                            \
               "tcgen05.mma.cta_group::" #CTA_GROUP ".kind::" #KIND " [%0], " A_OPERAND ", %2, %3, p;\n\t}\n" \
               :                                                                                            \
               : "r"(tmem_d), A_CONSTRAINT(a), "l"(desc_b), "r"(idesc), "r"(accumulate));
#else
#define TESSERA_UMMA_ISSUE(CTA_GROUP, KIND, A_OPERAND, A_CONSTRAINT)                 \
  (void)a; (void)desc_b; (void)tmem_d; (void)accumulate; (void)idesc;               \
  detail::mma_unsupported("tcgen05.mma.cta_group::" #CTA_GROUP ".kind::" #KIND " needs sm_100a");
#endif
#define TESSERA_UMMA_A_SS(x) "l"(x)
#define TESSERA_UMMA_A_TS(x) "r"(x)

#define TESSERA_UMMA_OP(NAME, CTA_GROUP, KIND, FORM, A_TYPE, A_OPERAND, I8, WHAT, KELEMS)                          \
  template <class a_type, class b_type, class c_type, int M, int N, UMMA::Major a_major, UMMA::Major b_major,     \
            UMMA::ScaleIn a_neg = UMMA::ScaleIn::One, UMMA::ScaleIn b_neg = UMMA::ScaleIn::One>                 \
  struct NAME {                                                                                                 \
    static_assert(detail::umma_shape_ok<CTA_GROUP, M, N, I8, TESSERA_UMMA_##FORM>(),                           \
                  #NAME ": M and N must be a shape of tcgen05.mma.cta_group::" #CTA_GROUP ".kind::" #KIND        \
                  " (PTX ISA, tcgen05 Matrix Shape)");                                                          \
    static_assert(!TESSERA_UMMA_##FORM || a_major == UMMA::Major::K, #NAME ": A in tensor memory is K-major");   \
    static_assert(WHAT, #NAME ": A, B and D types do not belong to .kind::" #KIND);                            \
    static_assert(detail::umma_major_ok<a_type, a_major>() && detail::umma_major_ok<b_type, b_major>(),          \
                  #NAME ": an MN-major operand must be of an 8-, 16- or 32-bit type");                         \
    static_assert(!TESSERA_UMMA_KIND_##KIND || b_major == UMMA::Major::K || N % (16 * CTA_GROUP) == 0,          \
                  #NAME ": an MN-major B takes N a multiple of 16 (32 for a CTA pair), as CuTe's traits");      \
    static constexpr int cta_group = CTA_GROUP;                                                                 \
    static constexpr int k = KELEMS;                                                                            \
    using ARegisters = A_TYPE[1];                                                                               \
    using BRegisters = uint64_t[1];                                                                             \
    using CRegisters = uint32_t[1];                                                                             \
    TESSERA_DEVICE static void fma(A_TYPE const& a, uint64_t const& desc_b, uint32_t const& tmem_d,             \
                                   uint32_t const& accumulate, uint32_t const& idesc) {                        \
      TESSERA_UMMA_ISSUE(CTA_GROUP, KIND, A_OPERAND, TESSERA_UMMA_A_##FORM##S)                                  \
    }                                                                                                           \
  };

// Types each kind takes (D, A, B).
#define TESSERA_UMMA_F16_TYPES                                                                        \
  ((std::is_same_v<a_type, half_t> && std::is_same_v<b_type, half_t> &&                               \
    (std::is_same_v<c_type, half_t> || std::is_same_v<c_type, float>)) ||                              \
   (std::is_same_v<a_type, bfloat16_t> && std::is_same_v<b_type, bfloat16_t> && std::is_same_v<c_type, float>))
#define TESSERA_UMMA_TF32_TYPES \
  (std::is_same_v<a_type, tfloat32_t> && std::is_same_v<b_type, tfloat32_t> && std::is_same_v<c_type, float>)
#define TESSERA_UMMA_I8_TYPES                                                                             \
  ((std::is_same_v<a_type, int8_t> || std::is_same_v<a_type, uint8_t>) &&                                 \
   (std::is_same_v<b_type, int8_t> || std::is_same_v<b_type, uint8_t>) && std::is_same_v<c_type, int32_t>)
// .kind::f8f6f4: any two of e4m3, e5m2, e2m3, e3m2, e2m1 (each in a byte: K is 32 for all),
// accumulated in f16 or f32.
#define TESSERA_UMMA_F8F6F4_ONE(T)                                                                        \
  (std::is_same_v<T, float_e4m3_t> || std::is_same_v<T, float_e5m2_t> || std::is_same_v<T, float_e2m3_t> || \
   std::is_same_v<T, float_e3m2_t> || std::is_same_v<T, float_e2m1_t>)
#define TESSERA_UMMA_F8F6F4_TYPES                                                  \
  (TESSERA_UMMA_F8F6F4_ONE(a_type) && TESSERA_UMMA_F8F6F4_ONE(b_type) &&           \
   (std::is_same_v<c_type, half_t> || std::is_same_v<c_type, float>))
// .kind::f8f6f4 with an MN-major B takes fewer N (CuTe's SM100_MMA_F8F6F4 traits).
#define TESSERA_UMMA_KIND_f16 false
#define TESSERA_UMMA_KIND_tf32 false
#define TESSERA_UMMA_KIND_i8 false
#define TESSERA_UMMA_KIND_f8f6f4 true
#define TESSERA_UMMA_S false
#define TESSERA_UMMA_T true

TESSERA_UMMA_OP(SM100_MMA_F16BF16_SS, 1, f16, S, uint64_t, "%1", false, TESSERA_UMMA_F16_TYPES, 256 / sizeof_bits_v<a_type>)
TESSERA_UMMA_OP(SM100_MMA_F16BF16_TS, 1, f16, T, uint32_t, "[%1]", false, TESSERA_UMMA_F16_TYPES, 256 / sizeof_bits_v<a_type>)
TESSERA_UMMA_OP(SM100_MMA_F16BF16_2x1SM_SS, 2, f16, S, uint64_t, "%1", false, TESSERA_UMMA_F16_TYPES, 256 / sizeof_bits_v<a_type>)
TESSERA_UMMA_OP(SM100_MMA_F16BF16_2x1SM_TS, 2, f16, T, uint32_t, "[%1]", false, TESSERA_UMMA_F16_TYPES, 256 / sizeof_bits_v<a_type>)
TESSERA_UMMA_OP(SM100_MMA_TF32_SS, 1, tf32, S, uint64_t, "%1", false, TESSERA_UMMA_TF32_TYPES, 256 / sizeof_bits_v<a_type>)
TESSERA_UMMA_OP(SM100_MMA_TF32_TS, 1, tf32, T, uint32_t, "[%1]", false, TESSERA_UMMA_TF32_TYPES, 256 / sizeof_bits_v<a_type>)
TESSERA_UMMA_OP(SM100_MMA_TF32_2x1SM_SS, 2, tf32, S, uint64_t, "%1", false, TESSERA_UMMA_TF32_TYPES, 256 / sizeof_bits_v<a_type>)
TESSERA_UMMA_OP(SM100_MMA_TF32_2x1SM_TS, 2, tf32, T, uint32_t, "[%1]", false, TESSERA_UMMA_TF32_TYPES, 256 / sizeof_bits_v<a_type>)
TESSERA_UMMA_OP(SM100_MMA_S8_SS, 1, i8, S, uint64_t, "%1", true, TESSERA_UMMA_I8_TYPES, 256 / sizeof_bits_v<a_type>)
TESSERA_UMMA_OP(SM100_MMA_S8_TS, 1, i8, T, uint32_t, "[%1]", true, TESSERA_UMMA_I8_TYPES, 256 / sizeof_bits_v<a_type>)
TESSERA_UMMA_OP(SM100_MMA_S8_2x1SM_SS, 2, i8, S, uint64_t, "%1", true, TESSERA_UMMA_I8_TYPES, 256 / sizeof_bits_v<a_type>)
TESSERA_UMMA_OP(SM100_MMA_S8_2x1SM_TS, 2, i8, T, uint32_t, "[%1]", true, TESSERA_UMMA_I8_TYPES, 256 / sizeof_bits_v<a_type>)
TESSERA_UMMA_OP(SM100_MMA_F8F6F4_SS, 1, f8f6f4, S, uint64_t, "%1", false, TESSERA_UMMA_F8F6F4_TYPES, 32)
TESSERA_UMMA_OP(SM100_MMA_F8F6F4_TS, 1, f8f6f4, T, uint32_t, "[%1]", false, TESSERA_UMMA_F8F6F4_TYPES, 32)
TESSERA_UMMA_OP(SM100_MMA_F8F6F4_2x1SM_SS, 2, f8f6f4, S, uint64_t, "%1", false, TESSERA_UMMA_F8F6F4_TYPES, 32)
TESSERA_UMMA_OP(SM100_MMA_F8F6F4_2x1SM_TS, 2, f8f6f4, T, uint32_t, "[%1]", false, TESSERA_UMMA_F8F6F4_TYPES, 32)

// The block-scaled kinds (tcgen05.mma ... .block_scale, PTX ISA "Block Scaling for
// tcgen05.mma"): D = (A * scale_A) (B * scale_B) + D, one scale factor per VS consecutive
// elements of K of a row of A (column of B). The scale factors are read from tensor memory at
// scale_A and scale_B (tessera/atom/mma_sm100.hpp: their layouts); D is f32. CuTe's atoms:
//   SM100_MMA_MXF8F6F4_SS<a, b, c, sf, M, N, a_major, b_major>     .kind::mxf8f6f4, VS 32, ue8m0
//   SM100_MMA_MXF4_SS<a, b, c, sf, M, N, VS, a_major, b_major>      VS 32: .kind::mxf4 (ue8m0);
//                                          VS 16: .kind::mxf4nvf4 (ue8m0 or ue4m3)
// and their _2x1SM forms; A is read from shared memory (CuTe has no _TS form of these kinds).
// fma(desc_a, desc_b, tmem_d, accumulate, idesc, tmem_sfa, tmem_sfb), idesc from
// InstrDescriptorBlockScaled::with_scale_addresses; one thread issues it, as above.
#if defined(TESSERA_TCGEN05_ENABLED)
#define TESSERA_UMMA_BS_ISSUE(CTA_GROUP, KIND_AND_BLOCK)                                                          \
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\t"                                                \
               "tcgen05.mma.cta_group::" #CTA_GROUP ".kind::" KIND_AND_BLOCK " [%0], %1, %2, %3, [%5], [%6], p;\n\t}\n" \
               :                                                                                                \
               : "r"(tmem_d), "l"(desc_a), "l"(desc_b), "r"(idesc), "r"(accumulate), "r"(tmem_sfa), "r"(tmem_sfb));
#else
#define TESSERA_UMMA_BS_ISSUE(CTA_GROUP, KIND_AND_BLOCK)                                            \
  (void)desc_a; (void)desc_b; (void)tmem_d; (void)accumulate; (void)idesc; (void)tmem_sfa; (void)tmem_sfb; \
  detail::mma_unsupported("tcgen05.mma.cta_group::" #CTA_GROUP ".kind::" KIND_AND_BLOCK " needs sm_100a");
#endif

#define TESSERA_UMMA_BS_BODY(NAME, CTA_GROUP, MXF8F6F4, K, VS, WHAT)                                             \
  static_assert(detail::umma_block_scaled_shape_ok<CTA_GROUP, M, N, MXF8F6F4>(),                                \
                #NAME ": M and N must be a shape of this block-scaled tcgen05.mma (PTX ISA, tcgen05 Matrix Shape)"); \
  static_assert(WHAT, #NAME ": A, B, D and scale-factor types do not belong to this kind");                     \
  static_assert(detail::umma_major_ok<a_type, a_major>() && detail::umma_major_ok<b_type, b_major>(),            \
                #NAME ": an MN-major operand must be of an 8-, 16- or 32-bit type");                           \
  static constexpr int cta_group = CTA_GROUP;                                                                   \
  static constexpr int k = K;                                                                                   \
  static constexpr int sf_vec = VS;                                                                             \
  using ARegisters = uint64_t[1];                                                                               \
  using BRegisters = uint64_t[1];                                                                               \
  using CRegisters = uint32_t[1];                                                                               \
  using SFARegisters = uint32_t[1];                                                                             \
  using SFBRegisters = uint32_t[1];

#define TESSERA_UMMA_MXF8F6F4_TYPES                                                                      \
  (TESSERA_UMMA_F8F6F4_ONE(a_type) && TESSERA_UMMA_F8F6F4_ONE(b_type) && std::is_same_v<c_type, float> && \
   std::is_same_v<sf_type, float_ue8m0_t>)
#define TESSERA_UMMA_MXF4_TYPES                                                                               \
  (std::is_same_v<a_type, float_e2m1_t> && std::is_same_v<b_type, float_e2m1_t> && std::is_same_v<c_type, float> && \
   (std::is_same_v<sf_type, float_ue8m0_t> || (VS == 16 && std::is_same_v<sf_type, float_ue4m3_t>)) &&              \
   (VS == 16 || VS == 32))

#define TESSERA_UMMA_MXF8F6F4_OP(NAME, CTA_GROUP)                                                                  \
  template <class a_type, class b_type, class c_type, class sf_type, int M, int N, UMMA::Major a_major,            \
            UMMA::Major b_major, UMMA::ScaleIn a_neg = UMMA::ScaleIn::One, UMMA::ScaleIn b_neg = UMMA::ScaleIn::One> \
  struct NAME {                                                                                                    \
    TESSERA_UMMA_BS_BODY(NAME, CTA_GROUP, true, 32, 32, TESSERA_UMMA_MXF8F6F4_TYPES)                               \
    TESSERA_DEVICE static void fma(uint64_t const& desc_a, uint64_t const& desc_b, uint32_t const& tmem_d,          \
                                   uint32_t const& accumulate, uint32_t const& idesc, uint32_t const& tmem_sfa,     \
                                   uint32_t const& tmem_sfb) {                                                      \
      TESSERA_UMMA_BS_ISSUE(CTA_GROUP, "mxf8f6f4.block_scale")                                                      \
    }                                                                                                              \
  };
#define TESSERA_UMMA_MXF4_OP(NAME, CTA_GROUP)                                                                      \
  template <class a_type, class b_type, class c_type, class sf_type, int M, int N, int VS, UMMA::Major a_major,    \
            UMMA::Major b_major, UMMA::ScaleIn a_neg = UMMA::ScaleIn::One, UMMA::ScaleIn b_neg = UMMA::ScaleIn::One> \
  struct NAME {                                                                                                    \
    TESSERA_UMMA_BS_BODY(NAME, CTA_GROUP, false, 64, VS, TESSERA_UMMA_MXF4_TYPES)                                  \
    TESSERA_DEVICE static void fma(uint64_t const& desc_a, uint64_t const& desc_b, uint32_t const& tmem_d,          \
                                   uint32_t const& accumulate, uint32_t const& idesc, uint32_t const& tmem_sfa,     \
                                   uint32_t const& tmem_sfb) {                                                      \
      if constexpr (VS == 16) {                                                                                    \
        TESSERA_UMMA_BS_ISSUE(CTA_GROUP, "mxf4nvf4.block_scale.block16")                                            \
      } else {                                                                                                     \
        TESSERA_UMMA_BS_ISSUE(CTA_GROUP, "mxf4.block_scale.block32")                                                \
      }                                                                                                            \
    }                                                                                                              \
  };
TESSERA_UMMA_MXF8F6F4_OP(SM100_MMA_MXF8F6F4_SS, 1)
TESSERA_UMMA_MXF8F6F4_OP(SM100_MMA_MXF8F6F4_2x1SM_SS, 2)
TESSERA_UMMA_MXF4_OP(SM100_MMA_MXF4_SS, 1)
TESSERA_UMMA_MXF4_OP(SM100_MMA_MXF4_2x1SM_SS, 2)
#undef TESSERA_UMMA_MXF8F6F4_OP
#undef TESSERA_UMMA_MXF4_OP
#undef TESSERA_UMMA_BS_BODY
#undef TESSERA_UMMA_BS_ISSUE
#undef TESSERA_UMMA_MXF8F6F4_TYPES
#undef TESSERA_UMMA_MXF4_TYPES
#undef TESSERA_UMMA_F8F6F4_TYPES
#undef TESSERA_UMMA_F8F6F4_ONE

#undef TESSERA_UMMA_OP
#undef TESSERA_UMMA_ISSUE
#undef TESSERA_UMMA_A_SS
#undef TESSERA_UMMA_A_TS
#undef TESSERA_UMMA_F16_TYPES
#undef TESSERA_UMMA_TF32_TYPES
#undef TESSERA_UMMA_I8_TYPES
#undef TESSERA_UMMA_S
#undef TESSERA_UMMA_KIND_f16
#undef TESSERA_UMMA_KIND_tf32
#undef TESSERA_UMMA_KIND_i8
#undef TESSERA_UMMA_KIND_f8f6f4
#undef TESSERA_UMMA_T

}  // namespace tessera
