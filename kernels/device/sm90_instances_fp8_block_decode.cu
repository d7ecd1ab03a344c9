// The SM90 decode kernel for FP8 with DeepSeek-V3's block scales (e4m3 x e4m3 to bf16,
// 128x64x128 tiles without a cluster, the block-scaled mainloop, Stream-K): sm90_kernel_list.hpp's
// Fp8BlockDecode unit, a unit of its own so that a parallel build compiles it beside the
// 128-column block-scaled kernels. sm_90a only (kernels/CMakeLists.txt).
#include "sm90_instance.cuh"

TESSERA_SM90_INSTANCES(Fp8BlockDecode);
