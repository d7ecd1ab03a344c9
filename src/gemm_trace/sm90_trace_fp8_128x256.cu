// gemm_trace --sm90 --config fp8_128x256 (sm_90a): the library's FP8 e4m3 x e4m3 -> bf16
// 128x256x128 kernel (the kernel list's Fp8<e4m3, e4m3, bf16>: clusters of 2, whole tiles, the
// epilogue under the next tile's first 2 k-tiles) with its epilogue recorded.
#include "sm90_trace_run.cuh"

namespace tessera::kernels::trace {

namespace {
using Shipped = device::sm90_set::Fp8<float_e4m3_t, float_e4m3_t, bfloat16_t>;
static_assert(shipped<Shipped>(), "fp8_128x256 traces a kernel the library ships");
static_assert(matches_config<Sm90Config::fp8_128x256, Shipped>(), "fp8_128x256: the table's tile, cluster and TiledMma");
static_assert(std::is_same_v<Shipped::EpilogueOrder, sm90::ShippedEpilogueOrder> &&
                  std::is_same_v<Shipped::Scheduler, sm90::WholeTileScheduler>,
              "fp8_128x256 traces the epilogue under the next tile, over whole tiles");
using Traced = recorded_kernel_t<Shipped>;
static_assert(Traced::Overlapped && Traced::epilogue_packs, "the recorded epilogue keeps the shipped order (it packs)");
}  // namespace

std::vector<int> run_traced_sm90_fp8_128x256() { return run_config<Sm90Config::fp8_128x256, Traced, float_e4m3_t>(); }

}  // namespace tessera::kernels::trace
