#include "tessera/viz/arrange.hpp"

#include "tessera/viz/colors.hpp"
#include "tessera/viz/error.hpp"

namespace tessera::viz {

Diagram side_by_side(std::vector<Panel> panels) {
  Diagram d;
  for (std::size_t i = 0; i < panels.size(); ++i) {
    panels[i].slot_row = 0;
    panels[i].slot_col = static_cast<int>(i);
    d.panels.push_back(std::move(panels[i]));
  }
  apply_colors(d);
  return d;
}

Diagram grid_of(std::vector<Panel> panels, int columns) {
  if (columns < 1) throw Error("grid_of: at least one column");
  Diagram d;
  for (std::size_t i = 0; i < panels.size(); ++i) {
    panels[i].slot_row = static_cast<int>(i / static_cast<std::size_t>(columns));
    panels[i].slot_col = static_cast<int>(i % static_cast<std::size_t>(columns));
    d.panels.push_back(std::move(panels[i]));
  }
  apply_colors(d);
  return d;
}

Diagram mma_arrangement(Panel a, Panel b, Panel c) {
  if (a.rows.count != c.rows.count || b.cols.count != c.cols.count || a.cols.count != b.rows.count)
    throw Error("MMA panels do not fit: A is " + std::to_string(a.rows.count) + "x" + std::to_string(a.cols.count) +
                ", B " + std::to_string(b.rows.count) + "x" + std::to_string(b.cols.count) + ", C " +
                std::to_string(c.rows.count) + "x" + std::to_string(c.cols.count) + " (want MxK, KxN, MxN)");
  b.slot_row = 0; b.slot_col = 1; b.align_bottom = true;
  a.slot_row = 1; a.slot_col = 0; a.align_right = true;
  c.slot_row = 1; c.slot_col = 1;
  Diagram d;
  d.panels.push_back(std::move(a));
  d.panels.push_back(std::move(b));
  d.panels.push_back(std::move(c));
  apply_colors(d);
  return d;
}

TvTile transposed(const TvTile& t) {
  TvTile r;
  r.text = t.text + " transposed";
  r.row_shape = t.col_shape;
  r.col_shape = t.row_shape;
  auto index = t.index;
  r.index = [index](std::int64_t k, std::int64_t n) { return index(n, k); };
  return r;
}

Diagram diff_diagram(Panel expected, Panel actual, std::int64_t* mismatches) {
  if (expected.rows.count != actual.rows.count || expected.cols.count != actual.cols.count)
    throw Error("cannot compare a " + std::to_string(expected.rows.count) + "x" +
                std::to_string(expected.cols.count) + " panel with a " + std::to_string(actual.rows.count) + "x" +
                std::to_string(actual.cols.count) + " one");
  std::int64_t n = 0;
  for (std::int64_t r = 0; r < actual.rows.count; ++r)
    for (std::int64_t c = 0; c < actual.cols.count; ++c) {
      const Cell& e = expected.at(r, c);
      Cell& a = actual.at(r, c);
      const bool same = e.present == a.present && (!e.present || (e.label == a.label && e.label2 == a.label2));
      if (!same) {
        a.highlight = Highlight::mismatch;
        // An absent cell still needs to be drawn to show the mismatch.
        if (!a.present) { a.present = true; a.label = "-"; }
        a.tooltip += " (expected " + (e.present ? e.label + (e.label2.empty() ? "" : " " + e.label2) : "nothing") + ")";
        ++n;
      }
    }
  if (mismatches) *mismatches = n;
  // The '!' marks widen cells: size the text table to its labels.
  expected.text_fixed_width = actual.text_fixed_width = false;
  Diagram d = side_by_side({std::move(expected), std::move(actual)});
  d.notes.push_back(n == 0 ? "no mismatches"
                           : std::to_string(n) + " mismatching cell(s): red, with the expected value in the tooltip");
  return d;
}

}  // namespace tessera::viz
