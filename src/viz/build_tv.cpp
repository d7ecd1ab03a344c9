#include "tessera/viz/build_tv.hpp"

#include <unordered_map>

#include "tessera/viz/build_layout.hpp"
#include "tessera/viz/colors.hpp"
#include "tessera/viz/error.hpp"

namespace tessera::viz {

namespace {
std::pair<rt::IntTuple, rt::IntTuple> two_modes(const rt::IntTuple& shape) {
  if (shape.is_leaf()) return {rt::IntTuple(1), shape};
  if (shape.rank() == 1) return {rt::IntTuple(1), shape[0]};
  return {shape[0], shape[1]};
}
std::string pair_text(std::int64_t a, std::int64_t b) { return "(" + std::to_string(a) + "," + std::to_string(b) + ")"; }
}  // namespace

std::int64_t TvTile::rows() const { return rt::product(row_shape); }
std::int64_t TvTile::cols() const { return rt::product(col_shape); }
std::int64_t TvFunction::threads() const { return rt::product(thr_shape); }
std::int64_t TvFunction::values() const { return rt::product(val_shape); }

TvTile tile_of_shape(const rt::IntTuple& shape) {
  if (shape.is_tuple() && (shape.rank() == 0 || shape.rank() > 2))
    throw Error("the tile " + rt::to_string(shape) + " must have one or two modes, (M,N)");
  for (std::int64_t e : rt::leaves(shape))
    if (e <= 0) throw Error("the tile " + rt::to_string(shape) + " has an extent " + std::to_string(e) + ": extents must be positive");
  auto [rs, cs] = two_modes(shape);
  const std::int64_t m = rt::product(rs);
  return TvTile{rt::to_string(shape), rs, cs, [m](std::int64_t r, std::int64_t c) { return r + m * c; }};
}

TvTile tile_of_layout(const rt::Layout& tile) {
  if (tile.shape.is_tuple() && (tile.rank() == 0 || tile.rank() > 2))
    throw Error("the tile " + rt::to_string(tile) + " must have one or two modes, (M,N):(s,t)");
  auto [rs, cs] = two_modes(tile.shape);
  const std::int64_t m = rt::product(rs);
  return TvTile{rt::to_string(tile), rs, cs, [tile, m](std::int64_t r, std::int64_t c) { return tile(r + m * c); }};
}

TvFunction tv_of_layout(const rt::Layout& tv) {
  if (tv.rank() != 2 || tv.shape.is_leaf())
    throw Error("a TV layout has two modes, (threads,values) -> tile index; " + rt::to_string(tv) + " has rank " +
                std::to_string(tv.rank()));
  const rt::IntTuple ts = tv.shape[0];
  const std::int64_t nt = rt::product(ts);
  return TvFunction{rt::to_string(tv), ts, tv.shape[1],
                    [tv, nt](std::int64_t t, std::int64_t v) { return tv(t + nt * v); }};
}

TvInverse invert_tv(const TvFunction& tv, const TvTile& tile) {
  TvInverse inv;
  inv.rows = tile.rows();
  inv.cols = tile.cols();
  inv.hits.resize(static_cast<std::size_t>(inv.rows * inv.cols));
  // tile index -> cell, refusing a tile that sends two cells to one index.
  std::unordered_map<std::int64_t, std::int64_t> cell_of;
  cell_of.reserve(inv.hits.size());
  for (std::int64_t n = 0; n < inv.cols; ++n)
    for (std::int64_t m = 0; m < inv.rows; ++m) {
      const std::int64_t i = tile.index(m, n);
      auto [it, fresh] = cell_of.emplace(i, m * inv.cols + n);
      if (!fresh) {
        const std::int64_t other = it->second;
        throw Error("the tile " + tile.text + " is not injective: cells " +
                    pair_text(other / inv.cols, other % inv.cols) + " and " + pair_text(m, n) +
                    " both have index " + std::to_string(i));
      }
    }
  const std::int64_t nt = tv.threads(), nv = tv.values();
  for (std::int64_t v = 0; v < nv; ++v)
    for (std::int64_t t = 0; t < nt; ++t) {
      const std::int64_t i = tv.index(t, v);
      auto it = cell_of.find(i);
      if (it == cell_of.end())
        throw Error("the TV layout " + tv.text + " sends (thread " + std::to_string(t) + ", value " +
                    std::to_string(v) + ") to index " + std::to_string(i) + ", which is not in the tile " +
                    tile.text + " (" + std::to_string(inv.rows) + "x" + std::to_string(inv.cols) + " cells)");
      inv.hits[static_cast<std::size_t>(it->second)].push_back(TvHit{t, v});
    }
  for (const auto& h : inv.hits) {
    inv.uncovered += h.empty() ? 1 : 0;
    inv.repeated += h.size() > 1 ? 1 : 0;
  }
  return inv;
}

Panel tv_panel(const TvFunction& tv, const TvTile& tile, const TvInverse& inv) {
  Panel p(inv.rows, inv.cols);
  p.title = tv.text;
  p.subtitle = "tile " + tile.text + ": cell (m,n) shows thread T, value V";
  p.rows.headers = index_headers(inv.rows);
  p.cols.headers = index_headers(inv.cols);
  p.rows.line_level = boundary_levels(mode_tree(tile.row_shape));
  p.cols.line_level = boundary_levels(mode_tree(tile.col_shape));
  for (std::int64_t m = 0; m < inv.rows; ++m)
    for (std::int64_t n = 0; n < inv.cols; ++n) {
      const auto& hits = inv.at(m, n);
      Cell& c = p.at(m, n);
      const std::string where = pair_text(m, n) + " index " + std::to_string(tile.index(m, n));
      c.offset = tile.index(m, n);
      if (hits.empty()) {
        c.tooltip = where + " not held by any thread";
        continue;
      }
      const TvHit first = hits.front();
      c.present = true;
      c.thread = first.thread;
      c.value = first.value;
      c.label = "T" + std::to_string(first.thread);
      c.label2 = "V" + std::to_string(first.value);
      c.tooltip = where;
      for (const TvHit& h : hits) c.tooltip += " thread " + std::to_string(h.thread) + " value " + std::to_string(h.value) + ";";
      c.tooltip.pop_back();
      if (hits.size() > 1) {
        c.highlight = Highlight::conflict;
        c.tooltip += " (held " + std::to_string(hits.size()) + " times)";
      }
    }
  return p;
}

Diagram tv_diagram(const TvFunction& tv, const TvTile& tile) {
  const TvInverse inv = invert_tv(tv, tile);
  Diagram d;
  d.panels.push_back(tv_panel(tv, tile, inv));
  if (inv.uncovered > 0)
    d.notes.push_back(std::to_string(inv.uncovered) + " cell(s) held by no (thread,value): drawn blank");
  if (inv.repeated > 0)
    d.notes.push_back(std::to_string(inv.repeated) +
                      " cell(s) held by more than one (thread,value): red outline, marked ! in text, first pair shown");
  apply_colors(d);
  return d;
}

}  // namespace tessera::viz
