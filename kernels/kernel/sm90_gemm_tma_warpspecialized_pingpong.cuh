// GEMM kernel, SM90: warp-specialized, persistent, ping-pong.
//   warpgroup 0      producer: gives registers back (setmaxnreg), one thread issues the TMA
//                    copies of every unit's k-tiles into the mainloop's smem ring, in unit order
//   warpgroups 1, 2  consumers: take registers; consumer c runs units j = c, c + 2, ... of the
//                    CTA's sequence, each a whole 64 x BN tile: its mainloop (after unit j - 1's,
//                    PingpongOrder), then its epilogue into its own staging buffer while the
//                    other consumer's mainloop runs
// The same mainloop and epilogue collectives as the cooperative kernel: the mainloop with one
// warpgroup per tile (MainloopTmaWarpSpecializedPingpong), the TMA-store epilogue with one
// staging slot per consumer. Every unit is a whole tile (the kernel runs over
// WholeTileScheduler: no split-K); a consumer steps its pipeline state over the other's units'
// k-tiles, so both walk the ring in the producer's order (Mainloop::produce, shared with the
// cooperative kernel). The contract and the cluster helpers are the SM90 kernels' common
// base's (sm90_gemm_kernel_base.cuh).
#pragma once

#include <cstddef>
#include <cstdint>

#include <tessera/pipeline/mbarrier.hpp>

#include "../arch/sm90_registers.cuh"
#include "../collective/sm90_epilogue.cuh"
#include "../collective/sm90_epilogue_tma.cuh"
#include "../collective/sm90_mainloop_tma_wgmma.cuh"
#include "sm90_gemm_kernel_base.cuh"
#include "sm90_pingpong_order.hpp"
#include "sm90_shared_storage.hpp"
#include "sm90_tile_scheduler.cuh"

namespace tessera::kernels::sm90 {

template <class Mainloop_, class Epilogue_, class Scheduler_ = WholeTileScheduler>
struct GemmTmaWarpSpecializedPingpong : GemmKernelSm90Base<Mainloop_, Epilogue_, Scheduler_> {
  using Base = GemmKernelSm90Base<Mainloop_, Epilogue_, Scheduler_>;
  using typename Base::Arguments;
  using typename Base::Epilogue;
  using typename Base::Mainloop;
  using typename Base::Scheduler;
  using Base::cluster_rank;
  using Base::cluster_sync;
  using Base::ClusterM;
  static_assert(Mainloop::ClusterN == 1, "the ping-pong kernel's clusters run along M");
  using Base::finish;
  static_assert(!Scheduler::Splits, "ping-pong: whole tiles only (its consumers own whole tiles; no split-K meeting)");
  static_assert(Mainloop::ConsumerWarpgroups == 1, "ping-pong: each consumer warpgroup owns a whole BM x BN tile (BM = 64 AtomsM)");
  static constexpr int MathWarpgroups = 2;
  static constexpr int Threads = GMMA::warpgroup_threads * (1 + MathWarpgroups);

  using SharedStorage = PingpongSharedStorage<typename Mainloop::SharedStorage, typename Epilogue::SharedStorage>;
  static constexpr int smem_bytes = int(sizeof(SharedStorage));

  struct Params {
    typename Mainloop::Params mainloop;
    typename Epilogue::Params epilogue;
    Scheduler scheduler;
  };

  // ---- contract (host): the collectives' (GemmKernelSm90Base), no workspace of its own.
  static Params to_underlying_arguments(Arguments const& a, void* workspace, std::size_t /*workspace_bytes*/,
                                        KernelHardwareInfo const& /*hw*/, GemmResult& status) {
    Params p{};
    Base::to_collective_params(a, workspace, p, status);
    return p;
  }

  __device__ __forceinline__ static void run(Params const& p, unsigned char* smem) {
    SharedStorage& shared = *reinterpret_cast<SharedStorage*>(smem);
    typename Mainloop::SharedStorage& s = shared.mainloop;
    const int wg = int(threadIdx.x / GMMA::warpgroup_threads);
    const int rank = cluster_rank();
    const int64_t first = blockIdx.x / ClusterM, step = gridDim.x / ClusterM;
    if (threadIdx.x == 0) {
      shared.order.init(GMMA::warpgroup_threads);  // a consumer's every thread arrives
      Epilogue::init(shared.epilogue);  // (C's barriers)
      Mainloop::init(s);  // (its fence.mbarrier_init covers the order's and C's barriers too)
      Mainloop::prefetch_tensor_maps(p.mainloop);
    }
    cluster_sync();
    const int64_t units = p.scheduler.work_count();
    if (wg == 0) {
      arch::warpgroup_reg_dealloc<Mainloop::Policy_ProducerRegisters>();
      if (threadIdx.x == 0) Mainloop::produce(p.mainloop, s, p.scheduler, first, step, rank);
      finish();
    } else {
      arch::warpgroup_reg_alloc<Mainloop::Policy_ConsumerRegisters>();
      const int math = wg - 1;                  // this consumer takes units j with j % 2 == math
      const int thread = int(threadIdx.x) % GMMA::warpgroup_threads;  // its thread in the one-warpgroup TiledMma
      typename Mainloop::PipelineState st;
      typename Mainloop::TiledMma tiled;
      typename Mainloop::Accumulators acc;
      int64_t j = 0;
      for (int64_t u = first; u < units; u += step, ++j) {
        {
          const auto w = p.scheduler.work(u);
          const int k_tiles = w.k_end - w.k_begin;
          if (PingpongOrder<pipeline::DeviceMbarrier>::owner(j) != math) {
            for (int kt = 0; kt < k_tiles; ++kt) ++st;  // the other consumer's stages
            continue;
          }
          // C (beta != 0) starts coming into this consumer's buffer before its mainloop.
          Epilogue::prefetch_c(p.epilogue, shared.epilogue, thread, Mainloop::cta_tile_m(w.m, rank), Mainloop::cta_tile_n(w.n, rank), w.l, math);
          while (!shared.order.may_start(j)) {}
          Mainloop::mma(p.mainloop, s, st, 0, acc, k_tiles);
          shared.order.finished(j);
        }
        // The unit again after the mainloop (u laundered so that it is recomputed, not kept
        // live across the wgmmas beside the accumulators), as in the cooperative kernel.
        int64_t again = u;
        asm volatile("" : "+l"(again));
        const auto w = p.scheduler.work(again);
        if constexpr (Mainloop::Bits == 8)  // FP8's per-tensor or rowwise scales
          Epilogue::scale(p.epilogue, tiled, make_shape(C<Mainloop::BM>{}, C<Mainloop::BN>{}), thread, Mainloop::cta_tile_m(w.m, rank), Mainloop::cta_tile_n(w.n, rank), acc);
        Epilogue::store(p.epilogue, shared.epilogue, tiled, make_shape(C<Mainloop::BM>{}, C<Mainloop::BN>{}), thread,
                        Mainloop::cta_tile_m(w.m, rank), Mainloop::cta_tile_n(w.n, rank), w.l, acc, math, true);
      }
      Epilogue::finish(p.epilogue, thread);
      finish();
    }
  }
};

}  // namespace tessera::kernels::sm90
