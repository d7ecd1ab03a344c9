#include "tessera/viz/build_tma.hpp"

#include <string>

#include "tessera/viz/build_layout.hpp"
#include "tessera/viz/colors.hpp"
#include "tessera/viz/error.hpp"

namespace tessera::viz {

namespace {

// The TMA box (copy) that fills cell (row, col) of the tile: its index, dim d's box
// coordinate colexicographic over the boxes per dim, and that coordinate ("(1,0)").
struct BoxOf {
  std::int64_t index = 0;
  std::string coord;
};
BoxOf box_of(const tma::Arguments& a, std::int64_t row, std::int64_t col) {
  const std::int64_t c[2] = {row, col};
  BoxOf b;
  std::int64_t pitch = 1;
  for (int d = 0; d < a.rank; ++d) {
    const int m = a.mode_of_dim[d];
    const std::int64_t k = m < 2 ? c[m] / a.box_dim[d] : 0;
    b.index += k * pitch;
    b.coord += (d ? "," : "") + std::to_string(k);
    pitch *= a.boxes_per_dim[d];
  }
  b.coord = "(" + b.coord + ")";
  return b;
}

std::string dims_text(const std::int64_t* v, int n) {
  std::string s;
  for (int d = 0; d < n; ++d) s += (d ? ", " : "") + std::to_string(v[d]);
  return "{" + s + "}";
}

}  // namespace

Diagram tma_boxes_diagram(const rt::SwizzledLayout& smem, int bits, const tma::Arguments& a) {
  if (smem.layout.rank() != 2)
    throw Error("drawing the boxes needs a rank-2 smem tile; SMEM has rank " + std::to_string(smem.layout.rank()));
  const GridFunction g = grid_function(smem);
  Panel p = layout_panel(g);
  p.title = "TMA boxes " + dims_text(a.box_dim, a.rank) + " over " + rt::to_string(smem);
  p.subtitle = std::to_string(a.boxes) + (a.boxes == 1 ? " box" : " boxes") + " per tile, one copy each" +
               (a.boxes > 1 ? " (" + dims_text(a.boxes_per_dim, a.rank) + " per dim)" : "");
  for (std::int64_t r = 0; r < p.rows.count; ++r)
    for (std::int64_t c = 0; c < p.cols.count; ++c) {
      Cell& cell = p.at(r, c);
      const BoxOf b = box_of(a, r, c);
      cell.box = b.index;
      cell.label = std::to_string(b.index);
      cell.tooltip += " (smem offset), box " + std::to_string(b.index) + " (copy " + std::to_string(b.index + 1) +
                      " of " + std::to_string(a.boxes) + ", box coordinate " + b.coord + ")";
    }
  p.text_min_width = static_cast<int>(std::to_string(a.boxes - 1).size());
  Diagram d;
  d.panels.push_back(std::move(p));
  d.natural_color = ColorBy::box;
  d.element_bits = bits;
  d.chunk_elements = g.chunk_elements;
  d.chunk_name = g.chunk_name;
  apply_colors(d);
  d.notes.push_back("cell: the box (one copy) that fills it; its tooltip adds the smem offset");
  return d;
}

}  // namespace tessera::viz
