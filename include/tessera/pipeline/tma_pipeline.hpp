#pragma once
// A producer/consumer pipeline over a ring of `Stages` shared-memory stages, on mbarriers:
// full[s] (one producer arrival + the stage's TMA bytes) and empty[s] (one arrival per
// consumer). Producer and consumers each walk the ring with a PipelineState (stage index
// and phase parity, flipped each time the index wraps).
//   producer: try_acquire(st)  waits empty[s] at parity phase^1: true at once on the first
//                              lap (the phase "before" phase 0 counts as completed)
//             commit(st)       arrive_expect_tx(full[s], stage bytes); the TMA copies then
//                              complete_tx on full_barrier(st) as they land
//   consumer: try_wait(st)     waits full[s] at parity phase: the stage's bytes have landed
//             release(st)      arrive(empty[s]): the stage may be overwritten
// The try_ forms do not block (the device spins on them; host tests step actors with them).
#include <cstdint>

#include "tessera/pipeline/mbarrier.hpp"

namespace tessera::pipeline {

template <int Stages>
struct PipelineState {
  static_assert(Stages >= 1, "PipelineState: a pipeline has at least one stage");
  int index = 0;
  uint32_t phase = 0;
  TESSERA_HOST_DEVICE constexpr PipelineState& operator++() {
    if (++index == Stages) { index = 0; phase ^= 1u; }
    return *this;
  }
};

template <int Stages, class Barrier>
struct TmaPipeline {
  Barrier full[Stages];
  Barrier empty[Stages];
  uint32_t stage_bytes = 0;

  // Once, by one thread, before anyone uses the barriers (then a CTA barrier, and on the
  // device fence.proxy.async-visible init).
  TESSERA_HOST_DEVICE void init(int consumers, uint32_t bytes_per_stage) {
    stage_bytes = bytes_per_stage;
    for (int s = 0; s < Stages; ++s) {
      full[s].init(1);
      empty[s].init(consumers);
    }
  }
  TESSERA_HOST_DEVICE bool producer_try_acquire(PipelineState<Stages> const& st) const {
    return empty[st.index].try_wait(st.phase ^ 1u);
  }
  TESSERA_HOST_DEVICE void producer_commit(PipelineState<Stages> const& st) { full[st.index].arrive_expect_tx(stage_bytes); }
  TESSERA_HOST_DEVICE Barrier& full_barrier(PipelineState<Stages> const& st) { return full[st.index]; }
  TESSERA_HOST_DEVICE bool consumer_try_wait(PipelineState<Stages> const& st) const { return full[st.index].try_wait(st.phase); }
  TESSERA_HOST_DEVICE void consumer_release(PipelineState<Stages> const& st) { empty[st.index].arrive(); }
  // In a cluster whose producers write into every CTA's stage (TMA multicast), a stage is free
  // once the consumers of all `ctas` CTAs are done with it: each consumer arrives on empty[s]
  // of every CTA (init(consumers * ctas, ...)). DeviceMbarrier only.
  TESSERA_DEVICE void consumer_release_cluster(PipelineState<Stages> const& st, int ctas) {
    for (int r = 0; r < ctas; ++r) empty[st.index].arrive_cluster(uint32_t(r));
  }
};

}  // namespace tessera::pipeline
