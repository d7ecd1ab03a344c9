// The kernel configurations the library is built with, and where each is compiled.
//
// Every launcher instantiation below is declared `extern` here and defined in exactly one
// translation unit under device/instances/.  nvcc compiles a translation unit on one core and
// each configuration is four kernels (one per A/B major), so one TU per few configurations
// lets a parallel build (the GPU machine's 16 cores, `make -j`) compile them side by side
// instead of one ~60-kernel TU after another.
#pragma once

#include "launch.cuh"

namespace tessera::kernels::device {

// Each configuration is the tile shape the collective builder (collective/collective_builder.hpp)
// makes of a tile, a stage count and a schedule; launch.cuh builds its kernels through the
// builder again, per element type, majors and alignment.
template <class Tile, class Stages = StageCountAuto, class Schedule = ScheduleAuto>
using tensorop_shape = typename CollectiveBuilder<arch::Sm80, OpClassTensorOp, bfloat16_t, KMajor, 8, bfloat16_t, KMajor, 8,
                                                  float, Tile, tuple<_1, _1, _1>, Stages, Schedule>::Shape;
template <class Tile, class Stages, class Schedule = ScheduleAuto>
using simt_shape = typename CollectiveBuilder<arch::Sm80, OpClassSimt, float, KMajor, 1, float, KMajor, 1, float, Tile,
                                              tuple<_1, _1, _1>, Stages, Schedule>::Shape;

// The host API's configurations (select_kernel's names; bench/RESULTS.md has the comparison).
// Tensor cores: 128x256x32 CTA tile, 2x4 warps of 64x64, 4 stages (96 KiB of operand stages):
// the builder's automatic choice for that tile.
using tensorop_128x256x32_s4 = tensorop_shape<tuple<_128, _256, _32>>;
static_assert(std::is_same_v<tensorop_128x256x32_s4,
                             TensorOpShape<DefaultTensorOpTile::BM, DefaultTensorOpTile::BN, DefaultTensorOpTile::BK,
                                           DefaultTensorOpTile::WM, DefaultTensorOpTile::WN, DefaultTensorOpTile::Stages>>,
              "the builder's default for 128x256x32 is the documented default tile");
// SIMT: 128x128x8, 3 stages (faster than the builder's automatic count, 4: bench/RESULTS.md),
// flat 16x16 thread grid.
using simt_128x128x8_s3 = simt_shape<tuple<_128, _128, _8>, StageCount<DefaultSimtTile::Stages>>;
static_assert(std::is_same_v<simt_128x128x8_s3, SimtShape<DefaultSimtTile::BK, DefaultSimtTile::Stages, DefaultSimtTile::WarpGrid8x4>>,
              "the SIMT configuration is the documented default tile");

// The tuning alternatives of bench --variants (gemm_variants.cu), BF16 only for the tensor
// cores: F16 runs the same instructions at the same rate.  Schedule parameters: CTAs per SM,
// rasterization band, L2 prefetch bytes.
namespace variant {
using T128x256x32 = tuple<_128, _256, _32>;
using tensorop_128x256x32_s4_band16 = tensorop_shape<T128x256x32, StageCount<4>, KernelCpAsyncMultistage<1, 16>>;
using tensorop_128x256x32_s4_l2prefetch256 = tensorop_shape<T128x256x32, StageCount<4>, KernelCpAsyncMultistage<1, 8, 256>>;
using tensorop_128x256x32_s5 = tensorop_shape<T128x256x32, StageCount<5>>;
using tensorop_128x256x64_s4 = tensorop_shape<tuple<_128, _256, _64>, StageCount<4>>;
using tensorop_128x128x32_s4_2cta = tensorop_shape<tuple<_128, _128, _32>, StageCount<4>, KernelCpAsyncMultistage<2>>;
using tensorop_256x128x32_s4 = tensorop_shape<tuple<_256, _128, _32>, StageCount<4>>;
using tensorop_128x256x32_s4_band16_l2prefetch256 =
    tensorop_shape<T128x256x32, StageCount<4>, KernelCpAsyncMultistage<1, 16, 256>>;
using tensorop_128x256x32_s6 = tensorop_shape<T128x256x32, StageCount<6>>;
using tensorop_128x256x32_s8 = tensorop_shape<T128x256x32, StageCount<8>>;
using simt_128x128x8_s3_warps8x4 = simt_shape<tuple<_128, _128, _8>, StageCount<3>, KernelSimtWarpGrid8x4>;
using simt_128x128x16_s3 = simt_shape<tuple<_128, _128, _16>, StageCount<3>>;
using simt_128x128x16_s3_warps8x4 = simt_shape<tuple<_128, _128, _16>, StageCount<3>, KernelSimtWarpGrid8x4>;
using simt_128x128x16_s4_warps8x4 = simt_shape<tuple<_128, _128, _16>, StageCount<4>, KernelSimtWarpGrid8x4>;
}  // namespace variant

}  // namespace tessera::kernels::device

// Spelled once: `extern template` here, the definition in the instance TU.
#define TESSERA_TENSOROP_INSTANCE(prefix, Shape, BF16, Vec, Swizzled)                           \
  prefix template GemmResult run_tensorop<Shape, BF16, Vec, Swizzled>(const GemmArguments&, cudaStream_t); \
  prefix template std::size_t tensorop_workspace_size<Shape, BF16, Vec, Swizzled>(const GemmArguments&);
#define TESSERA_SIMT_INSTANCE(prefix, Shape) prefix template GemmResult run_simt<Shape>(const GemmArguments&, cudaStream_t);
// The adapter of one kernel for code that names it (gemm_gpu_test runs a case through it),
// compiled with that kernel's TU: bf16, A row-major, B column-major (TN), 16-byte copies.
#define TESSERA_ADAPTER_INSTANCES_TENSOROP_BF16(prefix)                                         \
  prefix template class GemmAdapter<TensorOpBuild<tensorop_128x256x32_s4, true, true, true, true>::Kernel>;

// (TU under instances/)                                              shape  bf16  vec   swizzled
#define TESSERA_INSTANCES_TENSOROP_BF16(prefix)                                                 \
  TESSERA_TENSOROP_INSTANCE(prefix, tensorop_128x256x32_s4, true, true, true)                   \
  TESSERA_TENSOROP_INSTANCE(prefix, tensorop_128x256x32_s4, true, false, true)
#define TESSERA_INSTANCES_TENSOROP_F16(prefix)                                                  \
  TESSERA_TENSOROP_INSTANCE(prefix, tensorop_128x256x32_s4, false, true, true)                  \
  TESSERA_TENSOROP_INSTANCE(prefix, tensorop_128x256x32_s4, false, false, true)
#define TESSERA_INSTANCES_SIMT(prefix)                                                          \
  TESSERA_SIMT_INSTANCE(prefix, simt_128x128x8_s3)
// The tuning variants (gemm_variants.cu, bench --variants): built only with
// TESSERA_BUILD_TUNING_VARIANTS=ON, so that the default build compiles the shipped kernels alone.
#define TESSERA_INSTANCES_VARIANTS_SIMT(prefix)                                                 \
  TESSERA_SIMT_INSTANCE(prefix, variant::simt_128x128x8_s3_warps8x4)                            \
  TESSERA_SIMT_INSTANCE(prefix, variant::simt_128x128x16_s3)                                    \
  TESSERA_SIMT_INSTANCE(prefix, variant::simt_128x128x16_s3_warps8x4)                           \
  TESSERA_SIMT_INSTANCE(prefix, variant::simt_128x128x16_s4_warps8x4)
#define TESSERA_INSTANCES_VARIANTS_A(prefix)                                                    \
  TESSERA_TENSOROP_INSTANCE(prefix, tensorop_128x256x32_s4, true, true, false)                  \
  TESSERA_TENSOROP_INSTANCE(prefix, variant::tensorop_128x256x32_s4_band16, true, true, true)
#define TESSERA_INSTANCES_VARIANTS_B(prefix)                                                    \
  TESSERA_TENSOROP_INSTANCE(prefix, variant::tensorop_128x256x32_s4_l2prefetch256, true, true, true)\
  TESSERA_TENSOROP_INSTANCE(prefix, variant::tensorop_128x256x32_s5, true, true, true)
#define TESSERA_INSTANCES_VARIANTS_C(prefix)                                                    \
  TESSERA_TENSOROP_INSTANCE(prefix, variant::tensorop_128x256x64_s4, true, true, true)          \
  TESSERA_TENSOROP_INSTANCE(prefix, variant::tensorop_128x128x32_s4_2cta, true, true, true)
#define TESSERA_INSTANCES_VARIANTS_D(prefix)                                                    \
  TESSERA_TENSOROP_INSTANCE(prefix, variant::tensorop_256x128x32_s4, true, true, true)          \
  TESSERA_TENSOROP_INSTANCE(prefix, variant::tensorop_128x256x32_s4_band16_l2prefetch256, true, true, true)
#define TESSERA_INSTANCES_VARIANTS_E(prefix)                                                    \
  TESSERA_TENSOROP_INSTANCE(prefix, variant::tensorop_128x256x32_s6, true, true, true)          \
  TESSERA_TENSOROP_INSTANCE(prefix, variant::tensorop_128x256x32_s8, true, true, true)

namespace tessera::kernels::device {
TESSERA_INSTANCES_TENSOROP_BF16(extern)
TESSERA_ADAPTER_INSTANCES_TENSOROP_BF16(extern)
TESSERA_INSTANCES_TENSOROP_F16(extern)
TESSERA_INSTANCES_SIMT(extern)
TESSERA_INSTANCES_VARIANTS_SIMT(extern)
TESSERA_INSTANCES_VARIANTS_A(extern)
TESSERA_INSTANCES_VARIANTS_B(extern)
TESSERA_INSTANCES_VARIANTS_C(extern)
TESSERA_INSTANCES_VARIANTS_D(extern)
TESSERA_INSTANCES_VARIANTS_E(extern)
}  // namespace tessera::kernels::device
