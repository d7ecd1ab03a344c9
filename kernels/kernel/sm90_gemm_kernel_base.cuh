// What the SM90 warp-specialized kernels (cooperative: sm90_gemm_tma_warpspecialized.cuh;
// ping-pong: sm90_gemm_tma_warpspecialized_pingpong.cuh) share: the composition of their
// collectives' contracts and the cluster helpers of their device code.
//
//   Kernel::Arguments                       {problem, mainloop, epilogue, scheduler} arguments
//   Kernel::arguments_of(GemmArguments)     the same from tessera's host API
//   Kernel::can_implement(args)             the mainloop's, then the epilogue's (the first refusal)
//   Kernel::get_workspace_size(args, hw)    the collectives' workspaces (and the kernel's own)
//   Kernel::to_underlying_arguments(args, workspace, workspace_bytes, hw, status) -> Params
//   Kernel::initialize_workspace(params, stream)   before each launch (the epilogue's initialize)
//   Kernel::set_launch_tag(params, tag)     the launch's tag (device/launch_tag.hpp), which the
//                                           Stream-K fix-up's flags hold once a partial is stored
//   Kernel::grid_size(params, hw)           CTAs of the persistent grid
//   Kernel::splits(params)                  whether the launch shares tiles (Stream-K)
// The device adapter (device/sm90_gemm.cuh) calls these and nothing of a collective.
// Workspace layout: the mainloop's, then the epilogue's, then the kernel's own, each from a
// 16-byte boundary.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include <tessera/atom/detail/mma_ops.hpp>
#include <tessera/pipeline/cluster.hpp>

#include "../collective/sm90_contract.hpp"
#include "sm90_tile_scheduler.cuh"

namespace tessera::kernels::sm90 {

template <class Mainloop_, class Epilogue_, class Scheduler_>
struct GemmKernelSm90Base {
  using Mainloop = Mainloop_;
  using Epilogue = Epilogue_;
  using Scheduler = Scheduler_;
  static constexpr int ClusterM = Mainloop::ClusterM;
  static constexpr int ClusterN = Mainloop::ClusterN;
  static constexpr int ClusterSize = ClusterM * ClusterN;
  static constexpr bool Splits = Scheduler::Splits;
  // One entry (gemm_sm90_entry) unless the kernel says otherwise (the cooperative kernel's
  // TwoEntries, with after_tile_launch choosing per launch).
  static constexpr bool TwoEntries = false;
  template <class Params>
  static bool after_tile_launch(Params const&) {
    return false;
  }

  // ---- contract (host)
  struct Arguments {
    GemmProblemShape problem;
    typename Mainloop::Arguments mainloop;
    typename Epilogue::Arguments epilogue;
    typename Scheduler::Arguments scheduler;
  };
  static Arguments arguments_of(GemmArguments const& g) {
    return {problem_shape_of(g), Mainloop::arguments_of(g), Epilogue::arguments_of(g), {}};
  }
  static GemmResult can_implement(Arguments const& a) {
    if (auto r = Mainloop::can_implement(a.problem, a.mainloop); !r) return r;
    return Epilogue::can_implement(a.problem, a.epilogue);
  }
  static constexpr std::size_t round16(std::size_t bytes) { return (bytes + 15) / 16 * 16; }
  // Where the epilogue's and the kernel's own parts of the workspace start.
  static std::size_t epilogue_workspace_offset(Arguments const& a) {
    return round16(Mainloop::get_workspace_size(a.problem, a.mainloop));
  }
  static std::size_t collective_workspace_size(Arguments const& a) {
    return epilogue_workspace_offset(a) + round16(Epilogue::get_workspace_size(a.problem, a.epilogue));
  }
  // A kernel without a workspace of its own needs its collectives'.
  static std::size_t get_workspace_size(Arguments const& a, KernelHardwareInfo const&) { return collective_workspace_size(a); }

  // The scheduler over the problem's cluster tiles (unsplit): BM ClusterM x BN ClusterN (the
  // split-K and Stream-K schedulers refuse clusters along N: their workspaces count CTAs along M).
  static Scheduler scheduler_of(Arguments const& a) {
    return Scheduler::template to_underlying_arguments<Mainloop::BM, Mainloop::BN, Mainloop::BK, ClusterM, ClusterN>(
        problem_m(a.problem), problem_n(a.problem), problem_k(a.problem), problem_l(a.problem), a.scheduler);
  }
  // The collectives' and the scheduler's parameters into a kernel's Params (its members
  // mainloop, epilogue, scheduler).
  template <class Params>
  static void to_collective_params(Arguments const& a, void* workspace, Params& p, GemmResult& status) {
    unsigned char* ws = static_cast<unsigned char*>(workspace);
    p.mainloop = Mainloop::to_underlying_arguments(a.problem, a.mainloop, ws, status);
    p.epilogue = Epilogue::to_underlying_arguments(a.problem, a.epilogue, ws == nullptr ? nullptr : ws + epilogue_workspace_offset(a),
                                                   status);
    p.scheduler = scheduler_of(a);
  }
  // As many clusters as the GPU holds at once, or fewer when there is less work.
  template <class Params>
  static int grid_size(Params const& p, KernelHardwareInfo const& hw) {
    const int64_t units = p.scheduler.work_count();
    return int(units < hw.resident_clusters ? units : hw.resident_clusters) * ClusterSize;
  }
  template <class Params>
  static bool splits(Params const&) { return false; }
  // (the epilogue's per-launch state: the quantized-output tree's amax)
  template <class Params>
  static GemmResult initialize_workspace(Params const& p, cudaStream_t stream) { return Epilogue::initialize(p.epilogue, stream); }
  // (a kernel without a fix-up has no use for the launch's tag)
  template <class Params>
  static void set_launch_tag(Params&, std::uint64_t) {}

  // ---- device helpers
  // The cluster's barrier (every thread of every CTA in the cluster; tessera/pipeline/
  // cluster.hpp), a CTA barrier without a cluster.
  __device__ __forceinline__ static void cluster_sync() {
    if constexpr (ClusterSize > 1) pipeline::cluster_sync();
    else __syncthreads();
  }
  __device__ __forceinline__ static int cluster_rank() {
    if constexpr (ClusterSize > 1) return pipeline::cluster_rank();
    else return 0;
  }
  // No CTA leaves while another of its cluster may still write its smem or arrive on its
  // barriers. Called at the end of each role's branch: code after the branches join would
  // run under one register budget and defeat setmaxnreg.
  __device__ __forceinline__ static void finish() {
    if constexpr (ClusterSize > 1) cluster_sync();
  }
};

// The entry of an SM90 kernel type (its run over its Params, the dynamic shared memory its storage).
template <class Kernel>
__global__ void __launch_bounds__(Kernel::Threads, 1) gemm_sm90_entry(const __grid_constant__ typename Kernel::Params params) {
  extern __shared__ __align__(1024) unsigned char smem[];
  Kernel::run(params, smem);
}
// The second entry of a kernel with two (the cooperative kernel's TwoEntries: the plain
// epilogue under the next tile, whose problems it does not pack run after the tile), which
// GemmSm90 launches where Kernel::after_tile_launch(params) says so.
template <class Kernel>
__global__ void __launch_bounds__(Kernel::Threads, 1) gemm_sm90_entry_after_tile(const __grid_constant__ typename Kernel::Params params) {
  extern __shared__ __align__(1024) unsigned char smem[];
  Kernel::template run<true>(params, smem);
}

}  // namespace tessera::kernels::sm90
