// Coalescing of a thread-value access over a global-memory tile: the gmem_sectors.hpp model
// applied instruction by instruction (the global-memory twin of bank_analysis.hpp).
//
//   TV map       (thread t, value v) -> column-major index m + TM*n of a TM x TN copy tile
//   gmem         element index (column-major over its own (GM, GN) shape) -> element offset;
//                the copy tile is repeated (GM/TM) x (GN/TN) times to cover it
//   address      byte address = offset * element bytes + base (checked: overflow is an error)
//   access       each thread moves `vec` consecutive values per instruction, which must be
//                consecutive elements in memory (one vector access of vec*bits/8 bytes)
//   instruction  32 consecutive threads (a warp) x one access step, in one repeat of the tile
//
// The core (analyze_tv_coalescing) takes plain callables, so the static tier (below) and the
// runtime tier (tessera/analysis/coalescing.hpp) share one definition.
#pragma once

#include <cstdint>
#include <type_traits>

#include "tessera/analysis/gmem_sectors.hpp"
#include "tessera/tiled_copy.hpp"

namespace tessera::analysis {

struct GmemAccessShape {
  int64_t threads = 0;      // size of the TV map's thread mode
  int64_t values = 0;       // size of its value mode
  int vec = 1;              // values per access
  int element_bits = 16;    // a multiple of 8, at most 128
  int64_t tile_m = 0, tile_n = 0;  // the copy tile
  int64_t gmem_m = 0, gmem_n = 0;  // the global-memory tile (a multiple of the copy tile)
  int64_t base_bytes = 0;   // added to every byte address (the tensor's start modulo alignment)
};

// One instruction: which repeat of the tile, which access step, which warp.
struct GmemInstruction {
  int64_t index = 0;
  int64_t tile = 0;          // repeat of the copy tile over gmem, column-major
  int64_t step = 0;          // values [step*vec, step*vec + vec)
  int64_t first_thread = 0;  // threads [first_thread, first_thread + report's num_threads)
};

struct CoalescingSummary {
  GmemError error = GmemError::none;
  int64_t error_thread = -1, error_value = -1;  // where, when error != none
  int access_bytes = 0;
  int64_t instructions = 0;      // warp-wide requests
  int64_t requested_bytes = 0;   // sum over instructions of the distinct bytes requested
  int64_t sectors = 0, min_sectors = 0;
  int64_t lines = 0, min_lines = 0;
  int64_t excess_instructions = 0;  // instructions touching more sectors than their minimum

  TESSERA_HOST_DEVICE constexpr bool ok() const { return error == GmemError::none; }
  TESSERA_HOST_DEVICE constexpr int64_t excess_sectors() const { return sectors - min_sectors; }
  TESSERA_HOST_DEVICE constexpr int64_t excess_lines() const { return lines - min_lines; }
  TESSERA_HOST_DEVICE constexpr bool coalesced() const { return ok() && sectors == min_sectors; }
};

namespace detail {
struct NoGmemCallback {
  TESSERA_HOST_DEVICE constexpr void operator()(GmemInstruction const&, WarpSectors const&) const {}
};
struct EveryLane {
  TESSERA_HOST_DEVICE constexpr bool operator()(int64_t) const { return true; }
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
  if (s.tile_m <= 0 || s.tile_n <= 0 || s.gmem_m <= 0 || s.gmem_n <= 0 || s.gmem_m % s.tile_m != 0 ||
      s.gmem_n % s.tile_n != 0) {
    r.error = GmemError::tile_mismatch;
    return r;
  }
  const int64_t reps_m = s.gmem_m / s.tile_m, reps = reps_m * (s.gmem_n / s.tile_n);
  const int64_t steps = s.values / s.vec, warps = (s.threads + warp_threads - 1) / warp_threads;
  const int64_t tile_size = s.tile_m * s.tile_n;
  for (int64_t rep = 0; rep < reps; ++rep) {
    const int64_t base_m = (rep % reps_m) * s.tile_m, base_n = (rep / reps_m) * s.tile_n;
    // element offset of (thread, value) in this repeat; false with r.error set
    auto offset = [&](int64_t t, int64_t v, int64_t& out) -> bool {
      const int64_t x = int64_t(tv(t, v));
      if (x < 0 || x >= tile_size) {
        r.error = GmemError::outside_tile;
        r.error_thread = t;
        r.error_value = v;
        return false;
      }
      out = int64_t(gmem((base_m + x % s.tile_m) + s.gmem_m * (base_n + x / s.tile_m)));
      return true;
    };
    for (int64_t step = 0; step < steps; ++step)
      for (int64_t w = 0; w < warps; ++w) {
        const int64_t first = w * warp_threads;
        const int n = int(s.threads - first < warp_threads ? s.threads - first : warp_threads);
        int64_t addr[warp_threads] = {};
        bool act[warp_threads] = {};
        for (int l = 0; l < n; ++l) {
          const int64_t t = first + l;
          act[l] = bool(active(t));
          if (!act[l]) continue;
          int64_t off = 0;
          if (!offset(t, step * s.vec, off)) return r;
          for (int j = 1; j < s.vec; ++j) {
            int64_t o = 0;
            if (!offset(t, step * s.vec + j, o)) return r;
            if (off > INT64_MAX - j || o != off + j) {
              r.error = GmemError::not_contiguous;
              r.error_thread = t;
              r.error_value = step * s.vec + j;
              return r;
            }
          }
          // (analyze_warp_sectors checks that the access's last byte fits as well)
          if (!detail::byte_address(off, ebytes, s.base_bytes, addr[l])) {
            r.error = GmemError::address_overflow;
            r.error_thread = t;
            r.error_value = step * s.vec;
            return r;
          }
        }
        const WarpSectors a = analyze_warp_sectors(addr, n, int(bytes), act);
        if (!a.ok()) {
          r.error = a.error;
          r.error_thread = first + a.error_thread;
          r.error_value = step * s.vec;
          return r;
        }
        on_instruction(GmemInstruction{r.instructions, rep, step, first}, a);
        ++r.instructions;
        r.requested_bytes += a.requested_bytes;
        r.sectors += a.sectors.count;
        r.min_sectors += a.min_sectors();
        r.lines += a.lines.count;
        r.min_lines += a.min_lines();
        r.excess_instructions += a.excess_sectors() > 0 ? 1 : 0;
      }
  }
  return r;
}

// Static tier: a global-memory layout (Layout or ComposedLayout with two modes) read or
// written through a TV layout (thread, value) -> column-major index of a (TM, TN) tile.
template <class Gmem, class TV, class OnInstruction = detail::NoGmemCallback>
TESSERA_HOST_DEVICE constexpr CoalescingSummary analyze_gmem_access(Gmem const& gmem, TV const& tv, int64_t tile_m,
                                                                    int64_t tile_n, int element_bits, int vec,
                                                                    int64_t base_bytes = 0,
                                                                    OnInstruction&& on_instruction = {}) {
  GmemAccessShape s;
  s.threads = int64_t(size<0>(tv));
  s.values = int64_t(size<1>(tv));
  s.vec = vec;
  s.element_bits = element_bits;
  s.tile_m = tile_m;
  s.tile_n = tile_n;
  s.gmem_m = int64_t(size(get<0>(gmem.shape())));
  s.gmem_n = int64_t(size(get<1>(gmem.shape())));
  s.base_bytes = base_bytes;
  const int64_t nt = s.threads;
  return analyze_tv_coalescing(
      s, [&](int64_t t, int64_t v) { return int64_t(tv(t + nt * v)); }, [&](int64_t i) { return int64_t(gmem(i)); },
      detail::EveryLane{}, static_cast<OnInstruction&&>(on_instruction));
}

// A TiledCopy's source (S) or destination (D) side in global memory: the access is the
// atom's per-thread vector on that side (cp.async reads global memory: its source).
template <bool Source, class Gmem, class TiledCopy_, class OnInstruction = detail::NoGmemCallback>
TESSERA_HOST_DEVICE constexpr CoalescingSummary analyze_tiled_copy_gmem(Gmem const& gmem, TiledCopy_ const&,
                                                                        int element_bits, int64_t base_bytes = 0,
                                                                        OnInstruction&& on_instruction = {}) {
  using AtomSide = std::conditional_t<Source, typename TiledCopy_::AtomLayoutSrc, typename TiledCopy_::AtomLayoutDst>;
  auto tv = [] {
    if constexpr (Source) return TiledCopy_::get_layoutS_TV();
    else return TiledCopy_::get_layoutD_TV();
  }();
  using Tiler = typename TiledCopy_::Tiler_MN;
  GmemAccessShape s;
  s.threads = int64_t(size<0>(tv));
  s.values = int64_t(size<1>(tv));
  s.vec = int(size<1>(AtomSide{}));
  s.element_bits = element_bits;
  s.tile_m = int64_t(size(get<0>(Tiler{})));
  s.tile_n = int64_t(size(get<1>(Tiler{})));
  s.gmem_m = int64_t(size(get<0>(gmem.shape())));
  s.gmem_n = int64_t(size(get<1>(gmem.shape())));
  s.base_bytes = base_bytes;
  const int64_t nt = s.threads;
  return analyze_tv_coalescing(
      s, [&](int64_t t, int64_t v) { return int64_t(tv(t + nt * v)); }, [&](int64_t i) { return int64_t(gmem(i)); },
      detail::EveryLane{}, static_cast<OnInstruction&&>(on_instruction));
}

}  // namespace tessera::analysis
