// The SM90 kernels with 128x128 tiles over whole tiles (16-bit inputs, NT, NN and TT: small TN
// problems run ping-pong; D in the inputs' type) and the tf32 kernel (sm90_kernel_set.cuh). sm_90a only.
#include "sm90_instance.cuh"
#include "sm90_kernel_set.cuh"

using namespace tessera;
using namespace tessera::kernels::device::sm90_set;

TESSERA_SM90_INSTANCE(Small<bfloat16_t, K, MN>);
TESSERA_SM90_INSTANCE(Small<bfloat16_t, MN, K>);
TESSERA_SM90_INSTANCE(Small<bfloat16_t, MN, MN>);
TESSERA_SM90_INSTANCE(Small<half_t, K, MN>);
TESSERA_SM90_INSTANCE(Small<half_t, MN, K>);
TESSERA_SM90_INSTANCE(Small<half_t, MN, MN>);
TESSERA_SM90_INSTANCE(Tf32);
