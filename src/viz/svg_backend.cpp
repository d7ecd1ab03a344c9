#include <cmath>
#include <cstdio>

#include "svg_document.hpp"
#include "tessera/viz/backends.hpp"
#include "tessera/viz/geometry.hpp"

namespace tessera::viz {

std::string num(double v) {
  const double r = std::round(v * 100.0) / 100.0;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", r == 0 ? 0.0 : r);  // no "-0.00"
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

namespace {
std::string xml(const std::string& s) {
  std::string o;
  for (char ch : drawable_text(s)) {
    switch (ch) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      case '\'': o += "&apos;"; break;
      default: o += ch;
    }
  }
  return o;
}

void text(std::string& o, double x, double y, double size, const char* anchor, Rgb color, const std::string& s,
          bool bold = false) {
  o += "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" font-size=\"" + num(size) + "\"";
  if (anchor) o += std::string(" text-anchor=\"") + anchor + "\"";
  if (color != black) o += " fill=\"" + hex(color) + "\"";
  if (bold) o += " font-weight=\"bold\"";
  o += ">" + xml(s) + "</text>\n";
}

void rect(std::string& o, double x, double y, double w, double h, const std::string& attrs) {
  o += "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(w) + "\" height=\"" + num(h) + "\" " + attrs +
       "/>\n";
}
}  // namespace

std::string xml_escape(const std::string& s) { return xml(s); }

namespace {
void data_attr(std::string& o, const char* name, std::int64_t v) {
  if (v != Cell::kNone) o += std::string(" data-") + name + "=\"" + std::to_string(v) + "\"";
}
}  // namespace

std::int64_t page_bank(const Cell& c, int element_bits) {
  if (c.bank != Cell::kNone) return c.bank;
  std::int64_t bits = 0;
  if (c.offset == Cell::kNone || __builtin_mul_overflow(c.offset, static_cast<std::int64_t>(element_bits), &bits))
    return Cell::kNone;
  return ((bits / 32) % 32 + 32) % 32;
}

std::string to_svg(const Diagram& d) { return svg_document(d, SvgOptions{}); }

std::string svg_document(const Diagram& d, const SvgOptions& opt) {
  const Geometry g = compute_geometry(d);
  const Style& s = g.style;
  std::string o;
  o += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  o += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + num(g.width) + "\" height=\"" +
       num(g.height) + "\" viewBox=\"0 0 " + num(g.width) + " " + num(g.height) +
       "\" font-family=\"DejaVu Sans Mono,Menlo,Consolas,monospace\">\n";
  rect(o, 0, 0, g.width, g.height, "fill=\"#ffffff\"");
  if (!d.title.empty()) text(o, s.margin, g.title_y, s.title_font, nullptr, black, d.title, true);

  for (std::size_t i = 0; i < d.panels.size(); ++i) {
    const Panel& p = d.panels[i];
    const PanelBox& b = g.panels[i];
    if (opt.interactive) {
      // A nested viewport per panel: the page zooms and pans each one through its viewBox.
      const std::string box = num(b.x - 4) + " " + num(b.y - 4) + " " + num(b.width + 8) + " " + num(b.height + 8);
      o += "<svg class=\"panel\" id=\"panel" + std::to_string(i) + "\" x=\"" + num(b.x - 4) + "\" y=\"" +
           num(b.y - 4) + "\" width=\"" + num(b.width + 8) + "\" height=\"" + num(b.height + 8) + "\" viewBox=\"" +
           box + "\" data-box=\"" + box + "\">\n";
    } else {
      o += "<g class=\"panel\" id=\"panel" + std::to_string(i) + "\">\n";
    }
    if (!p.title.empty()) text(o, b.x, b.title_y, s.panel_title_font, nullptr, black, p.title, true);
    if (!p.subtitle.empty()) text(o, b.x, b.subtitle_y, s.header_font, nullptr, Rgb{0x44, 0x44, 0x44}, p.subtitle);
    for (std::size_t c = 0; c < p.cols.headers.size(); ++c)
      if (b.shows_header(static_cast<std::int64_t>(c))) text(o, b.cell_x(static_cast<std::int64_t>(c)) + b.cell_w / 2, b.grid_y - 5, s.header_font, "middle",
           Rgb{0x44, 0x44, 0x44}, p.cols.headers[c]);
    for (std::size_t r = 0; r < p.rows.headers.size(); ++r)
      if (b.shows_header(static_cast<std::int64_t>(r))) text(o, b.grid_x - 5, b.cell_y(static_cast<std::int64_t>(r)) + b.cell_h / 2 + s.header_font * 0.35,
           s.header_font, "end", Rgb{0x44, 0x44, 0x44}, p.rows.headers[r]);

    // A plain SVG heatmap: its fills as few rectangles (fill_rects), no per-cell tooltip, so
    // that a 64x256 tile stays a small file (-f html keeps every cell to explore).
    if (b.heatmap && !opt.interactive)
      for (const FillRect& q : fill_rects(p))
        rect(o, b.cell_x(q.c0), b.cell_y(q.r0), b.cell_x(q.c1) - b.cell_x(q.c0), b.cell_y(q.r1) - b.cell_y(q.r0),
             "fill=\"" + hex(q.fill) + "\"");
    const bool canvas = opt.interactive && opt.cells == CellLayer::canvas;
    if (canvas) {
      o += "<foreignObject class=\"cells\" data-p=\"" + std::to_string(i) + "\" data-rows=\"" + std::to_string(p.rows.count) +
           "\" data-cols=\"" + std::to_string(p.cols.count) + "\" x=\"" + num(b.grid_x) + "\" y=\"" + num(b.grid_y) +
           "\" width=\"" + num(b.cell_x(p.cols.count) - b.grid_x) + "\" height=\"" + num(b.cell_y(p.rows.count) - b.grid_y) +
           "\"><canvas width=\"" + std::to_string(p.cols.count) + "\" height=\"" +
           std::to_string(p.rows.count) + "\"></canvas></foreignObject>\n<g class=\"labels\">\n";
      for (std::int64_t r = 0; r < p.rows.count && !b.heatmap; ++r)
        for (std::int64_t c = 0; c < p.cols.count; ++c) {
          const Cell& cell = p.at(r, c);
          if (!cell.present) continue;
          const double x = b.cell_x(c), y = b.cell_y(r);
          const Rgb tc = text_color_for(effective_fill(cell));
          if (cell.label2.empty()) {
            text(o, x + b.cell_w / 2, y + b.cell_h / 2 + s.cell_font * 0.35, s.cell_font, "middle", tc, cell.label);
          } else {
            text(o, x + b.cell_w / 2, y + b.cell_h / 2 - 2, s.cell_font, "middle", tc, cell.label);
            text(o, x + b.cell_w / 2, y + b.cell_h / 2 + s.cell_font - 1, s.cell_font, "middle", tc, cell.label2);
          }
        }
      o += "</g>\n<path class=\"hover-thread\" fill=\"none\" stroke=\"#000000\" stroke-width=\"3\"/>\n"
           "<path class=\"hover-pair\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"4\"/>\n";
    }
    for (std::int64_t r = 0; r < p.rows.count && !(b.heatmap && !opt.interactive) && !canvas; ++r) {
      for (std::int64_t c = 0; c < p.cols.count; ++c) {
        const Cell& cell = p.at(r, c);
        if (!cell.present && cell.tooltip.empty()) continue;
        const double x = b.cell_x(c), y = b.cell_y(r);
        const Rgb fill = effective_fill(cell);
        if (opt.interactive) {
          o += "<g class=\"cell\" data-p=\"" + std::to_string(i) + "\" data-r=\"" + std::to_string(r) + "\" data-c=\"" +
               std::to_string(c) + "\"";
          if (cell.present) {
            data_attr(o, "t", cell.thread);
            data_attr(o, "v", cell.value);
            data_attr(o, "w", cell.warp());
            data_attr(o, "o", cell.offset);
            data_attr(o, "x", cell.box);
            // A panel with offsets of its own (an MMA's smem operand: bytes of its buffer)
            // matches offsets only within itself when hovered.
            if (!p.offset_name.empty()) data_attr(o, "s", static_cast<std::int64_t>(i));
            data_attr(o, "b", page_bank(cell, d.element_bits));
          }
          o += ">";
        } else {
          o += "<g>";
        }
        if (!cell.tooltip.empty()) o += "<title>" + xml(cell.tooltip) + "</title>";
        o += "\n";
        rect(o, x, y, b.cell_w, b.cell_h, "fill=\"" + hex(fill) + "\"");
        if (cell.present && !b.heatmap) {
          const Rgb tc = text_color_for(fill);
          if (cell.label2.empty()) {
            text(o, x + b.cell_w / 2, y + b.cell_h / 2 + s.cell_font * 0.35, s.cell_font, "middle", tc, cell.label);
          } else {
            text(o, x + b.cell_w / 2, y + b.cell_h / 2 - 2, s.cell_font, "middle", tc, cell.label);
            text(o, x + b.cell_w / 2, y + b.cell_h / 2 + s.cell_font - 1, s.cell_font, "middle", tc, cell.label2);
          }
        }
        o += "</g>\n";
      }
    }

    const double x0 = b.grid_x, y0 = b.grid_y;
    const double x1 = b.cell_x(p.cols.count), y1 = b.cell_y(p.rows.count);
    for (const GridLine& l : grid_lines(p, b.heatmap)) {
      o += "<line ";
      if (l.horizontal) {
        const double y = b.cell_y(l.index);
        o += "x1=\"" + num(x0) + "\" y1=\"" + num(y) + "\" x2=\"" + num(x1) + "\" y2=\"" + num(y) + "\"";
      } else {
        const double x = b.cell_x(l.index);
        o += "x1=\"" + num(x) + "\" y1=\"" + num(y0) + "\" x2=\"" + num(x) + "\" y2=\"" + num(y1) + "\"";
      }
      o += " stroke=\"#000000\" stroke-width=\"" + num(l.width) + "\" stroke-linecap=\"square\"/>\n";
    }
    for (const RegionEdge& e : region_edges(p)) {
      o += "<line ";
      if (e.horizontal)
        o += "x1=\"" + num(b.cell_x(e.from)) + "\" y1=\"" + num(b.cell_y(e.index)) + "\" x2=\"" + num(b.cell_x(e.to)) +
             "\" y2=\"" + num(b.cell_y(e.index)) + "\"";
      else
        o += "x1=\"" + num(b.cell_x(e.index)) + "\" y1=\"" + num(b.cell_y(e.from)) + "\" x2=\"" + num(b.cell_x(e.index)) +
             "\" y2=\"" + num(b.cell_y(e.to)) + "\"";
      o += " stroke=\"" + hex(e.atom ? black : warp_edge_color) + "\" stroke-width=\"" + num(region_edge_width(e.atom, b.heatmap)) +
           "\" stroke-linecap=\"square\"/>\n";
    }
    if (canvas) {
      // The page draws each kind of highlight as one path over the cells it marks.
      bool kinds[4] = {};
      for (const Cell& cell : p.cells) kinds[static_cast<int>(cell.highlight)] = true;
      for (int k = 1; k < 4; ++k)
        if (kinds[k])
          o += "<path class=\"mark\" data-h=\"" + std::to_string(k) + "\" data-inset=\"" + num(highlight_width(b) / 2) +
               "\" fill=\"none\" stroke=\"" + hex(highlight_stroke(static_cast<Highlight>(k))) + "\" stroke-width=\"" +
               num(highlight_width(b)) + "\"/>\n";
    }
    for (std::int64_t r = 0; r < p.rows.count && !canvas; ++r) {
      for (std::int64_t c = 0; c < p.cols.count; ++c) {
        const Cell& cell = p.at(r, c);
        if (cell.highlight == Highlight::none) continue;
        const Rgb stroke = highlight_stroke(cell.highlight);
        const double hw = highlight_width(b);
        rect(o, b.cell_x(c) + hw / 2, b.cell_y(r) + hw / 2, b.cell_w - hw, b.cell_h - hw,
             "fill=\"none\" stroke=\"" + hex(stroke) + "\" stroke-width=\"" + num(hw) + "\"");
      }
    }
    o += opt.interactive ? "</svg>\n" : "</g>\n";
  }
  const LegendBox& lb = g.legend;
  if (!d.legend.empty()) {
    o += "<g class=\"legend\">\n";
    if (lb.title_y > 0) text(o, s.margin, lb.title_y, s.header_font, nullptr, black, d.legend.title);
    for (std::size_t k = 0; k < d.legend.items.size(); ++k) {
      const auto& sw = lb.swatches[k];
      rect(o, sw.x, sw.y, lb.swatch, lb.swatch,
           "fill=\"" + hex(d.legend.items[k].color) + "\" stroke=\"#444444\" stroke-width=\"0.5\"");
      text(o, sw.label_x(), sw.y + lb.label_dy, s.header_font, nullptr, black, d.legend.items[k].label);
    }
    for (std::size_t k = 0; k < d.legend.lines.size(); ++k)
      text(o, s.margin, lb.line_y[k], s.header_font, nullptr, black, d.legend.lines[k]);
    o += "</g>\n";
  }
  for (std::size_t i = 0; i < d.notes.size(); ++i)
    text(o, s.margin, g.note_y[i], s.header_font, nullptr, black, d.notes[i]);
  o += "</svg>\n";
  return o;
}

}  // namespace tessera::viz
