// Coalescing of a thread-value access over a global-memory tile: the gmem_sectors.hpp model
// applied to each instruction of the walk in warp_accesses.hpp (the TV map, the repeats of the
// copy tile, the vector accesses, one instruction per warp and step), as bank_analysis.hpp
// applies the bank model. Here each access's byte address = offset * element bytes + base
// (checked: overflow is an error).
//
// The core (analyze_tv_coalescing) takes plain callables, so the static tier (below) and the
// runtime tier (tessera/analysis/coalescing.hpp) share one definition.
#pragma once

#include <cstdint>

#include "tessera/analysis/gmem_sectors.hpp"
#include "tessera/analysis/warp_accesses.hpp"
#include "tessera/tiled_copy.hpp"

namespace tessera::analysis {

// The access (its memory tile is the global-memory tile) with the tensor's byte offset.
struct GmemAccessShape : TvAccessShape {
  int64_t base_bytes = 0;  // added to every byte address (the tensor's start modulo alignment)
};
// One instruction: which repeat of the tile, which access step, which warp.
using GmemInstruction = WarpInstruction;

struct CoalescingSummary : AnalysisStop<GmemError> {
  int access_bytes = 0;
  int64_t instructions = 0;      // warp-wide requests
  int64_t requested_bytes = 0;   // sum over instructions of the distinct bytes requested
  int64_t sectors = 0, min_sectors = 0;
  int64_t lines = 0, min_lines = 0;
  int64_t excess_instructions = 0;  // instructions touching more sectors than their minimum

  TESSERA_HOST_DEVICE constexpr int64_t excess_sectors() const { return sectors - min_sectors; }
  TESSERA_HOST_DEVICE constexpr int64_t excess_lines() const { return lines - min_lines; }
  TESSERA_HOST_DEVICE constexpr bool coalesced() const { return ok() && sectors == min_sectors; }
};

namespace detail {
struct NoGmemCallback {
  TESSERA_HOST_DEVICE constexpr void operator()(GmemInstruction const&, WarpSectors const&) const {}
};
// offset * bytes + base, or false when it does not fit in 64 bits (bytes in 1..16).
TESSERA_HOST_DEVICE constexpr bool byte_address(int64_t offset, int64_t bytes, int64_t base, int64_t& out) {
  constexpr int64_t hi = INT64_MAX, lo = INT64_MIN;
  if (offset > hi / bytes || offset < lo / bytes) return false;
  const int64_t a = offset * bytes;
  if ((base > 0 && a > hi - base) || (base < 0 && a < lo - base)) return false;
  out = a + base;
  return out != lo;  // -2^63 has no negation: kept out as in tessera/rt/checked.hpp
}
}  // namespace detail

// tv(t, v) -> tile index; gmem(i) -> element offset; active(t) -> whether thread t accesses;
// on_instruction(GmemInstruction, WarpSectors) is called for each instruction.
template <class TvFn, class GmemFn, class ActiveFn = detail::EveryLane, class OnInstruction = detail::NoGmemCallback>
TESSERA_HOST_DEVICE constexpr CoalescingSummary analyze_tv_coalescing(GmemAccessShape const& s, TvFn const& tv,
                                                                      GmemFn const& gmem, ActiveFn const& active = {},
                                                                      OnInstruction&& on_instruction = {}) {
  CoalescingSummary r{};
  if (s.element_bits <= 0 || s.element_bits % 8 != 0 || s.element_bits > 128) {
    r.error = GmemError::bad_element;
    return r;
  }
  if (s.vec < 1 || s.vec > max_gmem_access_bytes || s.values % s.vec != 0) { r.error = GmemError::bad_vector; return r; }
  const int64_t ebytes = s.element_bits / 8, bytes = int64_t(s.vec) * ebytes;
  r.access_bytes = int(bytes);
  if (!detail::is_access_width(bytes)) { r.error = GmemError::bad_width; return r; }
  if (!s.tiles_fit()) { r.error = GmemError::tile_mismatch; return r; }
  const WalkResult walk = walk_warp_accesses(s, tv, gmem, active, [&](WarpInstruction const& in, WarpLanes const& w) {
    int64_t addr[warp_lanes] = {};
    for (int l = 0; l < w.lanes; ++l)
      // (analyze_warp_sectors checks that the access's last byte fits as well)
      if (w.active[l] && !detail::byte_address(w.offset[l], ebytes, s.base_bytes, addr[l])) {
        r.refuse(GmemError::address_overflow, in, l, s.vec);
        return false;
      }
    const WarpSectors a = analyze_warp_sectors(addr, w.lanes, int(bytes), w.active);
    if (!a.ok()) {
      r.refuse(a.error, in, a.error_thread, s.vec);
      return false;
    }
    on_instruction(in, a);
    ++r.instructions;
    r.requested_bytes += a.requested_bytes;
    r.sectors += a.sectors.count;
    r.min_sectors += a.min_sectors();
    r.lines += a.lines.count;
    r.min_lines += a.min_lines();
    r.excess_instructions += a.excess_sectors() > 0 ? 1 : 0;
    return true;
  });
  r.take(walk);
  return r;
}

// Static tier: a global-memory layout (Layout or ComposedLayout with two modes) read or
// written through a TV layout (thread, value) -> column-major index of a (TM, TN) tile.
template <class Gmem, class TV, class OnInstruction = detail::NoGmemCallback>
TESSERA_HOST_DEVICE constexpr CoalescingSummary analyze_gmem_access(Gmem const& gmem, TV const& tv, int64_t tile_m,
                                                                    int64_t tile_n, int element_bits, int vec,
                                                                    int64_t base_bytes = 0,
                                                                    OnInstruction&& on_instruction = {}) {
  const GmemAccessShape s{tv_access_shape(gmem, tv, tile_m, tile_n, element_bits, vec), base_bytes};
  return analyze_tv_coalescing(s, detail::TvOfLayout<TV>{tv, s.threads}, detail::OffsetOfLayout<Gmem>{gmem},
                               detail::EveryLane{}, static_cast<OnInstruction&&>(on_instruction));
}

// A TiledCopy's source (S) or destination (D) side in global memory: the access is the
// atom's per-thread vector on that side (cp.async reads global memory: its source).
template <bool Source, class Gmem, class TiledCopy_, class OnInstruction = detail::NoGmemCallback>
TESSERA_HOST_DEVICE constexpr CoalescingSummary analyze_tiled_copy_gmem(Gmem const& gmem, TiledCopy_ const&,
                                                                        int element_bits, int64_t base_bytes = 0,
                                                                        OnInstruction&& on_instruction = {}) {
  using Side = CopySide<Source, TiledCopy_>;
  const auto tv = Side::tv();
  const GmemAccessShape s{Side::shape(gmem, element_bits), base_bytes};
  return analyze_tv_coalescing(s, detail::TvOfLayout<decltype(tv)>{tv, s.threads},
                               detail::OffsetOfLayout<Gmem>{gmem}, typename Side::Active{},
                               static_cast<OnInstruction&&>(on_instruction));
}

}  // namespace tessera::analysis
