// The SM90 attention epilogue: O / l rounded to T and stored where the row lies inside its
// sequence, and each row's log-sum-exp (f32) by the lane of the row's lanes whose row bits
// are 0. Stores from registers, each thread its own values (a row's two adjacent columns per
// 4-byte store), so that a varlen sequence's tile never writes into the next sequence's rows;
// a TMA store through shared memory (as the GEMM's epilogue) is the faster next step where
// the tile lies inside its sequence.
#pragma once

#include "sm90_attention_mainloop.cuh"

namespace tessera::kernels::sm90::attention {

struct Output {
  void* o;
  int64_t batch_stride, row_stride, head_stride;  // elements (varlen: rows are global)
  float* lse;                                      // (batch, heads, seqlen_q), or (heads, total_q) varlen; may be null
};

template <class Cfg>
TESSERA_DEVICE void store_output(Output const& out, Problem const& p, WorkItem const& w, int thread, ConsumerState<Cfg>& cs) {
  using T = typename Cfg::Element;
  typename Cfg::TiledMmaO mma_o;
  auto thr_o = mma_o.get_slice(thread);
  auto cO = thr_o.partition_C(make_identity_tensor(typename Cfg::TileO{}));  // (row, d) per value
  constexpr auto slot_o = typename Cfg::RowSlotsO{};
  float inv[Cfg::rows_per_thread];
#pragma unroll
  for (int r = 0; r < Cfg::rows_per_thread; ++r) inv[r] = cs.rows[r].inverse_sum();
  T* o = static_cast<T*>(out.o) + int64_t(w.batch_coord) * out.batch_stride + int64_t(w.h) * out.head_stride;
  const int row0 = w.m * Cfg::bM;
  static_assert(decltype(size(cs.acc_o))::value % 2 == 0, "values in column pairs");
#pragma unroll
  for (int i = 0; i < size(cs.acc_o); i += 2) {
    const int r = row0 + int(get<0>(cO(i))), d = int(get<1>(cO(i)));
    if (r < w.sq) {
      // (values i and i + 1 are columns d and d + 1 of one row: the accumulator's layout)
      T pair[2];
      tessera::detail::round_pair(cs.acc_o(i) * inv[slot_o(i)], cs.acc_o(i + 1) * inv[slot_o(i + 1)], pair[0], pair[1]);
      *reinterpret_cast<uint32_t*>(o + int64_t(w.q_begin + r) * out.row_stride + d) =
          uint32_t(pair[0].bits) | (uint32_t(pair[1].bits) << 16);
    }
  }
  if (out.lse != nullptr && (thread & Cfg::row_lanes) == 0) {
    constexpr auto rows = accumulator_rows(typename Cfg::TiledMmaO{}, typename Cfg::TileO{});
#pragma unroll
    for (int i = 0; i < size(cs.acc_o); ++i) {
      // (the first value of each slot names the slot's row)
      bool first = true;
#pragma unroll
      for (int i2 = 0; i2 < i; ++i2) first = first && int(slot_o(i2)) != int(slot_o(i));
      if (!first) continue;
      const int r = row0 + int(rows(thread, i));
      if (r < w.sq) {
        const int64_t at = p.cu_q != nullptr ? int64_t(w.h) * p.total_q + w.q_begin + r
                                             : (int64_t(w.b) * p.heads + w.h) * p.seqlen_q + r;
        out.lse[at] = cs.rows[slot_o(i)].lse(p.scale);
      }
    }
  }
}

}  // namespace tessera::kernels::sm90::attention
