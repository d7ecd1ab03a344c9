// The SM90 kernels with 128x128 tiles over whole tiles (16-bit inputs, NT, NN and TT: small TN
// problems run ping-pong; D in the inputs' type) and the tf32 kernel (sm90_kernel_list.hpp). sm_90a only.
#include "sm90_instance.cuh"

TESSERA_SM90_INSTANCES(Small);
