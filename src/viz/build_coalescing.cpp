#include "tessera/viz/build_coalescing.hpp"

#include "tessera/viz/build_layout.hpp"
#include "tessera/viz/colors.hpp"
#include "tessera/viz/error.hpp"

namespace tessera::viz {

namespace {
std::int64_t floor_div(std::int64_t a, std::int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
}  // namespace

Diagram coalescing_diagram(const CoalescingTile& t) {
  const std::int64_t rows = rt::product(t.row_shape), cols = rt::product(t.col_shape);
  const std::size_t n_cells = static_cast<std::size_t>(rows * cols);
  if (t.accesses.size() != n_cells || t.excess.size() != n_cells || t.thread.size() != n_cells ||
      t.value.size() != n_cells)
    throw Error("coalescing diagram: per-cell data for " + std::to_string(t.accesses.size()) + " cells, the tile has " +
                std::to_string(n_cells));
  const std::int64_t ebytes = t.element_bits / 8;
  Panel p(rows, cols);
  p.title = t.title;
  p.subtitle = "cell (m,n): element offset, sector s = byte address / 32 (" + std::to_string(t.element_bits) +
               "-bit elements" + (t.base_bytes ? ", base " + std::to_string(t.base_bytes) + " bytes" : "") + ")";
  p.rows.headers = index_headers(rows);
  p.cols.headers = index_headers(cols);
  p.rows.line_level = boundary_levels(mode_tree(t.row_shape));
  p.cols.line_level = boundary_levels(mode_tree(t.col_shape));
  std::int64_t excess = 0, untouched = 0;
  for (std::int64_t m = 0; m < rows; ++m)
    for (std::int64_t n = 0; n < cols; ++n) {
      const std::size_t i = static_cast<std::size_t>(m * cols + n);
      const std::int64_t off = t.offset(m, n);
      Cell& c = p.at(m, n);
      c.present = true;
      c.offset = off;
      c.label = std::to_string(off);
      c.tooltip = "(" + std::to_string(m) + "," + std::to_string(n) + ") offset " + std::to_string(off);
      std::int64_t prod = 0, byte = 0;
      // Untouched cells may lie where no address fits in 64 bits: they go without a sector.
      if (!__builtin_mul_overflow(off, ebytes, &prod) && !__builtin_add_overflow(prod, t.base_bytes, &byte)) {
        c.chunk = floor_div(byte, 32);
        c.label2 = "s" + std::to_string(c.chunk);
        c.tooltip += " byte " + std::to_string(byte) + " sector " + std::to_string(c.chunk) + " line " +
                     std::to_string(floor_div(byte, 128));
      }
      if (t.accesses[i] == 0) {
        c.tooltip += ", not accessed";
        ++untouched;
      } else {
        c.thread = t.thread[i];
        c.value = t.value[i];
        c.tooltip += ", T" + std::to_string(t.thread[i]) + "V" + std::to_string(t.value[i]) +
                     (t.accesses[i] > 1 ? " (accessed " + std::to_string(t.accesses[i]) + " times)" : "");
      }
      if (t.excess[i]) {
        c.highlight = Highlight::conflict;
        c.tooltip += ", in a partly used sector of an instruction over its minimum";
        ++excess;
      }
    }
  Diagram d;
  d.panels.push_back(std::move(p));
  d.natural_color = ColorBy::chunk;
  d.element_bits = t.element_bits;
  d.chunk_name = "32-byte sector (byte address / 32)";
  apply_colors(d);
  d.notes.push_back("s: the 32-byte sector of the cell's first byte");
  d.notes.push_back(excess ? std::to_string(excess) +
                                 " cell(s) in partly used sectors of instructions touching more sectors than the "
                                 "minimum: red outline"
                           : std::string("every instruction touches the minimum number of sectors"));
  if (untouched) d.notes.push_back(std::to_string(untouched) + " cell(s) not accessed");
  return d;
}

Diagram coalescing_diagram(const analysis::GmemTile& gmem, int bits, const analysis::CoalescingAnalysis& a) {
  const std::int64_t rows = gmem.rows();
  return coalescing_diagram(CoalescingTile{gmem.text, gmem.row_shape, gmem.col_shape,
                                           [&gmem, rows](std::int64_t m, std::int64_t n) { return gmem.offset(m + rows * n); },
                                           bits, a.base_bytes, a.cell_accesses, a.cell_excess, a.cell_thread, a.cell_value});
}

}  // namespace tessera::viz
