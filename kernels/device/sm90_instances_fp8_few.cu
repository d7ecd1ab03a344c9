// The SM90 kernel for FP8 with per-tensor scales at few tokens (e4m3 x e4m3 to bf16, no
// cluster, Stream-K: the 128x64x128 decode tile for at most 64 tokens): sm90_kernel_list.hpp's
// Fp8Few unit, a unit of its own so that a parallel build compiles it beside the other FP8 units. sm_90a only (kernels/CMakeLists.txt).
#include "sm90_instance.cuh"

TESSERA_SM90_INSTANCES(Fp8Few);
