// Collective epilogue, SM90, trace mode: the direct epilogue's stores, and, for the problem's
// first tile, one record per accumulator value: (mma.C, thread, value, row, col), with the
// (row, col) the value itself encodes. The traced run feeds inputs whose product is the
// coordinate code (trace::decode_accumulator inverts it): A(m, 0) = m, A(m, 1) = 1, B(n, 0) = 1,
// B(n, 1) = 256 n, every other k zero, so C(m, n) = m + 256 n, exact in bf16 inputs and f32
// accumulators for m < 256 and n < 256. What `tessera verify` then compares with the
// TiledMma's C map is what the wgmma instructions put in each thread's registers.
#pragma once

#include <cstdint>

#include "../kernel/trace_policy.cuh"
#include "sm90_epilogue.cuh"

namespace tessera::kernels::sm90 {

template <class ElementD_>
struct CollectiveEpilogueSm90TraceC {
  using ElementD = ElementD_;
  static constexpr Activation FusedAct = Activation::Identity;
  using Direct = CollectiveEpilogueSm90Direct<ElementD>;
  struct SharedStorage {};
  struct Params {
    typename Direct::Params direct;
    trace::Sink* sink = nullptr;  // null: stores only
  };

  // ---- contract (host): the direct epilogue's, and where the records go.
  struct Arguments : Sm90EpilogueArguments {
    trace::Sink* sink = nullptr;  // device memory; null: stores only
  };
  static Arguments arguments_of(GemmArguments const& g) { return {Direct::arguments_of(g), nullptr}; }
  static GemmResult can_implement(GemmProblemShape const& problem, Arguments const& a) { return Direct::can_implement(problem, a); }
  static std::size_t get_workspace_size(GemmProblemShape const&, Arguments const&) { return 0; }
  static Params to_underlying_arguments(GemmProblemShape const& problem, Arguments const& a, void* workspace, GemmResult& status) {
    return {Direct::to_underlying_arguments(problem, a, workspace, status), a.sink};
  }
  static GemmResult initialize(Params const&, cudaStream_t) { return {}; }

  __device__ static void init(SharedStorage&) {}
  __device__ static void prefetch_c(Params const&, SharedStorage&, int, int64_t, int64_t, int64_t, int = 0) {}

  // thread: the consumer thread's index in the TiledMma; acc: its C fragment (value v is
  // register v), as the direct epilogue takes it.
  template <class TiledMma, class TileShape, class Acc>
  __device__ static void store(Params const& p, SharedStorage&, TiledMma const& tiled, TileShape const& tile_mn, int thread,
                               int64_t tile_m, int64_t tile_n, int64_t l, Acc const& acc, int = 0, bool = false) {
    if (tile_m == 0 && tile_n == 0 && l == 0) {
      constexpr int values = int(sizeof(Acc) / sizeof(float));
#pragma unroll  // registers by constant index: a runtime index would move acc to local memory
      for (int v = 0; v < values; ++v) {
        const trace::Code c = trace::decode_accumulator(acc[v]);
        trace::Recorder::record(p.sink, trace::Map::mma_c, thread, v, c.row, c.col);
      }
    }
    Direct::store(p.direct, tiled, tile_mn, thread, tile_m, tile_n, l, acc);
  }
  __device__ static void finish(Params const&, int) {}
};

}  // namespace tessera::kernels::sm90
