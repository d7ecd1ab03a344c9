// Tracing is a policy the kernels are instantiated with (the last template parameter of the
// mainloops and kernels): NoTrace, the default, records nothing and costs nothing (every
// hook is behind `if constexpr (Trace::enabled)`); Recorder appends one record (map,
// thread, value, row, col) per (thread, value) a kernel held or moved to a device buffer.
// The tool src/gemm_trace instantiates the kernels with Recorder and turns the buffer into
// the text format of `tessera verify`, with `map` lines from the same TiledMMA / TiledCopy
// objects; the kernels know nothing of the tool.
//
// The run uses one CTA tile (M = BM, N = BN, K = BK) whose inputs hold their own
// coordinates: A(m, k) = m * BK + k, B(n, k) = n * BK + k (exact in 16 bits and in f32),
// so what a copy moved and what ldmatrix delivered is decoded from the data itself.
#pragma once

#include <cstdint>

#include <tessera/kernels/trace_records.hpp>

namespace tessera::kernels::trace {

// tile.k: (tile, k-iteration) pairs that reached a tile's accumulators (the SM90 traced
// configurations' k-iteration run, collective/sm90_epilogue_recorded.cuh).
enum class Map : int { g2s_a, g2s_b, s2r_a, s2r_b, mma_a, mma_b, mma_c, tile_k, count };

inline const char* name(Map m) {
  switch (m) {
    case Map::g2s_a: return "copy.gA->sA";
    case Map::g2s_b: return "copy.gB->sB";
    case Map::s2r_a: return "copy.sA->rA";
    case Map::s2r_b: return "copy.sB->rB";
    case Map::mma_a: return "mma.A";
    case Map::mma_b: return "mma.B";
    case Map::mma_c: return "mma.C";
    case Map::tile_k: return "tile.k";
    default: return "?";
  }
}

// Device buffer: `count` records appended atomically, at most `capacity` kept (the count
// still grows, so the host sees an overflow).
using Sink = kernels::TraceRecords;  // (tessera/kernels/trace_records.hpp)

struct Code {
  int row, col;
};
// An input element encoded as row * bk + col (its coordinate in the trace tile).
#if defined(__CUDACC__)
__host__ __device__
#endif
inline Code decode(std::uint32_t bits, int bk) {
  return {int(bits) / bk, int(bits) % bk};
}

// The SM90 kernel's traced run (collective/sm90_epilogue_trace.cuh) makes each accumulator
// encode its coordinate in the 128 x 256 tile: C(m, n) = m + kAccumulatorRowSpan * n (exact
// in f32, and its factors exact in bf16, for m, n < 256).
inline constexpr int kAccumulatorRowSpan = 256;
#if defined(__CUDACC__)
__host__ __device__
#endif
constexpr Code decode_accumulator(float v) {
  const int code = int(v);
  return {code % kAccumulatorRowSpan, code / kAccumulatorRowSpan};
}

// The default policy: no records, no code.
struct NoTrace {
  static constexpr bool enabled = false;
};

// The recording policy: appends to the Sink that Problem::trace points at (null: nothing).
struct Recorder {
  static constexpr bool enabled = true;
#if defined(__CUDACC__)
  __device__ static void record(Sink* s, Map m, int thread, int value, int row, int col) {
    if (s) s->record(int(m), thread, value, row, col);
  }
#endif
};

}  // namespace tessera::kernels::trace
