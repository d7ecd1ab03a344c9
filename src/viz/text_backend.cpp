#include <algorithm>

#include "tessera/viz/backends.hpp"

namespace tessera::viz {

namespace {
std::string pad_left(const std::string& s, std::size_t w) {
  return s.size() >= w ? s : std::string(w - s.size(), ' ') + s;
}
bool flagged(const Cell& c) { return c.highlight == Highlight::mismatch || c.highlight == Highlight::conflict; }
std::string cell_text(const Cell& c) {
  if (!c.present) return {};
  return c.label + c.label2 + (flagged(c) ? "!" : "");
}

void panel_table(const Panel& p, std::string& out) {
  std::size_t w = static_cast<std::size_t>(std::max(p.text_min_width, 1));
  if (!p.text_fixed_width)
    for (const Cell& c : p.cells) w = std::max(w, cell_text(c).size());
  // print_layout's cell is "| " + value right-aligned in w + " ": w+3 characters.
  const std::string sep_piece = "+" + std::string(w + 2, '-');
  std::string sep = "    ";
  for (std::int64_t c = 0; c < p.cols.count; ++c) sep += sep_piece;
  sep += "+\n";

  out += "    ";
  for (std::int64_t c = 0; c < p.cols.count; ++c) {
    const std::string h = p.cols.headers.empty() ? "" : p.cols.headers[static_cast<std::size_t>(c)];
    out += "  " + pad_left(h, w) + " ";
  }
  out += "\n";
  for (std::int64_t r = 0; r < p.rows.count; ++r) {
    out += sep;
    const std::string h = p.rows.headers.empty() ? "" : p.rows.headers[static_cast<std::size_t>(r)];
    out += pad_left(h, 2) + "  ";
    for (std::int64_t c = 0; c < p.cols.count; ++c) out += "| " + pad_left(cell_text(p.at(r, c)), w) + " ";
    out += "|\n";
  }
  out += sep;
}
}  // namespace

std::string to_text(const Diagram& d) {
  std::string out;
  if (!d.title.empty()) out += d.title + "\n";
  for (std::size_t i = 0; i < d.panels.size(); ++i) {
    const Panel& p = d.panels[i];
    if (i > 0) out += "\n";
    if (!p.title.empty()) out += p.title + "\n";
    if (!p.subtitle.empty()) out += p.subtitle + "\n";
    panel_table(p, out);
  }
  for (const std::string& n : d.notes) out += n + "\n";
  return out;
}

}  // namespace tessera::viz
