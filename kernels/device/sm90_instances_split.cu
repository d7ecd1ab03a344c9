// The SM90 Stream-K kernels (the last waves' k-iterations shared, split-K as the case of even
// shares; run only where the dispatch's wave model prefers them and the plan shares): 16-bit
// inputs, D in the inputs' type, TN and NT (sm90_kernel_list.hpp) with 128x256 tiles, NT with
// 128x128. The other majors and an f32 D run whole tiles. sm_90a only.
#include "sm90_instance.cuh"

TESSERA_SM90_INSTANCES(Split);
