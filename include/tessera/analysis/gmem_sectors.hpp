// Global-memory coalescing model: a pure function of the byte addresses one warp-wide
// instruction touches (no layout types; coalescing_analysis.hpp feeds it addresses from
// layouts, as smem_banks.hpp does for banks).
//
// Model (NVIDIA L1TEX since Volta): a warp's global load or store is one request; memory
// is moved in 32-byte sectors, grouped in 128-byte lines (cache lines). The request costs
// the number of DISTINCT sectors the active threads' byte ranges touch (threads reading
// the same bytes share them); that is what ncu counts as
// l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st}.sum per request.
//
// Minimum: the requested bytes are the distinct bytes the active threads touch (the union
// of their ranges); perfectly aligned and packed, they would fill ceil(requested / 32)
// sectors and ceil(requested / 128) lines. excess = touched - minimum. A sector with fewer
// than 32 requested bytes is partly used; when an instruction touches more sectors than
// its minimum, the excess lives in those partly used sectors, and the threads touching them
// are the ones that cause it (WarpSectors::excess_lanes).
//
// Addresses are taken relative to a 128-byte aligned origin and may be negative (a layout
// with negative strides): sector = floor(address / 32).
#pragma once

#include <cstdint>

#include "tessera/config.hpp"

namespace tessera::analysis {

inline constexpr int sector_bytes = 32;
inline constexpr int line_bytes = 128;
inline constexpr int warp_threads = 32;
inline constexpr int max_gmem_access_bytes = 16;  // ld.global.v4.b32 / v2.b64: 16 bytes per thread
// An aligned access of at most 16 bytes lies in one sector; two bound any width we accept.
inline constexpr int max_warp_sectors = 2 * warp_threads;

enum class GmemError : int {
  none = 0,
  bad_width,         // access width not one of 1, 2, 4, 8, 16 bytes
  too_many_threads,  // more than 32 addresses for one warp instruction
  misaligned,        // address not a multiple of the access width
  address_overflow,  // a byte address does not fit in 64 bits
  // coalescing_analysis.hpp: a TV map over a global-memory tile
  bad_element,       // element width not a multiple of 8 bits up to 128
  bad_vector,        // values per thread not a multiple of the access vector, or vec < 1
  not_contiguous,    // one access's values are not consecutive elements in memory
  outside_tile,      // the TV map sends a (thread,value) outside its tile
  tile_mismatch,     // the global-memory tile is not a whole number of copy tiles
};

TESSERA_HOST_DEVICE constexpr const char* to_string(GmemError e) {
  switch (e) {
    case GmemError::none: return "ok";
    case GmemError::bad_width: return "access width must be 1, 2, 4, 8 or 16 bytes";
    case GmemError::too_many_threads: return "a warp instruction has at most 32 threads";
    case GmemError::misaligned: return "byte address is not a multiple of the access width";
    case GmemError::address_overflow: return "byte address does not fit in 64 bits";
    case GmemError::bad_element: return "element width must be a multiple of 8 bits, at most 128";
    case GmemError::bad_vector: return "the values per thread are not a whole number of accesses";
    case GmemError::not_contiguous: return "the values of one access are not consecutive elements in memory";
    case GmemError::outside_tile: return "the TV layout sends a (thread,value) outside its tile";
    case GmemError::tile_mismatch: return "the global-memory tile is not a whole number of copy tiles";
  }
  return "unknown";
}

namespace detail {
TESSERA_HOST_DEVICE constexpr int64_t floor_div(int64_t a, int64_t b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)) ? 1 : 0);
}
TESSERA_HOST_DEVICE constexpr int64_t floor_mod(int64_t a, int64_t b) { return a - floor_div(a, b) * b; }
TESSERA_HOST_DEVICE constexpr bool is_access_width(int64_t bytes) {
  return bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8 || bytes == 16;
}
}  // namespace detail

// The blocks (sectors or lines) of one instruction, ascending, with the distinct requested
// bytes that fall in each.
struct BlockSet {
  int count = 0;
  int64_t index[max_warp_sectors] = {};  // block number: floor(address / block bytes)
  int used[max_warp_sectors] = {};       // requested bytes inside it
};

struct WarpSectors {
  GmemError error = GmemError::none;
  int error_thread = -1;  // which lane's address is at fault (when error != none)
  int access_bytes = 0;
  int num_threads = 0;     // lanes of the instruction
  int active_threads = 0;  // lanes that access memory
  int64_t requested_bytes = 0;  // distinct bytes the active lanes touch
  BlockSet sectors, lines;
  // Lanes touching a partly used sector (line) of an instruction over its minimum: bit l = lane l.
  uint32_t excess_lanes = 0, excess_line_lanes = 0;

  TESSERA_HOST_DEVICE constexpr bool ok() const { return error == GmemError::none; }
  TESSERA_HOST_DEVICE constexpr int64_t min_sectors() const { return (requested_bytes + sector_bytes - 1) / sector_bytes; }
  TESSERA_HOST_DEVICE constexpr int64_t min_lines() const { return (requested_bytes + line_bytes - 1) / line_bytes; }
  TESSERA_HOST_DEVICE constexpr int64_t excess_sectors() const { return sectors.count - min_sectors(); }
  TESSERA_HOST_DEVICE constexpr int64_t excess_lines() const { return lines.count - min_lines(); }
  TESSERA_HOST_DEVICE constexpr bool coalesced() const { return ok() && excess_sectors() == 0; }
};

namespace detail {
// Adds the bytes [lo, hi) to `set`, blocks of `block` bytes; intervals come ascending and
// disjoint, so a block is either new or the last one.
TESSERA_HOST_DEVICE constexpr void add_bytes(BlockSet& set, int64_t lo, int64_t hi, int64_t block) {
  for (int64_t b = floor_div(lo, block); b * block < hi; ++b) {
    const int64_t from = lo > b * block ? lo : b * block;
    const int64_t to = hi < (b + 1) * block ? hi : (b + 1) * block;
    if (set.count > 0 && set.index[set.count - 1] == b) set.used[set.count - 1] += int(to - from);
    else if (set.count < max_warp_sectors) {
      set.index[set.count] = b;
      set.used[set.count] = int(to - from);
      ++set.count;
    }
  }
}
// Lanes whose range [a, a+w) meets a block of `set` used by fewer than `block` bytes.
TESSERA_HOST_DEVICE constexpr uint32_t lanes_in_partial(const BlockSet& set, const int64_t* addr, const bool* active,
                                                        int n, int w, int64_t block) {
  uint32_t mask = 0;
  for (int l = 0; l < n; ++l) {
    if (active && !active[l]) continue;
    for (int k = 0; k < set.count; ++k)
      if (set.used[k] < block && addr[l] < (set.index[k] + 1) * block && addr[l] + w > set.index[k] * block)
        mask |= uint32_t(1) << l;
  }
  return mask;
}
}  // namespace detail

// addr[l]: byte address of lane l (l < n); access_bytes: bytes each lane moves;
// active (optional): which lanes access memory.
TESSERA_HOST_DEVICE constexpr WarpSectors analyze_warp_sectors(const int64_t* addr, int n, int access_bytes,
                                                               const bool* active = nullptr) {
  WarpSectors r{};
  r.access_bytes = access_bytes;
  r.num_threads = n;
  if (!detail::is_access_width(access_bytes)) { r.error = GmemError::bad_width; return r; }
  if (n < 0 || n > warp_threads) { r.error = GmemError::too_many_threads; return r; }
  // The active ranges [a, a + w), sorted by start (insertion sort: 32 lanes at most).
  int64_t start[warp_threads] = {};
  int m = 0;
  for (int l = 0; l < n; ++l) {
    if (active && !active[l]) continue;
    const int64_t a = addr[l];
    if (a > INT64_MAX - access_bytes) { r.error = GmemError::address_overflow; r.error_thread = l; return r; }
    if (detail::floor_mod(a, access_bytes) != 0) { r.error = GmemError::misaligned; r.error_thread = l; return r; }
    int k = m++;
    while (k > 0 && start[k - 1] > a) { start[k] = start[k - 1]; --k; }
    start[k] = a;
  }
  r.active_threads = m;
  // Merge into disjoint intervals, adding each to the sector and line sets.
  for (int k = 0; k < m;) {
    const int64_t lo = start[k];
    int64_t hi = lo + access_bytes;
    while (++k < m && start[k] <= hi) hi = start[k] + access_bytes > hi ? start[k] + access_bytes : hi;
    r.requested_bytes += hi - lo;
    detail::add_bytes(r.sectors, lo, hi, sector_bytes);
    detail::add_bytes(r.lines, lo, hi, line_bytes);
  }
  if (r.excess_sectors() > 0) r.excess_lanes = detail::lanes_in_partial(r.sectors, addr, active, n, access_bytes, sector_bytes);
  if (r.excess_lines() > 0) r.excess_line_lanes = detail::lanes_in_partial(r.lines, addr, active, n, access_bytes, line_bytes);
  return r;
}

}  // namespace tessera::analysis
