// A thread-value access over a tile of memory, walked the way a warp issues it. The bank
// analysis (bank_analysis.hpp) and the coalescing analysis (coalescing_analysis.hpp) read
// their instructions from this one walk and differ only in the model they apply to each.
//
//   TV map       (thread t, value v) -> column-major index m + TM*n of a TM x TN copy tile
//   memory       element index (column-major over its own (MM, MN) shape) -> element offset;
//                the copy tile is repeated (MM/TM) x (MN/TN) times to cover it
//   access       each active thread moves `vec` consecutive values per instruction, which must
//                be consecutive elements in memory (one vector access of vec*bits/8 bytes)
//   instruction  32 consecutive threads (a warp) x one access step, in one repeat of the tile
#pragma once

#include <cstdint>
#include <type_traits>

#include "tessera/config.hpp"
#include "tessera/tiled_copy.hpp"

namespace tessera::analysis {

inline constexpr int warp_lanes = 32;

struct TvAccessShape {
  int64_t threads = 0;             // size of the TV map's thread mode
  int64_t values = 0;              // size of its value mode
  int vec = 1;                     // values per access
  int element_bits = 16;           // a multiple of 8
  int64_t tile_m = 0, tile_n = 0;  // the copy tile
  int64_t memory_m = 0, memory_n = 0;  // the memory tile (a whole number of copy tiles)

  // Positive tiles, the memory tile a whole number of copy tiles.
  TESSERA_HOST_DEVICE constexpr bool tiles_fit() const {
    return tile_m > 0 && tile_n > 0 && memory_m > 0 && memory_n > 0 && memory_m % tile_m == 0 &&
           memory_n % tile_n == 0;
  }
  TESSERA_HOST_DEVICE constexpr int64_t repeats_m() const { return memory_m / tile_m; }
  TESSERA_HOST_DEVICE constexpr int64_t repeats() const { return repeats_m() * (memory_n / tile_n); }
  // The memory tile's row and column of copy-tile index x in repeat `tile` (column-major).
  TESSERA_HOST_DEVICE constexpr int64_t row(int64_t tile, int64_t x) const {
    return (tile % repeats_m()) * tile_m + x % tile_m;
  }
  TESSERA_HOST_DEVICE constexpr int64_t col(int64_t tile, int64_t x) const {
    return (tile / repeats_m()) * tile_n + x / tile_m;
  }
};

// One instruction: which repeat of the tile, which access step, which warp.
struct WarpInstruction {
  int64_t index = 0;
  int64_t tile = 0;          // repeat of the copy tile over the memory tile, column-major
  int64_t step = 0;          // values [step*vec, step*vec + vec)
  int64_t first_thread = 0;  // threads [first_thread, first_thread + lanes)
};

// The lanes of one instruction: which are active, and the element offset each active lane's
// vector starts at (inactive lanes: 0).
struct WarpLanes {
  int lanes = 0;  // 32, or fewer in a last partial warp
  bool active[warp_lanes] = {};
  int64_t offset[warp_lanes] = {};
};

enum class WalkError : int {
  none = 0,
  outside_tile,    // the TV map sends a (thread,value) outside its tile
  not_contiguous,  // one access's values are not consecutive elements in memory
};

struct WalkResult {
  WalkError error = WalkError::none;
  int64_t error_thread = -1, error_value = -1;  // where, when error != none
  TESSERA_HOST_DEVICE constexpr bool ok() const { return error == WalkError::none; }
};

// Where an analysis stopped, in its own error codes (BankError, GmemError, each with
// outside_tile and not_contiguous): the base of both analyses' summaries.
template <class Error>
struct AnalysisStop {
  Error error = Error::none;
  int64_t error_thread = -1, error_value = -1;  // where, when error != none
  TESSERA_HOST_DEVICE constexpr bool ok() const { return error == Error::none; }
  // The model refused lane `lane` of instruction `in` (reported at the access's first value).
  TESSERA_HOST_DEVICE constexpr void refuse(Error e, WarpInstruction const& in, int lane, int vec) {
    error = e;
    error_thread = in.first_thread + lane;
    error_value = in.step * vec;
  }
  // The walk's own errors.
  TESSERA_HOST_DEVICE constexpr void take(WalkResult const& w) {
    if (w.ok()) return;
    error = w.error == WalkError::outside_tile ? Error::outside_tile : Error::not_contiguous;
    error_thread = w.error_thread;
    error_value = w.error_value;
  }
};

// tv(t, v) -> copy-tile index; memory(i) -> element offset; active(t) -> whether thread t
// accesses memory; on_warp(WarpInstruction, WarpLanes) -> bool is called for each instruction
// in order and stops the walk by returning false. The shape must have tiles_fit(), vec >= 1
// and values a multiple of vec (each analysis checks these first, with its own error codes).
template <class TvFn, class MemoryFn, class ActiveFn, class OnWarp>
TESSERA_HOST_DEVICE constexpr WalkResult walk_warp_accesses(TvAccessShape const& s, TvFn const& tv,
                                                            MemoryFn const& memory, ActiveFn const& active,
                                                            OnWarp&& on_warp) {
  WalkResult r{};
  const int64_t steps = s.values / s.vec, warps = (s.threads + warp_lanes - 1) / warp_lanes;
  const int64_t tile_size = s.tile_m * s.tile_n;
  int64_t index = 0;
  for (int64_t rep = 0; rep < s.repeats(); ++rep) {
    // element offset of (thread, value) in this repeat; false with r.error set
    auto offset = [&](int64_t t, int64_t v, int64_t& out) -> bool {
      const int64_t x = int64_t(tv(t, v));
      if (x < 0 || x >= tile_size) {
        r = WalkResult{WalkError::outside_tile, t, v};
        return false;
      }
      out = int64_t(memory(s.row(rep, x) + s.memory_m * s.col(rep, x)));
      return true;
    };
    for (int64_t step = 0; step < steps; ++step)
      for (int64_t w = 0; w < warps; ++w) {
        const int64_t first = w * warp_lanes;
        WarpLanes lanes{};
        lanes.lanes = int(s.threads - first < warp_lanes ? s.threads - first : warp_lanes);
        for (int l = 0; l < lanes.lanes; ++l) {
          const int64_t t = first + l;
          lanes.active[l] = bool(active(t));
          if (!lanes.active[l]) continue;
          int64_t off = 0;
          if (!offset(t, step * s.vec, off)) return r;
          for (int j = 1; j < s.vec; ++j) {
            int64_t o = 0;
            if (!offset(t, step * s.vec + j, o)) return r;
            if (off > INT64_MAX - j || o != off + j) {
              r = WalkResult{WalkError::not_contiguous, t, step * s.vec + j};
              return r;
            }
          }
          lanes.offset[l] = off;
        }
        if (!on_warp(WarpInstruction{index++, rep, step, first}, static_cast<WarpLanes const&>(lanes))) return r;
      }
  }
  return r;
}

// ---------------------------------------------------------------- the static tier's accesses

namespace detail {
struct EveryLane {
  TESSERA_HOST_DEVICE constexpr bool operator()(int64_t) const { return true; }
};
// (thread, value) -> copy-tile index of a static TV layout.
template <class TV>
struct TvOfLayout {
  TV const& tv;
  int64_t threads;
  TESSERA_HOST_DEVICE constexpr int64_t operator()(int64_t t, int64_t v) const { return int64_t(tv(t + threads * v)); }
};
// Element index -> offset of a static memory layout (Layout or ComposedLayout).
template <class Memory>
struct OffsetOfLayout {
  Memory const& memory;
  TESSERA_HOST_DEVICE constexpr int64_t operator()(int64_t i) const { return int64_t(memory(i)); }
};
// A copy atom's lanes that supply an address on one side: those whose atom address does not
// repeat an earlier lane's (ldmatrix .x1/.x2's upper lanes repeat the used ones).
template <class AtomSide>
struct AtomLaneActive {
  TESSERA_HOST_DEVICE constexpr bool operator()(int64_t t) const {
    const int64_t lane = t % int64_t(size<0>(AtomSide{}));
    for (int64_t l = 0; l < lane; ++l)
      if (AtomSide{}(l) == AtomSide{}(lane)) return false;
    return true;
  }
};
}  // namespace detail

// A memory layout with two modes read or written through a static TV layout over a (TM, TN) tile.
template <class Memory, class TV>
TESSERA_HOST_DEVICE constexpr TvAccessShape tv_access_shape(Memory const& memory, TV const& tv, int64_t tile_m,
                                                            int64_t tile_n, int element_bits, int vec) {
  TvAccessShape s;
  s.threads = int64_t(size<0>(tv));
  s.values = int64_t(size<1>(tv));
  s.vec = vec;
  s.element_bits = element_bits;
  s.tile_m = tile_m;
  s.tile_n = tile_n;
  s.memory_m = int64_t(size(get<0>(memory.shape())));
  s.memory_n = int64_t(size(get<1>(memory.shape())));
  return s;
}

// A TiledCopy's source (Source) or destination side over a memory layout: its TV layout over
// its tiler, the atom's per-thread vector on that side, and the lanes that supply an address.
template <bool Source, class TiledCopy_>
struct CopySide {
  using AtomSide = std::conditional_t<Source, typename TiledCopy_::AtomLayoutSrc, typename TiledCopy_::AtomLayoutDst>;
  using Tiler = typename TiledCopy_::Tiler_MN;
  TESSERA_HOST_DEVICE static constexpr auto tv() {
    if constexpr (Source) return TiledCopy_::get_layoutS_TV();
    else return TiledCopy_::get_layoutD_TV();
  }
  template <class Memory>
  TESSERA_HOST_DEVICE static constexpr TvAccessShape shape(Memory const& memory, int element_bits) {
    return tv_access_shape(memory, tv(), int64_t(size(get<0>(Tiler{}))), int64_t(size(get<1>(Tiler{}))),
                           element_bits, int(size<1>(AtomSide{})));
  }
  using Active = detail::AtomLaneActive<AtomSide>;
};

}  // namespace tessera::analysis
