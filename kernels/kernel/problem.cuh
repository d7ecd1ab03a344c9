// What one launch computes: D[l] = alpha * A[l] B[l] + beta * C[l], strides in elements.
#pragma once

#include <cstddef>
#include <cstdint>

#include <tessera/kernels/trace_records.hpp>

#include "split_plan.cuh"

namespace tessera::kernels {

namespace trace {
using Sink = TraceRecords;  // where a recording trace policy appends (trace_policy.cuh)
}

struct MatrixArg {
  const void* ptr;
  std::int64_t ld;            // stride of the non-contiguous mode
  std::int64_t batch_stride;  // distance between batches
  bool row;                   // second mode (K for A, N for B and D) contiguous?
};

struct Problem {
  std::int64_t m, n, k, batch;
  MatrixArg a, b, c, d;       // d.ptr is written through a cast; C may be null when beta == 0
  float alpha, beta;
  bool d_vector_ok;           // D/C pointers, ldd/ldc, batch strides and contiguous extent allow vectors
  trace::Sink* trace;         // where a recording trace policy (trace_policy.cuh) appends; else null
  // Split-K of the last wave (tile_scheduler.cuh): CTAs past the plan's first `whole` tiles
  // compute one of `split` K slices of a tile; the slices meet in `partials` (f32
  // accumulators) and `arrivals` (one zeroed counter per split tile).  The default plan
  // computes every tile whole.
  SplitPlan split_k = {INT64_MAX, 1};
  float* partials = nullptr;
  unsigned* arrivals = nullptr;
};

}  // namespace tessera::kernels
