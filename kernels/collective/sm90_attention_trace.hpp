// Trace mode of the SM90 attention kernel: the consumers record, per thread and value, the
// (row, column) of what they held, for `tessera verify` to compare with the maps the algebra
// draws from the kernel's own objects (tests/hopper/sm90_attention_trace_file.cpp):
//   mmaS.C   S = Q K^T's accumulators            TiledMmaS's C map over (bM, bN)
//   mmaO.A   P as the RS wgmma's A fragment       TiledMmaO's A map over (bM, bN): P's words
//            (S's accumulators through PRetile)   read through PRetile, value v its v-th element
//   mmaO.C   O += P V's accumulators              TiledMmaO's C map over (bM, D)
// The policy is the kernel's last template parameter: trace::NoTrace (the shipped instances)
// compiles every hook away (`if constexpr (Trace::enabled)`); AttentionRecorder records into
// a device buffer (or, on the host, a host buffer: the host test runs the same hooks).
//
// One CTA tile (seqlen_q = seqlen_k = 128, one batch, one head) and inputs whose values name
// their coordinates, exact in 16-bit inputs and f32 accumulators:
//   Q(m,0) = m, Q(m,1) = 1; K(n,0) = 1, K(n,1) = bM n;  V(0,d) = 1, V(1,d) = bM d; zero elsewhere
// so S(m,n) = m + bM n. Two runs (Run):
//   scores   records S; the softmax is replaced by P(m,n) = the T whose bits are
//            kPBias + m + bM n (normal and finite in bf16 and f16: bits 0x2000..0x5fff), then
//            rounded to T by the kernel's own round_p and read through PRetile: records P from
//            its bits;
//   output   the softmax is replaced by P(m,0) = m, P(m,1) = 1, zero elsewhere (S's codes name
//            the column): O(m,d) = m + bM d; records O.
// In both runs the replaced softmax leaves the row sums 0, so the epilogue writes O = 0 and
// LSE = -inf: a trace run's outputs are not attention's.
#pragma once

#include <cstdint>
#include <vector>

#include "tessera/algorithm.hpp"
#include "tessera/kernels/trace_records.hpp"

#include "../kernel/trace_policy.cuh"

namespace tessera::kernels::sm90::attention {

enum class TraceRun : int { scores, output };
enum TraceMap : int { trace_s, trace_p, trace_o, trace_map_count };
inline const char* trace_map_name(int m) {
  constexpr const char* names[] = {"mmaS.C", "mmaO.A", "mmaO.C"};
  return m >= 0 && m < trace_map_count ? names[m] : "unknown";
}
inline constexpr int kTraceTile = 128;          // bM = bN: the codes' row span
inline constexpr std::uint16_t kPBias = 0x2000;  // P's bits in the scores run: kPBias + code

template <class Cfg>
struct AttentionRecorder {
  static constexpr bool enabled = true;
  static_assert(Cfg::bM == kTraceTile && Cfg::bN == kTraceTile, "the trace codes assume 128 x 128 tiles");
  using T = typename Cfg::Element;
  kernels::TraceRecords out;  // (tessera/kernels/trace_records.hpp)
  TraceRun run;

  TESSERA_HOST_DEVICE void record(int map, int thread, int value, int row, int col) const { out.record(map, thread, value, row, col); }

  // In place of the softmax, once S has landed: records S (scores run) and writes P into S's
  // registers; no rescaling of O.
  template <class AccS, int Rows>
  TESSERA_HOST_DEVICE void softmax(int thread, AccS& acc_s, float (&factor)[Rows]) const {
    constexpr int values = int(decltype(size(acc_s))::value);
#pragma unroll
    for (int v = 0; v < values; ++v) {
      const int code = int(acc_s(v)), row = code % kTraceTile, col = code / kTraceTile;
      if (run == TraceRun::scores) {
        record(trace_s, thread, v, row, col);
        acc_s(v) = float(T::from_bits(std::uint16_t(kPBias + code)));
      } else {
        acc_s(v) = col == 0 ? float(row) : col == 1 ? 1.f : 0.f;
      }
    }
#pragma unroll
    for (int r = 0; r < Rows; ++r) factor[r] = 1.f;
  }
  // P as the RS wgmma reads it (ConsumerMma::p_operand): value v's bits name its coordinate.
  template <class POperand>
  TESSERA_HOST_DEVICE void p_operand(int thread, POperand const& p) const {
    if (run != TraceRun::scores) return;
    constexpr int values = int(decltype(size(p))::value);
#pragma unroll
    for (int v = 0; v < values; ++v) {
      const int code = int(p(v).bits) - int(kPBias);
      record(trace_p, thread, v, code % kTraceTile, code / kTraceTile);
    }
  }
  // O's accumulators after the last key tile (output run).
  template <class AccO>
  TESSERA_HOST_DEVICE void output(int thread, AccO const& acc_o) const {
    if (run != TraceRun::output) return;
    constexpr int values = int(decltype(size(acc_o))::value);
#pragma unroll
    for (int v = 0; v < values; ++v) {
      const int code = int(acc_o(v));
      record(trace_o, thread, v, code % kTraceTile, code / kTraceTile);
    }
  }
};

// The traced problem's inputs, (128, D) row-major each (seqlen, head_dim of one head): the
// same for both runs.
template <class T>
void trace_inputs(int head_dim, std::vector<T>& q, std::vector<T>& k, std::vector<T>& v) {
  const std::size_t n = std::size_t(kTraceTile) * std::size_t(head_dim);
  q.assign(n, T::from_bits(0)), k.assign(n, T::from_bits(0)), v.assign(n, T::from_bits(0));
  for (int r = 0; r < kTraceTile; ++r) {
    q[std::size_t(r * head_dim + 0)] = T(float(r));
    q[std::size_t(r * head_dim + 1)] = T(1.f);
    k[std::size_t(r * head_dim + 0)] = T(1.f);
    k[std::size_t(r * head_dim + 1)] = T(float(kTraceTile * r));
  }
  for (int d = 0; d < head_dim; ++d) {
    v[std::size_t(0 * head_dim + d)] = T(1.f);
    v[std::size_t(1 * head_dim + d)] = T(float(kTraceTile * d));
  }
}

}  // namespace tessera::kernels::sm90::attention
