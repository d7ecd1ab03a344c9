#include "tessera/viz/model.hpp"

#include <array>
#include <cmath>
#include <cstdio>

namespace tessera::viz {

namespace {
// The length of the well-formed UTF-8 character at s[i] (no overlong forms, no surrogates,
// nothing past U+10FFFF), or 0; a control character (C0 but tab and newline, DEL, C1) and
// U+FFFE/U+FFFF, which XML forbids, count as not drawable: 0.
std::size_t drawable_at(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u; };
  const unsigned c = b(0);
  if (c < 0x80) return (c >= 0x20 && c != 0x7f) || c == '\t' || c == '\n' ? 1 : 0;
  auto cont = [&](std::size_t k, unsigned lo = 0x80, unsigned hi = 0xBF) { return b(k) >= lo && b(k) <= hi; };
  if (c >= 0xC2 && c <= 0xDF) return cont(1) && !(c == 0xC2 && b(1) <= 0x9F) ? 2 : 0;  // C1 controls
  if (c == 0xE0) return cont(1, 0xA0) && cont(2) ? 3 : 0;
  if (c == 0xED) return cont(1, 0x80, 0x9F) && cont(2) ? 3 : 0;
  if (c >= 0xE1 && c <= 0xEF) {
    if (!(cont(1) && cont(2))) return 0;
    return c == 0xEF && b(1) == 0xBF && (b(2) == 0xBE || b(2) == 0xBF) ? 0 : 3;  // U+FFFE, U+FFFF
  }
  if (c == 0xF0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (c >= 0xF1 && c <= 0xF3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (c == 0xF4) return cont(1, 0x80, 0x8F) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}
}  // namespace

std::size_t first_undrawable(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = drawable_at(s, i);
    if (n == 0) return i;
    i += n;
  }
  return std::string_view::npos;
}

std::string drawable_text(std::string_view s) {
  if (first_undrawable(s) == std::string_view::npos) return std::string(s);
  std::string o;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = drawable_at(s, i);
    if (n == 0) {
      o += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER
      ++i;
    } else {
      o.append(s, i, n);
      i += n;
    }
  }
  return o;
}

namespace {
double linear(std::uint8_t c) {
  const double v = c / 255.0;
  return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
}

// Chosen in CIE L*C*h: hues spread round the circle, L* alternating high/low so
// that consecutive threads differ by at least 9 L* units even in grey print.
constexpr std::array<Rgb, palette_size> kPalette{{
    {0xFF, 0xEF, 0xCE},  // L* 95 cream
    {0x03, 0x83, 0xC1},  // L* 52 blue
    {0x99, 0xD5, 0x93},  // L* 80 green
    {0x90, 0x34, 0x56},  // L* 36 wine
    {0x84, 0xE8, 0xFF},  // L* 87 sky
    {0x42, 0xA5, 0x79},  // L* 61 teal
    {0xEC, 0x9A, 0x75},  // L* 71 salmon
    {0x69, 0x5F, 0xA5},  // L* 44 violet
}};

void mark_wraps(const ModeTree& node, std::int64_t prefix, bool is_root, std::vector<int>& levels) {
  const std::int64_t total = static_cast<std::int64_t>(levels.size()) - 1;
  if (!is_root && node.extent > 1) {
    const std::int64_t period = prefix * node.extent;
    for (std::int64_t i = 0; i <= total; i += period) levels[static_cast<std::size_t>(i)] += 1;
  }
  std::int64_t p = prefix;
  for (const ModeTree& child : node.children) {
    mark_wraps(child, p, false, levels);
    p *= child.extent;
  }
}
}  // namespace

double luminance(Rgb c) { return 0.2126 * linear(c.r) + 0.7152 * linear(c.g) + 0.0722 * linear(c.b); }

// 0.3 ~ L* 62: the crossover where white and near-black text have similar contrast.
Rgb text_color_for(Rgb fill) { return luminance(fill) < 0.3 ? white : Rgb{0x1A, 0x1A, 0x1A}; }

Rgb palette(std::int64_t i) {
  const std::int64_t k = ((i % palette_size) + palette_size) % palette_size;
  return kPalette[static_cast<std::size_t>(k)];
}

std::string hex(Rgb c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c.r, c.g, c.b);
  return buf;
}

Rgb effective_fill(const Cell& c) {
  if (!c.present) return white;
  return c.highlight == Highlight::mismatch ? mismatch_red : c.fill;
}

Rgb highlight_stroke(Highlight h) {
  switch (h) {
    case Highlight::mismatch: return Rgb{0x7F, 0x00, 0x00};
    case Highlight::conflict: return mismatch_red;
    case Highlight::emphasis: return black;
    case Highlight::none: break;
  }
  return black;
}

ModeTree ModeTree::tuple(std::vector<ModeTree> c) {
  ModeTree t;
  t.extent = 1;
  for (const ModeTree& x : c) t.extent *= x.extent;
  t.children = std::move(c);
  return t;
}

std::vector<int> boundary_levels(const ModeTree& mode) {
  std::vector<int> levels(static_cast<std::size_t>(mode.size() + 1), 0);
  mark_wraps(mode, 1, true, levels);
  return levels;
}

Panel::Panel(std::int64_t nrows, std::int64_t ncols) {
  rows.count = nrows;
  cols.count = ncols;
  cells.resize(static_cast<std::size_t>(nrows * ncols));
}

std::int64_t Diagram::warp_lanes() const {
  for (const Panel& p : panels)
    for (const Cell& c : p.cells)
      if (c.present && c.thread != Cell::kNone) return c.warp_lanes;
  return 32;
}

std::int64_t Diagram::num_cells() const {
  std::int64_t n = 0;
  for (const Panel& p : panels) n += p.num_cells();
  return n;
}

bool Diagram::heatmap() const {
  if (density != Density::automatic) return density == Density::heatmap;
  for (const Panel& p : panels)
    if (p.num_cells() >= heatmap_cells || p.rows.count > heatmap_extent || p.cols.count > heatmap_extent) return true;
  return false;
}

std::vector<std::string> index_headers(std::int64_t n) {
  std::vector<std::string> h;
  h.reserve(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) h.push_back(std::to_string(i));
  return h;
}

}  // namespace tessera::viz
