// gemm_trace --sm90 --config stream_k (sm_90a): the library's bf16 TN 128x256x64 kernel under
// Stream-K (the kernel list's Split<bf16, K, K>: clusters of 2, tiles' k-iterations shared and
// fixed up through the workspace, the epilogue after the tile) with its epilogue recorded.
#include "sm90_trace_run.cuh"

namespace tessera::kernels::trace {

namespace {
using Shipped = device::sm90_set::Split<bfloat16_t, device::sm90_set::K, device::sm90_set::K>;
static_assert(shipped<Shipped>(), "stream_k traces a kernel the library ships");
static_assert(matches_config<Sm90Config::stream_k, Shipped>(), "stream_k: the table's tile, cluster and TiledMma");
static_assert(std::is_same_v<Shipped::Scheduler, sm90::StreamKTileScheduler> &&
                  std::is_same_v<Shipped::EpilogueOrder, sm90::EpilogueAfterTile>,
              "stream_k traces the Stream-K scheduler, the epilogue after the tile");
using Traced = recorded_kernel_t<Shipped>;
}  // namespace

std::vector<int> run_traced_sm90_stream_k() { return run_config<Sm90Config::stream_k, Traced, bfloat16_t>(); }

}  // namespace tessera::kernels::trace
