#pragma once
// A ring of `Slots` words (32-bit by default; any trivially copyable Word, e.g. a small struct of
// a work tile's coordinates) that one producer thread hands to a group of consumers through
// shared memory, on mbarriers: full[s] (the producer's one arrival, after it wrote the word:
// the arrival's release makes the write visible to whoever waits on the phase) and empty[s]
// (one arrival per consumer, once it has read the word). Both sides walk the ring with a
// PipelineState, as TmaPipeline's (no bytes: nothing lands asynchronously). A persistent
// kernel's scheduler thread tells its consumer warps which work tile comes next this way, up
// to `Slots` tiles ahead of them.
//   producer: try_acquire(st)  empty[s] at parity phase ^ 1 (true at once on the first lap)
//             publish(st, w)   word[s] = w, then arrive(full[s])
//   consumer: try_wait(st)     full[s] at parity phase
//             read(st)         word[s]
//             release(st)      arrive(empty[s]): the slot may be written again
#include <cstdint>
#include <type_traits>

#include "tessera/pipeline/tma_pipeline.hpp"

namespace tessera::pipeline {

template <int Slots, class Barrier, class Word = uint32_t>
struct HandoffRing {
  static_assert(Slots >= 1, "HandoffRing: a ring has at least one slot");
  static_assert(std::is_trivially_copyable_v<Word>, "HandoffRing: a word is copied through shared memory");
  Word word[Slots];
  Barrier full[Slots];
  Barrier empty[Slots];

  // Once, by one thread, before anyone uses the barriers (as TmaPipeline::init).
  TESSERA_HOST_DEVICE void init(int consumers) {
    for (int s = 0; s < Slots; ++s) {
      full[s].init(1);
      empty[s].init(consumers);
    }
  }
  TESSERA_HOST_DEVICE bool producer_try_acquire(PipelineState<Slots> const& st) const { return empty[st.index].try_wait(st.phase ^ 1u); }
  TESSERA_HOST_DEVICE void publish(PipelineState<Slots> const& st, Word const& w) {
    word[st.index] = w;
    full[st.index].arrive();
  }
  TESSERA_HOST_DEVICE bool consumer_try_wait(PipelineState<Slots> const& st) const { return full[st.index].try_wait(st.phase); }
  TESSERA_HOST_DEVICE Word read(PipelineState<Slots> const& st) const { return word[st.index]; }
  TESSERA_HOST_DEVICE void consumer_release(PipelineState<Slots> const& st) { empty[st.index].arrive(); }
};

}  // namespace tessera::pipeline
