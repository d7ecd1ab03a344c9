// Stand-ins for the kernel library's host API (tessera/kernels/gemm.hpp, gemm_grouped.hpp, attention.hpp) that check the
// arguments and launch nothing: enough to build and load tessera._gemm_cuda on a machine without
// a GPU or the kernels' nvcc build (tools/python/check_gemm_cuda.sh).
// With -DTESSERA_STUB_GEMM_ONLY only the GEMM's stand-ins, which refuse every launch, for a
// _gemm_cuda linked with the real attention kernels alone (tools/device/run_attention_py.sh:
// a build of minutes, not of the whole kernel library).
#include "tessera/kernels/attention.hpp"
#include "tessera/kernels/gemm.hpp"
#include "tessera/kernels/gemm_grouped.hpp"

#include "kernel/sm90_attention_scheduler.hpp"

namespace tessera::kernels {

#ifdef TESSERA_STUB_GEMM_ONLY
static GemmResult refused(const GemmResult& checked) {
  return checked ? GemmResult{GemmStatus::NoDevice, "this tessera._gemm_cuda holds the attention kernels alone (no GEMM kernels)"}
                 : checked;
}
#else
static GemmResult refused(const GemmResult& checked) { return checked; }
#endif

GemmResult can_implement(const GemmArguments& args) { return refused(check_arguments(args)); }
std::size_t gemm_workspace_size(const GemmArguments&) { return 0; }
std::size_t gemm_workspace_size(const GemmArguments&, GemmKernel) { return 0; }
GemmResult gemm(const GemmArguments& args, CUstream_st*) { return refused(check_arguments(args)); }
GemmResult gemm(const GemmArguments& args, GemmKernel, CUstream_st*) { return refused(check_arguments(args)); }
GemmTuneResult gemm_tune(const GemmArguments& args, const GemmTuneOptions&, CUstream_st*) {
  GemmTuneResult r;
  r.status = check_arguments(args);
  if (r.status) r.status = {GemmStatus::NoDevice, "the stand-in kernel library has no device"};
  return r;
}
GemmResult gemm_grouped(const GemmGroupedArguments& args, CUstream_st*) { return refused(check_grouped_arguments(args)); }
#ifndef TESSERA_STUB_GEMM_ONLY
AttentionResult can_implement(const AttentionArguments& args) { return check_arguments(args); }
// (the library's rule, which the host decides: the grid, the mask and varlen)
std::size_t attention_workspace_size(const AttentionArguments& args) {
  namespace att = sm90::attention;
  return att::tile_assignment(args.grid, args.mask == AttentionMask::Causal, args.cu_seqlens_q != nullptr, true) ==
                 att::TileAssignment::counter
             ? attention_counter_bytes
             : 0;
}
AttentionResult attention(const AttentionArguments& args, CUstream_st*) { return check_arguments(args); }
#endif

}  // namespace tessera::kernels
