// The SM90 256x128 kernel (sm90_kernel_list.hpp: Tall): bf16, A and B K-major, D column-major
// in bf16, clusters of 2 along M, whole tiles, the epilogue under the next tile. A translation
// unit of its own: its A tiles (256 rows, two m64 atoms per consumer warpgroup) share no stage
// layout or TMA plan with the other units' kernels, and a parallel build compiles it beside
// them. sm_90a only.
#include "sm90_instance.cuh"

TESSERA_SM90_INSTANCES(Tall);
