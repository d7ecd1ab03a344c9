// Alternative configurations (see gemm_variants.hpp); the shapes are in configs_variants.cuh,
// their kernels compiled in device/instances/.  Variant 0 of each kind is the default
// configuration.
#include "tessera/kernels/gemm_variants.hpp"

// Set by CMake (TESSERA_BUILD_TUNING_VARIANTS) or a script's -D: the variants' kernels are then
// linked from device/instances/variants_*.cu. Without them this TU names no configuration (and
// runs no collective builder).
#ifndef TESSERA_TUNING_VARIANTS
#define TESSERA_TUNING_VARIANTS 0
#endif
#if TESSERA_TUNING_VARIANTS
#include "configs_variants.cuh"
#endif

namespace tessera::kernels {

bool tuning_variants_built() { return TESSERA_TUNING_VARIANTS != 0; }

#if TESSERA_TUNING_VARIANTS

namespace {
using device::tensorop_128x256x32_s4;
using namespace device::variant;
const char* const tc_names[] = {"tc 128x256x32 w2x4 s4 1cta",     "tc 128x256x32 s4 band16",
                                "tc 128x256x32 s4 L2pf256",       "tc 128x256x32 w2x4 s5 1cta",
                                "tc 128x256x64 w2x4 s4 1cta",     "tc 128x128x32 w2x2 s4 2cta",
                                "tc 256x128x32 w4x2 s4 1cta",     "tc 128x256x32 s4 band16 pf256",
                                "tc 128x256x32 w2x4 s6 1cta",     "tc 128x256x32 w2x4 s8 1cta",
                                "tc 128x256x32 w2x4 s4 UNSWIZZLED"};
using device::simt_128x128x8_s3;
const char* const sm_names[] = {"simt bk8 s3 16x16", "simt bk8 s3 8x4-warps", "simt bk16 s3 16x16",
                                "simt bk16 s3 8x4-warps", "simt bk16 s4 8x4-warps"};

GemmResult precheck(const GemmArguments& args, GemmKernel want) {
  if (auto r = check_arguments(args); !r) return r;
  if (select_kernel(args) != want)
    return {GemmStatus::Unsupported, std::string("variant needs arguments that select ") + to_string(want)};
  return {};
}
}  // namespace

// The last variant is variant 0 on unswizzled smem: the bank-conflict baseline for ncu (bench
// --profile), not a tuning candidate.
constexpr int tc_count = int(sizeof tc_names / sizeof tc_names[0]);
int tensorop_variant_count() { return tc_count; }
const char* tensorop_variant_name(int i) { return i >= 0 && i < tc_count ? tc_names[i] : "?"; }
GemmResult gemm_tensorop_variant(const GemmArguments& args, int v, CUstream_st* stream) {
  if (auto r = precheck(args, GemmKernel::TensorOpVec8); !r) return r;
  if (args.element != Element::BF16) return {GemmStatus::Unsupported, "tensor-core variants are built for bf16"};
  switch (v) {
    case 0: return device::run_tensorop<tensorop_128x256x32_s4, true, true>(args, stream);
    case 1: return device::run_tensorop<tensorop_128x256x32_s4_band16, true, true>(args, stream);
    case 2: return device::run_tensorop<tensorop_128x256x32_s4_l2prefetch256, true, true>(args, stream);
    case 3: return device::run_tensorop<tensorop_128x256x32_s5, true, true>(args, stream);
    case 4: return device::run_tensorop<tensorop_128x256x64_s4, true, true>(args, stream);
    case 5: return device::run_tensorop<tensorop_128x128x32_s4_2cta, true, true>(args, stream);
    case 6: return device::run_tensorop<tensorop_256x128x32_s4, true, true>(args, stream);
    case 7: return device::run_tensorop<tensorop_128x256x32_s4_band16_l2prefetch256, true, true>(args, stream);
    case 8: return device::run_tensorop<tensorop_128x256x32_s6, true, true>(args, stream);
    case 9: return device::run_tensorop<tensorop_128x256x32_s8, true, true>(args, stream);
    case tc_count - 1: return device::run_tensorop<tensorop_128x256x32_s4, true, true, false>(args, stream);
  }
  return {GemmStatus::Unsupported, "no such variant"};
}

int simt_variant_count() { return 5; }
const char* simt_variant_name(int i) { return i >= 0 && i < 5 ? sm_names[i] : "?"; }
GemmResult gemm_simt_variant(const GemmArguments& args, int v, CUstream_st* stream) {
  if (auto r = precheck(args, GemmKernel::SimtF32); !r) return r;
  switch (v) {
    case 0: return device::run_simt<simt_128x128x8_s3>(args, stream);
    case 1: return device::run_simt<simt_128x128x8_s3_warps8x4>(args, stream);
    case 2: return device::run_simt<simt_128x128x16_s3>(args, stream);
    case 3: return device::run_simt<simt_128x128x16_s3_warps8x4>(args, stream);
    case 4: return device::run_simt<simt_128x128x16_s4_warps8x4>(args, stream);
  }
  return {GemmStatus::Unsupported, "no such variant"};
}

#else
namespace {
GemmResult not_built() {
  return {GemmStatus::Unsupported,
          "this build has no tuning variants (configure with -DTESSERA_BUILD_TUNING_VARIANTS=ON)"};
}
}  // namespace
int tensorop_variant_count() { return 0; }
const char* tensorop_variant_name(int) { return "?"; }
GemmResult gemm_tensorop_variant(const GemmArguments&, int, CUstream_st*) { return not_built(); }
int simt_variant_count() { return 0; }
const char* simt_variant_name(int) { return "?"; }
GemmResult gemm_simt_variant(const GemmArguments&, int, CUstream_st*) { return not_built(); }
#endif

}  // namespace tessera::kernels
