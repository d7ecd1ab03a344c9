// The SM90 path of the device layer (kernels/device/sm90_instances.cu, built for sm_90a).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "tessera/kernels/gemm_arguments.hpp"

namespace tessera::kernels::sm90 {
struct Sm90Config;  // sm90_schedule.hpp
}

namespace tessera::kernels::device {

// Success when the SM90 kernel runs `args` on the current device (an sm_90 GPU; bf16/f16; A
// and B K-major; TMA's 16-byte alignment), else why not.
GemmResult sm90_can_implement(const GemmArguments& args);
GemmResult run_sm90(const GemmArguments& args, cudaStream_t stream);
// The workspace the Stream-K kernel would use for `args` (0: the dispatch runs whole tiles:
// the wave model predicts no gain, or the plan on this GPU's resident clusters shares nothing);
// with less (or none) in args.workspace_bytes the whole-tile kernel runs.
std::size_t sm90_workspace_size(const GemmArguments& args);
// The schedule and tile run_sm90 takes for `args` (sm90_schedule.hpp; "stream-k ..." where it
// runs the Stream-K kernel; " row-major D" where it runs the kernel built with a row-major D,
// the problem transposed as that kernel sees it), "none" when it refuses.
const char* sm90_schedule(const GemmArguments& args);

// The same three with the configuration given instead of chosen (gemm_tune times each of
// sm90::built_configs(args), either orientation): Unsupported where the list builds no kernel of
// that configuration for args; the Stream-K kernel declines without its workspace, as above.
// args are the caller's, refused (workspace 0) where tessera::gemm's check_arguments refuses them.
GemmResult run_sm90(const GemmArguments& args, cudaStream_t stream, const sm90::Sm90Config& config);
std::size_t sm90_workspace_size(const GemmArguments& args, const sm90::Sm90Config& config);

}  // namespace tessera::kernels::device
