// The SM90 kernel for FP8 with per-tensor scales at a few hundred tokens (e4m3 x e4m3 to bf16,
// 128x160x128 tiles in clusters of 2, whole tiles): sm90_kernel_list.hpp's Fp8Mid unit, a unit
// of its own (its 160-row B stage and TMA plans are its alone) so that a parallel build compiles
// it beside the other FP8 units. sm_90a only (kernels/CMakeLists.txt).
#include "sm90_instance.cuh"

TESSERA_SM90_INSTANCES(Fp8Mid);
