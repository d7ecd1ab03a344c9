// 5. Trace mode of your GEMM: the CTA function (5_my_gemm.hpp) records, per thread and value,
// what it really held, and `tessera verify` compares that with the maps the algebra computes
// from the same objects (G2S, TiledMma).  One CTA, M = bM, N = bN, K = bK, two runs:
//   operands:     A(m,k) and B(n,k) hold the 16-bit pattern m*bK + k (bits, not numbers:
//                 copies and ldmatrix move bits), so what a thread's cp.async wrote to smem
//                 and what its MMA fragments hold decode to their (row, col);
//   accumulators: A(m,0) = m, A(m,1) = 1, B(n,0) = 1, B(n,1) = bM*n, zero elsewhere (exact in
//                 f16), so accumulator (m,n) holds m + bM*n.
// The same code records on the GPU (5_my_gemm.cu --trace FILE) and on the host
// (5_my_gemm_check.cpp, every thread through host_warp).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <tessera/kernels/trace_records.hpp>

#include "5_my_gemm.hpp"

namespace my_gemm {

enum TraceMap : int { g2s_a, g2s_b, mma_a, mma_b, mma_c, trace_map_count };
inline const char* trace_map_name(int m) {
  constexpr const char* names[] = {"copy.gA->sA", "copy.gB->sB", "mma.A", "mma.B", "mma.C"};
  return m >= 0 && m < trace_map_count ? names[m] : "unknown";
}

// Appends records (map, thread, value, row, col) to `out` (tessera/kernels/trace_records.hpp).
struct Recorder {
  static constexpr bool enabled = true;
  kernels::TraceRecords out;
  bool accumulators;  // which run: the accumulators' (mma.C) or the operands' (the others)

  TESSERA_HOST_DEVICE void record(int map, int thread, int value, int row, int col) const { out.record(map, thread, value, row, col); }
  // Stage 0 of smem, once the first k-tile landed: each copy value read back where it wrote.
  template <class SA, class SB>
  TESSERA_HOST_DEVICE void smem(int tid, SA const& tAsA, SB const& tBsB) const {
    if (accumulators) return;
    for (int v = 0; v < int(size(tAsA.layout())); ++v)
      record(g2s_a, tid, v, tAsA[v].bits / int(bK), tAsA[v].bits % int(bK));
    for (int v = 0; v < int(size(tBsB.layout())); ++v)
      record(g2s_b, tid, v, tBsB[v].bits / int(bK), tBsB[v].bits % int(bK));
  }
  // k-block kb's fragments as the MMA reads them (first k-tile): value v of the slice is value
  // v + size(slice) * kb of the whole fragment (MMA, MMA_M, MMA_K).
  template <class FA, class FB>
  TESSERA_HOST_DEVICE void fragments(int tid, int kb, FA const& a, FB const& b) const {
    if (accumulators) return;
    const int na = int(size(a.layout())), nb = int(size(b.layout()));
    for (int v = 0; v < na; ++v) record(mma_a, tid, v + na * kb, a[v].bits / int(bK), a[v].bits % int(bK));
    for (int v = 0; v < nb; ++v) record(mma_b, tid, v + nb * kb, b[v].bits / int(bK), b[v].bits % int(bK));
  }
  template <class Acc>
  TESSERA_HOST_DEVICE void accumulators_of(int tid, Acc const& c) const {
    if (!accumulators) return;
    for (int v = 0; v < int(size(c.layout())); ++v) {
      const int code = int(c[v]);
      record(mma_c, tid, v, code % int(bM), code / int(bM));
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

// The expected maps, from the kernel's own objects (5_my_gemm_trace_maps.cpp: a C++ file, as
// nvcc's host pass cannot spell the tiled copy's partition types).
void write_trace_maps(std::ostream& os);

// The whole trace in `tessera verify`'s format: the maps, then the records of both runs.
inline void write_trace(std::ostream& os, std::vector<int> const& records) {
  os << "tessera-trace 1\nkernel my_gemm (examples/5_my_gemm.hpp) f16 TN tile=128x128x64 stages=3 "
        "mma=SM80_16x8x16_F32F16F16F32_TN atoms=2x2x1\n";
  write_trace_maps(os);
  for (std::size_t i = 0; i + 5 <= records.size(); i += 5)
    os << "rec " << trace_map_name(records[i]) << " " << records[i + 1] << " " << records[i + 2] << " " << records[i + 3] << " "
       << records[i + 4] << "\n";
}

}  // namespace my_gemm
