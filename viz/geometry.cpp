#include "viz/geometry.hpp"

#include <algorithm>
#include <cmath>

namespace tessera::viz {

namespace {
double text_w(const Style& s, double font, std::size_t chars) { return s.char_w * font * static_cast<double>(chars); }
}  // namespace

double line_width(int level, bool edge) {
  const double w = std::min(0.75 + 1.0 * level, 4.75);
  return edge ? std::max(w, 2.0) : w;
}

std::vector<GridLine> grid_lines(const Panel& p) {
  std::vector<GridLine> lines;
  for (std::int64_t r = 0; r <= p.rows.count; ++r)
    lines.push_back({true, r, line_width(p.rows.level_at(r), r == 0 || r == p.rows.count)});
  for (std::int64_t c = 0; c <= p.cols.count; ++c)
    lines.push_back({false, c, line_width(p.cols.level_at(c), c == 0 || c == p.cols.count)});
  std::stable_sort(lines.begin(), lines.end(), [](const GridLine& a, const GridLine& b) { return a.width < b.width; });
  return lines;
}

Geometry compute_geometry(const Diagram& d, const Style& s) {
  Geometry g;
  g.style = s;
  const std::size_t n = d.panels.size();
  g.panels.resize(n);

  // Panel blocks measured in isolation first.
  int slot_rows = 0, slot_cols = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Panel& p = d.panels[i];
    PanelBox& b = g.panels[i];
    std::size_t label_chars = 1, row_hdr_chars = 0, col_hdr_chars = 0;
    bool two = false;
    for (const Cell& c : p.cells) {
      label_chars = std::max({label_chars, c.label.size(), c.label2.size()});
      two = two || !c.label2.empty();
    }
    for (const std::string& h : p.rows.headers) row_hdr_chars = std::max(row_hdr_chars, h.size());
    for (const std::string& h : p.cols.headers) col_hdr_chars = std::max(col_hdr_chars, h.size());
    b.cell_w = std::max({s.min_cell_w, std::ceil(text_w(s, s.cell_font, label_chars) + 10),
                         std::ceil(text_w(s, s.header_font, col_hdr_chars) + 6)});
    b.cell_h = two ? s.cell_h2 : s.cell_h1;
    const double row_hdr_w = row_hdr_chars ? std::ceil(text_w(s, s.header_font, row_hdr_chars) + 10) : 0;
    const double col_hdr_h = col_hdr_chars ? 16 : 0;
    double y = 0;
    if (!p.title.empty()) { y += s.panel_title_font + 4; b.title_y = y - 4; }
    if (!p.subtitle.empty()) { y += s.header_font + 4; b.subtitle_y = y - 4; }
    if (y > 0) y += 4;
    b.grid_x = row_hdr_w;
    b.grid_y = y + col_hdr_h;
    const double grid_w = row_hdr_w + static_cast<double>(p.cols.count) * b.cell_w;
    const double title_w = std::max(text_w(s, s.panel_title_font, p.title.size()),
                                    text_w(s, s.header_font, p.subtitle.size()));
    b.width = std::ceil(std::max(grid_w, title_w));
    b.height = b.grid_y + static_cast<double>(p.rows.count) * b.cell_h;
    slot_rows = std::max(slot_rows, p.slot_row + 1);
    slot_cols = std::max(slot_cols, p.slot_col + 1);
  }

  // Slots: each column as wide as its widest panel, each row as tall as its tallest.
  std::vector<double> col_w(static_cast<std::size_t>(slot_cols), 0), row_h(static_cast<std::size_t>(slot_rows), 0);
  for (std::size_t i = 0; i < n; ++i) {
    const Panel& p = d.panels[i];
    col_w[static_cast<std::size_t>(p.slot_col)] = std::max(col_w[static_cast<std::size_t>(p.slot_col)], g.panels[i].width);
    row_h[static_cast<std::size_t>(p.slot_row)] = std::max(row_h[static_cast<std::size_t>(p.slot_row)], g.panels[i].height);
  }
  double top = s.margin;
  double content_w = 0;
  if (!d.title.empty()) {
    g.title_y = top + s.title_font;
    top += s.title_font + 10;
    content_w = text_w(s, s.title_font, d.title.size());
  }
  std::vector<double> col_x(col_w.size()), row_y(row_h.size());
  double x = s.margin;
  for (std::size_t c = 0; c < col_w.size(); ++c) { col_x[c] = x; x += col_w[c] + (col_w[c] > 0 ? s.panel_gap : 0); }
  double y = top;
  for (std::size_t r = 0; r < row_h.size(); ++r) { row_y[r] = y; y += row_h[r] + (row_h[r] > 0 ? s.panel_gap : 0); }
  double slots_w = x - s.margin, slots_h = y - top;
  if (n > 0) { slots_w -= s.panel_gap; slots_h -= s.panel_gap; }
  for (std::size_t i = 0; i < n; ++i) {
    const Panel& p = d.panels[i];
    PanelBox& b = g.panels[i];
    const auto sc = static_cast<std::size_t>(p.slot_col), sr = static_cast<std::size_t>(p.slot_row);
    const double ox = col_x[sc] + (p.align_right ? col_w[sc] - b.width : 0);
    const double oy = row_y[sr] + (p.align_bottom ? row_h[sr] - b.height : 0);
    b.x = ox; b.y = oy;
    b.grid_x += ox; b.grid_y += oy;
    if (b.title_y > 0) b.title_y += oy;
    if (b.subtitle_y > 0) b.subtitle_y += oy;
  }
  double bottom = top + std::max(slots_h, 0.0);
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

}  // namespace tessera::viz
