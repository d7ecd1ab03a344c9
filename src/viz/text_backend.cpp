#include <algorithm>
#include <string>
#include <vector>

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

// A panel as text: its title, subtitle and table.
std::string panel_text(const Panel& p) {
  std::string out;
  if (!p.title.empty()) out += p.title + "\n";
  if (!p.subtitle.empty()) out += p.subtitle + "\n";
  panel_table(p, out);
  return out;
}

std::vector<std::string> split_lines(const std::string& s) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t nl; (nl = s.find('\n', start)) != std::string::npos; start = nl + 1) lines.push_back(s.substr(start, nl - start));
  return lines;
}

// Blocks of lines next to each other, each padded to its widest line, `gap` spaces apart;
// trailing spaces trimmed.
std::string beside(const std::vector<std::vector<std::string>>& blocks, std::size_t gap) {
  std::size_t height = 0;
  std::vector<std::size_t> width;
  for (const auto& b : blocks) {
    height = std::max(height, b.size());
    std::size_t w = 0;
    for (const auto& l : b) w = std::max(w, l.size());
    width.push_back(w);
  }
  std::string out;
  for (std::size_t r = 0; r < height; ++r) {
    std::string line;
    for (std::size_t i = 0; i < blocks.size(); ++i) {
      const std::string cell = r < blocks[i].size() ? blocks[i][r] : std::string();
      line += (i ? std::string(gap, ' ') : std::string()) + cell + std::string(width[i] - cell.size(), ' ');
    }
    line.erase(line.find_last_not_of(' ') + 1);
    out += line + "\n";
  }
  return out;
}
}  // namespace

std::string to_text(const Diagram& d) {
  std::string out;
  if (!d.title.empty()) out += d.title + "\n";
  constexpr std::size_t gap = 4;
  for (std::size_t i = 0; i < d.panels.size();) {
    // The panels of this slot row (consecutive in the diagram).
    std::size_t j = i + 1;
    if (d.text_side_by_side_width > 0)
      while (j < d.panels.size() && d.panels[j].slot_row == d.panels[i].slot_row) ++j;
    std::vector<std::vector<std::string>> blocks;
    std::size_t total = 0;
    for (std::size_t k = i; k < j; ++k) {
      blocks.push_back(split_lines(panel_text(d.panels[k])));
      std::size_t w = 0;
      for (const auto& l : blocks.back()) w = std::max(w, l.size());
      total += w + (k > i ? gap : 0);
    }
    if (i > 0) out += "\n";
    if (blocks.size() > 1 && total <= static_cast<std::size_t>(d.text_side_by_side_width)) {
      out += beside(blocks, gap);
    } else {
      for (std::size_t k = i; k < j; ++k) out += (k > i ? "\n" : "") + panel_text(d.panels[k]);
    }
    i = j;
  }
  for (const std::string& n : d.notes) out += n + "\n";
  return out;
}

}  // namespace tessera::viz
