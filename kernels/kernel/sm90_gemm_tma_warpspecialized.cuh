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
#include "../collective/sm90_mainloop_tma_wgmma.cuh"
#include "sm90_tile_scheduler.cuh"

namespace tessera::kernels::sm90 {

template <class Mainloop_, class Epilogue_, class Scheduler_ = PersistentTileScheduler>
struct GemmTmaWarpSpecialized {
  using Mainloop = Mainloop_;
  using Epilogue = Epilogue_;
  using Scheduler = Scheduler_;
  static constexpr int Threads = 128 * (1 + Mainloop::ConsumerWarpgroups);
  using SharedStorage = typename Mainloop::SharedStorage;
  static constexpr int smem_bytes = int(sizeof(SharedStorage));

  struct Params {
    typename Mainloop::Params mainloop;
    typename Epilogue::Params epilogue;
    Scheduler scheduler;
  };

  __device__ __forceinline__ static void run(Params const& p, unsigned char* smem) {
    SharedStorage& s = *reinterpret_cast<SharedStorage*>(smem);
    const int wg = int(threadIdx.x / 128);
    if (threadIdx.x == 0) {
      Mainloop::init(s);
      Mainloop::prefetch_tensor_maps(p.mainloop);
    }
    __syncthreads();
    const int64_t tiles = p.scheduler.tile_count();
    if (wg == 0) {
      arch::warpgroup_reg_dealloc<Mainloop::Policy_ProducerRegisters>();
      if (threadIdx.x == 0) {
        typename Mainloop::PipelineState st;
        for (int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
          const auto tile = p.scheduler.tile(t);
          const tma::Coord a{{int32_t(tile.m * Mainloop::BM), 0, int32_t(tile.l)}};
          const tma::Coord b{{int32_t(tile.n * Mainloop::BN), 0, int32_t(tile.l)}};
          Mainloop::load(p.mainloop, s, st, a, b);
        }
      }
    } else {
      arch::warpgroup_reg_alloc<Mainloop::Policy_ConsumerRegisters>();
      typename Mainloop::PipelineState st;
      typename Mainloop::TiledMma tiled;
      const int thread = int(threadIdx.x) - 128;
      typename Mainloop::Wgmma::DRegisters acc;
      for (int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
        const auto tile = p.scheduler.tile(t);
        Mainloop::mma(p.mainloop, s, st, wg - 1, acc);
        Epilogue::store(p.epilogue, tiled, make_shape(C<Mainloop::BM>{}, C<Mainloop::BN>{}), thread, tile.m, tile.n, tile.l, acc);
      }
    }
  }
};

template <class Kernel>
__global__ void __launch_bounds__(Kernel::Threads, 1) gemm_sm90_entry(const __grid_constant__ typename Kernel::Params params) {
  extern __shared__ __align__(1024) unsigned char smem[];
  Kernel::run(params, smem);
}

}  // namespace tessera::kernels::sm90
