// 6. Trace mode of your Hopper GEMM: the kernel (6_my_hopper_gemm.cu) records, per thread and
// value, what it really held, and `tessera verify` compares that with the maps the algebra
// computes from the same objects (the stage tiles' layouts, the TiledMma). One cluster (its
// first CTA records; the second's tile lies past M), M = bM, N = bN, K = bK, two runs:
//   operands:     A(m,k) and B(n,k) hold the 16-bit pattern m*bK + k (bits: TMA moves bits),
//                 and once the first stage landed the consumers read each TMA box back where
//                 the copy wrote it (box element x at the swizzle of its offset in the box):
//                 maps tma.A and tma.B, (box, element in the box) -> the element's (row, k);
//   accumulators: A(m,0) = m, A(m,1) = 1, B(n,0) = 1, B(n,1) = bM*n, zero elsewhere (exact in
//                 bf16), so accumulator (m,n) holds m + bM*n: map mma.C, the TiledMma's C map.
// The same code records on the GPU (6_my_hopper_gemm --trace FILE) and on the host
// (6_my_hopper_gemm_check.cpp, the consumers through host_warp, TMA emulated).
#pragma once

#include <cstdint>
#include <ostream>
#include <vector>

#include <tessera/kernels/trace_records.hpp>

#include "6_my_hopper_gemm.hpp"

namespace my_hopper_gemm {

enum TraceMap : int { tma_a, tma_b, mma_c, trace_map_count };
inline const char* trace_map_name(int m) {
  constexpr const char* names[] = {"tma.A", "tma.B", "mma.C"};
  return m >= 0 && m < trace_map_count ? names[m] : "unknown";
}

// Appends records (map, thread, value, row, col) to `out` (tessera/kernels/trace_records.hpp).
struct Recorder {
  static constexpr bool enabled = true;
  kernels::TraceRecords out;
  bool accumulators;  // which run: the accumulators' (mma.C) or the operands' (tma.A, tma.B)

  TESSERA_HOST_DEVICE void record(int map, int thread, int value, int row, int col) const { out.record(map, thread, value, row, col); }
  // One box per stage tile (TmaA, TmaB: the host check asserts it): box 0's element x lies at
  // the stage's offset x before the swizzle, so the swizzle of x is where TMA wrote it.
  template <class Stage>
  TESSERA_HOST_DEVICE void box(int map, int consumer_thread, T const* s, Stage const& stage, int elements) const {
    for (int x = consumer_thread; x < elements; x += Consumers * GMMA::warpgroup_threads) {
      const int bits = s[int(stage.outer()(x))].bits;
      record(map, 0, x, bits / int(bK), bits % int(bK));
    }
  }
  // Stage 0, once its copies landed (every consumer thread takes its share of the elements).
  TESSERA_HOST_DEVICE void stage(int consumer_thread, T const* a, T const* b) const {
    if (accumulators) return;
    box(tma_a, consumer_thread, a, StageA{}, stage_a_elements);
    box(tma_b, consumer_thread, b, StageB{}, stage_b_elements);
  }
  template <class Acc>
  TESSERA_HOST_DEVICE void accumulators_of(int consumer_thread, Acc const& acc) const {
    if (!accumulators) return;
    constexpr int values = int(decltype(size(acc))::value);
#pragma unroll
    for (int v = 0; v < values; ++v) {
      const int code = int(acc(v));
      record(mma_c, consumer_thread, v, code % int(bM), code / int(bM));
    }
  }
};

// The traced problem's inputs (row-major A (bM, bK), B (bN, bK)) for one run.
inline void trace_inputs(bool accumulators, std::vector<T>& A, std::vector<T>& B) {
  const int K = int(bK);
  A.assign(std::size_t(int(bM) * K), T::from_bits(0));
  B.assign(std::size_t(int(bN) * K), T::from_bits(0));
  for (int m = 0; m < int(bM); ++m)
    for (int k = 0; k < K; ++k)
      A[std::size_t(m * K + k)] = accumulators ? (k == 0 ? T::from_float(float(m)) : k == 1 ? T::from_float(1.f) : T::from_bits(0))
                                               : T::from_bits(std::uint16_t(m * K + k));
  for (int n = 0; n < int(bN); ++n)
    for (int k = 0; k < K; ++k)
      B[std::size_t(n * K + k)] = accumulators ? (k == 0 ? T::from_float(1.f) : k == 1 ? T::from_float(float(int(bM) * n)) : T::from_bits(0))
                                               : T::from_bits(std::uint16_t(n * K + k));
}

// The expected maps, from the kernel's own objects (6_my_hopper_gemm_trace_maps.cpp).
void write_trace_maps(std::ostream& os);

// The whole trace in `tessera verify`'s format: the maps, then the records of both runs.
inline void write_trace(std::ostream& os, std::vector<int> const& records) {
  os << "tessera-trace 1\nkernel my_hopper_gemm (examples/6_my_hopper_gemm.hpp) bf16 TN tile=128x256x64 stages=4 "
        "mma=SM90_64x256x16_F32BF16BF16_SS atoms=2x1x1 cluster=2x1x1 tma=SM90_TMA_LOAD+SM90_TMA_LOAD_MULTICAST "
        "epilogue=SM90_U32x4_STSM_N+SM90_TMA_STORE\n";
  write_trace_maps(os);
  for (std::size_t i = 0; i + 5 <= records.size(); i += 5)
    os << "rec " << trace_map_name(records[i]) << " " << records[i + 1] << " " << records[i + 2] << " " << records[i + 3] << " "
       << records[i + 4] << "\n";
}

}  // namespace my_hopper_gemm
