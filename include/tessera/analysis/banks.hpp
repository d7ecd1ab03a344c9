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
#include "tessera/analysis/memory_tile.hpp"

namespace tessera::analysis {

// A shared-memory tile and how a warp's threads touch it (tessera/analysis/memory_tile.hpp).
using SmemTile = MemoryTile;
using BankAccess = TvAccess;
// Throws rt::Error unless the layout has one or two modes.
inline SmemTile smem_tile(const rt::Layout& l) { return memory_tile(l, "shared-memory"); }
inline SmemTile smem_tile(const rt::SwizzledLayout& l) { return memory_tile(l, "shared-memory"); }
// A tiled copy's source (ldmatrix reads smem) or destination (cp.async writes it) side.
// A tensor-memory atom (tcgen05.ld/st) touches no shared memory: refused.
inline BankAccess access_of_copy(const rt::TiledCopy& copy, bool source) {
  if (copy.atom.atom && copy.atom.atom->smem_side == "none")
    throw rt::Error(copy.atom.atom->name + " moves tensor memory and registers: it has no shared-memory side");
  return access_of_copy_side(copy, source);
}

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
  // Per smem cell (same order): the first (thread, value) accessing it (-1: none), and the
  // threads whose accesses in that same phase reach the cell's bank, the cell's own thread
  // among them (which lanes hit this bank; a conflict when their addresses differ).
  std::vector<std::int64_t> cell_thread, cell_value;
  std::vector<std::vector<std::int64_t>> cell_bank_threads;
  double conflict_factor() const {
    return summary.ideal_wavefronts ? double(summary.wavefronts) / double(summary.ideal_wavefronts) : 1.0;
  }
};

// Throws rt::Error with a message naming the thread and value on bad input.
BankAnalysis analyze_banks(const SmemTile& smem, const BankAccess& access, int element_bits);

}  // namespace tessera::analysis
