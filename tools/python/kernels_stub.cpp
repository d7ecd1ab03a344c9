// Stand-ins for the kernel library's host API (tessera/kernels/gemm.hpp, gemm_grouped.hpp, attention.hpp) that check the
// arguments and launch nothing: enough to build and load tessera._gemm_cuda on a machine without
// a GPU or the kernels' nvcc build (tools/python/check_gemm_cuda.sh).
#include "tessera/kernels/attention.hpp"
#include "tessera/kernels/gemm.hpp"
#include "tessera/kernels/gemm_grouped.hpp"

namespace tessera::kernels {

GemmResult can_implement(const GemmArguments& args) { return check_arguments(args); }
std::size_t gemm_workspace_size(const GemmArguments&) { return 0; }
std::size_t gemm_workspace_size(const GemmArguments&, GemmKernel) { return 0; }
GemmResult gemm(const GemmArguments& args, CUstream_st*) { return check_arguments(args); }
GemmResult gemm(const GemmArguments& args, GemmKernel, CUstream_st*) { return check_arguments(args); }
GemmTuneResult gemm_tune(const GemmArguments& args, const GemmTuneOptions&, CUstream_st*) {
  GemmTuneResult r;
  r.status = check_arguments(args);
  if (r.status) r.status = {GemmStatus::NoDevice, "the stand-in kernel library has no device"};
  return r;
}
GemmResult gemm_grouped(const GemmGroupedArguments& args, CUstream_st*) { return check_grouped_arguments(args); }
AttentionResult can_implement(const AttentionArguments& args) { return check_arguments(args); }
std::size_t attention_workspace_size(const AttentionArguments&) { return 0; }
AttentionResult attention(const AttentionArguments& args, CUstream_st*) { return check_arguments(args); }

}  // namespace tessera::kernels
