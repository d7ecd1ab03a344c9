// The SM90 kernels for small TN problems (sm90_kernel_list.hpp): the ping-pong kernels (bf16
// and f16, A and B K-major, D column-major in the inputs' type, 64x128x64 tiles, no cluster),
// which sm90_instances.cu's dispatch runs for small problems (sm90_schedule.hpp), and the
// 128x128 kernels of the same types and majors, under Stream-K in clusters of 2 (decode-like
// problems) and over whole tiles without a cluster (a few waves of 128x128 tiles), which share
// their B tiles' TMA plans. A translation unit of its own so that a parallel build (CI's two
// cores) compiles it beside the others. sm_90a only.
#include "sm90_instance.cuh"

TESSERA_SM90_INSTANCES(Pingpong);
