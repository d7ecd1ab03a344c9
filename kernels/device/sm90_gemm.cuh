// Device adapter of the SM90 GEMM kernels (TMA + wgmma, warp-specialized, persistent), generic
// over the kernel type: it calls the kernel's contract (kernel/sm90_gemm_kernel_base.cuh) and
// knows no collective's fields.
//   GemmSm90<Kernel>::can_implement(args)       the arguments' checks, the kernel's, an sm_90 device
//   GemmSm90<Kernel>::get_workspace_size(args)  the kernel's workspace on this device
//   GemmSm90<Kernel> op; op.initialize(args)    the kernel's Params (host only), the grid
//   op.run(stream)                              the workspace's per-launch state, the launch
//                                               with a tag of its own (launch_tag.hpp)
// `args`: tessera's GemmArguments (in the kernel's orientation: D column-major,
// as_column_major_d), or the kernel's own Arguments with a workspace.
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <type_traits>

#include <tessera/kernels/gemm_arguments.hpp>

#include "../kernel/gemm_kernel.hpp"
#include "entry_cache.hpp"
#include "launch_tag.hpp"
#include "smem_opt_in.cuh"
#include "gemm_configuration.hpp"
#include "../kernel/sm90_gemm_tma_warpspecialized.cuh"
#include "../kernel/sm90_gemm_tma_warpspecialized_pingpong.cuh"
#include "sm90_configs.hpp"
#include "sm90_schedule.hpp"

namespace tessera::kernels::sm90 {

template <class Kernel_>
struct GemmSm90 {
  using Kernel = Kernel_;
  // (the builders count the stages' and staging's bytes; this, the kernel's whole storage)
  static_assert(Kernel::smem_bytes <= arch::Sm90::smem_capacity, "GemmSm90: the kernel's shared storage exceeds a CTA's 227 KiB");
  using Arguments = typename Kernel::Arguments;

  typename Kernel::Params params{};
  int grid = 0;

  // Every use of the entry takes its address once and passes it on (Entry), so that the stub
  // the driver is asked about is the stub launched: each TU that instantiates the kernel has
  // its own stub and device module, and an inline function may run as another TU's copy
  // (entry_cache.hpp).
  using Entry = decltype(&gemm_sm90_entry<Kernel>);
  // The entry that runs `p`: a kernel with two entries (Kernel::TwoEntries: the plain epilogue
  // under the next tile) launches its second for a problem its epilogue does not pack. (Both
  // have the kernel's storage, threads and launch bounds: the first's hardware_info holds for
  // either.)
  static Entry entry_of(typename Kernel::Params const& p) {
    if constexpr (Kernel::TwoEntries)
      if (Kernel::after_tile_launch(p)) return &gemm_sm90_entry_after_tile<Kernel>;
    return &gemm_sm90_entry<Kernel>;
  }
  // Opts the entry in to its dynamic shared memory, once per stub and device.
  static bool prepare_entry(Entry entry) {
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess) {
      cudaGetLastError();
      return false;
    }
    return kernels::device::opt_in_dynamic_smem(entry, dev, Kernel::smem_bytes);
  }
  // The SMs, and as many clusters as can be resident at once (an SM holds one CTA; a
  // cluster's CTAs share a GPC, so odd SMs may stay idle).
  static KernelHardwareInfo hardware_info(Entry entry) {
    KernelHardwareInfo hw;
    int dev = 0, sms = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess) {
      cudaGetLastError();
      return hw;
    }
    hw.sm_count = sms;
    using kernels::device::EntryCache;
    const int clusters = kernels::device::entry_cache().get(reinterpret_cast<const void*>(entry), dev, EntryCache::Fact::ResidentClusters, [&] {
      int c = 0;
      cudaLaunchConfig_t cfg = launch_config(dim3(unsigned(sms / Kernel::ClusterSize * Kernel::ClusterSize)), nullptr);
      cudaLaunchAttribute at[1];
      cfg.attrs = cluster_attribute(at);
      cfg.numAttrs = 1;
      if (!prepare_entry(entry) || cudaOccupancyMaxActiveClusters(&c, entry, &cfg) != cudaSuccess || c <= 0) {
        cudaGetLastError();
        c = sms / Kernel::ClusterSize;
      }
      return c > 0 ? c : 1;
    });
    hw.resident_clusters = clusters > 0 ? clusters : 1;
    return hw;
  }

  // An sm_90 device is current.
  static GemmResult device_check() {
    int dev = 0, major = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess) {
      cudaGetLastError();
      return {GemmStatus::NoDevice, "no CUDA device is available"};
    }
    if (major != 9) return {GemmStatus::Unsupported, "the sm90 kernel needs compute capability 9.0 (wgmma, TMA)"};
    return {};
  }
  static GemmResult can_implement(Arguments const& args) {
    if (auto r = Kernel::can_implement(args); !r) return r;
    return device_check();
  }
  // (g in the kernels' view: D column-major, as the dispatch's as_column_major_d gives it)
  static GemmResult can_implement(const GemmArguments& g) {
    if (auto r = check_arguments(g, ArgumentsView::Kernel); !r) return r;
    return can_implement(Kernel::arguments_of(g));
  }

  // The workspace the kernel would use for `g` on this device (Stream-K partials and flags; 0:
  // none).
  static std::size_t get_workspace_size(Arguments const& args) {
    if (!can_implement(args)) return 0;
    if constexpr (Kernel::Splits) {
      const Entry entry = &gemm_sm90_entry<Kernel>;
      if (!prepare_entry(entry)) return 0;
      return Kernel::get_workspace_size(args, hardware_info(entry));
    } else {
      return Kernel::get_workspace_size(args, KernelHardwareInfo{});
    }
  }
  static std::size_t get_workspace_size(const GemmArguments& g) {
    if (!check_arguments(g, ArgumentsView::Kernel)) return 0;
    return get_workspace_size(Kernel::arguments_of(g));
  }
  static std::size_t workspace_size(const GemmArguments& g) { return get_workspace_size(g); }

  // Whether the launch shares tiles (Stream-K: the plan shares and the workspace holds it).
  bool splits() const { return Kernel::splits(params); }

  // The kernel's Params for `args` and `workspace_bytes` of workspace (nullptr: none), and the grid.
  GemmResult initialize(Arguments const& args, void* workspace = nullptr, std::size_t workspace_bytes = 0) {
    if (auto r = can_implement(args); !r) return r;
    return initialize_admitted(args, workspace, workspace_bytes);
  }
  GemmResult initialize(const GemmArguments& g) {
    if (auto r = can_implement(g); !r) return r;
    return initialize_admitted(Kernel::arguments_of(g), g.workspace, g.workspace != nullptr ? g.workspace_bytes : 0);
  }

  static cudaLaunchConfig_t launch_config(dim3 grid_dim, cudaStream_t stream) {
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = grid_dim;
    cfg.blockDim = dim3(Kernel::Threads);
    cfg.dynamicSmemBytes = Kernel::smem_bytes;
    cfg.stream = stream;
    return cfg;
  }
  static cudaLaunchAttribute* cluster_attribute(cudaLaunchAttribute* at) {
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = Kernel::ClusterSize;  // (a cluster along M or N: ranks along x)
    at[0].val.clusterDim.y = 1;
    at[0].val.clusterDim.z = 1;
    return at;
  }

  // Each run is a launch of its own, with a fresh tag (the Stream-K fix-up's flags then need no
  // clearing: launch_tag.hpp). A stream capture bakes the tag into the graph's kernel node, and
  // its replays reuse it: the owners clear the flags they consumed, so each replay finds none
  // with its tag. (params keeps initialize's tag: a caller that launches params itself, as the
  // device probes do, repeats that one, as a replay would.)
  GemmResult run(cudaStream_t stream = nullptr) const {
    typename Kernel::Params launch = params;
    Kernel::set_launch_tag(launch, kernels::device::next_launch_tag());
    if (auto r = Kernel::initialize_workspace(launch, stream); !r) return r;
    // (again here: the copy of initialize that ran may be another TU's, which opted in its stub)
    const Entry entry = entry_of(launch);
    if (!prepare_entry(entry))
      return {GemmStatus::LaunchFailed, "cudaFuncSetAttribute(MaxDynamicSharedMemorySize) failed for the sm90 kernel"};
    cudaLaunchConfig_t cfg = launch_config(dim3(unsigned(grid)), stream);
    cudaLaunchAttribute at[1];
    cfg.attrs = cluster_attribute(at);
    cfg.numAttrs = 1;
    // (the launch's own status: cudaPeekAtLastError would also report an error left by an
    // earlier, unrelated call, e.g. inside another library)
    if (const cudaError_t e = cudaLaunchKernelEx(&cfg, entry, launch); e != cudaSuccess) {
      cudaGetLastError();
      return {GemmStatus::LaunchFailed, std::string("sm90 kernel launch: ") + cudaGetErrorString(e)};
    }
    return {};
  }

 private:
  GemmResult initialize_admitted(Arguments const& args, void* workspace, std::size_t workspace_bytes) {
    const Entry entry = &gemm_sm90_entry<Kernel>;
    if (!prepare_entry(entry))
      return {GemmStatus::LaunchFailed, "cudaFuncSetAttribute(MaxDynamicSharedMemorySize) failed for the sm90 kernel"};
    const KernelHardwareInfo hw = hardware_info(entry);
    GemmResult status;
    params = Kernel::to_underlying_arguments(args, workspace, workspace_bytes, hw, status);
    if (!status) return status;
    Kernel::set_launch_tag(params, kernels::device::next_launch_tag());
    grid = Kernel::grid_size(params, hw);
    return {};
  }
};

}  // namespace tessera::kernels::sm90
