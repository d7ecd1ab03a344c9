// The SM90 kernels for FP8 with DeepSeek-V3's block scales (e4m3 x e4m3 to bf16, 128x128x128
// tiles, the block-scaled mainloop; whole tiles and Stream-K): sm90_kernel_list.hpp's Fp8Block
// unit, a unit of its own so that a parallel build compiles it beside the other FP8 kernels. sm_90a only
// (kernels/CMakeLists.txt).
#include "sm90_instance.cuh"

TESSERA_SM90_INSTANCES(Fp8Block);
