// Model-level properties: mode-boundary levels, the plain-layout grid, the TV
// inverse map, and the error paths of the builders.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

#include "cases.hpp"
#include "tessera/viz/backends.hpp"
#include "tessera/viz/colors.hpp"
#include "tessera/viz/geometry.hpp"
#include "tessera/viz/output.hpp"

using tessera::rt::IntTuple;
using tessera::rt::Layout;
using viz_cases::T;
namespace viz = tessera::viz;

namespace {

// A random tuple of 1..3 modes, each a leaf of size 1..4 or (depth > 0) a nested tuple.
rc::Gen<IntTuple> shape_gen(int depth) {
  return rc::gen::exec([depth] {
    const auto n = *rc::gen::inRange(1, 4);
    std::vector<IntTuple> v;
    for (int i = 0; i < n; ++i) {
      if (depth > 0 && *rc::gen::inRange(0, 3) == 0) v.push_back(*shape_gen(depth - 1));
      else v.push_back(IntTuple(*rc::gen::inRange<std::int64_t>(1, 5)));
    }
    return IntTuple::tuple(std::move(v));
  });
}

IntTuple stride_like(const IntTuple& shape) {
  return tessera::rt::transform_leaf(shape, [](std::int64_t) { return *rc::gen::inRange<std::int64_t>(0, 9); });
}

bool all_zero(const IntTuple& t) {
  if (t.is_leaf()) return t.value() == 0;
  return std::all_of(t.elems().begin(), t.elems().end(), all_zero);
}

// Every sub-mode node of `shape` (not the root): its coordinate inside a full coordinate.
void nodes(const IntTuple& shape, const IntTuple& coord, bool root, std::vector<std::pair<IntTuple, IntTuple>>& out) {
  if (!root) out.push_back({shape, coord});
  if (shape.is_tuple())
    for (std::size_t i = 0; i < shape.rank(); ++i) nodes(shape[i], coord[i], false, out);
}

// Independent oracle for boundary_levels: count sub-modes of size > 1 whose
// coordinate (from rt::idx2crd) is zero at i and non-zero at i-1.
int level_oracle(const IntTuple& shape, std::int64_t i) {
  const std::int64_t n = tessera::rt::product(shape);
  std::vector<std::pair<IntTuple, IntTuple>> at_i, before;
  if (i == 0 || i == n) {
    nodes(shape, tessera::rt::idx2crd(0, shape), true, at_i);
    return static_cast<int>(std::count_if(at_i.begin(), at_i.end(),
                                          [](auto& p) { return tessera::rt::product(p.first) > 1; }));
  }
  nodes(shape, tessera::rt::idx2crd(i, shape), true, at_i);
  nodes(shape, tessera::rt::idx2crd(i - 1, shape), true, before);
  int level = 0;
  for (std::size_t k = 0; k < at_i.size(); ++k)
    level += tessera::rt::product(at_i[k].first) > 1 && all_zero(at_i[k].second) && !all_zero(before[k].second);
  return level;
}

}  // namespace

TEST_CASE("boundary levels: examples") {
  CHECK(viz::boundary_levels(viz::mode_tree(IntTuple(4))) == std::vector<int>{0, 0, 0, 0, 0});
  // (2,2): the outer sub-mode changes at 2.
  CHECK(viz::boundary_levels(viz::mode_tree(T({2, 2}))) == std::vector<int>{2, 0, 1, 0, 2});
  // ((2,2),4): thin every row, level 1 every 2, level 3 every 4 (two leaves and the inner tuple wrap).
  const auto l = viz::boundary_levels(viz::mode_tree(T({T({2, 2}), 4})));
  REQUIRE(l.size() == 17);
  CHECK(l[0] == 4);
  CHECK(l[1] == 0);
  CHECK(l[2] == 1);
  CHECK(l[4] == 3);
  CHECK(l[6] == 1);
  CHECK(l[8] == 3);
  CHECK(l[16] == 4);
  // Flat (2,2,4) is shallower: level 2 at 4.
  CHECK(viz::boundary_levels(viz::mode_tree(T({2, 2, 4})))[4] == 2);
  // Thicker lines for deeper boundaries.
  CHECK(viz::line_width(3, false) > viz::line_width(1, false));
  CHECK(viz::line_width(1, false) > viz::line_width(0, false));
}

TEST_CASE("boundary levels agree with idx2crd on generated shapes") {
  rc::prop("level(i) = sub-modes whose coordinate wraps at i", [] {
    const IntTuple shape = *shape_gen(2);
    const auto levels = viz::boundary_levels(viz::mode_tree(shape));
    const std::int64_t n = tessera::rt::product(shape);
    RC_ASSERT(static_cast<std::int64_t>(levels.size()) == n + 1);
    for (std::int64_t i = 0; i <= n; ++i) RC_ASSERT(levels[static_cast<std::size_t>(i)] == level_oracle(shape, i));
  });
}

TEST_CASE("plain layout grid: cell (m,n) shows L(m,n), coloured by offset (darker = larger)") {
  rc::prop("cells match rt::Layout evaluation at the 2-D coordinate", [] {
    const IntTuple s0 = *rc::gen::oneOf(shape_gen(1), rc::gen::map(rc::gen::inRange<std::int64_t>(1, 7), [](std::int64_t v) { return IntTuple(v); }));
    const IntTuple s1 = *rc::gen::oneOf(shape_gen(1), rc::gen::map(rc::gen::inRange<std::int64_t>(1, 7), [](std::int64_t v) { return IntTuple(v); }));
    const Layout l(T({s0, s1}), T({stride_like(s0), stride_like(s1)}));
    const viz::Diagram d = viz::layout_diagram(l);
    RC_ASSERT(d.panels.size() == 1u);
    const viz::Panel& p = d.panels[0];
    RC_ASSERT(p.rows.count == tessera::rt::product(s0));
    RC_ASSERT(p.cols.count == tessera::rt::product(s1));
    for (std::int64_t m = 0; m < p.rows.count; ++m)
      for (std::int64_t n = 0; n < p.cols.count; ++n) {
        const std::int64_t v = l.at(T({m, n}));
        const viz::Cell& c = p.at(m, n);
        RC_ASSERT(c.present);
        RC_ASSERT(c.label == std::to_string(v));
        RC_ASSERT(c.offset == v);
        RC_ASSERT(c.tooltip.find("index " + std::to_string(v)) != std::string::npos);
      }
    RC_ASSERT(p.rows.line_level == viz::boundary_levels(viz::mode_tree(s0)));
    RC_ASSERT(p.cols.line_level == viz::boundary_levels(viz::mode_tree(s1)));
    // The ramp: equal offsets share a colour, a larger offset is never lighter.
    std::vector<const viz::Cell*> by_offset;
    for (const viz::Cell& c : p.cells) by_offset.push_back(&c);
    std::sort(by_offset.begin(), by_offset.end(), [](auto* a, auto* b) { return a->offset < b->offset; });
    for (std::size_t i = 1; i < by_offset.size(); ++i) {
      const viz::Cell &a = *by_offset[i - 1], &b = *by_offset[i];
      if (a.offset == b.offset) RC_ASSERT(a.fill == b.fill);
      else RC_ASSERT(viz::lightness(a.fill) >= viz::lightness(b.fill) - 0.5);
    }
  });
}

TEST_CASE("TV inverse map: every (t,v) lands in exactly the cell it maps to") {
  rc::prop("column-major and row-major tiles", [] {
    const IntTuple ts = *shape_gen(1), vs = *shape_gen(1);
    const Layout tv(T({ts, vs}), T({stride_like(ts), stride_like(vs)}));
    const std::int64_t cos = tv.cosize();
    const std::int64_t M = *rc::gen::inRange<std::int64_t>(1, 9);
    const std::int64_t N = (cos + M - 1) / M + *rc::gen::inRange<std::int64_t>(0, 2);
    const bool row_major = *rc::gen::arbitrary<bool>();
    const viz::TvTile tile = row_major ? viz::tile_of_layout(Layout(T({M, N}), T({N, 1})))
                                       : viz::tile_of_shape(T({M, N}));
    const viz::TvFunction f = viz::tv_of_layout(tv);
    const viz::TvInverse inv = viz::invert_tv(f, tile);
    RC_ASSERT(inv.rows == M);
    RC_ASSERT(inv.cols == N);
    std::int64_t total = 0;
    for (const auto& h : inv.hits) total += static_cast<std::int64_t>(h.size());
    RC_ASSERT(total == f.threads() * f.values());
    // Every hit of a cell is a (t,v) that maps to that cell, and each (t,v) is hit exactly
    // once (linear in the hits: a stride-0 map puts all T*V of them in one cell).
    std::vector<int> seen(static_cast<std::size_t>(f.threads() * f.values()), 0);
    for (std::int64_t m = 0; m < M; ++m)
      for (std::int64_t n = 0; n < N; ++n)
        for (const viz::TvHit& h : inv.at(m, n)) {
          RC_ASSERT(h.thread >= 0 && h.thread < f.threads() && h.value >= 0 && h.value < f.values());
          const std::int64_t i = tv(h.thread + f.threads() * h.value);
          RC_ASSERT((row_major ? i / N : i % M) == m);
          RC_ASSERT((row_major ? i % N : i / M) == n);
          ++seen[static_cast<std::size_t>(h.thread + f.threads() * h.value)];
        }
    RC_ASSERT(std::all_of(seen.begin(), seen.end(), [](int k) { return k == 1; }));
    const viz::Panel p = viz::tv_panel(f, tile, inv);
    std::int64_t blank = 0, repeated = 0;
    for (std::int64_t m = 0; m < M; ++m)
      for (std::int64_t n = 0; n < N; ++n) {
        const auto& hits = inv.at(m, n);
        const viz::Cell& c = p.at(m, n);
        RC_ASSERT(c.present == !hits.empty());
        if (hits.empty()) { ++blank; continue; }
        RC_ASSERT(c.label == "T" + std::to_string(hits[0].thread));
        RC_ASSERT(c.label2 == "V" + std::to_string(hits[0].value));
        RC_ASSERT(c.thread == hits[0].thread);
        RC_ASSERT(c.value == hits[0].value);
        RC_ASSERT((c.highlight == viz::Highlight::conflict) == (hits.size() > 1));
        repeated += hits.size() > 1;
      }
    RC_ASSERT(blank == inv.uncovered);
    RC_ASSERT(repeated == inv.repeated);
  });
}

TEST_CASE("TV: the SM80 16x8 C fragment is a bijection onto the tile") {
  const viz::TvFunction f = viz::tv_of_layout(viz_cases::sm80_c_tv());
  const viz::TvInverse inv = viz::invert_tv(f, viz::tile_of_shape(T({16, 8})));
  CHECK(inv.uncovered == 0);
  CHECK(inv.repeated == 0);
  // mma.m16n8k8 C fragment: lane holds rows lane/4 and lane/4+8, columns 2*(lane%4)+{0,1}.
  for (std::int64_t lane = 0; lane < 32; ++lane)
    for (std::int64_t v = 0; v < 4; ++v) {
      const std::int64_t m = lane / 4 + 8 * (v / 2), n = 2 * (lane % 4) + v % 2;
      REQUIRE(inv.at(m, n).size() == 1);
      CHECK(inv.at(m, n)[0] == viz::TvHit{lane, v});
    }
}

TEST_CASE("builder errors say what is wrong") {
  using Catch::Matchers::Contains;
  CHECK_THROWS_WITH(viz::layout_diagram(Layout(T({2, 2, 2}), T({1, 2, 4}))), Contains("group the modes"));
  CHECK_THROWS_WITH(viz::invert_tv(viz::tv_of_layout(Layout(T({4, 2}), T({1, 4}))), viz::tile_of_shape(T({2, 2}))),
                    Contains("(thread 0, value 1) to index 4, which is not in the tile (2,2)"));
  CHECK_THROWS_WITH(viz::invert_tv(viz::tv_of_layout(Layout(T({2, 2}), T({1, 2}))),
                                   viz::tile_of_layout(Layout(T({2, 2}), T({1, 0})))),
                    Contains("is not injective"));
  CHECK_THROWS_WITH(viz::tv_of_layout(Layout(IntTuple(8), IntTuple(1))), Contains("two modes"));
  CHECK_THROWS_WITH(viz::tile_of_shape(T({2, 2, 2})), Contains("one or two modes"));
}

TEST_CASE("rank-1 layouts draw as one row") {
  const viz::Diagram d = viz::layout_diagram(Layout(T({T({2, 4})}), T({T({4, 1})})));
  const viz::Panel& p = d.panels[0];
  CHECK(p.rows.count == 1);
  CHECK(p.cols.count == 8);
  CHECK(p.at(0, 1).label == "4");
  CHECK(p.at(0, 2).label == "1");
  CHECK(p.cols.line_level[2] == 1);
}

TEST_CASE("palette: neighbours differ in lightness; text contrasts with its fill") {
  for (int i = 0; i < viz::palette_size; ++i) {
    const double a = viz::luminance(viz::palette(i)), b = viz::luminance(viz::palette(i + 1));
    CHECK(std::abs(a - b) > 0.08);
    const viz::Rgb fill = viz::palette(i);
    const double lt = viz::luminance(viz::text_color_for(fill));
    const double hi = std::max(lt, viz::luminance(fill)), lo = std::min(lt, viz::luminance(fill));
    CHECK((hi + 0.05) / (lo + 0.05) >= 3.0);  // WCAG large-text contrast or better
  }
}

TEST_CASE("palette: in grey print the eight colours are eight distinct, widely spread lightnesses") {
  // CIE L* from relative luminance: what a grey printer or a grey-scale reader keeps.
  const auto lstar = [](double y) { return y > 0.008856 ? 116.0 * std::cbrt(y) - 16.0 : 903.3 * y; };
  double lo = 100, hi = 0;
  for (int i = 0; i < viz::palette_size; ++i) {
    const double li = lstar(viz::luminance(viz::palette(i)));
    lo = std::min(lo, li);
    hi = std::max(hi, li);
    for (int j = 0; j < i; ++j) {
      INFO("palette " << j << " vs " << i);
      CHECK(std::abs(li - lstar(viz::luminance(viz::palette(j)))) >= 6.0);
    }
  }
  CHECK(hi - lo >= 50.0);
  // A TV diagram: horizontally or vertically adjacent cells of different threads never
  // share a grey level (the SM80 C fragment: neighbours are threads t, t+1, t+4).
  const viz::Diagram d = viz::tv_diagram(viz::tv_of_layout(Layout(T({T({4, 8}), T({2, 2})}), T({T({32, 1}), T({16, 8})}))),
                                         viz::tile_of_shape(T({16, 8})));
  const viz::Panel& p = d.panels[0];
  for (std::int64_t r = 0; r < p.rows.count; ++r)
    for (std::int64_t c = 0; c + 1 < p.cols.count; ++c) {
      const viz::Cell &a = p.at(r, c), &b = p.at(r, c + 1);
      if (a.label == b.label) continue;
      INFO("cells (" << r << "," << c << ") and (" << r << "," << c + 1 << ")");
      CHECK(std::abs(lstar(viz::luminance(a.fill)) - lstar(viz::luminance(b.fill))) >= 6.0);
    }
  for (std::int64_t r = 0; r + 1 < p.rows.count; ++r)
    for (std::int64_t c = 0; c < p.cols.count; ++c) {
      const viz::Cell &a = p.at(r, c), &b = p.at(r + 1, c);
      if (a.label == b.label) continue;
      INFO("cells (" << r << "," << c << ") and (" << r + 1 << "," << c << ")");
      CHECK(std::abs(lstar(viz::luminance(a.fill)) - lstar(viz::luminance(b.fill))) >= 6.0);
    }
}

TEST_CASE("geometry: panels do not overlap, slots align") {
  const auto cases = viz_cases::all();
  const viz::Diagram& d = cases[7].diagram;  // two panels side by side
  REQUIRE(cases[7].name == "diff_two_panels");
  const viz::Geometry g = viz::compute_geometry(d);
  REQUIRE(g.panels.size() == 2);
  CHECK(g.panels[0].x + g.panels[0].width < g.panels[1].x);
  CHECK(g.panels[0].grid_y == g.panels[1].grid_y);
  CHECK(g.width >= g.panels[1].x + g.panels[1].width);
}

TEST_CASE("MMA arrangement: A left of C row for row, B above C column for column") {
  const viz::Diagram d = viz_cases::sm80_mma();
  REQUIRE(d.panels.size() == 3);
  const viz::Geometry g = viz::compute_geometry(d);
  const auto &a = g.panels[0], &b = g.panels[1], &c = g.panels[2];
  CHECK(a.grid_y == c.grid_y);
  CHECK(a.cell_h == c.cell_h);
  CHECK(a.cell_x(d.panels[0].cols.count) < c.grid_x);
  CHECK(b.grid_x == c.grid_x);
  CHECK(b.cell_w == c.cell_w);
  CHECK(b.cell_y(d.panels[1].rows.count) < c.grid_y);
  // B is drawn K x N: cell (k,n) holds B(n,k). Lane 5 holds n = 1, k = 2,3.
  const viz::Panel& pb = d.panels[1];
  CHECK(pb.rows.count == 8);
  CHECK(pb.at(2, 1).label == "T5");
  CHECK(pb.at(2, 1).label2 == "V0");
  CHECK(pb.at(3, 1).label2 == "V1");
  CHECK_THROWS_WITH(viz::mma_arrangement(d.panels[0], d.panels[0], d.panels[2]), Catch::Matchers::Contains("do not fit"));
}

TEST_CASE("transposed tile swaps the coordinates") {
  const viz::TvTile t = viz::tile_of_shape(T({3, 5}));
  const viz::TvTile u = viz::transposed(t);
  CHECK(u.rows() == 5);
  CHECK(u.cols() == 3);
  for (std::int64_t k = 0; k < 5; ++k)
    for (std::int64_t n = 0; n < 3; ++n) CHECK(u.index(k, n) == t.index(n, k));
}

TEST_CASE("diff diagram marks exactly the differing cells") {
  rc::prop("mismatch highlights == cells whose values differ", [] {
    const IntTuple s0 = IntTuple(*rc::gen::inRange<std::int64_t>(1, 6)), s1 = IntTuple(*rc::gen::inRange<std::int64_t>(1, 6));
    const Layout e(T({s0, s1}), T({stride_like(s0), stride_like(s1)}));
    const Layout a(T({s0, s1}), T({stride_like(s0), stride_like(s1)}));
    std::int64_t n = -1;
    const viz::Diagram d =
        viz::diff_diagram(viz::layout_diagram(e).panels[0], viz::layout_diagram(a).panels[0], &n);
    RC_ASSERT(d.panels.size() == 2u);
    std::int64_t want = 0;
    for (std::int64_t r = 0; r < s0.value(); ++r)
      for (std::int64_t c = 0; c < s1.value(); ++c) {
        const bool differs = e.at(T({r, c})) != a.at(T({r, c}));
        want += differs;
        RC_ASSERT((d.panels[1].at(r, c).highlight == viz::Highlight::mismatch) == differs);
        RC_ASSERT(d.panels[0].at(r, c).highlight == viz::Highlight::none);
      }
    RC_ASSERT(n == want);
  });
  CHECK_THROWS_WITH(viz::diff_diagram(viz::Panel(2, 2), viz::Panel(2, 3)), Catch::Matchers::Contains("cannot compare"));
}

namespace {
// CIELAB (D65) of an sRGB colour, written here from the standard formulas so that the test
// does not take the library's own conversion on trust.
std::array<double, 3> lab_of(viz::Rgb c) {
  auto lin = [](std::uint8_t v) {
    const double x = v / 255.0;
    return x <= 0.04045 ? x / 12.92 : std::pow((x + 0.055) / 1.055, 2.4);
  };
  const double r = lin(c.r), g = lin(c.g), b = lin(c.b);
  const double x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047;
  const double y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b;
  const double z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883;
  auto f = [](double t) { return t > 216.0 / 24389 ? std::cbrt(t) : (24389.0 / 27 * t + 16) / 116; };
  return {116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
}
double delta_e76(viz::Rgb p, viz::Rgb q) {
  const auto a = lab_of(p), b = lab_of(q);
  return std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}
double min_delta_e(std::int64_t first, std::int64_t count) {
  double m = 1e9;
  for (std::int64_t s = first; s < first + count; ++s)
    for (std::int64_t t = first; t < s; ++t) m = std::min(m, delta_e76(viz::thread_color(s), viz::thread_color(t)));
  return m;
}
}  // namespace

// The figures docs/cli.md and colors.hpp state: any two lanes of a warp at least dE76 23
// apart, any two of 64 lanes (an AMD wavefront, or two neighbouring NVIDIA warps) at least 16.
TEST_CASE("thread colours: any two lanes of a warp, or of a 64-lane wavefront, are far apart (CIE dE76)") {
  for (std::int64_t w = 0; w < 8; ++w) {
    INFO("warp " << w);
    CHECK(min_delta_e(32 * w, 32) >= 23.0);
  }
  for (std::int64_t w = 0; w < 4; ++w) {
    INFO("wavefront " << w);
    CHECK(min_delta_e(64 * w, 64) >= 16.0);
  }
  CHECK(min_delta_e(32, 64) >= 16.0);  // warps 1 and 2
}

TEST_CASE("thread colours: lanes t and t+1, t+2, t+4, t+8, t+16 differ in grey; colour repeats every 64 threads") {
  for (std::int64_t t = 0; t < 64; ++t)
    for (std::int64_t d : {1, 2, 4, 8, 16}) {
      const std::int64_t u = t / 32 * 32 + (t + d) % 32;  // the same warp, lanes mod 32
      INFO("threads " << t << " and " << u);
      CHECK(std::abs(viz::lightness(viz::thread_color(t)) - viz::lightness(viz::thread_color(u))) >= 12.0);
    }
  for (std::int64_t t = 0; t < 256; ++t) CHECK(viz::thread_color(t) == viz::thread_color(t + 64));
  // Text stays legible on every fill.
  for (std::int64_t t = 0; t < 256; ++t) {
    const viz::Rgb f = viz::thread_color(t);
    const double lt = viz::luminance(viz::text_color_for(f));
    const double hi = std::max(lt, viz::luminance(f)), lo = std::min(lt, viz::luminance(f));
    CHECK((hi + 0.05) / (lo + 0.05) >= 3.0);
  }
}

TEST_CASE("bank colours: 32 classes, banks 0/8/16/24 differ in grey") {
  for (std::int64_t a = 0; a < 32; ++a)
    for (std::int64_t b = 0; b < a; ++b) CHECK(viz::class32_color(a) != viz::class32_color(b));
  for (std::int64_t k = 0; k < 8; ++k)
    for (std::int64_t o = 1; o < 4; ++o)
      CHECK(std::abs(viz::lightness(viz::class32_color(k)) - viz::lightness(viz::class32_color(k + 8 * o))) >= 10);
}

TEST_CASE("ramp: lightness falls monotonically") {
  double prev = 101;
  for (int i = 0; i <= 100; ++i) {
    const double l = viz::lightness(viz::ramp_color(i / 100.0));
    CHECK(l < prev + 0.5);
    prev = l;
  }
  CHECK(viz::lightness(viz::ramp_color(0)) - viz::lightness(viz::ramp_color(1)) >= 50);
}

TEST_CASE("a swizzle shows: Sw<3,3,3> o (8,64):(64,1) is coloured by the 8-element unit it permutes") {
  const Layout tile(T({8, 64}), T({64, 1}));
  const viz::Diagram sw = viz::layout_diagram(tessera::rt::SwizzledLayout{tessera::rt::Swizzle(3, 3, 3), tile});
  viz::Diagram plain = viz::layout_diagram(tile);
  viz::apply_colors(plain, viz::ColorBy::chunk);
  std::int64_t differ = 0;
  for (std::int64_t r = 0; r < 8; ++r)
    for (std::int64_t c = 0; c < 64; ++c) {
      // Swizzled: chunk (c/8) XOR r; plain: chunk c/8 (16 bytes of 16-bit elements).
      CHECK(sw.panels[0].at(r, c).fill == viz::palette((c / 8) ^ r));
      CHECK(plain.panels[0].at(r, c).fill == viz::palette(c / 8));
      differ += sw.panels[0].at(r, c).fill != plain.panels[0].at(r, c).fill;
    }
  CHECK(differ == 7 * 64);  // every row but row 0 moves
  CHECK(sw.legend.title.find("Sw<3,3,3>") != std::string::npos);
  CHECK(sw.legend.items.size() == 8);
}

TEST_CASE("colour by: every choice recolours; a quantity the cells lack is an error; legends say which") {
  viz::Diagram d = viz::tv_diagram(viz::tv_of_layout(viz_cases::sm80_c_tv()), viz::tile_of_shape(T({16, 8})));
  CHECK(d.legend.title.find("thread") != std::string::npos);
  CHECK(d.legend.items.size() == 32);
  for (const viz::Cell& c : d.panels[0].cells) CHECK(c.fill == viz::thread_color(c.thread));
  viz::apply_colors(d, viz::ColorBy::value);
  for (const viz::Cell& c : d.panels[0].cells) CHECK(c.fill == viz::palette(c.value));
  viz::apply_colors(d, viz::ColorBy::warp);
  CHECK(d.legend.items.size() == 1);
  viz::apply_colors(d, viz::ColorBy::bank);
  CHECK(d.legend.items.size() == 32);
  viz::Diagram plain = viz::layout_diagram(Layout(T({4, 4}), T({4, 1})));
  CHECK_THROWS_WITH(viz::apply_colors(plain, viz::ColorBy::thread), Catch::Matchers::Contains("no thread"));
  // The text table ignores colour and legend: still CuTe's print_layout.
  const std::string before = viz::to_text(plain);
  viz::apply_colors(plain, viz::ColorBy::bank);
  CHECK(viz::to_text(plain) == before);
  for (const char* n : {"thread", "warp", "value", "offset", "bank", "chunk"})
    CHECK(viz::color_by_name(*viz::color_by_from_name(n)) == n);
  CHECK_FALSE(viz::color_by_from_name("lane"));
}

TEST_CASE("warp and atom boundaries are drawn where neighbouring cells change warp or atom") {
  // 64 threads, 2 values each, over a column-major 16x8 tile: warp 0 holds columns 0-3.
  const viz::Diagram d = viz::tv_diagram(viz::tv_of_layout(Layout(T({64, 2}), T({2, 1}))), viz::tile_of_shape(T({16, 8})));
  const auto edges = viz::region_edges(d.panels[0]);
  REQUIRE(edges.size() == 1);
  CHECK_FALSE(edges[0].horizontal);
  CHECK(edges[0].index == 4);
  CHECK(edges[0].from == 0);
  CHECK(edges[0].to == 16);
  CHECK_FALSE(edges[0].atom);
  CHECK(d.legend.lines.size() == 1);
  // Atoms: cells of atoms 0 and 1 in one warp get an atom edge instead.
  viz::Panel p(1, 2);
  for (auto& c : p.cells) { c.present = true; c.thread = 0; }
  p.at(0, 0).atom = 0;
  p.at(0, 1).atom = 1;
  const auto e2 = viz::region_edges(p);
  REQUIRE(e2.size() == 1);
  CHECK(e2[0].atom);
  // A single-warp fragment has none.
  CHECK(viz::region_edges(viz_cases::sm80_mma().panels[2]).empty());
}

TEST_CASE("the legend is drawn in SVG, TikZ and (through the geometry) PNG/PDF, never in text") {
  const viz::Diagram d = viz::tv_diagram(viz::tv_of_layout(viz_cases::sm80_c_tv()), viz::tile_of_shape(T({16, 8})));
  const viz::Geometry g = viz::compute_geometry(d);
  REQUIRE(g.legend.swatches.size() == d.legend.items.size());
  for (const auto& sw : g.legend.swatches) {
    CHECK(sw.x >= g.style.margin);
    CHECK(sw.x + g.legend.swatch <= g.width);
    CHECK(sw.y > g.panels[0].cell_y(16));
    CHECK(sw.y + g.legend.swatch <= g.height);
  }
  const std::string svg = viz::to_svg(d), tex = viz::to_tikz(d), txt = viz::to_text(d);
  CHECK(svg.find(">colour: thread<") != std::string::npos);
  CHECK(svg.find("fill=\"" + viz::hex(viz::thread_color(8)) + "\" stroke=\"#444444\"") != std::string::npos);
  CHECK(tex.find("% legend") != std::string::npos);
  CHECK(txt.find("colour") == std::string::npos);
}

TEST_CASE("large tiles draw as a heatmap: no labels, tick-labelled axes, an A3-sized page") {
  viz::Diagram big = viz::layout_diagram(Layout(T({256, 256}), T({256, 1})));
  CHECK(big.heatmap());
  const viz::Geometry g = viz::compute_geometry(big);
  CHECK(g.heatmap);
  CHECK(g.width <= 842);   // A3 is 842 x 1191 pt
  CHECK(g.height <= 1191);
  const std::int64_t step = g.panels[0].tick_step;
  CHECK(step > 1);
  CHECK(static_cast<double>(step) * g.panels[0].cell_w >= g.style.header_font);
  const std::string svg = viz::to_svg(big);
  // Cell labels are gone: text is only ticks (2 x 256/step), the legend and titles.
  std::size_t texts = 0;
  for (std::size_t at = svg.find("<text"); at != std::string::npos; at = svg.find("<text", at + 1)) ++texts;
  CHECK(texts <= static_cast<std::size_t>(2 * (256 / step) + big.legend.items.size() + 4));
  CHECK(svg.find(">0<") != std::string::npos);
  // Below the threshold, and with Density::labels, cells keep their labels.
  viz::Diagram small = viz::layout_diagram(Layout(T({63, 64}), T({64, 1})));
  CHECK_FALSE(small.heatmap());
  big.density = viz::Density::labels;
  CHECK_FALSE(big.heatmap());
  small.density = viz::Density::heatmap;
  CHECK(small.heatmap());
}

// Any text a caller puts in a diagram (titles, labels, tooltips, legend, notes) comes out of
// the SVG, HTML and TikZ writers as drawable text: well-formed UTF-8 without control
// characters, what XML 1.0 can hold (the CLI refuses such a --title; tests/viz/svg_xml_test.py
// parses what the CLI writes).
TEST_CASE("drawable text: any bytes in a diagram's text give documents without undrawable characters") {
  CHECK(viz::first_undrawable("plain \xe2\x82\xac\t\n") == std::string::npos);
  CHECK(viz::first_undrawable("my\x01tile") == 2);
  CHECK(viz::first_undrawable("ok\xff") == 2);
  CHECK(viz::first_undrawable("\xed\xa0\x80") == 0);      // a surrogate
  CHECK(viz::first_undrawable("\xc0\xaf") == 0);          // overlong '/'
  CHECK(viz::first_undrawable("a\xc2\x85") == 1);         // C1 control (NEL)
  CHECK(viz::first_undrawable("\xef\xbf\xbe") == 0);      // U+FFFE
  CHECK(viz::drawable_text("a\x01" "b\xff") == "a\xef\xbf\xbd" "b\xef\xbf\xbd");
  rc::prop("the writers never emit an undrawable character", [] {
    const auto text = *rc::gen::container<std::string>(rc::gen::arbitrary<char>());
    viz::Diagram d = viz::layout_diagram(tessera::rt::Layout(viz_cases::T({2, 2}), viz_cases::T({1, 2})));
    d.title = text;
    d.panels[0].title = text;
    d.panels[0].at(0, 0).label = text;
    d.panels[0].at(0, 1).tooltip = text;
    d.legend.title = text;
    d.notes.push_back(text);
    for (const std::string& doc : {viz::to_svg(d), viz::to_html(d), viz::to_tikz(d)})
      RC_ASSERT(viz::first_undrawable(doc) == std::string::npos);
  });
}
