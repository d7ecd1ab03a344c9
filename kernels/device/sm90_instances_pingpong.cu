// The SM90 ping-pong kernels (sm90_kernel_list.hpp: bf16 and f16, A and B K-major, D
// column-major in the inputs' type, 64x128x64 tiles, no cluster), which sm90_instances.cu's
// dispatch runs for small problems (sm90_schedule.hpp). A translation unit of its own so that
// a parallel build (CI's two cores) compiles it beside the others. sm_90a only.
#include "sm90_instance.cuh"

TESSERA_SM90_INSTANCES(Pingpong);
