#include "tessera/viz/colors.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <vector>

#include "tessera/viz/error.hpp"

namespace tessera::viz {

namespace {
constexpr double kPi = 3.14159265358979323846;
constexpr double kGoldenAngle = 137.50776405;
constexpr std::int64_t kNone = Cell::kNone;

double finv(double t) { return t > 6.0 / 29 ? t * t * t : 3 * (6.0 / 29) * (6.0 / 29) * (t - 4.0 / 29); }
double gamma(double v) { return v <= 0.0031308 ? 12.92 * v : 1.055 * std::pow(v, 1 / 2.4) - 0.055; }

// Linear sRGB of L*a*b* (D65); false when outside [0,1].
bool lab_to_linear(double l, double a, double b, double rgb[3]) {
  const double fy = (l + 16) / 116, fx = fy + a / 500, fz = fy - b / 200;
  const double x = 0.95047 * finv(fx), y = finv(fy), z = 1.08883 * finv(fz);
  rgb[0] = 3.2404542 * x - 1.5371385 * y - 0.4985314 * z;
  rgb[1] = -0.9692660 * x + 1.8760108 * y + 0.0415560 * z;
  rgb[2] = 0.0556434 * x - 0.2040259 * y + 1.0572252 * z;
  for (int i = 0; i < 3; ++i)
    if (rgb[i] < -1e-9 || rgb[i] > 1 + 1e-9) return false;
  return true;
}

std::uint8_t byte(double v) { return static_cast<std::uint8_t>(std::lround(std::clamp(gamma(std::clamp(v, 0.0, 1.0)), 0.0, 1.0) * 255)); }

std::int64_t floor_div(std::int64_t a, std::int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
std::int64_t mod(std::int64_t a, std::int64_t b) { return ((a % b) + b) % b; }

// The quantity `by` of a cell (kNone when it has none).
std::int64_t quantity(const Diagram& d, const Cell& c, ColorBy by) {
  const std::int64_t bits = d.element_bits;
  switch (by) {
    case ColorBy::thread: return c.thread;
    case ColorBy::warp: return c.warp();
    case ColorBy::value: return c.value;
    case ColorBy::offset: return c.offset;
    case ColorBy::bank:
      if (c.bank != kNone) return c.bank;
      return c.offset == kNone ? kNone : mod(floor_div(c.offset * bits, 32), 32);
    case ColorBy::chunk:
      if (c.chunk != kNone) return c.chunk;
      if (c.offset == kNone) return kNone;
      return d.chunk_elements > 0 ? floor_div(c.offset, d.chunk_elements) : floor_div(c.offset * bits, 128);
    case ColorBy::automatic: break;
  }
  return kNone;
}

bool any_has(const Diagram& d, ColorBy by) {
  for (const Panel& p : d.panels)
    for (const Cell& c : p.cells)
      if (c.present && quantity(d, c, by) != kNone) return true;
  return false;
}

std::string range_label(std::int64_t a, std::int64_t b) {
  return a == b ? std::to_string(a) : std::to_string(a) + "-" + std::to_string(b);
}
}  // namespace

std::optional<ColorBy> color_by_from_name(std::string_view n) {
  if (n == "auto") return ColorBy::automatic;
  if (n == "thread") return ColorBy::thread;
  if (n == "warp") return ColorBy::warp;
  if (n == "value") return ColorBy::value;
  if (n == "offset" || n == "index") return ColorBy::offset;
  if (n == "bank") return ColorBy::bank;
  if (n == "chunk") return ColorBy::chunk;
  return std::nullopt;
}

std::string_view color_by_name(ColorBy c) {
  switch (c) {
    case ColorBy::automatic: return "auto";
    case ColorBy::thread: return "thread";
    case ColorBy::warp: return "warp";
    case ColorBy::value: return "value";
    case ColorBy::offset: return "offset";
    case ColorBy::bank: return "bank";
    case ColorBy::chunk: return "chunk";
  }
  return "?";
}

Rgb lch(double l, double c, double h) {
  const double hr = h * kPi / 180;
  double rgb[3];
  // Bisection on chroma: the largest C' <= c that stays in gamut (C' = 0, grey, always does).
  if (!lab_to_linear(l, c * std::cos(hr), c * std::sin(hr), rgb)) {
    double lo = 0, hi = c;
    for (int i = 0; i < 30; ++i) {
      const double mid = (lo + hi) / 2;
      (lab_to_linear(l, mid * std::cos(hr), mid * std::sin(hr), rgb) ? lo : hi) = mid;
    }
    lab_to_linear(l, lo * std::cos(hr), lo * std::sin(hr), rgb);
  }
  return Rgb{byte(rgb[0]), byte(rgb[1]), byte(rgb[2])};
}

double lightness(Rgb c) {
  const double y = luminance(c);
  return y > 216.0 / 24389 ? 116 * std::cbrt(y) - 16 : y * 24389.0 / 27;
}

Rgb thread_color(std::int64_t t) {
  const std::int64_t lane = mod(t, 32), warp = floor_div(t, 32);
  const double hue = 40 + kGoldenAngle * static_cast<double>(mod(warp, 360)) + (static_cast<double>(lane % 8) - 3.5) * 9;
  // L* = 78 + 7 b0 - 7 b1 + 7 b2 - 29 b3 - 7 b4 over the lane's bits: the narrowest-range
  // weights we found (a search over integers in [-30,30]) under which lanes t and t+1, t+2, t+4, t+8 differ
  // by 7 L* or more, as do T0, T8, T16 and T24 (the rows and quads of MMA fragments).
  static constexpr int kWeight[5] = {7, -7, 7, -29, -7};
  double l = 78;
  for (int bit = 0; bit < 5; ++bit) l += ((lane >> bit) & 1) ? kWeight[bit] : 0;
  return lch(l, 48, hue);
}

Rgb warp_color(std::int64_t w) {
  return lch(mod(w, 2) ? 55 : 80, 50, 40 + kGoldenAngle * static_cast<double>(mod(w, 360)));
}

Rgb class32_color(std::int64_t i) {
  const std::int64_t k = mod(i, 32);
  return lch(88 - 15 * static_cast<double>(k / 8), 50, 25 + 45 * static_cast<double>(k % 8));
}

Rgb ramp_color(double x) {
  // 1024 steps, computed once: a 256x256 heatmap has 65536 distinct offsets, and lch's
  // gamut search per cell would cost more than drawing it.
  constexpr int kSteps = 1024;
  static const std::vector<Rgb> table = [] {
    std::vector<Rgb> t(kSteps);
    for (int i = 0; i < kSteps; ++i) {
      const double y = static_cast<double>(i) / (kSteps - 1);
      t[static_cast<std::size_t>(i)] = lch(95 - 67 * y, 35 + 20 * std::sin(y * kPi), 100 + 200 * y);
    }
    return t;
  }();
  x = std::clamp(x, 0.0, 1.0);
  return table[static_cast<std::size_t>(std::lround(x * (kSteps - 1)))];
}

namespace {
// Colours the panels `group` (one natural colour) by `by` and returns their legend.
Legend color_group(Diagram& d, const std::vector<std::size_t>& group, ColorBy by) {
  // Ranges over every panel of the group, so one colour means one thing across A, B and C.
  std::int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (std::size_t i : group)
    for (const Cell& c : d.panels[i].cells) {
      const std::int64_t q = c.present ? quantity(d, c, by) : kNone;
      if (q == kNone) continue;
      lo = std::min(lo, q);
      hi = std::max(hi, q);
    }
  const bool categorical_values = by == ColorBy::value && hi < 8 && lo >= 0;
  auto color_of = [&](std::int64_t q) -> Rgb {
    switch (by) {
      case ColorBy::thread: return thread_color(q);
      case ColorBy::warp: return warp_color(q);
      case ColorBy::bank: return class32_color(q);
      case ColorBy::chunk: return palette(mod(q, palette_size));
      case ColorBy::value:
        if (categorical_values) return palette(q);
        [[fallthrough]];
      default:
        return ramp_color(hi == lo ? 0.0 : static_cast<double>(q - lo) / static_cast<double>(hi - lo));
    }
  };
  std::unordered_map<std::int64_t, Rgb> memo;  // thread/bank colours repeat across cells
  for (std::size_t i : group)
    for (Cell& c : d.panels[i].cells) {
      const std::int64_t q = c.present ? quantity(d, c, by) : kNone;
      if (q == kNone) {
        c.fill = white;
      } else {
        auto it = memo.find(q);
        if (it == memo.end()) it = memo.emplace(q, color_of(q)).first;
        c.fill = it->second;
      }
      c.color_key = -1;
    }

  static const Panel none;
  const Panel& first = group.empty() ? none : d.panels[group.front()];
  Legend L;
  switch (by) {
    case ColorBy::thread:
      if (hi < 32) {
        L.title = "colour: thread (lightness follows the lane's bits: T0, T8, T16, T24 differ)";
        for (std::int64_t t = std::max<std::int64_t>(lo, 0); t <= hi; ++t) L.items.push_back({thread_color(t), "T" + std::to_string(t)});
      } else {
        L.title = "colour: thread (hue: warp; lightness: the lane's bits, as in warp 0 below)";
        const std::int64_t w0 = floor_div(lo, 32), w1 = floor_div(hi, 32);
        for (std::int64_t w = w0; w <= std::min(w1, w0 + 15); ++w)
          L.items.push_back({thread_color(w * 32), "W" + std::to_string(w) + " T" + range_label(w * 32, w * 32 + 31)});
        for (std::int64_t lane : {1, 2, 4, 8, 16, 31}) L.items.push_back({thread_color(w0 * 32 + lane), "lane " + std::to_string(lane)});
      }
      break;
    case ColorBy::warp:
      L.title = "colour: warp (thread / 32)";
      for (std::int64_t w = lo; w <= std::min(hi, lo + 31); ++w) L.items.push_back({warp_color(w), "W" + std::to_string(w)});
      break;
    case ColorBy::bank:
      L.title = "colour: shared-memory bank (32 banks of 4 bytes; lightness: bank / 8)";
      for (std::int64_t b = 0; b < 32; ++b) L.items.push_back({class32_color(b), "b" + std::to_string(b)});
      break;
    case ColorBy::chunk: {
      const std::string unit = !first.chunk_name.empty() ? first.chunk_name
                               : !d.chunk_name.empty() ? d.chunk_name
                               : d.chunk_elements > 0 ? std::to_string(d.chunk_elements) + "-element chunk"
                                                      : "16-byte chunk (" + std::to_string(d.element_bits) + "-bit elements)";
      L.title = "colour: " + unit + ", mod 8";
      for (std::int64_t k = 0; k < palette_size; ++k) L.items.push_back({palette(k), "c" + std::to_string(k)});
      break;
    }
    case ColorBy::value:
    case ColorBy::offset:
    default: {
      const std::string what = by == ColorBy::value ? "value V"
                               : !first.offset_name.empty() ? first.offset_name
                                                            : "offset (the index the layout gives)";
      if (categorical_values) {
        L.title = "colour: " + what;
        for (std::int64_t v = lo; v <= hi; ++v) L.items.push_back({palette(v), "V" + std::to_string(v)});
      } else {
        L.title = "colour: " + what + ", light = low, dark = high";
        const std::int64_t steps = std::min<std::int64_t>(hi - lo, 8);
        for (std::int64_t i = 0; i <= steps; ++i) {
          const std::int64_t q = steps == 0 ? lo : lo + (hi - lo) * i / steps;
          L.items.push_back({color_of(q), std::to_string(q)});
        }
      }
      break;
    }
  }
  return L;
}

bool group_has(const Diagram& d, const std::vector<std::size_t>& group, ColorBy by) {
  for (std::size_t i : group)
    for (const Cell& c : d.panels[i].cells)
      if (c.present && quantity(d, c, by) != kNone) return true;
  return false;
}
}  // namespace

void apply_colors(Diagram& d, ColorBy by) {
  // Panels grouped by their natural colour (most diagrams: one group).
  auto natural = [&](const Panel& p) {
    ColorBy n = p.natural_color != ColorBy::automatic ? p.natural_color : d.natural_color;
    if (n == ColorBy::automatic) n = any_has(d, ColorBy::thread) ? ColorBy::thread : ColorBy::offset;
    return n;
  };
  std::vector<ColorBy> keys;
  std::vector<std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < d.panels.size(); ++i) {
    const ColorBy n = natural(d.panels[i]);
    const auto k = std::find(keys.begin(), keys.end(), n);
    if (k == keys.end()) { keys.push_back(n); groups.push_back({i}); }
    else groups[static_cast<std::size_t>(k - keys.begin())].push_back(i);
  }
  if (by != ColorBy::automatic && !any_has(d, by))
    throw Error("cannot colour by " + std::string(color_by_name(by)) + ": the cells of this diagram have no " +
                std::string(color_by_name(by)));
  if (groups.empty()) groups.push_back({});
  Legend& L = d.legend;
  L = Legend{};
  for (std::size_t g = 0; g < groups.size(); ++g) {
    // An explicit --color-by recolours the groups whose cells have that quantity; the others
    // keep their natural colour (an smem operand has no thread).
    const ColorBy use = by != ColorBy::automatic && group_has(d, groups[g], by) ? by
                        : g < keys.size() ? keys[g] : ColorBy::offset;
    if (by == ColorBy::automatic && !any_has(d, use))
      throw Error("cannot colour by " + std::string(color_by_name(use)) + ": the cells of this diagram have no " +
                  std::string(color_by_name(use)));
    Legend part = color_group(d, groups[g], use);
    if (groups.size() > 1) {
      // Several schemes: one short title naming each group's panels and quantity.
      std::string names;
      for (std::size_t i : groups[g])
        if (!d.panels[i].legend_name.empty()) names += (names.empty() ? "" : ", ") + d.panels[i].legend_name;
      const std::string what = use == ColorBy::thread ? "thread (hue: warp, lightness: lane)"
                               : use == ColorBy::chunk ? "16-byte chunk, mod 8"
                               : use == ColorBy::bank  ? "bank"
                                                       : std::string(color_by_name(use)) + " (light = low)";
      part.title = (g == 0 ? "colour: " : "") + (names.empty() ? "" : names + ": ") + what;
    }
    L.title += (L.title.empty() ? "" : "; ") + part.title;
    L.items.insert(L.items.end(), part.items.begin(), part.items.end());
  }
  // Boundaries the backends draw over the cells (geometry.hpp: region_edges).
  bool warps = false, atoms = false;
  for (const Panel& p : d.panels) {
    std::int64_t w = kNone, a = kNone;
    for (const Cell& c : p.cells) {
      if (!c.present) continue;
      if (c.warp() != kNone) { warps = warps || (w != kNone && c.warp() != w); w = c.warp(); }
      if (c.atom != kNone) { atoms = atoms || (a != kNone && c.atom != a); a = c.atom; }
    }
  }
  if (atoms) L.lines.push_back("heavy black lines: MMA atom boundaries");
  if (warps) L.lines.push_back("blue lines: warp boundaries (threads 32w to 32w+31)");
}

}  // namespace tessera::viz
