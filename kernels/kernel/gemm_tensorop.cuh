// Kernel layer of the tensor-core GEMM: one CTA per output tile (grouped rasterization), or
// per K slice of a tile in a split last wave (SplitPlan, split_k.cuh); batch on gridDim.z;
// composes the mainloop and epilogue collectives.
#pragma once

#include <cstdint>
#include <type_traits>

#include "../collective/epilogue.cuh"
#include "../collective/mainloop_tensorop.cuh"
#include "problem.cuh"
#include "split_k.cuh"
#include "tile_scheduler.cuh"

namespace tessera::kernels {

// Mainloop: the collective, CollectiveMma<MainloopSm80CpAsync<Stages, MinBlocks, Group>, ...>
// (collective/sm80_collective_mma.hpp; built by CollectiveBuilder, or composed by a user from
// their own parts).  Unswizzled smem atoms give the bank-conflict baseline that bench
// --profile shows to ncu (never selected by the host API); its Trace policy
// (trace_policy.cuh) is NoTrace unless gemm_trace instantiates it.
template <class Mainloop_>
struct GemmTensorOpKernel {
  using Mainloop = Mainloop_;
  static constexpr int Threads = Mainloop::Threads;
  static constexpr int MinBlocks = Mainloop::MinBlocks;
  static constexpr int Group = Mainloop::Group;
  using Tag = std::conditional_t<std::is_same_v<typename Mainloop::Elem, bfloat16_t>, bf16_tag, f16_tag>;
  using Epilogue = EpilogueSmem16<Mainloop::BM, Mainloop::BN, Threads, Tag>;
  static constexpr int smem_bytes =
      Mainloop::smem_bytes > Epilogue::smem_bytes ? Mainloop::smem_bytes : Epilogue::smem_bytes;

  __host__ __device__ static GroupedRasterization<Group> scheduler(const Problem& p) {
    return {(p.m + Mainloop::BM - 1) / Mainloop::BM, (p.n + Mainloop::BN - 1) / Mainloop::BN};
  }

  __device__ __forceinline__ static void run(const Problem& p, unsigned char* smem) {
    const auto sched = scheduler(p);
    // Which tile, and which K slice of it (split-K of the last wave, SplitPlan).
    const SplitPlan& plan = p.split_k;
    const int k_tiles = int((p.k + Mainloop::BK - 1) / Mainloop::BK);
    std::int64_t tile, tm, tn;
    int slice, k_begin, k_end;
    // (In 32-bit words wherever the counts fit: three or more 64-bit divisions per CTA
    // otherwise, each a call, which short-K problems feel.)
    if (sched.fits_32bit() && plan.fits_32bit(sched.tile_count(), k_tiles)) {
      std::uint32_t t32, m32, n32;
      plan.work_of_32bit(blockIdx.x, t32, slice);
      sched.tile_of_32bit(t32, m32, n32);
      tile = t32, tm = m32, tn = n32;
      const bool sliced = t32 >= std::uint32_t(plan.whole);
      k_begin = sliced ? plan.k_begin_32bit(slice, k_tiles) : 0;
      k_end = sliced ? plan.k_begin_32bit(slice + 1, k_tiles) : k_tiles;
    } else {
      plan.work_of(blockIdx.x, sched.tile_count(), tile, slice);
      sched.tile_of(tile, tm, tn);
      const bool sliced = tile >= plan.whole;
      k_begin = sliced ? plan.k_begin(slice, k_tiles) : 0;
      k_end = sliced ? plan.k_begin(slice + 1, k_tiles) : k_tiles;
    }
    const bool sliced = tile >= plan.whole;
    const std::int64_t l = blockIdx.z;
    const auto* A = static_cast<const std::uint16_t*>(p.a.ptr) + l * p.a.batch_stride;
    const auto* B = static_cast<const std::uint16_t*>(p.b.ptr) + l * p.b.batch_stride;
    const auto* C = p.c.ptr ? static_cast<const std::uint16_t*>(p.c.ptr) + l * p.c.batch_stride : nullptr;
    auto* D = static_cast<std::uint16_t*>(const_cast<void*>(p.d.ptr)) + l * p.d.batch_stride;

    typename Mainloop::Accum acc;
    clear(acc);
    Mainloop::run(p, A, B, tm, tn, k_begin, k_end, reinterpret_cast<std::uint16_t*>(smem), acc);
    if (sliced && !split_k_meet<Threads>(p, acc, tile - plan.whole, slice)) return;
    Epilogue::template run<Mainloop>(p, acc, D, C, tm, tn, reinterpret_cast<float*>(smem));
  }
};

template <class Kernel>
__global__ void __launch_bounds__(Kernel::Threads, Kernel::MinBlocks)
    gemm_tensorop_entry(const Problem p) {
  extern __shared__ __align__(128) unsigned char smem[];
  Kernel::run(p, smem);
}

}  // namespace tessera::kernels
