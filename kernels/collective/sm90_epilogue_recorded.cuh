// Collective epilogue, SM90, trace mode over a whole problem: a shipped epilogue (Inner: the
// TMA-store one, plain or fused) that also records, for every tile it stores, what each
// consumer thread holds in each accumulator register, then does exactly what Inner does. The
// kernel built with it keeps the shipped kernel's mainloop, scheduler and epilogue order
// (src/gemm_trace's configurations static_assert it): Inner's Packable, PacksAll and Packed
// are inherited, so a kernel under EpilogueUnderNextTile still packs, and the records come
// from `pack` there (the values after FP8's per-tensor scales, before the 16-bit rounding) and
// from `store` after the tile (whole tiles, a Stream-K tile's owner after the fix-up, ping-pong).
//
// The traced runs' inputs make accumulator (m, n) of the problem hold a small integer
// (src/gemm_trace/sm90_trace_configs.hpp builds them): m, n, or a mask of 8 k-tiles. Small, so
// that the sums are exact whatever precision the tensor cores' accumulation keeps (FP8's is
// reported near 14 bits): one coordinate per run, the host pairs them. Records:
//   Rows, Cols   (mma.C, thread, value + values * tile, m, -1) or (..., -1, n): tile = tile_m +
//                tiles_m * tile_n is the CTA tile the epilogue was told it stores, m or n what
//                the data says, so a value the wgmmas, the TMA loads, the fix-up or the scheduler
//                put elsewhere shows as a mismatch, a tile stored twice as duplicates, one never
//                stored as missing
//   KIterations  (tile.k, 0, tile + tiles * kt, tile, kt) for each bit b of thread 0's value 0,
//                kt = first_k_tile + b: each k-iteration of each tile must reach its
//                accumulators exactly once (one counted twice carries into the next bit, so its
//                own goes missing and the next one's is duplicated)
#pragma once

#include <cstdint>

#include "../kernel/trace_policy.cuh"
#include "sm90_contract.hpp"

namespace tessera::kernels::sm90 {

enum class RecordedValues : int { Rows, Cols, KIterations };

struct RecordTarget {
  trace::Sink* sink = nullptr;  // device memory; null: Inner's stores only
  RecordedValues what = RecordedValues::Rows;
  int tiles_m = 0, tiles = 0;   // the problem's CTA tiles along M, and in all
  int first_k_tile = 0;         // KIterations: the k-tile of the mask's bit 0
};

template <class Inner>
struct CollectiveEpilogueSm90Recorded : Inner {
  using InnerEpilogue = Inner;
  struct Arguments : Inner::Arguments {
    RecordTarget record{};
  };
  struct Params : Inner::Params {
    RecordTarget record{};
  };
  static Arguments arguments_of(GemmArguments const& g) { return {Inner::arguments_of(g), {}}; }
  static Params to_underlying_arguments(GemmProblemShape const& problem, Arguments const& a, void* workspace, GemmResult& status) {
    return {Inner::to_underlying_arguments(problem, a, workspace, status), a.record};
  }

  template <class Acc>
  __device__ __forceinline__ static void record(RecordTarget const& r, int thread, int64_t tile_m, int64_t tile_n, Acc const& acc) {
    if (r.sink == nullptr) return;
    constexpr int values = int(sizeof(Acc) / sizeof(float));
    const int tile = int(tile_m) + r.tiles_m * int(tile_n);
    if (r.what != RecordedValues::KIterations) {
      const bool rows = r.what == RecordedValues::Rows;
#pragma unroll  // registers by constant index: a runtime index would move acc to local memory
      for (int v = 0; v < values; ++v) {
        const int x = int(acc[v]);
        trace::Recorder::record(r.sink, trace::Map::mma_c, thread, v + values * tile, rows ? x : -1, rows ? -1 : x);
      }
    } else if (thread == 0) {
      const auto mask = static_cast<std::uint32_t>(acc[0]);
      for (int b = 0; b < 32; ++b) {
        const int kt = r.first_k_tile + b;
        if ((mask >> b) & 1u) trace::Recorder::record(r.sink, trace::Map::tile_k, 0, tile + r.tiles * kt, tile, kt);
      }
    }
  }

  // After the tile (and Stream-K's owner after the fix-up): the records, then Inner's stores.
  template <class TiledMma, class TileShape, class Acc>
  __device__ __forceinline__ static void store(Params const& p, typename Inner::SharedStorage& s, TiledMma const& tiled,
                                               TileShape const& tile_mn, int thread, int64_t tile_m, int64_t tile_n, int64_t l,
                                               Acc const& acc, int slot = 0, bool prefetched = false) {
    record(p.record, thread, tile_m, tile_n, acc);
    Inner::store(p, s, tiled, tile_mn, thread, tile_m, tile_n, l, acc, slot, prefetched);
  }
  // Under the next tile: the records from the complete accumulators, then Inner's pack.
  template <class TiledMma, class Acc>
  __device__ __forceinline__ static void pack(Params const& p, TiledMma const& tiled, int thread, int64_t tile_m, int64_t tile_n,
                                              int64_t l, Acc const& acc, typename Inner::Packed& out) {
    record(p.record, thread, tile_m, tile_n, acc);
    Inner::pack(p, tiled, thread, tile_m, tile_n, l, acc, out);
  }
};

}  // namespace tessera::kernels::sm90
