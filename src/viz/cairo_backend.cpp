#include "tessera/viz/cairo_backend.hpp"

#include <cairo-pdf.h>
#include <cairo.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "tessera/viz/backends.hpp"
#include "tessera/viz/geometry.hpp"
#include "tessera/viz/output.hpp"

namespace tessera::viz {

namespace {
void set(cairo_t* cr, Rgb c) { cairo_set_source_rgb(cr, c.r / 255.0, c.g / 255.0, c.b / 255.0); }

enum class Anchor { start, middle, end };

void text(cairo_t* cr, double x, double y, double size, Anchor a, Rgb color, const std::string& text_in,
          bool bold = false) {
  if (text_in.empty()) return;
  const std::string s = drawable_text(text_in);
  cairo_select_font_face(cr, bold ? "sans-serif" : "monospace", CAIRO_FONT_SLANT_NORMAL,
                         bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, size);
  cairo_text_extents_t e;
  cairo_text_extents(cr, s.c_str(), &e);
  double dx = 0;
  if (a == Anchor::middle) dx = -(e.x_bearing + e.width / 2);
  if (a == Anchor::end) dx = -(e.x_bearing + e.width);
  set(cr, color);
  cairo_move_to(cr, x + dx, y);
  cairo_show_text(cr, s.c_str());
}

void draw(cairo_t* cr, const Diagram& d, const Geometry& g) {
  const Style& s = g.style;
  const Rgb grey{0x44, 0x44, 0x44};
  set(cr, white);
  cairo_paint(cr);
  if (!d.title.empty()) text(cr, s.margin, g.title_y, s.title_font, Anchor::start, black, d.title, true);
  for (std::size_t i = 0; i < d.panels.size(); ++i) {
    const Panel& p = d.panels[i];
    const PanelBox& b = g.panels[i];
    if (!p.title.empty()) text(cr, b.x, b.title_y, s.panel_title_font, Anchor::start, black, p.title, true);
    if (!p.subtitle.empty()) text(cr, b.x, b.subtitle_y, s.header_font, Anchor::start, grey, p.subtitle);
    for (std::size_t c = 0; c < p.cols.headers.size(); ++c)
      if (b.shows_header(static_cast<std::int64_t>(c))) text(cr, b.cell_x(static_cast<std::int64_t>(c)) + b.cell_w / 2, b.grid_y - 5, s.header_font, Anchor::middle,
           grey, p.cols.headers[c]);
    for (std::size_t r = 0; r < p.rows.headers.size(); ++r)
      if (b.shows_header(static_cast<std::int64_t>(r))) text(cr, b.grid_x - 5, b.cell_y(static_cast<std::int64_t>(r)) + b.cell_h / 2 + s.header_font * 0.35,
           s.header_font, Anchor::end, grey, p.rows.headers[r]);
    // A heatmap is one image, a pixel per cell, scaled up without smoothing: one paint
    // instead of a fill per cell (a 256x256 tile draws in milliseconds, PDFs stay small).
    if (b.heatmap) {
      const int w = static_cast<int>(p.cols.count), h = static_cast<int>(p.rows.count);
      cairo_surface_t* img = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
      cairo_surface_flush(img);
      unsigned char* data = cairo_image_surface_get_data(img);
      const int stride = cairo_image_surface_get_stride(img);
      for (int r = 0; r < h; ++r) {
        auto* row = reinterpret_cast<std::uint32_t*>(data + static_cast<std::ptrdiff_t>(r) * stride);
        for (int c = 0; c < w; ++c) {
          const Cell& cell = p.at(r, c);
          const Rgb f = effective_fill(cell);
          row[c] = 0xFF000000u | (std::uint32_t{f.r} << 16) | (std::uint32_t{f.g} << 8) | f.b;
        }
      }
      cairo_surface_mark_dirty(img);
      cairo_save(cr);
      cairo_translate(cr, b.grid_x, b.grid_y);
      cairo_scale(cr, b.cell_w, b.cell_h);
      cairo_set_source_surface(cr, img, 0, 0);
      cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST);
      cairo_rectangle(cr, 0, 0, w, h);
      cairo_fill(cr);
      cairo_restore(cr);
      cairo_surface_destroy(img);
    }
    for (std::int64_t r = 0; r < p.rows.count && !b.heatmap; ++r)
      for (std::int64_t c = 0; c < p.cols.count; ++c) {
        const Cell& cell = p.at(r, c);
        if (!cell.present) continue;
        const double x = b.cell_x(c), y = b.cell_y(r);
        const Rgb fill = effective_fill(cell);
        set(cr, fill);
        cairo_rectangle(cr, x, y, b.cell_w, b.cell_h);
        cairo_fill(cr);
        const Rgb tc = text_color_for(fill);
        if (cell.label2.empty()) {
          text(cr, x + b.cell_w / 2, y + b.cell_h / 2 + s.cell_font * 0.35, s.cell_font, Anchor::middle, tc, cell.label);
        } else {
          text(cr, x + b.cell_w / 2, y + b.cell_h / 2 - 2, s.cell_font, Anchor::middle, tc, cell.label);
          text(cr, x + b.cell_w / 2, y + b.cell_h / 2 + s.cell_font - 1, s.cell_font, Anchor::middle, tc, cell.label2);
        }
      }
    set(cr, black);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_SQUARE);
    const double x0 = b.grid_x, y0 = b.grid_y, x1 = b.cell_x(p.cols.count), y1 = b.cell_y(p.rows.count);
    for (const GridLine& l : grid_lines(p, b.heatmap)) {
      cairo_set_line_width(cr, l.width);
      if (l.horizontal) {
        cairo_move_to(cr, x0, b.cell_y(l.index));
        cairo_line_to(cr, x1, b.cell_y(l.index));
      } else {
        cairo_move_to(cr, b.cell_x(l.index), y0);
        cairo_line_to(cr, b.cell_x(l.index), y1);
      }
      cairo_stroke(cr);
    }
    for (const RegionEdge& e : region_edges(p)) {
      set(cr, e.atom ? black : warp_edge_color);
      cairo_set_line_width(cr, region_edge_width(e.atom, b.heatmap));
      if (e.horizontal) {
        cairo_move_to(cr, b.cell_x(e.from), b.cell_y(e.index));
        cairo_line_to(cr, b.cell_x(e.to), b.cell_y(e.index));
      } else {
        cairo_move_to(cr, b.cell_x(e.index), b.cell_y(e.from));
        cairo_line_to(cr, b.cell_x(e.index), b.cell_y(e.to));
      }
      cairo_stroke(cr);
    }
    const double hw = highlight_width(b);
    cairo_set_line_width(cr, hw);
    for (std::int64_t r = 0; r < p.rows.count; ++r)
      for (std::int64_t c = 0; c < p.cols.count; ++c) {
        const Cell& cell = p.at(r, c);
        if (cell.highlight == Highlight::none) continue;
        set(cr, highlight_stroke(cell.highlight));
        cairo_rectangle(cr, b.cell_x(c) + hw / 2, b.cell_y(r) + hw / 2, b.cell_w - hw, b.cell_h - hw);
        cairo_stroke(cr);
      }
  }
  const LegendBox& lb = g.legend;
  if (lb.title_y > 0) text(cr, s.margin, lb.title_y, s.header_font, Anchor::start, black, d.legend.title);
  for (std::size_t k = 0; k < d.legend.items.size(); ++k) {
    const auto& sw = lb.swatches[k];
    set(cr, d.legend.items[k].color);
    cairo_rectangle(cr, sw.x, sw.y, lb.swatch, lb.swatch);
    cairo_fill_preserve(cr);
    set(cr, Rgb{0x44, 0x44, 0x44});
    cairo_set_line_width(cr, 0.5);
    cairo_stroke(cr);
    text(cr, sw.label_x(), sw.y + lb.label_dy, s.header_font, Anchor::start, black, d.legend.items[k].label);
  }
  for (std::size_t k = 0; k < d.legend.lines.size(); ++k)
    text(cr, s.margin, lb.line_y[k], s.header_font, Anchor::start, black, d.legend.lines[k]);
  for (std::size_t i = 0; i < d.notes.size(); ++i)
    text(cr, s.margin, g.note_y[i], s.header_font, Anchor::start, black, d.notes[i]);
}

void check(cairo_status_t st, const std::string& what) {
  if (st != CAIRO_STATUS_SUCCESS) throw Error("cannot draw " + what + ": " + cairo_status_to_string(st));
}

// Cairo's stream callback: appends the bytes to the std::string behind `closure`.
cairo_status_t append(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}
}  // namespace

double png_scale_for(const Geometry& g) {
  constexpr double kMaxSide = 32767;
  return std::min({png_scale, std::floor(kMaxSide / g.width * 100) / 100, std::floor(kMaxSide / g.height * 100) / 100});
}

std::string png_document(const Diagram& d) {
  const Geometry g = compute_geometry(d);
  const double scale = png_scale_for(g);
  if (scale < 0.25)
    throw Error("diagram is too large for PNG (" + num(g.width) + "x" + num(g.height) +
                " units; Cairo's side limit is 32767 pixels, labels would be unreadable): use svg or pdf");
  const int w = static_cast<int>(g.width * scale), h = static_cast<int>(g.height * scale);
  cairo_surface_t* surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
  cairo_t* cr = cairo_create(surf);
  cairo_scale(cr, scale, scale);
  draw(cr, d, g);
  const cairo_status_t drawn = cairo_status(cr);
  cairo_destroy(cr);
  cairo_surface_flush(surf);
  std::string png;
  const cairo_status_t written =
      drawn != CAIRO_STATUS_SUCCESS ? drawn : cairo_surface_write_to_png_stream(surf, append, &png);
  cairo_surface_destroy(surf);
  check(written, "PNG");
  return png;
}

std::string pdf_document(const Diagram& d) {
  const Geometry g = compute_geometry(d);
  std::string pdf;
  cairo_surface_t* surf = cairo_pdf_surface_create_for_stream(append, &pdf, g.width, g.height);
  cairo_pdf_surface_set_metadata(surf, CAIRO_PDF_METADATA_CREATOR, "tessera");
  cairo_t* cr = cairo_create(surf);
  draw(cr, d, g);
  cairo_status_t st = cairo_status(cr);
  cairo_destroy(cr);
  cairo_surface_finish(surf);
  if (st == CAIRO_STATUS_SUCCESS) st = cairo_surface_status(surf);
  cairo_surface_destroy(surf);
  check(st, "PDF");
  return pdf;
}

}  // namespace tessera::viz
