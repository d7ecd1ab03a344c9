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
    case ColorBy::box: return c.box;
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

}  // namespace

std::optional<ColorBy> color_by_from_name(std::string_view n) {
  if (n == "auto") return ColorBy::automatic;
  if (n == "thread") return ColorBy::thread;
  if (n == "warp") return ColorBy::warp;
  if (n == "value") return ColorBy::value;
  if (n == "offset" || n == "index") return ColorBy::offset;
  if (n == "bank") return ColorBy::bank;
  if (n == "chunk") return ColorBy::chunk;
  if (n == "box") return ColorBy::box;
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
    case ColorBy::box: return "box";
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

namespace {
// The lane colours in CIELAB (L*, a*, b*), from tools/thread_palette.py, which says what
// they are chosen for: the 32 lanes of any warp far apart, the 64 of two neighbouring warps
// too, lightness stepping between neighbouring lanes.
// min dE76: lanes 0-31 25.4, lanes 32-63 23.9, all 64 16.5; min L* step between lanes t and t+1, t+2, t+4, t+8, t+16 (mod 32): 12.5
constexpr double kLane[64][3] = {
    {67.00, 48.76, 30.77},  // lane 0
    {79.50, -46.36, 76.91},  // lane 1
    {54.50, 65.70, 63.30},  // lane 2
    {67.00, 74.99, -43.06},  // lane 3
    {92.00, -48.88, 47.82},  // lane 4
    {54.50, 43.66, -28.95},  // lane 5
    {42.00, 55.47, 3.34},  // lane 6
    {92.00, -18.34, -9.20},  // lane 7
    {54.50, 79.87, 30.43},  // lane 8
    {67.00, 21.81, -50.71},  // lane 9
    {92.00, -18.67, 30.00},  // lane 10
    {54.50, 45.01, -70.79},  // lane 11
    {79.50, 22.29, 31.68},  // lane 12
    {42.00, 1.18, 45.89},  // lane 13
    {67.00, -9.56, 10.00},  // lane 14
    {79.50, -4.49, -31.22},  // lane 15
    {92.00, 7.84, 9.10},  // lane 16
    {54.50, 4.95, -25.68},  // lane 17
    {79.50, -6.29, 79.24},  // lane 18
    {42.00, -38.44, 43.83},  // lane 19
    {54.50, 34.81, 60.12},  // lane 20
    {67.00, -51.96, 16.56},  // lane 21
    {92.00, -13.56, 57.63},  // lane 22
    {54.50, 84.19, -12.38},  // lane 23
    {79.50, 16.80, 57.30},  // lane 24
    {42.00, -28.98, -0.98},  // lane 25
    {67.00, -27.72, 44.33},  // lane 26
    {79.50, -37.34, -20.44},  // lane 27
    {42.00, 76.86, -68.10},  // lane 28
    {92.00, -44.56, 8.51},  // lane 29
    {79.50, 33.78, -3.68},  // lane 30
    {42.00, 13.28, 9.87},  // lane 31
    {67.00, -10.97, -46.23},  // lane 32
    {79.50, -66.45, 33.90},  // lane 33
    {54.50, 82.50, 9.46},  // lane 34
    {67.00, 53.89, 10.09},  // lane 35
    {92.00, -27.05, 88.80},  // lane 36
    {54.50, 64.27, -19.26},  // lane 37
    {42.00, 29.15, -71.09},  // lane 38
    {92.00, 14.61, -7.16},  // lane 39
    {54.50, -20.78, 22.64},  // lane 40
    {67.00, 19.30, 70.07},  // lane 41
    {92.00, 1.81, 26.14},  // lane 42
    {54.50, 21.62, -10.55},  // lane 43
    {79.50, 14.16, -30.97},  // lane 44
    {42.00, -16.50, -20.10},  // lane 45
    {67.00, 5.38, 41.06},  // lane 46
    {79.50, 40.99, -20.57},  // lane 47
    {92.00, -40.93, 31.91},  // lane 48
    {54.50, -52.02, 34.60},  // lane 49
    {79.50, -6.73, -7.91},  // lane 50
    {42.00, 35.81, 17.71},  // lane 51
    {54.50, -18.05, 56.33},  // lane 52
    {67.00, -42.30, -1.80},  // lane 53
    {92.00, -22.84, 11.60},  // lane 54
    {54.50, 7.53, -58.35},  // lane 55
    {79.50, 27.26, 14.57},  // lane 56
    {42.00, 72.82, -45.59},  // lane 57
    {67.00, 46.06, -50.42},  // lane 58
    {79.50, -74.47, 75.60},  // lane 59
    {42.00, 25.31, 47.62},  // lane 60
    {92.00, -41.68, -10.57},  // lane 61
    {79.50, -25.06, -31.46},  // lane 62
    {42.00, 65.50, 44.94},  // lane 63
};
}  // namespace

Rgb thread_color(std::int64_t t) {
  const double* lab = kLane[mod(t, 64)];
  double rgb[3];
  lab_to_linear(lab[0], lab[1], lab[2], rgb);  // in gamut by construction; byte() clamps
  return Rgb{byte(rgb[0]), byte(rgb[1]), byte(rgb[2])};
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
      case ColorBy::box: return hi < palette_size ? palette(q) : class32_color(q);
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
      if (hi - std::max<std::int64_t>(lo, 0) < 64 && hi < 64) {
        L.title = "colour: thread";
        for (std::int64_t t = std::max<std::int64_t>(lo, 0); t <= hi; ++t) L.items.push_back({thread_color(t), "T" + std::to_string(t)});
      } else {
        L.title = "colour: thread t mod 64 (T0 and T64 alike; blue lines part the warps)";
        for (std::int64_t t = 0; t < 64; ++t) L.items.push_back({thread_color(t), "T" + std::to_string(t) + "+64k"});
      }
      break;
    case ColorBy::warp:
      L.title = "colour: warp (thread / " + std::to_string(d.warp_lanes()) + ")";
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
    case ColorBy::box: {
      const bool cyclic = hi >= 32;
      L.title = std::string("colour: TMA box, the copy that fills the cell") + (cyclic ? " (mod 32)" : "");
      for (std::int64_t b = std::max<std::int64_t>(lo, 0); b <= std::min<std::int64_t>(hi, 31); ++b)
        L.items.push_back({color_of(b), "box " + std::to_string(b)});
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
      const std::string what = use == ColorBy::thread ? "thread"
                               : use == ColorBy::chunk ? "16-byte chunk, mod 8"
                               : use == ColorBy::bank  ? "bank"
                               : use == ColorBy::box   ? "TMA box"
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
  if (warps) {
    const std::string n = std::to_string(d.warp_lanes()), last = std::to_string(d.warp_lanes() - 1);
    L.lines.push_back("blue lines: warp boundaries (threads " + n + "w to " + n + "w+" + last + ")");
  }
}

}  // namespace tessera::viz
