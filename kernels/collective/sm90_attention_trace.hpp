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
// One CTA tile (seqlen_q = bM, seqlen_k = bN, one batch, one head) and inputs whose values name
// their coordinates, exact in 16-bit inputs and f32 accumulators, with the code stride c the
// power of two at or above bM (TraceProblem::stride):
//   Q(m,0) = m, Q(m,1) = 1; K(n,0) = 1, K(n,1) = c n;  V(0,d) = 1, V(1,d) = c d; zero elsewhere
// so S(m,n) = m + c n, exact while each input (m, c n, c d) is exact in T: a power of two times
// n or d keeps the odd part within bf16's 8 significant bits for n, d < 256 (a stride of 192
// would not: 192 n needs 9 bits for odd n >= 86; trace_codes_exact checks it). Two runs:
//   scores   records S; the softmax is replaced by P(m,n) = the T whose bits are
//            kPBias + m + bM n (dense: positive, normal and finite in bf16 and f16 while
//            bM bN <= 0x7c00 - kPBias: bits 0x0400..0x7bff), then
//            rounded to T by the kernel's own round_p and read through PRetile: records P from
//            its bits;
//   output   the softmax is replaced by P(m,0) = m, P(m,1) = 1, zero elsewhere (S's codes name
//            the column): O(m,d) = m + c d; records O.
// In both runs the replaced softmax leaves the row sums 0, so the epilogue writes O = 0 and
// LSE = -inf: a trace run's outputs are not attention's.
#pragma once

#include <cstdint>
#include <type_traits>
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
inline constexpr std::uint16_t kPBias = 0x0400;  // P's bits in the scores run: kPBias + code

// A trace run's problem: one tile of the configuration, (bM queries, bN keys) of one head.
template <class Cfg>
struct TraceProblem {
  static constexpr int rows = Cfg::bM, keys = Cfg::bN;
  // S's and O's codes: row + stride column (the inputs exact in T); P's bits: row + bM column.
  static constexpr int stride = [] {
    int c = 1;
    while (c < Cfg::bM) c *= 2;
    return c;
  }();
  // Records per run: S and P (bN / 2 values per consumer thread each), or O (D / 2).
  static constexpr int capacity = Cfg::Consumers * 128 * (Cfg::bN > Cfg::head_dim ? Cfg::bN : Cfg::head_dim);
};

// Whether integer x (>= 0) is a finite T exactly: its odd part within T's significand (8 bits
// bf16, 11 f16) and, in f16, below its largest finite value.
template <class T>
constexpr bool exact_integer(int x) {
  constexpr bool bf16 = std::is_same_v<T, bfloat16_t>;
  if (!bf16 && x > 65504) return false;
  while (x != 0 && x % 2 == 0) x /= 2;
  return x < (1 << (bf16 ? 8 : 11));
}
// The trace inputs (trace_inputs) exact in T: rows m, stride n for the keys, stride d for head
// dims; and S's and O's largest codes exact in the f32 accumulators.
template <class Cfg>
constexpr bool trace_codes_exact() {
  using T = typename Cfg::Element;
  constexpr int c = TraceProblem<Cfg>::stride;
  for (int m = 0; m < Cfg::bM; ++m)
    if (!exact_integer<T>(m)) return false;
  for (int n = 0; n < Cfg::bN; ++n)
    if (!exact_integer<T>(c * n)) return false;
  for (int d = 0; d < Cfg::head_dim; ++d)
    if (!exact_integer<T>(c * d)) return false;
  const int largest = Cfg::bM - 1 + c * ((Cfg::bN > Cfg::head_dim ? Cfg::bN : Cfg::head_dim) - 1);
  return largest < (1 << 24);
}

template <class Cfg>
struct AttentionRecorder {
  static constexpr bool enabled = true;
  static_assert(Cfg::bM * Cfg::bN <= 0x7c00 - kPBias, "the scores run's P codes are finite 16-bit values");
  static_assert(trace_codes_exact<Cfg>(), "the trace's inputs (row, stride column) are exact in the element type");
  using T = typename Cfg::Element;
  static constexpr int stride = TraceProblem<Cfg>::stride;
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
      const int code = int(acc_s(v)), row = code % stride, col = code / stride;
      if (run == TraceRun::scores) {
        record(trace_s, thread, v, row, col);
        acc_s(v) = float(T::from_bits(std::uint16_t(kPBias + row + Cfg::bM * col)));
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
      record(trace_p, thread, v, code % Cfg::bM, code / Cfg::bM);
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
      record(trace_o, thread, v, code % stride, code / stride);
    }
  }
};

// The traced problem's inputs, Q (bM, D), K and V (bN, D), row-major (seqlen, head_dim of one
// head): the same for both runs.
template <class Cfg, class T = typename Cfg::Element>
void trace_inputs(std::vector<T>& q, std::vector<T>& k, std::vector<T>& v) {
  constexpr int D = Cfg::head_dim, bM = Cfg::bM, bN = Cfg::bN, c = TraceProblem<Cfg>::stride;
  q.assign(std::size_t(bM * D), T::from_bits(0)), k.assign(std::size_t(bN * D), T::from_bits(0)), v.assign(std::size_t(bN * D), T::from_bits(0));
  for (int r = 0; r < bM; ++r) {
    q[std::size_t(r * D + 0)] = T(float(r));
    q[std::size_t(r * D + 1)] = T(1.f);
  }
  for (int n = 0; n < bN; ++n) {
    k[std::size_t(n * D + 0)] = T(1.f);
    k[std::size_t(n * D + 1)] = T(float(c * n));
  }
  for (int d = 0; d < D; ++d) {
    v[std::size_t(0 * D + d)] = T(1.f);
    v[std::size_t(1 * D + d)] = T(float(c * d));
  }
}

}  // namespace tessera::kernels::sm90::attention
