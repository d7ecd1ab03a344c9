// The SM90 kernels for f16 inputs with 128x256 tiles over whole tiles (every major, D in
// f16 or f32) and the fused TMA-store epilogues (TN, D in f16). Kernels are spread over
// sm90_instances_*.cu so that a parallel build compiles them side by side (sm90_kernel_set.cuh).
// sm_90a only (kernels/CMakeLists.txt).
#include "sm90_instance.cuh"
#include "sm90_kernel_set.cuh"

using namespace tessera;
using namespace tessera::kernels::device::sm90_set;

TESSERA_SM90_INSTANCE(Whole<half_t, K, K, half_t>);
TESSERA_SM90_INSTANCE(Whole<half_t, K, MN, half_t>);
TESSERA_SM90_INSTANCE(Whole<half_t, MN, K, half_t>);
TESSERA_SM90_INSTANCE(Whole<half_t, MN, MN, half_t>);
TESSERA_SM90_INSTANCE(Whole<half_t, K, K, float>);
TESSERA_SM90_INSTANCE(Whole<half_t, K, MN, float>);
TESSERA_SM90_INSTANCE(Whole<half_t, MN, K, float>);
TESSERA_SM90_INSTANCE(Whole<half_t, MN, MN, float>);
TESSERA_SM90_INSTANCE(Fused<half_t, kernels::Activation::GELUTanh>);
TESSERA_SM90_INSTANCE(Fused<half_t, kernels::Activation::ReLU>);
TESSERA_SM90_INSTANCE(Fused<half_t, kernels::Activation::SiLU>);
