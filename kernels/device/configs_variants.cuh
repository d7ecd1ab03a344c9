// The tuning alternatives of bench --variants (gemm_variants.cu, device/instances/variants_*.cu),
// built only with TESSERA_BUILD_TUNING_VARIANTS=ON, so that the default build compiles the
// shipped kernels alone and no other TU runs the builder for these tiles. BF16 only for the
// tensor cores: F16 runs the same instructions at the same rate. Schedule parameters: CTAs per
// SM, rasterization band, L2 prefetch bytes.
#pragma once

#include "configs.cuh"

namespace tessera::kernels::device {

template <class Tile, class Stages = StageCountAuto, class Schedule = ScheduleAuto>
using tensorop_shape = typename CollectiveBuilder<arch::Sm80, OpClassTensorOp, bfloat16_t, KMajor, 8, bfloat16_t, KMajor, 8,
                                                  float, Tile, tuple<_1, _1, _1>, Stages, Schedule>::Shape;
template <class Tile, class Stages, class Schedule = ScheduleAuto>
using simt_shape = typename CollectiveBuilder<arch::Sm80, OpClassSimt, float, KMajor, 1, float, KMajor, 1, float, Tile,
                                              tuple<_1, _1, _1>, Stages, Schedule>::Shape;

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
TESSERA_INSTANCES_VARIANTS_SIMT(extern)
TESSERA_INSTANCES_VARIANTS_A(extern)
TESSERA_INSTANCES_VARIANTS_B(extern)
TESSERA_INSTANCES_VARIANTS_C(extern)
TESSERA_INSTANCES_VARIANTS_D(extern)
TESSERA_INSTANCES_VARIANTS_E(extern)
}  // namespace tessera::kernels::device
