// The device adapter of the SIMT and SM80 tensor-op kernels, the pattern of GemmSm90<Kernel>
// (sm90_gemm.cuh) and of CUTLASS's GemmUniversalAdapter:
//
//   GemmAdapter<Kernel>::can_implement(args)       what this kernel takes, with the reason when not
//   GemmAdapter<Kernel>::get_workspace_size(args)  split-K partials and counters its scheduler plans
//   GemmAdapter<Kernel> op; op.initialize(args)    the Problem and the split plan (host only)
//   op.run(stream)  /  op(stream)                  the launch
//
// A kernel type provides Threads, smem_bytes, scheduler(p) (tile_count(); for a splitting
// scheduler also ctas() and k_tiles, SplitKRasterization) and its __global__ entry
// (gemm_tensorop_entry / gemm_simt_entry); its mainloop's operands give the contract
// (gemm_adapter.hpp, the host logic, tested without a GPU).
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
// ctas: the grid's x extent; the tile count unless split-K adds slices.
template <class Kernel, class Entry>
GemmResult launch(Entry entry, const Problem& p, cudaStream_t stream, std::int64_t ctas = -1) {
  if (ctas < 0) ctas = Kernel::scheduler(p).tile_count();
  if (ctas > 0x7fffffffLL)
    return {GemmStatus::InvalidSize, "too many output tiles for one grid: " + std::to_string(ctas)};
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
  using TileScheduler = decltype(Kernel::scheduler(std::declval<const Problem&>()));
  static constexpr KernelContract contract = kernel_contract<typename Kernel::Mainloop, TileScheduler>();

  // The kernel's __global__ function.
  static auto entry() {
    if constexpr (adapter_detail::is_tensorop_kernel<Kernel>) return &gemm_tensorop_entry<Kernel>;
    else return &gemm_simt_entry<Kernel>;
  }

  static GemmResult can_implement(const GemmArguments& args);
  // Bytes of device workspace with which run() splits the last wave on the current device
  // (0: nothing to split, or a kernel that does not split).
  static std::size_t get_workspace_size(const GemmArguments& args);
  // Checks the arguments and prepares the launch: the Problem, and the split plan when the
  // arguments' workspace holds what it needs.
  GemmResult initialize(const GemmArguments& args);
  GemmResult run(cudaStream_t stream = nullptr) const;
  GemmResult operator()(cudaStream_t stream = nullptr) const { return run(stream); }

  const Problem& problem() const { return problem_; }
  std::int64_t ctas() const { return ctas_; }

 private:
  // CTAs the current device holds at once (SMs x CTAs of this kernel per SM), 0 if unknown.
  static int slots();

  Problem problem_{};
  std::int64_t ctas_ = 0;
  std::size_t arrival_bytes_ = 0;  // split-K counters to zero before each launch
  bool initialized_ = false;
};

// (Members out of the class body: an `extern template` of the adapter keeps a TU that only
// names it from compiling the kernel.)
template <class Kernel>
GemmResult GemmAdapter<Kernel>::can_implement(const GemmArguments& args) {
  return can_implement_kernel(args, contract);
}

template <class Kernel>
int GemmAdapter<Kernel>::slots() {
  int dev = 0, sms = 0, per_sm = 0;
  if ((per_sm = prepare_kernel<Kernel>(entry())) <= 0 || cudaGetDevice(&dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess) {
    cudaGetLastError();  // only means "no split"
    return 0;
  }
  return sms * per_sm;
}

template <class Kernel>
std::size_t GemmAdapter<Kernel>::get_workspace_size(const GemmArguments& args) {
  if (!contract.splits || !can_implement(args) || args.batch != 1) return 0;
  return split_workspace_size(args, contract, slots());
}

template <class Kernel>
GemmResult GemmAdapter<Kernel>::initialize(const GemmArguments& args) {
  initialized_ = false;
  if (auto r = can_implement(args); !r) return r;
  problem_ = to_problem(args);
  arrival_bytes_ = 0;
  const auto sched = Kernel::scheduler(problem_);
  const std::int64_t tiles = sched.tile_count();
  ctas_ = tiles;
  if constexpr (contract.splits) {
    if (problem_.partials && problem_.batch == 1) {
      const SplitPlan plan = plan_last_wave_split(tiles, sched.k_tiles, problem_.batch, slots());
      const std::int64_t tile_elems = std::int64_t(contract.bm) * contract.bn;
      const std::size_t need = split_workspace_bytes(plan, tiles, tile_elems);
      if (need != 0 && need <= problem_.workspace_bytes && plan.ctas(tiles) <= 0x7fffffffLL) {
        const std::size_t partials = split_partials_bytes(plan, tiles, tile_elems);
        problem_.split_k = plan;
        problem_.arrivals = reinterpret_cast<unsigned*>(reinterpret_cast<unsigned char*>(problem_.partials) + partials);
        arrival_bytes_ = need - partials;
        ctas_ = plan.ctas(tiles);
      }
    }
  }
  initialized_ = true;
  return {};
}

template <class Kernel>
GemmResult GemmAdapter<Kernel>::run(cudaStream_t stream) const {
  if (!initialized_) return {GemmStatus::Unsupported, "GemmAdapter::run before a successful initialize"};
  if (arrival_bytes_ != 0 && cudaMemsetAsync(problem_.arrivals, 0, arrival_bytes_, stream) != cudaSuccess)
    return launch_error("cudaMemsetAsync(split-K arrival counters)");
  return launch<Kernel>(entry(), problem_, stream, ctas_);
}

}  // namespace tessera::kernels::device
