// gemm_trace --sm90 --config bf16_64x128_pingpong (sm_90a): the library's bf16 TN ping-pong
// kernel (the kernel list's Pingpong<bf16>: 64x128x64 tiles, no cluster, the two consumer
// warpgroups taking whole tiles in turns) with its epilogue recorded.
#include "sm90_trace_run.cuh"

namespace tessera::kernels::trace {

namespace {
using Shipped = device::sm90_set::Pingpong<bfloat16_t>;
static_assert(shipped<Shipped>(), "bf16_64x128_pingpong traces a kernel the library ships");
static_assert(matches_config<Sm90Config::bf16_64x128_pingpong, Shipped>(), "bf16_64x128_pingpong: the table's tile, cluster and TiledMma");
static_assert(device::sm90_set::traits_of<Shipped>.pingpong, "bf16_64x128_pingpong traces the ping-pong kernel");
using Traced = recorded_kernel_t<Shipped>;
}  // namespace

std::vector<int> run_traced_sm90_bf16_64x128_pingpong() {
  return run_config<Sm90Config::bf16_64x128_pingpong, Traced, bfloat16_t>();
}

}  // namespace tessera::kernels::trace
