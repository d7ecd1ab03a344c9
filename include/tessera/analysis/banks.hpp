// Bank analysis on runtime values (the CLI's `tessera banks`, and a host API for the
// kernels' predictions): include/tessera/atom/bank_analysis.hpp's analyze_tv_banks
// applied to parsed layouts, with every instruction's report kept.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tessera/rt/tiled.hpp"
#include "tessera/rt/layout.hpp"
#include "tessera/analysis/smem_banks.hpp"
#include "tessera/analysis/bank_analysis.hpp"

namespace tessera::analysis {

// A shared-memory tile: (m, n) of an (M, N) tile -> element offset, possibly swizzled.
struct SmemTile {
  std::string text;
  rt::IntTuple row_shape, col_shape;               // its two modes (rank 1: row_shape = 1)
  std::function<std::int64_t(std::int64_t)> offset;  // column-major tile index -> element offset
  std::int64_t rows() const;
  std::int64_t cols() const;
};
// Throws rt::Error unless the layout has one or two modes.
SmemTile smem_tile(const rt::Layout& l);
SmemTile smem_tile(const rt::SwizzledLayout& l);

// How threads touch the tile: a TV map over a (tile_m, tile_n) copy tile, `vec` values per
// access, and which threads supply addresses.
struct BankAccess {
  std::string text;
  rt::Layout tv;                     // (thread, value) -> column-major index of the copy tile
  std::int64_t tile_m = 0, tile_n = 0;
  int vec = 1;
  std::function<bool(std::int64_t)> active;  // empty: every thread
};
// A raw TV layout over the whole smem tile (tile = the smem's (M,N)).
BankAccess access_of_tv(const rt::Layout& tv, std::int64_t tile_m, std::int64_t tile_n, int vec);
// A tiled copy's source (ldmatrix reads smem) or destination (cp.async writes it) side.
BankAccess access_of_copy(const rt::TiledCopy& copy, bool source);

struct BankInstruction {
  analysis::InstructionInfo info;
  analysis::AccessReport report;
};

struct BankAnalysis {
  analysis::BankSummary summary;
  std::vector<BankInstruction> instructions;
  // Per smem cell (row-major over rows() x cols()): the worst degree of the bank it was
  // accessed through, over every phase that touched it (0: never accessed).
  std::vector<int> cell_degree;
  double conflict_factor() const {
    return summary.ideal_wavefronts ? double(summary.wavefronts) / double(summary.ideal_wavefronts) : 1.0;
  }
};

// Throws rt::Error with a message naming the thread and value on bad input.
BankAnalysis analyze_banks(const SmemTile& smem, const BankAccess& access, int element_bits);

}  // namespace tessera::analysis
