#include "viz/build_mma.hpp"

#include "viz/arrange.hpp"
#include "viz/build_tv.hpp"

namespace tessera::viz {

namespace {
rt::IntTuple pair(std::int64_t a, std::int64_t b) { return rt::IntTuple::tuple({a, b}); }

struct Built {
  Panel panel;
  std::int64_t repeated = 0, uncovered = 0;
};

Built operand(const char* name, const rt::Layout& tv_layout, const TvTile& tile, bool replication_expected) {
  const TvFunction tv = tv_of_layout(tv_layout);
  const TvInverse inv = invert_tv(tv, tile);
  Built b{tv_panel(tv, tile, inv), inv.repeated, inv.uncovered};
  b.panel.title = std::string(name) + " " + b.panel.title;
  if (replication_expected)
    for (Cell& c : b.panel.cells)
      if (c.highlight == Highlight::conflict) c.highlight = Highlight::none;
  return b;
}
}  // namespace

Diagram mma_diagram(const MmaTvLayouts& mma) {
  Built a = operand("A", mma.a_tv, tile_of_shape(pair(mma.m, mma.k)), true);
  Built b = operand("B", mma.b_tv, transposed(tile_of_shape(pair(mma.n, mma.k))), true);
  Built c = operand("C", mma.c_tv, tile_of_shape(pair(mma.m, mma.n)), false);
  a.panel.subtitle = "A (M,K) = (" + std::to_string(mma.m) + "," + std::to_string(mma.k) + ")";
  b.panel.subtitle = "B (N,K) = (" + std::to_string(mma.n) + "," + std::to_string(mma.k) + "), drawn K x N";
  c.panel.subtitle = "C (M,N) = (" + std::to_string(mma.m) + "," + std::to_string(mma.n) + ")";
  Diagram d = mma_arrangement(std::move(a.panel), std::move(b.panel), std::move(c.panel));
  d.title = mma.name;
  d.notes.push_back("cell: thread T, value V holding it; colour follows the thread");
  if (a.repeated || b.repeated)
    d.notes.push_back("A and B cells held by several threads (replicated across atoms) show the first; the tooltip lists all");
  if (a.uncovered || b.uncovered || c.uncovered)
    d.notes.push_back(std::to_string(a.uncovered + b.uncovered + c.uncovered) + " cell(s) held by no thread: blank");
  if (c.repeated)
    d.notes.push_back(std::to_string(c.repeated) + " C cell(s) held more than once: red outline");
  return d;
}

}  // namespace tessera::viz
