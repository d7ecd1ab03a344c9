// What an SM80 tensor-op or SIMT kernel (GemmTensorOpKernel, GemmSimtKernel) tells the device
// adapter: the composition of its collectives' contracts (collective/sm80_contract.hpp) and
// its grid's, as GemmKernelSm90Base composes the SM90 ones. Plain C++: host tests read a
// kernel's contract without its device code (gemm_kernel_contract_t in gemm_kernel.hpp names it).
//
//   Kernel::Arguments                        {problem, mainloop, epilogue} arguments
//   Kernel::arguments_of(GemmArguments)      the same from tessera's host API
//   Kernel::can_implement(args)              the mainloop's, the epilogue's, then the grid's: the first refusal
//   Kernel::get_workspace_size(args, hw)     the collectives' workspaces, then the split plan's on hw's slots
//   Kernel::to_underlying_arguments(args, workspace, workspace_bytes, hw, status) -> Params (the Problem)
//   Kernel::grid_size(params)                CTAs along the grid's x (tiles, or the split plan's CTAs)
//   Kernel::counters_bytes(params)           the split tiles' arrival counters, zeroed before each launch
// Workspace layout: the mainloop's, then the epilogue's, then the split plan's partials and
// counters, each from a 16-byte boundary. The device adapter (device/gemm_adapter.cuh) calls
// these and nothing of a collective.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "../collective/sm80_contract.hpp"
#include "problem.cuh"
#include "split_k_rasterization.hpp"
#include "tile_scheduler.cuh"

namespace tessera::kernels {

// Mainloop, Epilogue: the collectives' contracts (CollectiveMmaSm80Parts or
// CollectiveMmaSimtParts; EpilogueSm80Contract); Scheduler: GroupedRasterization<G> (whole
// tiles) or SplitKRasterization<G> (the last wave split along K where a workspace holds it).
template <class Mainloop, class Epilogue, class Scheduler>
struct GemmKernelSm80Contract {
  using MainloopContract = Mainloop;
  using EpilogueContract = Epilogue;
  static constexpr bool Splits = is_split_k_rasterization<Scheduler>;
  static constexpr std::int64_t max_grid_x = 0x7fffffffLL;  // gridDim.x (the batch is gridDim.z: check_arguments)

  struct Arguments {
    GemmProblemShape problem;
    typename Mainloop::Arguments mainloop;
    typename Epilogue::Arguments epilogue;
  };
  static Arguments arguments_of(GemmArguments const& g) {
    return {GemmProblemShape{g.m, g.n, g.k, g.batch}, Mainloop::arguments_of(g), Epilogue::arguments_of(g)};
  }

  // The output tiles of one batch (CTAs along x without a split), -1 when their count
  // overflows 64 bits.
  static std::int64_t tile_count(GemmProblemShape const& problem) {
    const auto grid = output_tile_grid(get<0>(problem), get<1>(problem), std::int64_t(Mainloop::BM), std::int64_t(Mainloop::BN));
    std::int64_t tiles = 0;
    return detail::mul_ok(grid.m, grid.n, tiles) ? tiles : -1;
  }

  static GemmResult can_implement(Arguments const& a) {
    if (auto r = Mainloop::can_implement(a.problem, a.mainloop); !r) return r;
    if (auto r = Epilogue::can_implement(a.problem, a.epilogue); !r) return r;
    // A CTA per tile of a batch along the grid's x; a split adds CTAs but is only planned
    // where they fit (to_underlying_arguments).
    const std::int64_t tiles = tile_count(a.problem);
    if (tiles < 0 || tiles > max_grid_x)
      return {GemmStatus::InvalidSize, "M = " + std::to_string(get<0>(a.problem)) + ", N = " + std::to_string(get<1>(a.problem)) +
                                           ": too many output tiles for one grid: ceil(M / " + std::to_string(Mainloop::BM) +
                                           ") * ceil(N / " + std::to_string(Mainloop::BN) + ") exceeds 2^31 - 1"};
    return {};
  }

  static constexpr std::size_t round16(std::size_t bytes) { return (bytes + 15) / 16 * 16; }
  // Where the epilogue's and the split plan's parts of the workspace start.
  static std::size_t epilogue_workspace_offset(Arguments const& a) { return round16(Mainloop::get_workspace_size(a.problem, a.mainloop)); }
  static std::size_t collective_workspace_size(Arguments const& a) {
    return epilogue_workspace_offset(a) + round16(Epilogue::get_workspace_size(a.problem, a.epilogue));
  }

  // The split plan of the last wave on `hw.slots` co-resident CTAs (whole tiles for a
  // scheduler that does not split, a batched problem, an unknown GPU).
  static SplitPlan split_plan(GemmProblemShape const& problem, Sm80HardwareInfo const& hw) {
    const std::int64_t tiles = tile_count(problem);
    if constexpr (!Splits) {
      return {tiles, 1};
    } else {
      const int k_tiles = int(ceil_div(get<2>(problem), std::int64_t(Mainloop::BK)));
      return plan_last_wave_split(tiles, k_tiles, get<3>(problem), hw.slots);
    }
  }
  static std::size_t split_bytes(GemmProblemShape const& problem, Sm80HardwareInfo const& hw) {
    if constexpr (!Splits) return 0;
    return split_workspace_bytes(split_plan(problem, hw), tile_count(problem), std::int64_t(Mainloop::BM) * Mainloop::BN);
  }
  // The collectives' workspace and, where the plan splits, its partials and counters after it.
  // (Arguments can_implement admitted.)
  static std::size_t get_workspace_size(Arguments const& a, Sm80HardwareInfo const& hw) {
    const std::size_t own = collective_workspace_size(a), split = split_bytes(a.problem, hw);
    return split == 0 ? own : own + split;
  }

  // The launch's Problem: the collectives' parts, and the split plan where the scheduler
  // splits, the plan shares, the workspace holds it and its CTAs fit the grid.
  static Problem to_underlying_arguments(Arguments const& a, void* workspace, std::size_t workspace_bytes, Sm80HardwareInfo const& hw,
                                         GemmResult& status) {
    Problem p{};
    p.m = get<0>(a.problem), p.n = get<1>(a.problem), p.k = get<2>(a.problem), p.batch = get<3>(a.problem);
    p.trace = nullptr;
    unsigned char* ws = static_cast<unsigned char*>(workspace);
    const auto ml = Mainloop::to_underlying_arguments(a.problem, a.mainloop, ws, status);
    const auto ep = Epilogue::to_underlying_arguments(a.problem, a.epilogue, ws == nullptr ? nullptr : ws + epilogue_workspace_offset(a),
                                                      status);
    p.a = ml.a, p.b = ml.b;
    p.c = ep.c, p.d = ep.d;
    p.alpha = ep.alpha, p.beta = ep.beta;
    p.d_vector_ok = ep.d_vector_ok;
    if constexpr (Splits) {
      const std::size_t own = collective_workspace_size(a);
      if (ws != nullptr && workspace_bytes > own) {
        const std::int64_t tiles = tile_count(a.problem), tile_elems = std::int64_t(Mainloop::BM) * Mainloop::BN;
        const SplitPlan plan = split_plan(a.problem, hw);
        const std::size_t need = split_workspace_bytes(plan, tiles, tile_elems);
        if (need != 0 && need <= workspace_bytes - own && plan.ctas(tiles) <= max_grid_x) {
          p.split_k = plan;
          p.partials = reinterpret_cast<float*>(ws + own);
          p.arrivals = reinterpret_cast<unsigned*>(ws + own + split_partials_bytes(plan, tiles, tile_elems));
        }
      }
    }
    return p;
  }

  static std::int64_t grid_size(Problem const& p) { return p.split_k.ctas(tile_count(GemmProblemShape{p.m, p.n, p.k, p.batch})); }
  static std::size_t counters_bytes(Problem const& p) {
    if (p.arrivals == nullptr) return 0;
    return std::size_t(tile_count(GemmProblemShape{p.m, p.n, p.k, p.batch}) - p.split_k.whole) * sizeof(unsigned);
  }
};

}  // namespace tessera::kernels
