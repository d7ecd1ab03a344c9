// The SM90 attention kernel: warp-specialized, a CTA per (Q tile of bM = 64 Consumers rows,
// head, batch) or persistent CTAs that take several such work tiles each.
//   warpgroup 0      producer: setmaxnreg down (Cfg::producer_registers); one thread loads Q and
//                    the K/V tiles by TMA
//   warpgroups 1..   consumers: rows 64(w-1) .. 64w-1 of the Q tile; setmaxnreg up
//                    (Cfg::consumer_registers: S, P and O live in registers, bN/2 + bN/4 + D/2
//                    per thread)
// The work tiles are the (Q tile of the longest sequence, head, batch) triples, which
// AttentionTileScheduler lists in its order (sm90_attention_scheduler.hpp: the heaviest Q tiles
// first under a causal mask or varlen); the one-dimensional grid has a CTA per tile, or
// (persistent) fewer CTAs that take several, strided through the list or by a counter
// (PersistentGrid); a Q tile past its (varlen) sequence's end is skipped.
#pragma once

#include "../collective/sm90_attention_epilogue.cuh"
#include "../collective/sm90_attention_mainloop.cuh"
#include "sm90_attention_scheduler.hpp"

namespace tessera::kernels::sm90::attention {

struct KernelParams {
  TmaMaps maps;
  Problem problem;
  Output out;
  AttentionTileScheduler schedule;
  TileCounter* counter;  // persistent CTAs by the counter (a zeroed workspace); null: strided
};

// A CTA's work tiles: its first block blockIdx.x, then the next by the grid's assignment
// (PersistentGrid): blockIdx.x + gridDim.x, ... (strided; a grid of schedule.blocks() CTAs gives
// each CTA one tile), or a ticket from p.counter. A scheduler thread (thread 32, of the
// producer warpgroup's second warp) decides: it skips the Q tiles past their sequence's end,
// names each tile to the consumer warps through s.tiles and hands it to the producer thread
// through s.next (one slot), then `blocks`, the end; it draws the next ticket when the producer
// frees the slot, i.e. once it has issued the tile's loads, about a stage before the consumers
// finish the tile (so the CTAs claim tiles in about the order they free). (The scheduling sits
// in a thread of its own: in the producer thread's loop, under its 24 registers, an atomic made
// ptxas spill 48-68 bytes, and naming the tiles there too 36 bytes in the two-consumer D 64
// kernel.) Each tile is computed by the same code whatever the grid, so the outputs are the
// same bits. The K and V rings' states run on from tile to tile and Q's buffer is handed over
// per tile (QBufferPhase): the producer loads the next tile's K_0 and Q while the consumers
// finish this tile's last P V and its epilogue.
// Trace: trace::NoTrace (the shipped kernels) or AttentionRecorder (its one-tile problem: one
// work tile, whatever the grid).
template <class Cfg, class Trace>
TESSERA_DEVICE void attention_cta(KernelParams const& p, Trace const& trace) {
  extern __shared__ __align__(1024) unsigned char raw[];
  auto& s = *reinterpret_cast<SharedStorage<Cfg>*>(raw);
  // (unsigned: a block stays below blocks + gridDim.x <= 2^32 - 2, blocks() being at most 2^31 - 1)
  const uint32_t blocks = uint32_t(p.schedule.blocks());
  auto work = [&](uint32_t block) {
    const AttentionTile t = p.schedule.tile(int(block));
    return work_item(p.problem, t.m, t.h, t.b, Cfg::bM, Cfg::bN);
  };
  constexpr int consumer_warps = Cfg::Consumers * 4;
  if (threadIdx.x == 0) {
    s.pipe_k.init(consumer_warps, uint32_t(sizeof(typename Cfg::Element) * Cfg::kv_stage_elements));
    s.pipe_v.init(consumer_warps, uint32_t(sizeof(typename Cfg::Element) * Cfg::kv_stage_elements));
    s.q_full.init(1);
    s.q_empty.init(consumer_warps);
    s.next.init(1);
    s.tiles.init(consumer_warps);
    pipeline::fence_barrier_init();
  }
  __syncthreads();
  pipeline::PipelineState<Cfg::Stages> st;
  pipeline::PipelineState<tile_ring_slots> ring;
  int q_tiles = 0;  // work tiles that read keys so far: Q's loads (producer) or uses (consumers)
  if (threadIdx.x < 128) {
    GMMA::warpgroup_reg_dealloc<Cfg::producer_registers>();
    if (threadIdx.x == 32) {  // the scheduler thread
      const PersistentGrid grid{int(gridDim.x)};
      auto advance = [&](uint32_t block) {
        return p.counter ? grid.block_of_ticket(atomicAdd(&p.counter->next, 1u)) : block + gridDim.x;
      };
      pipeline::PipelineState<1> next;
      while (!s.next.producer_try_acquire(next)) {}  // (free: the first lap)
      for (uint32_t block = blockIdx.x;;) {
        while (block < blocks && work(block).empty_rows(Cfg::bM)) block = advance(block);  // (varlen: past the end)
        while (!s.tiles.producer_try_acquire(ring)) {}
        s.tiles.publish(ring, block);
        ++ring;
        s.next.publish(next, block);
        ++next;
        if (block >= blocks) break;
        while (!s.next.producer_try_acquire(next)) {}  // the producer has issued the tile's loads
        block = advance(block);
      }
      if (p.counter) {
        // This CTA's last ticket is drawn; the last CTA to get here zeroes the counter for the
        // next launch (the fences order every CTA's last ticket before its count, and the counts
        // before the reset).
        __threadfence();
        if (grid.last_to_finish(atomicAdd(&p.counter->done, 1u))) {
          __threadfence();
          atomicExch(&p.counter->next, 0u);
          atomicExch(&p.counter->done, 0u);
        }
      }
      return;
    }
    if (threadIdx.x != 0) return;
    for (pipeline::PipelineState<1> next;; ++next) {  // the producer thread
      while (!s.next.consumer_try_wait(next)) {}
      const uint32_t block = s.next.read(next);
      if (block >= blocks) break;
      const WorkItem w = work(block);
      if (w.key_tiles > 0) produce<Cfg>(p.maps, s, w, w.h / (p.problem.heads / p.problem.kv_heads), st, q_tiles++);
      s.next.consumer_release(next);  // (the tile's loads are issued: the scheduler draws the next)
    }
    return;
  }
  GMMA::warpgroup_reg_alloc<Cfg::consumer_registers>();
  for (;; ++ring) {
    // (lane 0 alone waits, reads and releases the slot, and hands the word to its warp by a
    // shuffle: the read and the release are one thread's, in program order, so the scheduler's
    // next write to the slot is ordered after every use of it without relying on the warp's
    // barrier carrying the other lanes' reads into lane 0's release)
    uint32_t block = 0;
    if (threadIdx.x % 32 == 0) {
      while (!s.tiles.consumer_try_wait(ring)) {}
      block = s.tiles.read(ring);
      s.tiles.consumer_release(ring);
    }
    block = __shfl_sync(0xffffffffu, block, 0);
    if (block >= blocks) break;
    // (the thread's index made opaque per tile: else the compiler hoists everything derived from
    // it, the fragments' offsets and masks' limits, out of the tile loop and keeps it live across
    // the mainloop, which then spills; recomputed per tile it costs a few integer ops)
    int thread = int(threadIdx.x) - 128;
    asm volatile("" : "+r"(thread));
    const WorkItem w = work(block);
    ConsumerState<Cfg> cs;
    if (w.key_tiles > 0) consume<Cfg>(s, w, p.problem.causal, p.problem.scale, thread, st, q_tiles++, cs, trace);
    else clear(cs.acc_o);  // no key visible: O = 0, LSE = -inf
    store_output<Cfg>(p.out, p.problem, w, thread, cs);
  }
}

template <class Cfg>
__global__ void __launch_bounds__(Cfg::Threads, 1) attention_kernel(const __grid_constant__ KernelParams p) {
  attention_cta<Cfg>(p, trace::NoTrace{});
}

// The traced build (sm90_attention_trace.hpp): the same CTA, recording into `trace`.
template <class Cfg>
__global__ void __launch_bounds__(Cfg::Threads, 1) attention_trace_kernel(const __grid_constant__ KernelParams p,
                                                                          const AttentionRecorder<Cfg> trace) {
  attention_cta<Cfg>(p, trace);
}

}  // namespace tessera::kernels::sm90::attention
