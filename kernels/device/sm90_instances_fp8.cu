// The SM90 kernels for FP8 inputs (e4m3/e5m2, TN, per-tensor scales; D in bf16, f16 or f32;
// 128x256x128 tiles, and 128x128x128 for small problems): sm90_kernel_list.hpp's Fp8 unit.
// sm_90a only (kernels/CMakeLists.txt).
#include "sm90_instance.cuh"

TESSERA_SM90_INSTANCES(Fp8);
