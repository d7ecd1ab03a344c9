#include "tessera/verify/diagram.hpp"

#include <algorithm>

#include "tessera/viz/arrange.hpp"
#include "tessera/viz/build_tv.hpp"
#include "tessera/viz/error.hpp"

namespace tessera::verify {

namespace {

// invert_tv's order: value outer, thread inner; observed hits are sorted the same way so
// that a correct trace gives cell for cell the expected labels.
bool before(const viz::TvHit& a, const viz::TvHit& b) {
  return a.value != b.value ? a.value < b.value : a.thread < b.thread;
}

std::string hits_text(const std::vector<viz::TvHit>& hits) {
  if (hits.empty()) return "nothing";
  std::string s;
  for (const viz::TvHit& h : hits) s += "T" + std::to_string(h.thread) + " V" + std::to_string(h.value) + ", ";
  s.resize(s.size() - 2);
  return s;
}

}  // namespace

viz::Diagram diff_diagram(const Trace& t, const Map& m, std::int64_t* mismatching_cells) {
  const std::string why = check_map(m);
  if (!why.empty()) throw viz::Error("map '" + m.name + "': " + why);
  const viz::TvTile tile = viz::tile_of_shape(m.tile);
  const std::int64_t rows = tile.rows(), cols = tile.cols();
  if (rows * cols > kMaxDiagramCells)  // rows*cols <= 2^63: check_map computed the product
    throw viz::Error("the tile " + tile.text + " of map '" + m.name + "' has " + std::to_string(rows * cols) +
                     " cells, more than tessera draws (" + std::to_string(kMaxDiagramCells) + ")");
  const viz::TvFunction tv = viz::tv_of_layout(m.tv);
  const viz::TvInverse inv = viz::invert_tv(tv, tile);
  viz::Panel expected = viz::tv_panel(tv, tile, inv);

  // The observed inverse map, from the records.
  viz::TvInverse obs;
  obs.rows = rows;
  obs.cols = cols;
  obs.hits.resize(inv.hits.size());
  const std::int64_t nt = num_threads(m), nv = num_values(m);
  std::int64_t recorded = 0, undrawn = 0;
  for (const Record& r : t.records) {
    if (r.map != m.name) continue;
    ++recorded;
    if (r.thread < 0 || r.thread >= nt || r.value < 0 || r.value >= nv || r.row < 0 || r.row >= rows || r.col < 0 ||
        r.col >= cols) {
      ++undrawn;
      continue;
    }
    obs.hits[static_cast<std::size_t>(r.row * cols + r.col)].push_back(viz::TvHit{r.thread, r.value});
  }
  for (auto& h : obs.hits) {
    std::sort(h.begin(), h.end(), before);
    obs.uncovered += h.empty() ? 1 : 0;
    obs.repeated += h.size() > 1 ? 1 : 0;
  }
  viz::Panel observed = viz::tv_panel(tv, tile, obs);
  expected.title = "expected: " + tv.text;
  observed.title = "observed: " + std::to_string(recorded) + (recorded == 1 ? " record" : " records");
  observed.subtitle = "tile " + tile.text + ": cell (m,n) shows the thread T, value V recorded there";

  viz::Diagram d = viz::diff_diagram(std::move(expected), std::move(observed));
  // diff_diagram compares the first holder of each cell; a cell held by several pairs
  // (e.g. an A fragment broadcast over warps) differs whenever any holder differs.
  // A cell held by several pairs by design (an A fragment replicated over N-atoms) is
  // no conflict when the records agree: only cells held more often than TV says keep the
  // red outline, so the picture shows what is wrong and nothing else.
  std::int64_t mismatches = 0, extra = 0;
  viz::Panel& e = d.panels[0];
  viz::Panel& o = d.panels[1];
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < cols; ++c) {
      viz::Cell& cell = o.at(r, c);
      const auto& want = inv.at(r, c);
      const auto& got = obs.at(r, c);
      const bool differs = want != got;
      if (differs && cell.highlight != viz::Highlight::mismatch) {
        cell.highlight = viz::Highlight::mismatch;
        cell.tooltip += " (expected " + hits_text(want) + ")";
      }
      if (e.at(r, c).highlight == viz::Highlight::conflict) e.at(r, c).highlight = viz::Highlight::none;
      if (cell.highlight == viz::Highlight::conflict && got.size() <= want.size()) cell.highlight = viz::Highlight::none;
      mismatches += differs ? 1 : 0;
      extra += got.size() > want.size() ? 1 : 0;
    }
  d.title = "map " + m.name + ": expected vs observed";
  d.notes.clear();
  d.notes.push_back(mismatches == 0 ? "no mismatching cells"
                                    : std::to_string(mismatches) +
                                          " mismatching cell(s): red, the expected holders in the tooltip");
  if (extra > 0)
    d.notes.push_back(std::to_string(extra) + " cell(s) recorded by more (thread,value) pairs than the map puts there");
  if (inv.repeated > 0)
    d.notes.push_back(std::to_string(inv.repeated) + " cell(s) held by several (thread,value) pairs by the map " +
                      "(replicated): the first is shown, all are in the tooltip");
  if (undrawn > 0)
    d.notes.push_back(std::to_string(undrawn) + " record(s) outside the tile or the map's domain: not drawn");
  if (mismatching_cells) *mismatching_cells = mismatches;
  return d;
}

}  // namespace tessera::verify
