// The SM90 kernels for FP8 with DeepSeek-V3's block scales at many tokens (e4m3 x e4m3 to bf16,
// 128x192x128 tiles in clusters of 2, the block-scaled mainloop with its consumer warpgroups
// issuing in turns; whole tiles): sm90_kernel_list.hpp's Fp8BlockWide unit, a unit
// of its own (its 192-row stage tiles and TMA plans of 8-bit operands are its alone) so that a
// parallel build compiles it beside the other block-scaled units. sm_90a only
// (kernels/CMakeLists.txt).
#include "sm90_instance.cuh"

TESSERA_SM90_INSTANCES(Fp8BlockWide);
