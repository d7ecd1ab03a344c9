// The device adapter of the SIMT and SM80 tensor-op kernels, the pattern of GemmSm90<Kernel>
// (sm90_gemm.cuh) and of CUTLASS's GemmUniversalAdapter, generic over the kernel's contract
// (kernel/sm80_kernel_contract.hpp): it knows no collective's fields.
//
//   GemmAdapter<Kernel>::can_implement(args)       the arguments' checks, then the kernel's contract
//   GemmAdapter<Kernel>::get_workspace_size(args)  the kernel's workspace on this device (split-K)
//   GemmAdapter<Kernel> op; op.initialize(args)    the kernel's Params (the Problem) and grid (host only)
//   op.run(stream)  /  op(stream)                  the workspace's per-launch state, the launch
//
// A kernel type provides its contract, Threads, smem_bytes, initialize_workspace(params,
// stream) and its __global__ entry (gemm_tensorop_entry / gemm_simt_entry); the host logic is
// gemm_adapter.hpp's, tested without a GPU.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <utility>

#include "tessera/kernels/gemm.hpp"
#include "../kernel/gemm_simt.cuh"
#include "../kernel/gemm_tensorop.cuh"
#include "entry_cache.hpp"
#include "smem_opt_in.cuh"
#include "gemm_adapter.hpp"

namespace tessera::kernels::device {

inline GemmResult launch_error(const char* what) {
  cudaError_t e = cudaGetLastError();
  return {GemmStatus::LaunchFailed, std::string(what) + ": " + cudaGetErrorString(e)};
}

// Once per entry and device: raise the kernel's dynamic shared-memory limit (opting in
// above 48 KiB is per kernel) and count the CTAs of it one SM holds; -1 if either failed.
// Both are driver calls whose answer never changes, and on every launch they showed in the
// time of small problems. Cached per host stub (EntryCache): `entry` is the stub the caller
// launches, which for a kernel type instantiated in several TUs differs per TU.
template <class Kernel, class Entry>
int prepare_kernel(Entry entry) {
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) return -1;
  return entry_cache().get(reinterpret_cast<const void*>(entry), dev, EntryCache::Fact::CtasPerSm, [entry, dev] {
    int per_sm = 0;
    if (!opt_in_dynamic_smem(entry, dev, Kernel::smem_bytes) ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, entry, Kernel::Threads, Kernel::smem_bytes) !=
            cudaSuccess ||
        per_sm <= 0)
      return -1;  // not cached: the caller reports the error now, a later call asks again
    return per_sm;
  });
}

// Launches a kernel over a prepared Problem (the adapter's run; gemm_trace's traced runs).
// ctas: the grid's x extent (the kernel's grid_size: tiles, or the split plan's CTAs; what
// the kernel's can_implement admitted).
template <class Kernel, class Entry>
GemmResult launch(Entry entry, const Problem& p, cudaStream_t stream, std::int64_t ctas) {
  if (prepare_kernel<Kernel>(entry) < 0)
    return launch_error("cudaFuncSetAttribute(MaxDynamicSharedMemorySize) / occupancy query");
  dim3 grid(unsigned(ctas), 1, unsigned(p.batch));
  entry<<<grid, Kernel::Threads, Kernel::smem_bytes, stream>>>(p);
  if (cudaPeekAtLastError() != cudaSuccess) return launch_error("kernel launch");
  return {};
}

namespace adapter_detail {
template <class Kernel>
inline constexpr bool is_tensorop_kernel = false;
template <class PS, class M, class E, class S>
inline constexpr bool is_tensorop_kernel<GemmTensorOpKernel<PS, M, E, S>> = true;
}  // namespace adapter_detail

template <class Kernel_>
class GemmAdapter {
 public:
  using Kernel = Kernel_;

  // The kernel's __global__ function.
  static auto entry() {
    if constexpr (adapter_detail::is_tensorop_kernel<Kernel>) return &gemm_tensorop_entry<Kernel>;
    else return &gemm_simt_entry<Kernel>;
  }

  // The arguments' checks and the kernel's contract (gemm_adapter.hpp).
  static GemmResult can_implement(const GemmArguments& args);
  // Bytes of device workspace with which run() splits the last wave on the current device
  // (0: nothing to split, or a kernel that does not split).
  static std::size_t get_workspace_size(const GemmArguments& args);
  // Checks the arguments and prepares the launch: the kernel's Params (the Problem, with the
  // split plan when the arguments' workspace holds what it needs) and the grid.
  GemmResult initialize(const GemmArguments& args);
  GemmResult run(cudaStream_t stream = nullptr) const;
  GemmResult operator()(cudaStream_t stream = nullptr) const { return run(stream); }

  const Problem& problem() const { return launch_.params; }
  std::int64_t ctas() const { return launch_.ctas; }

 private:
  // What the kernel's contract learns of the current device: the CTAs it holds at once (SMs x
  // CTAs of this kernel per SM), asked only of a kernel that splits.
  static Sm80HardwareInfo hardware_info();

  AdapterLaunch launch_{};
  bool initialized_ = false;
};

// (Members out of the class body: an `extern template` of the adapter keeps a TU that only
// names it from compiling the kernel.)
template <class Kernel>
GemmResult GemmAdapter<Kernel>::can_implement(const GemmArguments& args) {
  return adapter_can_implement<Kernel>(args);
}

template <class Kernel>
Sm80HardwareInfo GemmAdapter<Kernel>::hardware_info() {
  Sm80HardwareInfo hw;
  if constexpr (Kernel::Splits) {
    int dev = 0, sms = 0, per_sm = 0;
    if ((per_sm = prepare_kernel<Kernel>(entry())) <= 0 || cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess) {
      cudaGetLastError();  // only means "no split"
      return hw;
    }
    hw.slots = sms * per_sm;
  }
  return hw;
}

template <class Kernel>
std::size_t GemmAdapter<Kernel>::get_workspace_size(const GemmArguments& args) {
  // (The device is asked only for arguments the kernel takes, by a kernel that splits.)
  return adapter_workspace_size<Kernel>(args, Kernel::Splits && can_implement(args) ? hardware_info() : Sm80HardwareInfo{});
}

template <class Kernel>
GemmResult GemmAdapter<Kernel>::initialize(const GemmArguments& args) {
  initialized_ = false;
  if (auto r = can_implement(args); !r) return r;
  // (The hardware only where a workspace may take a split.)
  const bool may_split = Kernel::Splits && args.workspace != nullptr && args.workspace_bytes > 0;
  if (auto r = adapter_initialize_admitted<Kernel>(args, may_split ? hardware_info() : Sm80HardwareInfo{}, launch_); !r) return r;
  initialized_ = true;
  return {};
}

template <class Kernel>
GemmResult GemmAdapter<Kernel>::run(cudaStream_t stream) const {
  if (!initialized_) return {GemmStatus::Unsupported, "GemmAdapter::run before a successful initialize"};
  if (auto r = Kernel::initialize_workspace(launch_.params, stream); !r) return r;
  return launch<Kernel>(entry(), launch_.params, stream, launch_.ctas);
}

}  // namespace tessera::kernels::device
