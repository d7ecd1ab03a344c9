// The SM90 kernels for f16 inputs with 128x256 tiles over whole tiles (every major, D in
// f16 or f32) and the fused TMA-store epilogues (TN, D in f16). Kernels are spread over
// sm90_instances_*.cu so that a parallel build compiles them side by side (sm90_kernel_list.hpp).
// sm_90a only (kernels/CMakeLists.txt).
#include "sm90_instance.cuh"

TESSERA_SM90_INSTANCES(F16);
