// Device compile check for sm_100a (compile only: no Blackwell GPU here or in CI): tcgen05.mma
// through tessera's atoms (1 CTA, A from shared memory and from tensor memory; a CTA pair) with
// the instruction descriptor from its traits and the A/B descriptors derived from shared-memory
// tiles, and tcgen05.ld/st through the tensor-memory copy atoms (.32x32b, .16x32bx2 with its
// split offset, .pack::16b); .kind::f8f6f4 and the block-scaled kinds mxf8f6f4, mxf4 and
// mxf4nvf4 with their scale factors' tensor-memory addresses. ptxas assembling this TU is the
// check that the PTX is well formed.
#include <cstdint>

#include "tessera/atom/copy_sm100.hpp"
#include "tessera/atom/mma_sm100.hpp"
#include "tessera/atom/umma_descriptor.hpp"

using namespace tessera;

namespace {
using Mma = SM100_MMA_F16BF16_SS<bfloat16_t, bfloat16_t, float, 128, 256, UMMA::Major::K, UMMA::Major::K>;
using MmaTs = SM100_MMA_F16BF16_TS<half_t, half_t, float, 128, 128, UMMA::Major::K, UMMA::Major::K>;
using Mma2 = SM100_MMA_TF32_2x1SM_SS<tfloat32_t, tfloat32_t, float, 256, 128, UMMA::Major::K, UMMA::Major::MN>;
using MmaF8 = SM100_MMA_F8F6F4_SS<float_e4m3_t, float_e2m1_t, float, 128, 128, UMMA::Major::K, UMMA::Major::K>;
using MmaMx = SM100_MMA_MXF8F6F4_SS<float_e5m2_t, float_e3m2_t, float, float_ue8m0_t, 128, 128, UMMA::Major::K,
                                    UMMA::Major::K>;
using MmaF4 = SM100_MMA_MXF4_SS<float_e2m1_t, float_e2m1_t, float, float_ue8m0_t, 128, 128, 32, UMMA::Major::K,
                                UMMA::Major::K>;
using MmaNvF4 = SM100_MMA_MXF4_SS<float_e2m1_t, float_e2m1_t, float, float_ue4m3_t, 128, 128, 16, UMMA::Major::K,
                                  UMMA::Major::K>;

// bf16 K-major 128B tiles, one MMA's K block (16) of A (128 x 64) and B (256 x 64).
constexpr auto kA = GMMA::make_smem_layout<16, GMMA::Major::K, 128>(make_shape(_128{}, _64{}));
constexpr auto kB = GMMA::make_smem_layout<16, GMMA::Major::K, 128>(make_shape(_256{}, _64{}));
}  // namespace

__global__ void tcgen05_compile_check(uint32_t tmem_d, uint32_t tmem_a, uint32_t smem_a, uint32_t smem_b, uint32_t* out) {
  if (threadIdx.x == 0) {
    const auto a = UMMA::make_umma_descriptor<UMMA::Major::K, 16>(
        logical_divide(kA, make_shape(_128{}, _16{}))(make_coord(_, _0{}), make_coord(_, _0{})), smem_a);
    const auto b = UMMA::make_umma_descriptor<UMMA::Major::K, 16>(
        logical_divide(kB, make_shape(_256{}, _16{}))(make_coord(_, _0{}), make_coord(_, _0{})), smem_b);
    // (the traits' descriptors are constant: copied into locals, nothing is read from the host)
    constexpr uint32_t idesc = MMA_Traits<Mma>::idesc.desc, idesc_ts = MMA_Traits<MmaTs>::idesc.desc;
    Mma::fma(a.desc, b.desc, tmem_d, 0u, idesc);
    MmaTs::fma(tmem_a, b.desc, tmem_d, 1u, idesc_ts);
    constexpr uint32_t idesc_f8 = MMA_Traits<MmaF8>::idesc.desc;
    MmaF8::fma(a.desc, b.desc, tmem_d, 1u, idesc_f8);
    // Block-scaled: scale factors at tmem_a + 128 columns (A's) and + 132 (B's); the descriptor
    // takes their scale-factor IDs.
    const uint32_t sfa = tmem_a + 128, sfb = tmem_a + 132;
    constexpr UMMA::InstrDescriptorBlockScaled mx = MMA_Traits<MmaMx>::idesc, f4 = MMA_Traits<MmaF4>::idesc,
                                               nvf4 = MMA_Traits<MmaNvF4>::idesc;
    MmaMx::fma(a.desc, b.desc, tmem_d, 1u, mx.with_scale_addresses(sfa, sfb), sfa, sfb);
    MmaF4::fma(a.desc, b.desc, tmem_d, 1u, f4.with_scale_addresses(sfa, sfb), sfa, sfb);
    MmaNvF4::fma(a.desc, b.desc, tmem_d, 1u, nvf4.with_scale_addresses(sfa, sfb), sfa, sfb);
  }
  uint32_t r[8];
  SM100_TMEM_LOAD_32dp32b8x::copy(tmem_d, r);
  uint32_t h[4];
  SM100_TMEM_LOAD_16dp32b4x_16b::copy(tmem_d, h);
  SM100_TMEM_STORE_16dp256b1x::copy(h, tmem_d + 64);
  uint32_t s = 0;
  for (uint32_t v : r) s += v;
  out[threadIdx.x] = s + h[0];
}

// A kernel issues tcgen05 instructions of one cta_group only (ptxas refuses a mix): the CTA pair's.
__global__ void tcgen05_pair_compile_check(uint32_t tmem_d, uint64_t desc_a, uint64_t desc_b) {
  if (threadIdx.x == 0) {
    constexpr uint32_t idesc = MMA_Traits<Mma2>::idesc.desc;
    Mma2::fma(desc_a, desc_b, tmem_d, 1u, idesc);
  }
}
