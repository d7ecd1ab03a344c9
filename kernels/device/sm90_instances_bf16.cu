// The SM90 kernels for bf16 inputs with 128x256 tiles over whole tiles (every major, D in
// bf16 or f32) and the fused TMA-store epilogues (TN, D in bf16). Kernels are spread over
// sm90_instances_*.cu so that a parallel build compiles them side by side (sm90_kernel_set.cuh).
// sm_90a only (kernels/CMakeLists.txt).
#include "sm90_instance.cuh"
#include "sm90_kernel_set.cuh"

using namespace tessera;
using namespace tessera::kernels::device::sm90_set;

TESSERA_SM90_INSTANCE(Whole<bfloat16_t, K, K, bfloat16_t>);
TESSERA_SM90_INSTANCE(Whole<bfloat16_t, K, MN, bfloat16_t>);
TESSERA_SM90_INSTANCE(Whole<bfloat16_t, MN, K, bfloat16_t>);
TESSERA_SM90_INSTANCE(Whole<bfloat16_t, MN, MN, bfloat16_t>);
TESSERA_SM90_INSTANCE(Whole<bfloat16_t, K, K, float>);
TESSERA_SM90_INSTANCE(Whole<bfloat16_t, K, MN, float>);
TESSERA_SM90_INSTANCE(Whole<bfloat16_t, MN, K, float>);
TESSERA_SM90_INSTANCE(Whole<bfloat16_t, MN, MN, float>);
TESSERA_SM90_INSTANCE(Fused<bfloat16_t, kernels::Activation::GELUTanh>);
TESSERA_SM90_INSTANCE(Fused<bfloat16_t, kernels::Activation::ReLU>);
TESSERA_SM90_INSTANCE(Fused<bfloat16_t, kernels::Activation::SiLU>);
