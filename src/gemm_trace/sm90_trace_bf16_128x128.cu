// gemm_trace --sm90 --config bf16_128x128 (sm_90a): the library's bf16 TN 128x128x64 kernel
// without a cluster (the kernel list's Solo<bf16>: whole tiles, the epilogue after the tile)
// with its epilogue recorded.
#include "sm90_trace_run.cuh"

namespace tessera::kernels::trace {

namespace {
using Shipped = device::sm90_set::Solo<bfloat16_t>;
static_assert(shipped<Shipped>(), "bf16_128x128 traces a kernel the library ships");
static_assert(matches_config<Sm90Config::bf16_128x128, Shipped>(), "bf16_128x128: the table's tile, cluster and TiledMma");
static_assert(std::is_same_v<Shipped::EpilogueOrder, sm90::EpilogueAfterTile> &&
                  std::is_same_v<Shipped::Scheduler, sm90::WholeTileScheduler>,
              "bf16_128x128 traces whole tiles, the epilogue after the tile");
using Traced = recorded_kernel_t<Shipped>;
}  // namespace

std::vector<int> run_traced_sm90_bf16_128x128() { return run_config<Sm90Config::bf16_128x128, Traced, bfloat16_t>(); }

}  // namespace tessera::kernels::trace
