// Builder: a shared-memory tile coloured by bank, with the cells of conflicted accesses
// marked. Cell (m,n) shows the element offset and its bank (32 banks of 4 bytes).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tessera/analysis/banks.hpp"
#include "tessera/rt/layout.hpp"
#include "tessera/viz/model.hpp"

namespace tessera::viz {

struct BankTile {
  std::string title;                       // the smem layout
  rt::IntTuple row_shape, col_shape;       // its two modes
  std::function<std::int64_t(std::int64_t m, std::int64_t n)> offset;  // element offset
  int element_bits = 16;
  std::vector<int> degree;  // row-major per cell: worst bank degree it was accessed with (0: never)
  // Row-major per cell, or empty when unknown: the first (thread, value) accessing it (-1:
  // none) and the threads reaching its bank in that access's phase.
  std::vector<std::int64_t> thread = {}, value = {};
  std::vector<std::vector<std::int64_t>> bank_threads = {};
};

// Conflicted cells (degree > 1) get a heavy red outline and their degree in the tooltip.
Diagram banks_diagram(const BankTile& tile);
// The tile as `a` found it with `bits`-bit elements (`tessera banks -o`, Python's
// banks(...).draw()): every cell with its degree, thread and the threads reaching its bank.
Diagram banks_diagram(const analysis::SmemTile& smem, int bits, const analysis::BankAnalysis& a);

}  // namespace tessera::viz
