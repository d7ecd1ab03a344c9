// The verifier on tiled MMA maps (from the atoms registry, as `tessera mma` computes them)
// and its diff diagram: mismatching cells are exactly the cells whose recorded holders
// differ from the map's; a golden SVG of a small diff.
// Regenerate the golden file after an intended change with:
//   TESSERA_UPDATE_GOLDEN=1 ./verify_diagram_test
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "tessera/rt/atom_registry.hpp"
#include "tessera/rt/tiled.hpp"
#include "../golden_file.hpp"
#include "fixtures.hpp"
#include "tessera/verify/diagram.hpp"
#include "tessera/viz/backends.hpp"
#include "tessera/viz/error.hpp"

using namespace verify_fixtures;

namespace {

tv::Trace correct_trace(const std::vector<tv::Map>& maps) {
  tv::Trace t;
  t.maps = maps;
  for (const auto& m : maps)
    for (auto& r : tv::expected_records(m)) t.records.push_back(r);
  return t;
}

// The A, B and C maps of a tiled MMA, tiles (M,K), (N,K), (M,N).
std::vector<tv::Map> tiled_maps(const std::string& atom, const std::string& atoms) {
  const tessera::rt::MmaAtomInfo* info = tessera::rt::find_mma(atom);
  REQUIRE(info);
  const auto tm = tessera::rt::make_tiled_mma(*info, tessera::rt::parse_atom_layout(atoms));
  const auto [m, n, k] = tm.tile;
  return {tv::make_map("mma.A", T({m, k}), tm.layout_a_tv), tv::make_map("mma.B", T({n, k}), tm.layout_b_tv),
          tv::make_map("mma.C", T({m, n}), tm.layout_c_tv)};
}

// Holders per cell: cell -> sorted (thread, value) pairs, by definition.
using Holders = std::map<std::pair<std::int64_t, std::int64_t>, std::multiset<std::pair<std::int64_t, std::int64_t>>>;
Holders holders(const std::vector<tv::Record>& recs, const tv::Map& m) {
  Holders h;
  const std::int64_t rows = rt::product(m.tile[0]), cols = rt::product(m.tile[1]);
  for (const auto& r : recs)
    if (r.map == m.name && r.thread >= 0 && r.thread < tv::num_threads(m) && r.value >= 0 &&
        r.value < tv::num_values(m) && r.row >= 0 && r.row < rows && r.col >= 0 && r.col < cols)
      h[{r.row, r.col}].insert({r.thread, r.value});
  return h;
}

}  // namespace

TEST_CASE("tiled MMA maps: correct traces verify; operands replicated over the atoms of their missing mode") {
  for (const auto& [atom, atoms] : std::vector<std::pair<std::string, std::string>>{
           {"SM80_16x8x16_F32BF16BF16F32_TN", "2x2x1"}, {"SM80_16x8x8_F16F16F16F16_TN", "2x1x2"},
           {"SM80_16x8x16_F32F16F16F32_TN", "1x4x1"}}) {
    INFO(atom << " atoms " << atoms);
    const auto maps = tiled_maps(atom, atoms);
    const tv::Trace t = correct_trace(maps);
    const tv::Report r = tv::verify(t);
    CHECK(r.ok);
    // Each element is held once per atom along the mode the operand does not have:
    // A (M,K) once per N-atom, B (N,K) once per M-atom, C (M,N) once per K-atom.
    const std::int64_t count[3] = {atoms[2] - '0', atoms[0] - '0', atoms[4] - '0'};
    for (int op = 0; op < 3; ++op) {
      const auto h = holders(t.records, maps[op]);
      CHECK(static_cast<std::int64_t>(h.size()) == rt::product(maps[op].tile));  // every element held
      for (const auto& [cell, hs] : h) CHECK(static_cast<std::int64_t>(hs.size()) == count[op]);
    }
    // The text format keeps the maps exactly.
    std::istringstream in(tv::to_string(t));
    CHECK(tv::to_string(tv::parse_trace(in, "x")) == tv::to_string(t));
  }
}

TEST_CASE("tiled copy maps (as a kernel's copy.gA->sA, copy.sA->rA) verify, and a permuted thread is caught") {
  namespace at = tessera::rt;
  const at::CopyAtomView ldsm = at::copy_atom_view(*at::find_copy("SM75_U32x4_LDSM_N"), 16);
  const at::CopyAtomView u128 = at::copy_atom_view(*at::find_copy("UniversalCopy<uint128_t>"), 16);
  const auto mma = at::make_tiled_mma(*at::find_mma("SM80_16x8x16_F32F16F16F32_TN"), at::parse_atom_layout("2x2x1"));
  const auto s2r = at::make_tiled_copy_for(ldsm, mma, 'A');
  const auto g2s = at::make_tiled_copy(u128, rt::Layout(T({16, 8}), T({8, 1})), rt::Layout(T({1, 8}), T({1, 1})));
  for (const auto& [name, copy] : std::vector<std::pair<std::string, at::TiledCopy>>{{"copy.sA->rA", s2r}, {"copy.gA->sA", g2s}}) {
    INFO(name << " over " << rt::to_string(copy.tiler));
    const std::vector<tv::Map> maps = {tv::make_map(name + ".src", copy.tiler, copy.layout_s_tv),
                                       tv::make_map(name + ".dst", copy.tiler, copy.layout_d_tv)};
    tv::Trace t = correct_trace(maps);
    CHECK(tv::verify(t).ok);
    // Thread 3 delivers its values 0 and 1 in swapped places on the destination side.
    tv::Record* v0 = nullptr;
    tv::Record* v1 = nullptr;
    for (auto& r : t.records)
      if (r.map == maps[1].name && r.thread == 3) {
        if (r.value == 0) v0 = &r;
        if (r.value == 1) v1 = &r;
      }
    REQUIRE(v0);
    REQUIRE(v1);
    std::swap(v0->row, v1->row);
    std::swap(v0->col, v1->col);
    const tv::Report r = tv::verify(t);
    CHECK_FALSE(r.ok);
    CHECK(r.maps[0].findings == 0);
    REQUIRE(r.maps[1].findings == 2);
    CHECK(r.maps[1].first[0].kind == tv::Finding::mismatch);
    CHECK(r.maps[1].first[0].thread == 3);
    std::int64_t cells = 0;
    (void)tv::diff_diagram(t, maps[1], &cells);
    CHECK(cells == 2);
  }
}

TEST_CASE("diff diagram: red cells are exactly the cells whose holders differ") {
  const auto tiled = tiled_maps("SM80_16x8x16_F32BF16BF16F32_TN", "2x2x1");
  rc::prop("mismatching cells == cells whose recorded holders differ", [&] {
    const tv::Map m = *rc::gen::element(0, 1, 2, 3) == 3 ? tiled[*rc::gen::element<std::size_t>(0, 1, 2)]
                                                          : *gen_any_map("m");
    tv::Trace t = correct_trace({m});
    const std::int64_t rows = rt::product(m.tile[0]), cols = rt::product(m.tile[1]);
    const int changes = *rc::gen::inRange(0, 4);
    for (int c = 0; c < changes && !t.records.empty(); ++c) {
      const std::size_t i = *rc::gen::inRange<std::size_t>(0, t.records.size());
      switch (*rc::gen::element(0, 1, 2, 3)) {
        case 0: t.records.erase(t.records.begin() + static_cast<std::ptrdiff_t>(i)); break;
        case 1: t.records.push_back(t.records[i]); break;
        case 2:
          t.records[i].row = *rc::gen::inRange<std::int64_t>(-1, rows + 1);
          t.records[i].col = *rc::gen::inRange<std::int64_t>(-1, cols + 1);
          break;
        case 3: t.records[i].thread = *rc::gen::inRange<std::int64_t>(0, tv::num_threads(m) + 2); break;
      }
    }
    std::int64_t n = -1;
    const tessera::viz::Diagram d = tv::diff_diagram(t, m, &n);
    RC_ASSERT(d.panels.size() == 2u);
    const auto want = holders(tv::expected_records(m), m), got = holders(t.records, m);
    std::int64_t differing = 0;
    for (std::int64_t r = 0; r < rows; ++r)
      for (std::int64_t c = 0; c < cols; ++c) {
        auto w = want.find({r, c});
        auto g = got.find({r, c});
        const bool differs = (w == want.end()) != (g == got.end()) || (w != want.end() && w->second != g->second);
        differing += differs;
        RC_ASSERT((d.panels[1].at(r, c).highlight == tessera::viz::Highlight::mismatch) == differs);
        // Replication the map asks for is not flagged: the expected panel has no highlights,
        // and an agreeing observed cell neither.
        RC_ASSERT(d.panels[0].at(r, c).highlight == tessera::viz::Highlight::none);
        if (!differs) RC_ASSERT(d.panels[1].at(r, c).highlight == tessera::viz::Highlight::none);
      }
    RC_ASSERT(n == differing);
    // A verified trace draws no red; a drawn mismatch means verify found something.
    if (tv::verify(t).ok) RC_ASSERT(n == 0);
    if (n > 0) RC_ASSERT(!tv::verify(t).ok);
  });
}

TEST_CASE("diff diagram refuses tiles too large to draw") {
  const tv::Map big = tv::make_map("big", T({512, 256}), rt::Layout(T({128, 1024}), T({1, 128})));
  CHECK_THROWS_AS(tv::diff_diagram(correct_trace({big}), big), tessera::viz::Error);
}

TEST_CASE("golden SVG of a small diff") {
  // The SM80 C fragment; thread 5's values 0 and 1 swapped, thread 7 value 2 lost,
  // thread 9 value 3 recorded twice.
  const tv::Map c = sm80_c();
  tv::Trace t = correct_trace({c});
  std::swap(t.records[5].col, t.records[5 + 32].col);
  t.records.push_back(t.records[9 + 96]);
  t.records.erase(t.records.begin() + 7 + 64);
  std::int64_t n = 0;
  const std::string svg = tessera::viz::to_svg(tv::diff_diagram(t, c, &n));
  CHECK(n == 4);
  CHECK(svg.find("#d62728") != std::string::npos);  // mismatch red
  const std::string path = std::string(TESSERA_TEST_DATA_DIR) + "/diff_sm80_c.svg";
  tessera_test::check_golden(path, svg);
}
