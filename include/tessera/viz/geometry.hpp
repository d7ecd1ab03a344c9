// Where everything of a Diagram goes on the page, in one unit shared by every
// graphical backend (SVG px, TikZ/PDF pt; PNG multiplies by its scale). Text
// widths are estimated for a monospace font (0.6 em per character) so that SVG
// and TikZ, which cannot measure text, agree with Cairo.
#pragma once

#include <algorithm>
#include <vector>

#include "tessera/viz/model.hpp"

namespace tessera::viz {

struct Style {
  double margin = 12;
  double panel_gap = 24;
  double cell_font = 11, header_font = 10, panel_title_font = 12, title_font = 14;
  double min_cell_w = 28, cell_h1 = 24, cell_h2 = 32;  // one- and two-label cells
  double char_w = 0.6;                                  // em per monospace character
};

struct PanelBox {
  double x = 0, y = 0, width = 0, height = 0;  // the panel's block: titles, headers, grid
  double title_y = 0, subtitle_y = 0;          // text baselines (0: absent)
  double grid_x = 0, grid_y = 0;               // top-left corner of cell (0,0)
  double cell_w = 0, cell_h = 0;
  // A heatmap: cells carry no labels, headers are tick labels every tick_step indices,
  // and only mode boundaries (level > 0) are drawn inside the grid.
  bool heatmap = false;
  std::int64_t tick_step = 1;
  bool shows_header(std::int64_t i) const { return i % tick_step == 0; }
  double cell_x(std::int64_t c) const { return grid_x + static_cast<double>(c) * cell_w; }
  double cell_y(std::int64_t r) const { return grid_y + static_cast<double>(r) * cell_h; }
};

// The legend below the panels: a title line, swatches in wrapping rows, explanation lines.
struct LegendBox {
  double swatch = 12;               // side of a swatch square
  double title_y = 0;               // baseline of the title (0: none)
  struct Swatch {
    double x = 0, y = 0;            // top-left of the square
    double label_x() const { return x + 16; }
  };
  std::vector<Swatch> swatches;     // one per Legend item
  double label_dy = 10;             // label baseline below a swatch's top
  std::vector<double> line_y;       // baseline of each Legend line
};

struct Geometry {
  Style style;
  bool heatmap = false;
  double width = 0, height = 0;
  double title_y = 0;               // baseline of the diagram title (0: none)
  std::vector<PanelBox> panels;     // one per Diagram::panels entry
  LegendBox legend;
  std::vector<double> note_y;       // baseline of each note line
};

// Labelled cells when they fit an A1 page (1684 x 2382 bp, either way round: on A3 at 50%),
// else a heatmap, whose cells shrink until the page fits A3 (842 x 1191 bp); unless the
// diagram's density says which (--heatmap / --labels).
Geometry compute_geometry(const Diagram& d, const Style& style = {});
inline constexpr double a3_short_side = 842, a3_long_side = 1191;
bool fits_page(const Geometry& g, double short_side, double long_side);
bool fits_a3(const Geometry& g);

// A panel's filled cells as few rectangles: runs of one fill along a row, and equal runs in
// consecutive rows merged into one (cells [c0,c1) x [r0,r1)); white and blank cells left out.
struct FillRect {
  std::int64_t c0 = 0, c1 = 0, r0 = 0, r1 = 0;
  Rgb fill;
};
std::vector<FillRect> fill_rects(const Panel& p);

// Grid line width for a boundary level; outer edges never thinner than 2.
double line_width(int level, bool edge);

// Line-drawing order: thin lines first so thick mode boundaries stay on top.
struct GridLine {
  bool horizontal;
  std::int64_t index;  // row boundary (0..rows) or column boundary (0..cols)
  double width;
};
std::vector<GridLine> grid_lines(const Panel& p, bool heatmap = false);

// A boundary between cells of different warps (or atoms), drawn over the grid: a run of
// cell edges on row boundary `index` (horizontal; columns [from,to)) or column boundary
// `index` (vertical; rows [from,to)).
struct RegionEdge {
  bool horizontal;
  std::int64_t index, from, to;
  bool atom;  // true: between atoms (heavy black), false: between warps of one atom (blue)
};
std::vector<RegionEdge> region_edges(const Panel& p);
inline constexpr Rgb warp_edge_color{0x1F, 0x4F, 0xD0};
inline double region_edge_width(bool atom, bool heatmap = false) {
  return heatmap ? (atom ? 1.5 : 1.0) : (atom ? 4.5 : 2.5);
}
// Outline of a highlighted cell (conflict, mismatch): inset by half its width.
inline double highlight_width(const PanelBox& b) { return b.heatmap ? std::max(0.5, b.cell_w / 4) : 3.0; }

}  // namespace tessera::viz
