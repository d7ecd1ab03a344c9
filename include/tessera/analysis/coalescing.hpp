// Global-memory coalescing on runtime values (the CLI's `tessera gmem`): the
// coalescing_analysis.hpp core applied to parsed layouts, with every instruction's
// sectors kept.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tessera/analysis/coalescing_analysis.hpp"
#include "tessera/analysis/gmem_sectors.hpp"
#include "tessera/analysis/memory_tile.hpp"
#include "tessera/rt/layout.hpp"
#include "tessera/rt/tiled.hpp"

namespace tessera::analysis {

// A global-memory tile and how a warp's threads touch it (tessera/analysis/memory_tile.hpp).
using GmemTile = MemoryTile;
using GmemAccess = TvAccess;
// Throws rt::Error unless the layout has one or two modes.
inline GmemTile gmem_tile(const rt::Layout& l) { return memory_tile(l, "global-memory"); }
inline GmemTile gmem_tile(const rt::SwizzledLayout& l) { return memory_tile(l, "global-memory"); }
// A raw TV layout over the whole gmem tile (tile = the gmem's (M,N)).
inline GmemAccess gmem_access_of_tv(const rt::Layout& tv, std::int64_t tile_m, std::int64_t tile_n, int vec) {
  return access_of_tv(tv, tile_m, tile_n, vec);
}
// A tiled copy's side in global memory: source (a load; cp.async's source) or destination
// (a store). Throws rt::Error for an atom with no global-memory side (ldmatrix).
GmemAccess gmem_access_of_copy(const rt::TiledCopy& copy, bool source);

// One instruction, kept compact (a WarpSectors is 1.5 KB; a tile may take 10^5 instructions).
struct GmemInstructionReport {
  GmemInstruction info;
  int num_threads = 0, active_threads = 0;
  std::int64_t requested_bytes = 0;
  std::int64_t min_sectors = 0, min_lines = 0;
  std::vector<std::int64_t> sectors, lines;  // touched, ascending: floor(byte address / 32 or 128)
  std::vector<int> sector_used;              // requested bytes in each sector
  std::uint32_t excess_lanes = 0;            // lanes in partly used sectors when over the minimum
  std::int64_t excess_sectors() const { return std::int64_t(sectors.size()) - min_sectors; }
  std::int64_t excess_lines() const { return std::int64_t(lines.size()) - min_lines; }
};

struct CoalescingAnalysis {
  CoalescingSummary summary;
  std::int64_t base_bytes = 0;
  std::vector<GmemInstructionReport> instructions;
  // Per gmem cell (row-major over rows() x cols()): how often it is accessed, and whether an
  // access of it lies in a partly used sector of an instruction over its minimum.
  std::vector<std::int64_t> cell_accesses;
  std::vector<bool> cell_excess;
  // The first (thread, value) accessing each cell (-1: none).
  std::vector<std::int64_t> cell_thread, cell_value;
  // min / touched (1: coalesced); 1 when nothing is touched.
  double sector_efficiency() const {
    return summary.sectors ? double(summary.min_sectors) / double(summary.sectors) : 1.0;
  }
  double line_efficiency() const { return summary.lines ? double(summary.min_lines) / double(summary.lines) : 1.0; }
  double sectors_per_instruction() const {
    return summary.instructions ? double(summary.sectors) / double(summary.instructions) : 0.0;
  }
};

// Throws rt::Error with a message naming the thread and value on bad input, and
// rt::OverflowError when a byte address does not fit in 64 bits.
CoalescingAnalysis analyze_coalescing(const GmemTile& gmem, const GmemAccess& access, int element_bits,
                                      std::int64_t base_bytes = 0);

}  // namespace tessera::analysis
