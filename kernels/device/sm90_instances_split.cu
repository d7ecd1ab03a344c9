// The SM90 split-K kernels (split-K of the last wave; run only when the plan splits): 16-bit
// inputs, D in the inputs' type, TN and NT (sm90_set::has_split) with 128x256
// tiles, NT with 128x128 (small TN problems run ping-pong, unsplit). The other
// majors and an f32 D run unsplit. sm_90a only.
#include "sm90_instance.cuh"
#include "sm90_kernel_set.cuh"

using namespace tessera;
using namespace tessera::kernels::device::sm90_set;

TESSERA_SM90_INSTANCE(Split<bfloat16_t, K, K>);
TESSERA_SM90_INSTANCE(Split<bfloat16_t, MN, MN>);
TESSERA_SM90_INSTANCE(Split<half_t, K, K>);
TESSERA_SM90_INSTANCE(Split<half_t, MN, MN>);
TESSERA_SM90_INSTANCE(SmallSplit<bfloat16_t, MN, MN>);
TESSERA_SM90_INSTANCE(SmallSplit<half_t, MN, MN>);
