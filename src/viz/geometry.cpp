#include "tessera/viz/geometry.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace tessera::viz {

namespace {
double text_w(const Style& s, double font, std::size_t chars) { return s.char_w * font * static_cast<double>(chars); }
}  // namespace

double line_width(int level, bool edge) {
  const double w = std::min(0.75 + 1.0 * level, 4.75);
  return edge ? std::max(w, 2.0) : w;
}

std::vector<GridLine> grid_lines(const Panel& p, bool heatmap) {
  std::vector<GridLine> lines;
  // A heatmap keeps its frame and the mode boundaries, thinner; no line per cell.
  auto add = [&](bool horizontal, std::int64_t i, int level, bool edge) {
    if (!heatmap) lines.push_back({horizontal, i, line_width(level, edge)});
    else if (edge) lines.push_back({horizontal, i, 1.5});
    else if (level > 0) lines.push_back({horizontal, i, std::min(0.25 + 0.5 * level, 2.0)});
  };
  for (std::int64_t r = 0; r <= p.rows.count; ++r) add(true, r, p.rows.level_at(r), r == 0 || r == p.rows.count);
  for (std::int64_t c = 0; c <= p.cols.count; ++c) add(false, c, p.cols.level_at(c), c == 0 || c == p.cols.count);
  std::stable_sort(lines.begin(), lines.end(), [](const GridLine& a, const GridLine& b) { return a.width < b.width; });
  return lines;
}

std::vector<RegionEdge> region_edges(const Panel& p) {
  std::vector<RegionEdge> out;
  // 0: same region, 1: another warp, 2: another atom.
  auto kind = [](const Cell& a, const Cell& b) {
    if (!a.present || !b.present) return 0;
    if (a.atom != Cell::kNone && b.atom != Cell::kNone && a.atom != b.atom) return 2;
    if (a.warp() != Cell::kNone && b.warp() != Cell::kNone && a.warp() != b.warp()) return 1;
    return 0;
  };
  auto scan = [&](bool horizontal, std::int64_t lines, std::int64_t along) {
    for (std::int64_t i = 1; i < lines; ++i) {
      int run = 0;
      std::int64_t start = 0;
      for (std::int64_t j = 0; j <= along; ++j) {
        int k = 0;
        if (j < along)
          k = horizontal ? kind(p.at(i - 1, j), p.at(i, j)) : kind(p.at(j, i - 1), p.at(j, i));
        if (k != run) {
          if (run) out.push_back({horizontal, i, start, j, run == 2});
          run = k;
          start = j;
        }
      }
    }
  };
  scan(true, p.rows.count, p.cols.count);
  scan(false, p.cols.count, p.rows.count);
  return out;
}

namespace {
// heat_side: the longest side of a heatmap's grid of slots, in units.
Geometry geometry_of(const Diagram& d, const Style& s, bool heat, double heat_side = 640) {
  Geometry g;
  g.style = s;
  const std::size_t n = d.panels.size();
  g.panels.resize(n);

  // Cells are one size across the whole diagram, row headers one width per slot
  // column and heads (titles + column headers) one height per slot row: so an MMA's
  // A lines up with C row by row, B with C column by column, a diff cell by cell.
  std::size_t label_chars = 1, col_hdr_chars = 0;
  bool two = false;
  int slot_rows = 0, slot_cols = 0;
  g.heatmap = heat;
  std::int64_t extent = 1;  // the longest side of any panel, in cells
  for (const Panel& p : d.panels) {
    if (!heat)
      for (const Cell& c : p.cells) {
        label_chars = std::max({label_chars, c.label.size(), c.label2.size()});
        two = two || !c.label2.empty();
      }
    for (const std::string& h : p.cols.headers) col_hdr_chars = std::max(col_hdr_chars, h.size());
    slot_rows = std::max(slot_rows, p.slot_row + 1);
    slot_cols = std::max(slot_cols, p.slot_col + 1);
  }
  // The longest side of the grid of slots, in cells (panels side by side add up): a heatmap
  // of several panels (an MMA's A, B and C) then fits the page as one of a single panel does.
  {
    std::vector<std::int64_t> slot_w(static_cast<std::size_t>(slot_cols), 0), slot_h(static_cast<std::size_t>(slot_rows), 0);
    for (const Panel& p : d.panels) {
      auto& w = slot_w[static_cast<std::size_t>(p.slot_col)];
      auto& h = slot_h[static_cast<std::size_t>(p.slot_row)];
      w = std::max(w, p.cols.count);
      h = std::max(h, p.rows.count);
    }
    std::int64_t sw = 0, sh = 0;
    for (std::int64_t w : slot_w) sw += w;
    for (std::int64_t h : slot_h) sh += h;
    extent = std::max({extent, sw, sh});
  }
  double cell_w = std::max({s.min_cell_w, std::ceil(text_w(s, s.cell_font, label_chars) + 10),
                            std::ceil(text_w(s, s.header_font, col_hdr_chars) + 6)});
  double cell_h = two ? s.cell_h2 : s.cell_h1;
  std::int64_t tick_step = 1;
  if (heat) {
    // Square cells, the longest side about 640 units (A3 holds a diagram of several panels);
    // ticks every 1, 2, 4, 8, ... cells, far enough apart for their labels.
    cell_w = cell_h = std::clamp(heat_side / static_cast<double>(extent), 1.0, 16.0);
    const double label_w = text_w(s, s.header_font, std::max<std::size_t>(col_hdr_chars, 1)) + 8;
    while (static_cast<double>(tick_step) * cell_w < std::max(label_w, s.header_font + 4)) tick_step *= 2;
  }
  const auto R = static_cast<std::size_t>(slot_rows), C = static_cast<std::size_t>(slot_cols);
  std::vector<double> row_hdr_w(C, 0), head_h(R, 0), own_head(n, 0), title_w(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const Panel& p = d.panels[i];
    std::size_t chars = 0;
    for (const std::string& h : p.rows.headers) chars = std::max(chars, h.size());
    const double w = chars ? std::ceil(text_w(s, s.header_font, chars) + 10) : 0;
    auto& rw = row_hdr_w[static_cast<std::size_t>(p.slot_col)];
    rw = std::max(rw, w);
    double h = p.cols.headers.empty() ? 0 : 16;
    if (!p.title.empty()) h += s.panel_title_font + 4;
    if (!p.subtitle.empty()) h += s.header_font + 4;
    if (!p.title.empty() || !p.subtitle.empty()) h += 4;
    own_head[i] = h;
    auto& hh = head_h[static_cast<std::size_t>(p.slot_row)];
    hh = std::max(hh, h);
    title_w[i] = std::max(text_w(s, s.panel_title_font, p.title.size()), text_w(s, s.header_font, p.subtitle.size()));
  }

  // Blocks (header column + grid, head row + grid) and their slots.
  std::vector<double> col_w(C, 0), row_h(R, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const Panel& p = d.panels[i];
    PanelBox& b = g.panels[i];
    const auto sc = static_cast<std::size_t>(p.slot_col), sr = static_cast<std::size_t>(p.slot_row);
    b.cell_w = cell_w;
    b.cell_h = cell_h;
    b.heatmap = heat;
    b.tick_step = tick_step;
    b.width = std::ceil(std::max(row_hdr_w[sc] + static_cast<double>(p.cols.count) * cell_w, title_w[i]));
    b.height = head_h[sr] + static_cast<double>(p.rows.count) * cell_h;
    col_w[sc] = std::max(col_w[sc], b.width);
    row_h[sr] = std::max(row_h[sr], b.height);
  }
  double top = s.margin;
  double content_w = 0;
  if (!d.title.empty()) {
    g.title_y = top + s.title_font;
    top += s.title_font + 10;
    content_w = text_w(s, s.title_font, d.title.size());
  }
  std::vector<double> col_x(C), row_y(R);
  double x = s.margin;
  for (std::size_t c = 0; c < C; ++c) { col_x[c] = x; x += col_w[c] + (col_w[c] > 0 ? s.panel_gap : 0); }
  double y = top;
  for (std::size_t r = 0; r < R; ++r) { row_y[r] = y; y += row_h[r] + (row_h[r] > 0 ? s.panel_gap : 0); }
  double slots_w = x - s.margin, slots_h = y - top;
  if (n > 0) { slots_w -= s.panel_gap; slots_h -= s.panel_gap; }
  for (std::size_t i = 0; i < n; ++i) {
    const Panel& p = d.panels[i];
    PanelBox& b = g.panels[i];
    const auto sc = static_cast<std::size_t>(p.slot_col), sr = static_cast<std::size_t>(p.slot_row);
    b.x = col_x[sc] + (p.align_right ? col_w[sc] - b.width : 0);
    b.y = row_y[sr] + (p.align_bottom ? row_h[sr] - b.height : 0);
    b.grid_x = p.align_right ? b.x + b.width - static_cast<double>(p.cols.count) * cell_w : b.x + row_hdr_w[sc];
    b.grid_y = b.y + head_h[sr];
    // Titles sit right above this panel's own column headers.
    double ty = b.grid_y - own_head[i];
    if (!p.title.empty()) { ty += s.panel_title_font + 4; b.title_y = ty - 4; }
    if (!p.subtitle.empty()) { ty += s.header_font + 4; b.subtitle_y = ty - 4; }
  }
  double bottom = top + std::max(slots_h, 0.0);
  const Legend& L = d.legend;
  if (!L.empty()) {
    LegendBox& lb = g.legend;
    bottom += 8;
    if (!L.title.empty()) {
      bottom += s.header_font + 4;
      lb.title_y = bottom;
      content_w = std::max(content_w, text_w(s, s.header_font, L.title.size()));
    }
    const double wrap = std::max(slots_w, 420.0);
    double x = s.margin, row = bottom + 6;
    for (const LegendItem& it : L.items) {
      const double w = lb.swatch + 4 + text_w(s, s.header_font, it.label.size()) + 12;
      if (x > s.margin && x + w > s.margin + wrap) {
        x = s.margin;
        row += lb.swatch + 6;
      }
      lb.swatches.push_back({x, row});
      content_w = std::max(content_w, x + w - 12 - s.margin);
      x += w;
    }
    if (!L.items.empty()) bottom = row + lb.swatch;
    for (const std::string& line : L.lines) {
      bottom += s.header_font + 6;
      lb.line_y.push_back(bottom);
      content_w = std::max(content_w, text_w(s, s.header_font, line.size()));
    }
  }
  for (const std::string& note : d.notes) {
    bottom += s.header_font + 6;
    g.note_y.push_back(bottom);
    content_w = std::max(content_w, text_w(s, s.header_font, note.size()));
  }
  content_w = std::max(content_w, slots_w);
  g.width = std::ceil(content_w + 2 * s.margin);
  g.height = std::ceil(bottom + s.margin);
  return g;
}
}  // namespace

std::vector<FillRect> fill_rects(const Panel& p) {
  std::vector<FillRect> rects;
  // (c0,c1) -> the rectangle of that run ending at the previous row
  std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> open, next;
  for (std::int64_t r = 0; r < p.rows.count; ++r) {
    next.clear();
    for (std::int64_t c = 0; c < p.cols.count;) {
      const Cell& cell = p.at(r, c);
      const Rgb fill = cell.present ? effective_fill(cell) : white;
      std::int64_t e = c + 1;
      while (e < p.cols.count && p.at(r, e).present == cell.present &&
             (!cell.present || effective_fill(p.at(r, e)) == fill))
        ++e;
      if (cell.present && fill != white) {
        const auto key = std::make_pair(c, e);
        const auto it = open.find(key);
        if (it != open.end() && rects[it->second].fill == fill) {
          rects[it->second].r1 = r + 1;
          next[key] = it->second;
        } else {
          rects.push_back({c, e, r, r + 1, fill});
          next[key] = rects.size() - 1;
        }
      }
      c = e;
    }
    std::swap(open, next);
  }
  return rects;
}

bool fits_page(const Geometry& g, double short_side, double long_side) {
  const double lo = std::min(g.width, g.height), hi = std::max(g.width, g.height);
  return lo <= short_side && hi <= long_side;
}
bool fits_a3(const Geometry& g) { return fits_page(g, a3_short_side, a3_long_side); }

Geometry compute_geometry(const Diagram& d, const Style& s) {
  Geometry g = geometry_of(d, s, d.heatmap());
  // Labelled cells past A1 (so that printed on A3 their labels would shrink below half)
  // become a heatmap too (--labels keeps them): a 64-row SM90 fragment, for one.
  if (d.density == Density::automatic && !g.heatmap && !fits_page(g, 2 * a3_short_side, 2 * a3_long_side))
    g = geometry_of(d, s, true);
  // A heatmap whose titles, legend and notes push the page past A3: smaller cells.
  for (double side = 560; g.heatmap && !fits_a3(g) && side >= 320; side -= 80) g = geometry_of(d, s, true, side);
  return g;
}

}  // namespace tessera::viz
