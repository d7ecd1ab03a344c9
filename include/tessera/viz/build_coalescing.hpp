// Builder: a global-memory tile coloured by 32-byte sector, with the cells whose accesses
// lie in partly used sectors of over-minimum instructions marked (tessera gmem -o).
// Cell (m,n) shows the element offset and its sector floor(byte address / 32).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tessera/analysis/coalescing.hpp"
#include "tessera/rt/layout.hpp"
#include "tessera/viz/model.hpp"

namespace tessera::viz {

struct CoalescingTile {
  std::string title;                  // the gmem layout
  rt::IntTuple row_shape, col_shape;  // its two modes
  std::function<std::int64_t(std::int64_t m, std::int64_t n)> offset;  // element offset
  int element_bits = 16;
  std::int64_t base_bytes = 0;  // byte address = offset * element bytes + base
  // Row-major per cell: times accessed, whether an access lies in a partly used sector of an
  // instruction touching more sectors than its minimum, first (thread, value) (-1: none).
  std::vector<std::int64_t> accesses;
  std::vector<bool> excess;
  std::vector<std::int64_t> thread, value;
};

// Excess cells get a heavy red outline; untouched cells stay white under every colouring
// that needs an access (thread, warp, value).
Diagram coalescing_diagram(const CoalescingTile& tile);
// The tile as `a` found it with `bits`-bit elements (`tessera gmem -o`, Python's
// gmem(...).draw()).
Diagram coalescing_diagram(const analysis::GmemTile& gmem, int bits, const analysis::CoalescingAnalysis& a);

}  // namespace tessera::viz
