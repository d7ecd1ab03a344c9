// Bank analysis of a thread-value access pattern over a shared-memory tile: the
// smem_banks.hpp model applied instruction by instruction.
//
//   TV map     (thread t, value v) -> column-major index m + TM*n of a TM x TN copy tile
//   smem       element index (column-major over its own (SM, SN) shape) -> element offset;
//              the copy tile is repeated (SM/TM) x (SN/TN) times to cover it
//   access     each thread moves `vec` consecutive values per instruction, which must be
//              consecutive elements in shared memory (one vector access of vec*bits/8 bytes)
//   instruction  32 consecutive threads (a warp) x one access step, in one repeat of the tile
//
// The quantity ncu reports as shared-memory bank conflicts is the excess over the ideal:
// extra = wavefronts - ideal, summed over instructions (BankSummary::extra_wavefronts).
// The core (analyze_tv_banks) takes plain callables, so the static tier (below) and the
// runtime tier (tessera/analysis/banks.hpp) share one definition.
#pragma once

#include <cstdint>

#include "tessera/analysis/smem_banks.hpp"
#include "tessera/tiled_copy.hpp"

namespace tessera::analysis {

struct AccessShape {
  int64_t threads = 0;      // size of the TV map's thread mode
  int64_t values = 0;       // size of its value mode
  int vec = 1;              // values per access
  int element_bits = 16;    // a multiple of 8
  int64_t tile_m = 0, tile_n = 0;  // the copy tile
  int64_t smem_m = 0, smem_n = 0;  // the shared-memory tile (a multiple of the copy tile)
};

// One instruction: which repeat of the tile, which access step, which warp.
struct InstructionInfo {
  int64_t index = 0;
  int64_t tile = 0;          // repeat of the copy tile over smem, column-major
  int64_t step = 0;          // values [step*vec, step*vec + vec)
  int64_t first_thread = 0;  // threads [first_thread, first_thread + report's thread count)
};

struct BankSummary {
  BankError error = BankError::none;
  int64_t error_thread = -1, error_value = -1;  // where, when error != none
  int access_bytes = 0;
  int64_t instructions = 0;
  int64_t wavefronts = 0;
  int64_t ideal_wavefronts = 0;
  int max_degree = 0;  // worst bank degree over all phases of all instructions

  TESSERA_HOST_DEVICE constexpr bool ok() const { return error == BankError::none; }
  // What ncu's l1tex__data_bank_conflicts_pipe_lsu_mem_shared_* counters report.
  TESSERA_HOST_DEVICE constexpr int64_t extra_wavefronts() const { return wavefronts - ideal_wavefronts; }
  TESSERA_HOST_DEVICE constexpr bool conflict_free() const { return ok() && max_degree <= 1; }
};

namespace detail {
struct NoCallback {
  TESSERA_HOST_DEVICE constexpr void operator()(InstructionInfo const&, AccessReport const&) const {}
};
struct AllLanes {
  TESSERA_HOST_DEVICE constexpr bool operator()(int64_t) const { return true; }
};
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
  if (s.tile_m <= 0 || s.tile_n <= 0 || s.smem_m % s.tile_m != 0 || s.smem_n % s.tile_n != 0 ||
      s.smem_m <= 0 || s.smem_n <= 0) {
    r.error = BankError::tile_mismatch;
    return r;
  }
  const int64_t reps_m = s.smem_m / s.tile_m, reps = reps_m * (s.smem_n / s.tile_n);
  const int64_t steps = s.values / s.vec, warps = (s.threads + max_threads - 1) / max_threads;
  const int64_t tile_size = s.tile_m * s.tile_n;
  for (int64_t rep = 0; rep < reps; ++rep) {
    const int64_t base_m = (rep % reps_m) * s.tile_m, base_n = (rep / reps_m) * s.tile_n;
    // smem offset of (thread, value) in this repeat, or -1 with r.error set
    auto offset = [&](int64_t t, int64_t v) -> int64_t {
      const int64_t x = tv(t, v);
      if (x < 0 || x >= tile_size) {
        r.error = BankError::outside_tile;
        r.error_thread = t;
        r.error_value = v;
        return -1;
      }
      return int64_t(smem((base_m + x % s.tile_m) + s.smem_m * (base_n + x / s.tile_m)));
    };
    for (int64_t step = 0; step < steps; ++step)
      for (int64_t w = 0; w < warps; ++w) {
        const int64_t first = w * max_threads;
        const int n = int(s.threads - first < max_threads ? s.threads - first : max_threads);
        int64_t addr[max_threads] = {};
        bool act[max_threads] = {};
        for (int l = 0; l < n; ++l) {
          const int64_t t = first + l;
          act[l] = active(t);
          const int64_t off = offset(t, step * s.vec);
          if (off < 0 && !r.ok()) return r;
          for (int j = 1; j < s.vec; ++j) {
            const int64_t o = offset(t, step * s.vec + j);
            if (o < 0 && !r.ok()) return r;
            if (act[l] && o != off + j) {
              r.error = BankError::not_contiguous;
              r.error_thread = t;
              r.error_value = step * s.vec + j;
              return r;
            }
          }
          addr[l] = off * (s.element_bits / 8);
        }
        const AccessReport a = analyze_access(addr, n, int(bytes64), act);
        if (!a.ok()) {
          r.error = a.error;
          r.error_thread = first + a.error_thread;
          r.error_value = step * s.vec;
          return r;
        }
        on_instruction(InstructionInfo{r.instructions, rep, step, first}, a);
        ++r.instructions;
        r.wavefronts += a.wavefronts;
        r.ideal_wavefronts += a.ideal_wavefronts();
        r.max_degree = a.max_degree > r.max_degree ? a.max_degree : r.max_degree;
      }
  }
  return r;
}

// Static tier: a shared-memory layout (Layout or ComposedLayout with two modes) read or
// written through a TV layout (thread, value) -> column-major index of a (TM, TN) tile.
template <class Smem, class TV, class OnInstruction = detail::NoCallback>
TESSERA_HOST_DEVICE constexpr BankSummary analyze_smem_access(Smem const& smem, TV const& tv, int64_t tile_m,
                                                              int64_t tile_n, int element_bits, int vec,
                                                              OnInstruction&& on_instruction = {}) {
  AccessShape s;
  s.threads = int64_t(size<0>(tv));
  s.values = int64_t(size<1>(tv));
  s.vec = vec;
  s.element_bits = element_bits;
  s.tile_m = tile_m;
  s.tile_n = tile_n;
  s.smem_m = int64_t(size(get<0>(smem.shape())));
  s.smem_n = int64_t(size(get<1>(smem.shape())));
  const int64_t nt = s.threads;
  return analyze_tv_banks(
      s, [&](int64_t t, int64_t v) { return int64_t(tv(t + nt * v)); }, [&](int64_t i) { return int64_t(smem(i)); },
      detail::AllLanes{}, static_cast<OnInstruction&&>(on_instruction));
}

// A TiledCopy's source (S) or destination (D) side in shared memory: the access is the
// atom's per-thread vector on that side, and lanes whose atom address repeats an earlier
// lane's (ldmatrix .x1/.x2) supply none.
template <bool Source, class Smem, class TiledCopy_, class OnInstruction = detail::NoCallback>
TESSERA_HOST_DEVICE constexpr BankSummary analyze_tiled_copy(Smem const& smem, TiledCopy_ const&, int element_bits,
                                                             OnInstruction&& on_instruction = {}) {
  using AtomSide = std::conditional_t<Source, typename TiledCopy_::AtomLayoutSrc, typename TiledCopy_::AtomLayoutDst>;
  auto tv = [] {
    if constexpr (Source) return TiledCopy_::get_layoutS_TV();
    else return TiledCopy_::get_layoutD_TV();
  }();
  using Tiler = typename TiledCopy_::Tiler_MN;
  AccessShape s;
  s.threads = int64_t(size<0>(tv));
  s.values = int64_t(size<1>(tv));
  s.vec = int(size<1>(AtomSide{}));
  s.element_bits = element_bits;
  s.tile_m = int64_t(size(get<0>(Tiler{})));
  s.tile_n = int64_t(size(get<1>(Tiler{})));
  s.smem_m = int64_t(size(get<0>(smem.shape())));
  s.smem_n = int64_t(size(get<1>(smem.shape())));
  const int64_t nt = s.threads, atom_thr = int64_t(size<0>(AtomSide{}));
  auto active = [atom_thr](int64_t t) {
    const int64_t lane = t % atom_thr;
    for (int64_t l = 0; l < lane; ++l)
      if (AtomSide{}(l) == AtomSide{}(lane)) return false;
    return true;
  };
  return analyze_tv_banks(
      s, [&](int64_t t, int64_t v) { return int64_t(tv(t + nt * v)); }, [&](int64_t i) { return int64_t(smem(i)); },
      active, static_cast<OnInstruction&&>(on_instruction));
}

}  // namespace tessera::analysis
