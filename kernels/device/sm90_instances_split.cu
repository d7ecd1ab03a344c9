// The SM90 split-K kernels (split-K of the last wave; run only when the plan splits): 16-bit
// inputs, D in the inputs' type, TN and NT (sm90_kernel_list.hpp) with 128x256
// tiles, NT with 128x128 (small TN problems run ping-pong, unsplit). The other
// majors and an f32 D run unsplit. sm_90a only.
#include "sm90_instance.cuh"

TESSERA_SM90_INSTANCES(Split);
