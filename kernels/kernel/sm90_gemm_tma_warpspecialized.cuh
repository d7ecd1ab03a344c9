// GEMM kernel, SM90: warp-specialized, persistent, cooperative.
//   warpgroup 0        producer: gives registers back (setmaxnreg), one thread issues the TMA
//                      copies of every tile's k-tiles into the mainloop's smem ring
//   warpgroups 1 .. W  consumers: take registers, run the mainloop's wgmmas on their 64 rows
//                      of each tile, then the epilogue's stores
// Tiles come from the persistent scheduler (grid ~ SMs); producer and consumers walk the
// same tile sequence, each with its own pipeline state.
#pragma once

#include <cstdint>

#include "../arch/sm90_registers.cuh"
#include "../collective/sm90_epilogue.cuh"
#include "../collective/sm90_epilogue_tma.cuh"
#include "../collective/sm90_mainloop_tma_wgmma.cuh"
#include "sm90_tile_scheduler.cuh"

namespace tessera::kernels::sm90 {

template <class Mainloop_, class Epilogue_, class Scheduler_ = PersistentTileScheduler>
struct GemmTmaWarpSpecialized {
  using Mainloop = Mainloop_;
  using Epilogue = Epilogue_;
  using Scheduler = Scheduler_;
  static constexpr int Threads = 128 * (1 + Mainloop::ConsumerWarpgroups);
  struct SharedStorage {
    typename Mainloop::SharedStorage mainloop;
    typename Epilogue::SharedStorage epilogue;
  };
  static constexpr int smem_bytes = int(sizeof(SharedStorage));

  struct Params {
    typename Mainloop::Params mainloop;
    typename Epilogue::Params epilogue;
    Scheduler scheduler;
  };

  static constexpr int ClusterM = Mainloop::ClusterM;

  // The cluster's barrier (every thread of every CTA in the cluster); not .aligned: the
  // producer warp arrives diverged.
  __device__ __forceinline__ static void cluster_sync() {
    if constexpr (ClusterM > 1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
      asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;\n" ::: "memory");
#endif
    } else {
      __syncthreads();
    }
  }
  __device__ __forceinline__ static int cluster_rank() {
    uint32_t r = 0;
    if constexpr (ClusterM > 1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
      asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
#endif
    }
    return int(r);
  }

  // The scheduler's tiles are cluster tiles (ClusterM M-tiles of one N column); cluster c
  // takes c, c + clusters, ...; CTA `rank` of the cluster the rank-th M-tile of each.
  __device__ __forceinline__ static void run(Params const& p, unsigned char* smem) {
    SharedStorage& shared = *reinterpret_cast<SharedStorage*>(smem);
    typename Mainloop::SharedStorage& s = shared.mainloop;
    const int wg = int(threadIdx.x / 128);
    const int rank = cluster_rank();
    const int64_t first = blockIdx.x / ClusterM, step = gridDim.x / ClusterM;
    if (threadIdx.x == 0) {
      Mainloop::init(s);
      Mainloop::prefetch_tensor_maps(p.mainloop);
    }
    cluster_sync();  // barriers initialised in every CTA before any copy or remote arrival
    const int64_t tiles = p.scheduler.tile_count();
    if (wg == 0) {
      arch::warpgroup_reg_dealloc<Mainloop::Policy_ProducerRegisters>();
      if (threadIdx.x == 0) {
        typename Mainloop::PipelineState st;
        for (int64_t t = first; t < tiles; t += step) {
          const auto tile = p.scheduler.tile(t);
          const int64_t m = tile.m * ClusterM + rank;
          const tma::Coord a{{int32_t(m * Mainloop::BM), 0, int32_t(tile.l)}};
          const tma::Coord b{{int32_t(tile.n * Mainloop::BN + rank * (Mainloop::BN / ClusterM)), 0, int32_t(tile.l)}};
          Mainloop::load(p.mainloop, s, st, a, b, rank);
        }
      }
      finish();
    } else {
      arch::warpgroup_reg_alloc<Mainloop::Policy_ConsumerRegisters>();
      typename Mainloop::PipelineState st;
      typename Mainloop::TiledMma tiled;
      const int thread = int(threadIdx.x) - 128;
      typename Mainloop::Wgmma::DRegisters acc;
      for (int64_t t = first; t < tiles; t += step) {
        const auto tile = p.scheduler.tile(t);
        Mainloop::mma(p.mainloop, s, st, wg - 1, acc);
        Epilogue::store(p.epilogue, shared.epilogue, tiled, make_shape(C<Mainloop::BM>{}, C<Mainloop::BN>{}), thread,
                        tile.m * ClusterM + rank, tile.n, tile.l, acc);
      }
      Epilogue::finish(p.epilogue, thread);
      finish();
    }
  }

  // No CTA leaves while another of its cluster may still write its smem or arrive on its
  // barriers. Called at the end of each role's branch: code after the branches join would
  // run under one register budget and defeat setmaxnreg.
  __device__ __forceinline__ static void finish() {
    if constexpr (ClusterM > 1) cluster_sync();
  }
};

template <class Kernel>
__global__ void __launch_bounds__(Kernel::Threads, 1) gemm_sm90_entry(const __grid_constant__ typename Kernel::Params params) {
  extern __shared__ __align__(1024) unsigned char smem[];
  Kernel::run(params, smem);
}

}  // namespace tessera::kernels::sm90
