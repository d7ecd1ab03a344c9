// The SM90 path of the device layer (kernels/device/sm90_instances.cu, built for sm_90a).
#pragma once

#include <cuda_runtime.h>

#include "tessera/kernels/gemm_arguments.hpp"

namespace tessera::kernels::device {

// Success when the SM90 kernel runs `args` on the current device (an sm_90 GPU; bf16/f16; A
// and B K-major; TMA's 16-byte alignment), else why not.
GemmResult sm90_can_implement(const GemmArguments& args);
GemmResult run_sm90(const GemmArguments& args, cudaStream_t stream);

}  // namespace tessera::kernels::device
