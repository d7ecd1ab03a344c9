// tessera GEMM, host API.
//
//   tessera::kernels::GemmArguments g;  ... fill sizes, operands, alpha/beta ...
//   if (auto r = tessera::gemm(g, stream); !r) fprintf(stderr, "%s: %s\n", to_string(r.status), r.message.c_str());
//
// Arguments are checked first (check_arguments, no device needed); then the device
// adapter picks a kernel configuration (select_kernel) and launches it on `stream`.
// The kernels live in the compiled library tessera_kernels (kernels/device/gemm.cu).
#pragma once

#include "tessera/kernels/gemm_arguments.hpp"

struct CUstream_st;  // cudaStream_t without pulling CUDA headers into host code

namespace tessera::kernels {

// Checks the arguments and that a device that runs the kernels (sm_80 or newer) is present.
GemmResult can_implement(const GemmArguments& args);

// Bytes of GemmArguments::workspace with which gemm(args) may split the last wave of tiles
// along K on the current device (0: the kernel it runs would not split).  The problem's
// shape, element type and alignment decide it, not the pointers' values.
std::size_t gemm_workspace_size(const GemmArguments& args);
// The same for gemm(args, kernel): that configuration's workspace.
std::size_t gemm_workspace_size(const GemmArguments& args, GemmKernel kernel);

// Runs D = alpha*A*B + beta*C with the configuration select_kernel picks.
GemmResult gemm(const GemmArguments& args, CUstream_st* stream = nullptr);

// Runs a named configuration (tests and benchmarks); Unsupported when it cannot run `args`.
GemmResult gemm(const GemmArguments& args, GemmKernel kernel, CUstream_st* stream = nullptr);

}  // namespace tessera::kernels

namespace tessera {
using kernels::gemm;
}  // namespace tessera
