// Bank analysis of a thread-value access pattern over a shared-memory tile: the
// smem_banks.hpp model applied to each instruction of the walk in warp_accesses.hpp (the TV
// map, the repeats of the copy tile, the vector accesses, one instruction per warp and step).
//
// The quantity ncu reports as shared-memory bank conflicts is the excess over the ideal:
// extra = wavefronts - ideal, summed over instructions (BankSummary::extra_wavefronts).
// The core (analyze_tv_banks) takes plain callables, so the static tier (below) and the
// runtime tier (tessera/analysis/banks.hpp) share one definition.
#pragma once

#include <cstdint>

#include "tessera/analysis/smem_banks.hpp"
#include "tessera/analysis/warp_accesses.hpp"
#include "tessera/tiled_copy.hpp"

namespace tessera::analysis {

// The access (its memory tile is the shared-memory tile) and one of its instructions.
using AccessShape = TvAccessShape;
using InstructionInfo = WarpInstruction;

struct BankSummary : AnalysisStop<BankError> {
  int access_bytes = 0;
  int64_t instructions = 0;
  int64_t wavefronts = 0;
  int64_t ideal_wavefronts = 0;
  int max_degree = 0;  // worst bank degree over all phases of all instructions

  // What ncu's l1tex__data_bank_conflicts_pipe_lsu_mem_shared_* counters report.
  TESSERA_HOST_DEVICE constexpr int64_t extra_wavefronts() const { return wavefronts - ideal_wavefronts; }
  TESSERA_HOST_DEVICE constexpr bool conflict_free() const { return ok() && max_degree <= 1; }
};

namespace detail {
struct NoCallback {
  TESSERA_HOST_DEVICE constexpr void operator()(InstructionInfo const&, AccessReport const&) const {}
};
using AllLanes = EveryLane;
}  // namespace detail

// tv(t, v) -> tile index; smem(i) -> element offset; active(t) -> whether thread t
// supplies an address (ldmatrix .x1/.x2 lanes beyond 8*count do not);
// on_instruction(InstructionInfo, AccessReport) is called for each instruction.
template <class TvFn, class SmemFn, class ActiveFn = detail::AllLanes, class OnInstruction = detail::NoCallback>
TESSERA_HOST_DEVICE constexpr BankSummary analyze_tv_banks(AccessShape const& s, TvFn const& tv, SmemFn const& smem,
                                                           ActiveFn const& active = {},
                                                           OnInstruction&& on_instruction = {}) {
  BankSummary r{};
  const int64_t bytes64 = int64_t(s.vec) * s.element_bits / 8;
  r.access_bytes = int(bytes64);
  if (s.element_bits <= 0 || s.element_bits % 8 != 0 || bytes64 > 16 || threads_per_phase(int(bytes64)) == 0) {
    r.error = BankError::bad_width;
    return r;
  }
  if (s.vec < 1 || s.values % s.vec != 0) { r.error = BankError::bad_vector; return r; }
  if (!s.tiles_fit()) { r.error = BankError::tile_mismatch; return r; }
  const WalkResult walk = walk_warp_accesses(s, tv, smem, active, [&](WarpInstruction const& in, WarpLanes const& w) {
    int64_t addr[warp_lanes] = {};
    for (int l = 0; l < w.lanes; ++l) addr[l] = w.offset[l] * (s.element_bits / 8);
    const AccessReport a = analyze_access(addr, w.lanes, int(bytes64), w.active);
    if (!a.ok()) {
      r.refuse(a.error, in, a.error_thread, s.vec);
      return false;
    }
    on_instruction(in, a);
    ++r.instructions;
    r.wavefronts += a.wavefronts;
    r.ideal_wavefronts += a.ideal_wavefronts();
    r.max_degree = a.max_degree > r.max_degree ? a.max_degree : r.max_degree;
    return true;
  });
  r.take(walk);
  return r;
}

// Static tier: a shared-memory layout (Layout or ComposedLayout with two modes) read or
// written through a TV layout (thread, value) -> column-major index of a (TM, TN) tile.
template <class Smem, class TV, class OnInstruction = detail::NoCallback>
TESSERA_HOST_DEVICE constexpr BankSummary analyze_smem_access(Smem const& smem, TV const& tv, int64_t tile_m,
                                                              int64_t tile_n, int element_bits, int vec,
                                                              OnInstruction&& on_instruction = {}) {
  const AccessShape s = tv_access_shape(smem, tv, tile_m, tile_n, element_bits, vec);
  return analyze_tv_banks(s, detail::TvOfLayout<TV>{tv, s.threads}, detail::OffsetOfLayout<Smem>{smem},
                          detail::AllLanes{}, static_cast<OnInstruction&&>(on_instruction));
}

// A TiledCopy's source (S) or destination (D) side in shared memory: the access is the
// atom's per-thread vector on that side, and lanes whose atom address repeats an earlier
// lane's (ldmatrix .x1/.x2) supply none.
template <bool Source, class Smem, class TiledCopy_, class OnInstruction = detail::NoCallback>
TESSERA_HOST_DEVICE constexpr BankSummary analyze_tiled_copy(Smem const& smem, TiledCopy_ const&, int element_bits,
                                                             OnInstruction&& on_instruction = {}) {
  using Side = CopySide<Source, TiledCopy_>;
  const auto tv = Side::tv();
  const AccessShape s = Side::shape(smem, element_bits);
  return analyze_tv_banks(s, detail::TvOfLayout<decltype(tv)>{tv, s.threads}, detail::OffsetOfLayout<Smem>{smem},
                          typename Side::Active{}, static_cast<OnInstruction&&>(on_instruction));
}

}  // namespace tessera::analysis
