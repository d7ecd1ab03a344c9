// The Stream-K fix-up on the device (stream_k_scheduler.hpp states the protocol): a Partial
// step stores its accumulators in its slot and writes the launch's tag in its flag; the Owner
// step waits until its peers' flags hold exactly this launch's tag, adds their partials in the
// fixed order (the nearest peer first: acc = p + acc) and clears the flags (0).
//
// Why a tag and not a flag of 1: no slot has to start cleared, so a launch needs no memset of
// the flags before it (a caller's or a pool's workspace holds anything; launch_tag.hpp says
// why a foreign value is never taken for this launch's). The owners still clear what they
// consumed: a CUDA graph replays the captured tag, and must find the slots without it.
//
// The `Threads` threads that hold a CTA tile's accumulators call these together, each with its
// `Elems` floats (a multiple of 4) and its index t in [0, Threads); `sync` is their barrier
// (__syncthreads, or a named barrier over the consumer warpgroups). A slot is the layout
// (t, j) -> float4 j of thread t, thread fastest: a warp's stores of one j are 512 contiguous
// bytes. Partials go through L2 (st.cg / ld.cg): L1 is not coherent between SMs.
#pragma once

#include <cstdint>

#include "stream_k_scheduler.hpp"

namespace tessera::kernels {

template <int Threads, int Elems>
struct StreamKFixup {
  static_assert(Elems % 4 == 0, "the fix-up moves accumulators as float4");
  static constexpr int Words = Elems / 4;

  float* partials;        // StreamKWorkspace: slots of Threads * Elems floats
  std::uint64_t* flags;   // one per slot: this launch's tag once the slot's partial is stored
  std::uint64_t tag = 0;  // this launch's (device/launch_tag.hpp: never 0, distinct per launch)

  __device__ __forceinline__ float4* slot_words(std::int64_t slot) const {
    return reinterpret_cast<float4*>(partials) + slot * (Threads * Words);
  }

  // Partial: store acc in `slot`, then publish it: the tag in its flag. One fence, by the thread
  // that writes the tag, after the barrier (the pattern of a grid-wide barrier): the barrier
  // orders every thread's stores before thread 0's fence at CTA scope, and the fence is
  // cumulative, so the fence and the tag after it form a release at GPU scope that covers all
  // of the slot's stores; the owner's fence after it sees the tag is the matching acquire.
  // (The steps apart, for a caller whose stores and publication run on different threads:
  // store, then a barrier that orders the stores before the publishing thread, then publish.)
  template <class Acc, class Sync>
  __device__ __forceinline__ void write(std::int64_t slot, const Acc& acc, int t, Sync&& sync) const {
    store(slot, acc, t);
    sync();
    if (t == 0) publish(slot);
  }

  // (every thread) acc into `slot`: Words float4 stores through L2, not waited for.
  template <class Acc>
  __device__ __forceinline__ void store(std::int64_t slot, const Acc& acc, int t) const {
    float4* w = slot_words(slot);
#pragma unroll
    for (int j = 0; j < Words; ++j)
      __stcg(w + j * Threads + t, make_float4(acc[4 * j], acc[4 * j + 1], acc[4 * j + 2], acc[4 * j + 3]));
  }

  // (one thread, after a barrier that every storing thread passed or arrived at after its
  // stores) The fence, then the tag: the slot is published.
  __device__ __forceinline__ void publish(std::int64_t slot) const {
    __threadfence();
    atomicExch(reinterpret_cast<unsigned long long*>(flags + slot), static_cast<unsigned long long>(tag));
  }

  // Owner: wait for the tag in the flags of units [first_peer, unit) (slots of this rank), then
  // acc = partial[p] + acc for p = unit - 1 down to first_peer, then clear the flags.
  // Returns false when a flag went without the tag for `patience` polls (a broken schedule: the
  // caller reports it instead of hanging); 0 waits forever. Giving up leaves the flags as they
  // are: a peer may still publish, and a replay of the same tag would then take its slot as
  // published (stream_k_scheduler.hpp: "a launch that does not finish"). (The steps one by one, for a caller with
  // its own shared word or barrier: await_peers, add_peers, release_peers.)
  template <class Acc, class Sync>
  __device__ __forceinline__ bool reduce(const StreamKScheduler& s, const StreamKWork& w, int rm, int rn, Acc& acc, int t,
                                         Sync&& sync, std::uint64_t patience = 0) const {
    __shared__ int ok;
    if (t == 0) ok = await_peers(s, w, rm, rn, patience);
    sync();
    if (!ok) return false;
    add_peers(s, w, rm, rn, acc, t);
    sync();  // every thread has read the partials before their flags go down
    if (t == 0) release_peers(s, w, rm, rn);
    return true;
  }

  // (one thread) Polls the peers' flags until each holds the tag, or `patience` polls of one
  // (0: forever); then fences, so that the peers' partials, released with their flags, are read
  // after them by every thread that syncs with this one.
  __device__ __forceinline__ bool await_peers(const StreamKScheduler& s, const StreamKWork& w, int rm, int rn,
                                              std::uint64_t patience = 0) const {
    bool ok = true;
    for (std::int64_t p = w.first_peer; p < w.unit && ok; ++p) {
      // (an aligned 64-bit volatile load is one access: a peer's tag is never seen half-written)
      volatile std::uint64_t* f = flags + s.slot(p, rm, rn);
      for (std::uint64_t polls = 0; *f != tag; ++polls) {
        if (patience != 0 && polls == patience) {
          ok = false;
          break;
        }
        __nanosleep(64);
      }
    }
    __threadfence();
    return ok;
  }

  // (every thread, after await_peers and a barrier) acc = partial[p] + acc for p = unit - 1
  // down to first_peer. Loads in chunks of up to 8 float4 (32 registers beside the
  // accumulators), a compiler barrier between chunks: all of a slot's loads at once would
  // spill the accumulators.
  template <class Acc>
  __device__ __forceinline__ void add_peers(const StreamKScheduler& s, const StreamKWork& w, int rm, int rn, Acc& acc,
                                            int t) const {
    constexpr int chunk = Words % 8 == 0 ? 8 : Words % 4 == 0 ? 4 : 1;
    for (std::int64_t p = w.unit - 1; p >= w.first_peer; --p) {
      const float4* r = slot_words(s.slot(p, rm, rn));
#pragma unroll
      for (int c = 0; c < Words / chunk; ++c) {
        float4 v[chunk];
#pragma unroll
        for (int i = 0; i < chunk; ++i) v[i] = __ldcg(r + (c * chunk + i) * Threads + t);
#pragma unroll
        for (int i = 0; i < chunk; ++i) {
          const int j = c * chunk + i;
          acc[4 * j] = v[i].x + acc[4 * j];
          acc[4 * j + 1] = v[i].y + acc[4 * j + 1];
          acc[4 * j + 2] = v[i].z + acc[4 * j + 2];
          acc[4 * j + 3] = v[i].w + acc[4 * j + 3];
        }
        asm volatile("" ::: "memory");
      }
    }
  }

  // (one thread, after every thread's add_peers and a barrier) The peers' flags back to 0, so
  // that a replay of this launch (a CUDA graph's: the same tag) finds them without its tag.
  __device__ __forceinline__ void release_peers(const StreamKScheduler& s, const StreamKWork& w, int rm, int rn) const {
    for (std::int64_t p = w.first_peer; p < w.unit; ++p)
      atomicExch(reinterpret_cast<unsigned long long*>(flags + s.slot(p, rm, rn)), 0ull);
  }
};

}  // namespace tessera::kernels
