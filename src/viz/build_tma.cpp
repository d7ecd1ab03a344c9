#include "tessera/viz/build_tma.hpp"

#include <string>

#include "tessera/viz/build_layout.hpp"
#include "tessera/viz/error.hpp"

namespace tessera::viz {

Diagram tma_boxes_diagram(const rt::SwizzledLayout& smem, const tma::Arguments& a) {
  if (smem.layout.rank() != 2)
    throw Error("drawing the boxes needs a rank-2 smem tile; SMEM has rank " + std::to_string(smem.layout.rank()));
  GridFunction g;
  g.title = "TMA boxes {" + std::to_string(a.box_dim[0]) + std::string(a.rank > 1 ? ", " + std::to_string(a.box_dim[1]) : "") +
            (a.rank > 2 ? ", ..." : "") + "} over " + rt::to_string(smem) + " (cell: the copy that fills it)";
  g.row_shape = smem.layout.shape[0];
  g.col_shape = smem.layout.shape[1];
  g.cosize = a.boxes;
  // The box index: dim d's box coordinate, colexicographic over the boxes per dim.
  g.value = [a](std::int64_t row, std::int64_t col) {
    const std::int64_t c[2] = {row, col};
    std::int64_t q = 0, pitch = 1;
    for (int d = 0; d < a.rank; ++d) {
      const int m = a.mode_of_dim[d];
      if (m < 2) q += (c[m] / a.box_dim[d]) * pitch;
      pitch *= a.boxes_per_dim[d];
    }
    return q;
  };
  Diagram diagram;
  diagram.panels.push_back(layout_panel(g));
  return diagram;
}

}  // namespace tessera::viz
