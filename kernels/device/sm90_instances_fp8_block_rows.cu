// The SM90 kernel for FP8 with DeepSeek-V3's block scales at many tokens with the tokens along
// the tile's M (e4m3 x e4m3 to bf16 row-major, 128x128x128 tiles in clusters of 2, the
// block-scaled mainloop's RowsOfA branch; whole tiles): sm90_kernel_list.hpp's Fp8BlockRows
// unit, a unit of its own (its row-major D epilogue beside 8-bit operand tiles is its alone) so
// that a parallel build compiles it beside the other block-scaled units. sm_90a only
// (kernels/CMakeLists.txt).
#include "sm90_instance.cuh"

TESSERA_SM90_INSTANCES(Fp8BlockRows);
