#include "tessera/viz/build_mma.hpp"

#include "tessera/viz/arrange.hpp"
#include "tessera/viz/build_tv.hpp"

namespace tessera::viz {

namespace {
rt::IntTuple pair(std::int64_t a, std::int64_t b) { return rt::IntTuple::tuple({a, b}); }

constexpr std::size_t kListedPairs = 8;

struct Built {
  Panel panel;
  std::int64_t repeated = 0, uncovered = 0;
};

Built operand(const char* name, const rt::Layout& tv_layout, const TvTile& tile, bool replication_expected,
              const std::function<std::int64_t(std::int64_t)>& thread_id, std::int64_t atom_threads) {
  const TvFunction tv = tv_of_layout(tv_layout);
  TvInverse inv = invert_tv(tv, tile);
  if (thread_id)
    for (auto& hits : inv.hits)
      for (TvHit& h : hits) h.thread = thread_id(h.thread);
  Built b{tv_panel(tv, tile, inv), inv.repeated, inv.uncovered};
  b.panel.title = std::string(name) + " " + b.panel.title;
  if (atom_threads > 0)
    for (Cell& c : b.panel.cells)
      if (c.thread != Cell::kNone) c.atom = c.thread / atom_threads;
  if (replication_expected)
    for (Cell& c : b.panel.cells)
      if (c.highlight == Highlight::conflict) c.highlight = Highlight::none;
  // An smem operand of wgmma is "held" by all 128 threads: list a few pairs, not all.
  for (std::int64_t m = 0; m < inv.rows; ++m)
    for (std::int64_t n = 0; n < inv.cols; ++n) {
      const auto& hits = inv.at(m, n);
      if (hits.size() <= kListedPairs) continue;
      Cell& c = b.panel.at(m, n);
      c.tooltip = "(" + std::to_string(m) + "," + std::to_string(n) + ") index " + std::to_string(tile.index(m, n));
      for (std::size_t i = 0; i < kListedPairs; ++i)
        c.tooltip += " thread " + std::to_string(hits[i].thread) + " value " + std::to_string(hits[i].value) + ";";
      c.tooltip += " ... (" + std::to_string(hits.size()) + " pairs in all)";
    }
  return b;
}
}  // namespace

Diagram mma_diagram(const MmaTvLayouts& mma) {
  Built a = operand("A", mma.a_tv, tile_of_shape(pair(mma.m, mma.k)), true, mma.thread_id, mma.atom_threads);
  Built b = operand("B", mma.b_tv, transposed(tile_of_shape(pair(mma.n, mma.k))), true, mma.thread_id, mma.atom_threads);
  Built c = operand("C", mma.c_tv, tile_of_shape(pair(mma.m, mma.n)), false, mma.thread_id, mma.atom_threads);
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
