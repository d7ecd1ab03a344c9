// The SM90 attention kernel: warp-specialized, one CTA per (Q tile of bM = 64 Consumers rows,
// head, batch).
//   warpgroup 0      producer: setmaxnreg down (Cfg::producer_registers); one thread loads Q and
//                    the K/V tiles by TMA
//   warpgroups 1..   consumers: rows 64(w-1) .. 64w-1 of the Q tile; setmaxnreg up
//                    (Cfg::consumer_registers: S, P and O live in registers, bN/2 + bN/4 + D/2
//                    per thread)
// The grid is one-dimensional, a block per (Q tile of the longest sequence, head, batch), which
// AttentionTileScheduler maps in its order (sm90_attention_scheduler.hpp: the heaviest Q tiles
// first under a causal mask or varlen); a Q tile past its (varlen) sequence's end exits at once.
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
};

// One CTA's work; Trace: trace::NoTrace (the shipped kernels) or AttentionRecorder.
template <class Cfg, class Trace>
TESSERA_DEVICE void attention_cta(KernelParams const& p, Trace const& trace) {
  extern __shared__ __align__(1024) unsigned char raw[];
  auto& s = *reinterpret_cast<SharedStorage<Cfg>*>(raw);
  const AttentionTile t = p.schedule.tile(int(blockIdx.x));
  const WorkItem w = work_item(p.problem, t.m, t.h, t.b, Cfg::bM, Cfg::bN);
  if (w.empty_rows(Cfg::bM)) return;  // (the whole CTA: nothing issued yet)
  constexpr int consumer_warps = Cfg::Consumers * 4;
  if (threadIdx.x == 0) {
    s.pipe_k.init(consumer_warps, uint32_t(sizeof(typename Cfg::Element) * Cfg::kv_stage_elements));
    s.pipe_v.init(consumer_warps, uint32_t(sizeof(typename Cfg::Element) * Cfg::kv_stage_elements));
    s.q_full.init(1);
    pipeline::fence_barrier_init();
  }
  __syncthreads();
  pipeline::PipelineState<Cfg::Stages> st;
  if (threadIdx.x < 128) {
    GMMA::warpgroup_reg_dealloc<Cfg::producer_registers>();
    if (threadIdx.x == 0 && w.key_tiles > 0) {
      const int kv_head = w.h / (p.problem.heads / p.problem.kv_heads);
      produce<Cfg>(p.maps, s, w, kv_head, st);
    }
    return;
  }
  GMMA::warpgroup_reg_alloc<Cfg::consumer_registers>();
  const int thread = int(threadIdx.x) - 128;
  ConsumerState<Cfg> cs;
  if (w.key_tiles > 0) consume<Cfg>(s, w, p.problem.causal, p.problem.scale, thread, st, cs, trace);
  else clear(cs.acc_o);  // no key visible: O = 0, LSE = -inf
  store_output<Cfg>(p.out, p.problem, w, thread, cs);
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
