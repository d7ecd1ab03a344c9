// The SM90 128x192 kernels (sm90_kernel_list.hpp: Mid, MidSplit): bf16 and f16, A and B
// K-major, D column-major in the inputs' type, clusters of 2 along M, whole tiles and under
// Stream-K. A translation unit of its own: its B tiles (192 rows) share no stage layout or TMA
// plan with the other units' kernels, and a parallel build compiles it beside them. sm_90a only.
#include "sm90_instance.cuh"

TESSERA_SM90_INSTANCES(Mid);
