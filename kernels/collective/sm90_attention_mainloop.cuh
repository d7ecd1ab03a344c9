// The SM90 attention mainloop (FlashAttention-3's structure): a producer thread loads Q once
// and the K and V tiles of a Q tile through two mbarrier rings (K and V apart, so S = Q K^T
// starts before V lands); each consumer warpgroup computes, per key tile,
//   S = Q K^T                  wgmma SS on descriptor fragments of Q and the K stage
//   mask, row max, P           in S's registers: RowSlots / row_lanes give each value's row
//                              and the lanes that share it (from S's TV layout)
//   O = O * factor + P V       P rounded to T, read as the RS operand through PRetile
// The steps are ConsumerSteps' functions (issue_s, softmax, round_p, issue_pv), each issuing or
// computing without waiting; consume() orders them: S of tile j issued with P V of tile j - 1,
// the softmax of S_j under that P V, and the consumer warpgroups taking turns on the
// tensor cores (ConsumerTurns).
#pragma once

#include <climits>
#include <type_traits>

#include <cuda_runtime.h>

#include "tessera/algorithm.hpp"
#include "tessera/algorithm/copy_tma.hpp"
#include "tessera/atom/tma_coord.hpp"
#include "tessera/pipeline/handoff_ring.hpp"
#include "tessera/pipeline/tma_pipeline.hpp"

#include "../arch/named_barrier.cuh"

#include "sm90_attention_config.hpp"
#include "sm90_attention_consumer_mma.hpp"
#include "sm90_attention_problem.hpp"
#include "sm90_attention_softmax.hpp"
#include "sm90_attention_trace.hpp"

namespace tessera::kernels::sm90::attention {

template <class Cfg>
struct SharedStorage {
  using T = typename Cfg::Element;
  alignas(1024) T q[Cfg::q_elements];  // (the swizzled tiles start on the swizzle's 1 KiB repeat)
  alignas(1024) T k[Cfg::Stages * Cfg::kv_stage_elements];
  alignas(1024) T v[Cfg::Stages * Cfg::kv_stage_elements];
  pipeline::TmaPipeline<Cfg::Stages, pipeline::DeviceMbarrier> pipe_k, pipe_v;
  // Q's one buffer, reused by a persistent CTA's work tiles: q_full (the producer's arrival and
  // Q's bytes), q_empty (a consumer warp each, once its last S = Q K^T of the tile has landed).
  pipeline::DeviceMbarrier q_full, q_empty;
  // The CTA's work tiles: from the scheduler thread to the producer thread (one slot, freed once
  // the tile's loads are issued), and from the producer to the consumer warps (tile_ring_slots).
  pipeline::HandoffRing<1, pipeline::DeviceMbarrier> next;
  pipeline::HandoffRing<tile_ring_slots, pipeline::DeviceMbarrier> tiles;
};

// The TMA copies of one problem: Q (rows, D, heads, batch) -> SmemQ, K (rows, D, kv heads,
// batch) -> a K stage, V (D, rows, kv heads, batch) -> a V stage (MN-major: D contiguous).
struct TmaMaps {
  CUtensorMap q, k, v;  // (64-byte aligned: the kernel takes its parameters as __grid_constant__)
  TmaLoad<4> tma_q, tma_k, tma_v;
};

// Producer: one thread issues the copies of a work item, its `q_load`-th Q (QBufferPhase).
// K_0 goes first: its stage frees while the consumers still run the previous tile's last key
// tiles, earlier than Q's buffer (freed by the previous tile's last S); then Q, then V_0.
template <class Cfg>
TESSERA_DEVICE void produce(TmaMaps const& maps, SharedStorage<Cfg>& s, WorkItem const& w, int kv_head,
                            pipeline::PipelineState<Cfg::Stages>& st, int q_load) {
  constexpr int bytes = int(sizeof(typename Cfg::Element));
  const uint32_t k0 = uint32_t(__cvta_generic_to_shared(s.k)), v0 = uint32_t(__cvta_generic_to_shared(s.v));
  for (int j = 0; j < w.key_tiles; ++j, ++st) {
    const int row = w.k_begin + j * Cfg::bN;
    while (!s.pipe_k.producer_try_acquire(st)) {}
    s.pipe_k.producer_commit(st);
    copy(maps.tma_k.with(&maps.k, s.pipe_k.full_barrier(st).address()), tma::coord_of(make_coord(row, 0, kv_head, w.batch_coord)),
         k0 + uint32_t(bytes * Cfg::kv_stage_elements * st.index));
    if (j == 0) {
      if (QBufferPhase::waits_empty(q_load))
        while (!s.q_empty.try_wait(QBufferPhase::empty_parity(q_load))) {}
      s.q_full.arrive_expect_tx(uint32_t(bytes * Cfg::q_elements));
      copy(maps.tma_q.with(&maps.q, s.q_full.address()), tma::coord_of(make_coord(w.q_begin + w.m * Cfg::bM, 0, w.h, w.batch_coord)),
           uint32_t(__cvta_generic_to_shared(s.q)));
    }
    while (!s.pipe_v.producer_try_acquire(st)) {}
    s.pipe_v.producer_commit(st);
    copy(maps.tma_v.with(&maps.v, s.pipe_v.full_barrier(st).address()), tma::coord_of(make_coord(0, row, kv_head, w.batch_coord)),
         v0 + uint32_t(bytes * Cfg::kv_stage_elements * st.index));
  }
}

// A consumer thread's state across key tiles: O's accumulators and each of its rows' softmax.
template <class Cfg>
struct ConsumerState {
  decltype(partition_fragment_C(typename Cfg::TiledMmaO{}, typename Cfg::TileO{})) acc_o;
  RowSoftmax rows[Cfg::rows_per_thread];
};

// Lanes sharing a row (row_lanes' bits) combine their values: a butterfly of xor shuffles.
template <int Mask, class F>
TESSERA_DEVICE float reduce_row(float x, F&& op) {
#pragma unroll
  for (int bit = 1; bit < 32; bit <<= 1)
    if (Mask & bit) x = op(x, __shfl_xor_sync(0xffffffffu, x, bit));
  return x;
}

// A consumer thread's steps on one key tile, apart so that the schedules that overlap them
// (the softmax of tile j under the wgmmas of tile j - 1 within a warpgroup; the two warpgroups
// taking turns on the tensor cores) reorder calls, not code. `thread`: 0 .. 128 Consumers - 1
// over the consumer warpgroups.
template <class Cfg>
struct ConsumerSteps {
  using T = typename Cfg::Element;
  using Mma = ConsumerMma<Cfg>;
  using AccS = typename Mma::AccS;
  static constexpr int p_words = Mma::p_words;

  SharedStorage<Cfg>& s;
  WorkItem const& w;
  bool causal;
  float c;  // scale * log2(e)
  int thread;

  // S = Q K^T on K stage `stage`: issued and committed as one wgmma batch (not waited for).
  TESSERA_DEVICE void issue_s(AccS& acc_s, int stage) const { Mma::issue_s(s.q, s.k, thread, acc_s, stage); }

  // Masks, row max, P = exp2(S c - m c) in S's registers, the row sums; returns through `factor`
  // each row slot's rescaling of O.
  // Mask: whether tile j may hold masked values (WorkItem::unmasked_tiles); the tiles before
  // it run without the mask's code.
  template <bool Mask>
  TESSERA_DEVICE void softmax(AccS& acc_s, int j, RowSoftmax (&rows)[Cfg::rows_per_thread], float (&factor)[Cfg::rows_per_thread]) const {
    constexpr auto slot_s = typename Cfg::RowSlots{};
    // (row, column) in the (bM, bN) tile of the thread's S value i: its value 0's plus thread
    // 0's value i (C_TV's offsets are a sum of the thread's and the value's, in disjoint row and
    // column digits: the host test checks it), so that only two numbers per thread stay live
    // across the loop, not 64 hoisted coordinates.
    constexpr auto c_tv = Cfg::TiledMmaS::get_layoutC_TV(typename Cfg::TileS{});
    const int off_t = int(c_tv(thread, 0));
    // Residue and causal masks (masked(): column >= sk, or causal and column - row > sk - sq),
    // as two limits on value i's compile-time (row, column) offsets (kr, kc) from the thread's
    // first value: kc >= sk - col, and kc - kr > sk - sq + row - col.
    if constexpr (Mask) {
      const int col = j * Cfg::bN + off_t / Cfg::bM, row = w.m * Cfg::bM + off_t % Cfg::bM;
      const int past_end = w.sk - col, past_diagonal = causal ? w.sk - w.sq + row - col : INT_MAX;
#pragma unroll
      for (int i = 0; i < size(acc_s); ++i) {
        const int kr = int(c_tv(0, i)) % Cfg::bM, kc = int(c_tv(0, i)) / Cfg::bM;
        if (kc >= past_end || kc - kr > past_diagonal) acc_s(i) = -INFINITY;
      }
    }
    float tile_max[Cfg::rows_per_thread];
#pragma unroll
    for (int r = 0; r < Cfg::rows_per_thread; ++r) tile_max[r] = -INFINITY;
#pragma unroll
    for (int i = 0; i < size(acc_s); ++i) tile_max[slot_s(i)] = fmaxf(tile_max[slot_s(i)], acc_s(i));
#pragma unroll
    for (int r = 0; r < Cfg::rows_per_thread; ++r) {
      tile_max[r] = reduce_row<Cfg::row_lanes>(tile_max[r], [](float a, float b) { return fmaxf(a, b); });
      factor[r] = rows[r].update_max(tile_max[r], c);  // (the sums stay per thread until the end)
    }
#pragma unroll
    for (int i = 0; i < size(acc_s); ++i) {
      acc_s(i) = rows[slot_s(i)].probability(acc_s(i), c);
      rows[slot_s(i)].sum += acc_s(i);
    }
  }

  // P: S's registers rounded to T, two per 32-bit word (ConsumerMma::round_p).
  TESSERA_DEVICE static void round_p(AccS const& acc_s, uint32_t (&p)[p_words]) { Mma::round_p(acc_s, p); }

  // O += P V on V stage `stage`, P's words read as the A fragment through PRetile
  // (accumulator_as_operand_A); issued and committed (not waited for).
  template <class AccO>
  TESSERA_DEVICE void issue_pv(AccO& acc_o, uint32_t const (&p)[p_words], int stage) const {
    Mma::issue_pv(s.v, thread, acc_o, p, stage);
  }
};

// The consumer warpgroups take turns issuing their wgmmas (FlashAttention-3's ping-pong, a ring
// of Consumers warpgroups): warpgroup w waits on ConsumerTurn + w, issues, and passes the turn
// at the next one's id, so that one warpgroup's softmax runs while another's GEMMs hold the
// tensor cores; the order of arrivals and syncs is ConsumerTurnProtocol's
// (sm90_attention_problem.hpp, host-tested).
template <int Consumers>
struct ConsumerTurns {
  using Protocol = ConsumerTurnProtocol<Consumers>;
  static_assert(Consumers <= int(arch::consumer_turn_barriers), "a turn barrier per consumer warpgroup");
  int warpgroup;  // 0 .. Consumers - 1
  TESSERA_DEVICE void begin() const {
    if (Protocol::arrives_before_first(warpgroup))  // (the last warpgroup: its next is 0)
      arch::named_barrier_arrive<arch::NamedBarrier::ConsumerTurn, 256>(Protocol::next(Consumers - 1));
  }
  TESSERA_DEVICE void take() const { arch::named_barrier_sync<arch::NamedBarrier::ConsumerTurn, 256>(warpgroup); }
  TESSERA_DEVICE void pass(bool last) const {
    if (Protocol::passes(warpgroup, last)) arch::named_barrier_arrive<arch::NamedBarrier::ConsumerTurn, 256>(Protocol::next(warpgroup));
  }
};

// The consumer mainloop with the GEMMs of one key tile overlapped with the softmax of the next
// (FlashAttention-3's intra-warpgroup pipelining): per key tile j >= 1, in one turn
//   issue S_j = Q K_j^T, then O += P_{j-1} V_{j-1}        (two wgmma batches in flight)
//   wait for S_j (the older batch), release K_j; softmax of S_j: the row max, P_j and factor_j
//                                                          (meant to run under the P V wgmma;
//                                                          the other warpgroups' turns cover it
//                                                          where ptxas waits for P V first)
//   wait for P V, release V_{j-1}; O *= factor_j; P_j rounded to T
// and a last turn for O += P_n V_n. Q is released (q_empty) as soon as the last S has landed, so
// that a persistent CTA's producer loads the next tile's Q under this tile's last P V and
// epilogue. O is rescaled after the P V of the previous tile lands and
// before the next is issued: the same O_j = O_{j-1} factor_j + P_j V_j as the serial loop.
// Registers: S (bN / 2 per thread), P (bN / 4 words) and O (D / 2) live together.
// Trace: trace::NoTrace (no code) or AttentionRecorder (sm90_attention_trace.hpp: its softmax
// in place of the kernel's, and records of S, P and O).
template <class Cfg, class Trace = trace::NoTrace>
TESSERA_DEVICE void consume(SharedStorage<Cfg>& s, WorkItem const& w, bool causal, float scale, int thread,
                            pipeline::PipelineState<Cfg::Stages>& st, int q_use, ConsumerState<Cfg>& cs, Trace const& trace = {}) {
  using Steps = ConsumerSteps<Cfg>;
  const Steps steps{s, w, causal, scale * approx::log2e, thread};
  constexpr auto slot_o = typename Cfg::RowSlotsO{};
  const bool lane0 = thread % 32 == 0;
  const ConsumerTurns<Cfg::Consumers> turns{thread / 128};
  typename Steps::AccS acc_s;
  uint32_t p[Steps::p_words];
  float factor[Cfg::rows_per_thread];
  auto softmax = [&](int j, auto mask) {
    if constexpr (Trace::enabled) trace.softmax(thread, acc_s, factor);
    else steps.template softmax<decltype(mask)::value>(acc_s, j, cs.rows, factor);
  };
  auto make_p = [&] {
    Steps::round_p(acc_s, p);
    if constexpr (Trace::enabled) trace.p_operand(thread, Steps::Mma::p_operand(p));
  };
  const int last = w.key_tiles - 1;
  auto release_q = [&] {  // (S of the last key tile has landed: no wgmma reads Q any more)
    if (lane0) s.q_empty.arrive();
  };
  clear(cs.acc_o);
  turns.begin();
  while (!s.q_full.try_wait(QBufferPhase::full_parity(q_use))) {}
  // Key tile 0: S_0 and its softmax (O is 0: nothing to rescale).
  turns.take();
  while (!s.pipe_k.consumer_try_wait(st)) {}
  steps.issue_s(acc_s, st.index);
  turns.pass(false);
  GMMA::warpgroup_wait<0>();
  GMMA::warpgroup_fence_operand(acc_s);
  if (lane0) s.pipe_k.consumer_release(st);
  if (last == 0) release_q();
  const int unmasked = w.unmasked_tiles(Cfg::bM, Cfg::bN, causal);
  if (unmasked > 0) softmax(0, std::false_type{});
  else softmax(0, std::true_type{});
  make_p();
  // Key tiles 1 .. key_tiles - 1: the unmasked ones, then those the masks cross.
  auto step = [&](int j, auto mask) {
    auto next = st;
    ++next;
    turns.take();
    while (!s.pipe_k.consumer_try_wait(next)) {}
    steps.issue_s(acc_s, next.index);
    while (!s.pipe_v.consumer_try_wait(st)) {}
    steps.issue_pv(cs.acc_o, p, st.index);
    turns.pass(false);
    GMMA::warpgroup_wait<1>();  // S_j (P V of tile j - 1 still running)
    GMMA::warpgroup_fence_operand(acc_s);
    if (lane0) s.pipe_k.consumer_release(next);
    if (j == last) release_q();
    softmax(j, mask);
    // (the fence keeps the softmax before the wait in the PTX; ptxas may still move the wait up
    // to convert P early, into registers the P V wgmma reads: bench/notes/attention.md)
    GMMA::warpgroup_fence_operand(acc_s);
    GMMA::warpgroup_wait<0>();
    GMMA::warpgroup_fence_operand(cs.acc_o);
    if (lane0) s.pipe_v.consumer_release(st);
#pragma unroll
    for (int i = 0; i < size(cs.acc_o); ++i) cs.acc_o(i) *= factor[slot_o(i)];
    make_p();
    st = next;
  };
  int j = 1;
  for (; j < unmasked; ++j) step(j, std::false_type{});
  for (; j < w.key_tiles; ++j) step(j, std::true_type{});
  turns.take();
  while (!s.pipe_v.consumer_try_wait(st)) {}
  steps.issue_pv(cs.acc_o, p, st.index);
  turns.pass(true);
  GMMA::warpgroup_wait<0>();
  GMMA::warpgroup_fence_operand(cs.acc_o);
  if (lane0) s.pipe_v.consumer_release(st);
  ++st;
  if constexpr (Trace::enabled) trace.output(thread, cs.acc_o);
  // Each row's sum over the lanes sharing it.
#pragma unroll
  for (int r = 0; r < Cfg::rows_per_thread; ++r)
    cs.rows[r].sum = reduce_row<Cfg::row_lanes>(cs.rows[r].sum, [](float a, float b) { return a + b; });
}

}  // namespace tessera::kernels::sm90::attention
