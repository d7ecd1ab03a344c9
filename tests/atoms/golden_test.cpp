// Golden diagrams of atoms, tiled MMAs, a tiled copy and a bank map, built exactly as the
// CLI builds them (registry -> runtime tiled objects -> viz builders), compared byte for
// byte in txt/svg/tex; PNG and PDF checked for sanity. TESSERA_UPDATE_GOLDEN=1 rewrites
// the files (review the diff before committing).
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <set>
#include <vector>

#include "../golden_file.hpp"
#include "tessera/analysis/banks.hpp"
#include "tessera/viz/atom_diagrams.hpp"
#include "tessera/rt/atom_registry.hpp"
#include "tessera/rt/tiled.hpp"
#include "tessera/viz/backends.hpp"
#include "tessera/viz/build_banks.hpp"
#include "tessera/viz/build_copy.hpp"
#include "tessera/viz/build_mma.hpp"
#include "tessera/viz/output.hpp"

using namespace tessera;

namespace {

viz::Diagram mma(const std::string& name, const std::string& atoms_opt) {
  const rt::MmaAtomInfo* a = rt::find_mma(name);
  REQUIRE(a != nullptr);
  const rt::TiledMma t =
      rt::make_tiled_mma(*a, rt::parse_atom_layout(atoms_opt.empty() ? "1x1x1" : atoms_opt));
  viz::MmaTvLayouts l = viz::mma_tv_layouts(t, a->name);
  if (!atoms_opt.empty()) l.name += " atoms " + atoms_opt;
  return viz::mma_diagram(l);
}

viz::Diagram ldsm_copy() {
  const rt::TiledMma t =
      rt::make_tiled_mma(*rt::find_mma("SM80_16x8x16_F32F16F16F32_TN"), rt::parse_atom_layout("1x1x1"));
  const rt::CopyAtomInfo* c = rt::find_copy("SM75_U32x4_LDSM_N");
  const rt::TiledCopy tc = rt::make_tiled_copy_for(rt::copy_atom_view(*c, 16), t, 'A');
  return viz::copy_diagram(viz::copy_tv_layouts(tc, c->name + " (16-bit)"));
}

viz::Diagram banks_sw() {
  auto tup = [](std::vector<rt::IntTuple> v) { return rt::IntTuple::tuple(std::move(v)); };
  const rt::SwizzledLayout sw{rt::Swizzle(3, 3, 3), rt::Layout(tup({8, 64}), tup({64, 1}))};
  const analysis::SmemTile smem = analysis::smem_tile(sw);
  const rt::Layout tv(tup({tup({8, 4}), tup({8, 2})}), tup({tup({1, 64}), tup({8, 256})}));
  const analysis::BankAnalysis a = analysis::analyze_banks(smem, analysis::access_of_tv(tv, 8, 64, 8), 16);
  return viz::banks_diagram({smem.text, smem.row_shape, smem.col_shape,
                             [&](std::int64_t m, std::int64_t n) { return smem.offset(m + 8 * n); }, 16,
                             a.cell_degree, a.cell_thread, a.cell_value, a.cell_bank_threads});
}

struct Case {
  std::string name;
  viz::Diagram d;
};
std::vector<Case> cases() {
  return {{"mma_sm80_16x8x16", mma("SM80_16x8x16_F32F16F16F32_TN", "")},
          {"mma_sm70_8x8x4", mma("SM70_8x8x4_F32F16F16F32_TN", "")},
          {"mma_sm90_64x8x16_rs", mma("SM90_64x8x16_F32F16F16_RS", "")},
          {"mma_sm80_16x8x8_2x2x1", mma("SM80_16x8x8_F16F16F16F16_TN", "2x2x1")},
          {"copy_ldsm_x4_a", ldsm_copy()},
          {"banks_sw333_8x64", banks_sw()}};
}

}  // namespace

TEST_CASE("atom diagrams match the golden files (txt, svg, tex)", "[atoms][golden]") {
  for (const auto& c : cases())
    for (viz::Format f : {viz::Format::txt, viz::Format::svg, viz::Format::tex}) {
      const std::string path =
          std::string(TESSERA_TEST_DATA_DIR) + "/" + c.name + "." + std::string(viz::format_name(f));
      tessera_test::check_golden(path, viz::render_text(c.d, f));
    }
}

TEST_CASE("A/B replication is drawn without conflict marks; C covers its tile once", "[atoms][golden]") {
  const viz::Diagram d = mma("SM80_16x8x8_F16F16F16F16_TN", "2x2x1");
  REQUIRE(d.panels.size() == 3);
  for (const auto& p : d.panels)
    for (const auto& cell : p.cells) {
      CHECK(cell.present);
      CHECK(cell.highlight == viz::Highlight::none);
    }
  // A (32x8) is held by two threads per cell (two N-atoms): the tooltip lists both.
  CHECK(d.panels[0].at(0, 0).tooltip.find("thread 0 value 0; thread 64 value 0") != std::string::npos);
}

TEST_CASE("one SM70 quad-pair is drawn with its lanes 0-3 and 16-19, C once each", "[atoms][golden]") {
  const viz::Diagram d = mma("SM70_8x8x4_F32F16F16F32_TN", "");
  std::set<std::string> threads;
  for (const auto& cell : d.panels[2].cells) {
    REQUIRE(cell.present);
    CHECK(cell.highlight == viz::Highlight::none);
    threads.insert(cell.label);
  }
  CHECK(threads == std::set<std::string>{"T0", "T1", "T2", "T3", "T16", "T17", "T18", "T19"});
}

TEST_CASE("PNG and PDF of an MMA diagram", "[atoms][golden][image]") {
  if (!viz::has_cairo()) return;
  const auto dir = std::filesystem::temp_directory_path() / ("tessera_atoms_golden_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const viz::Diagram d = mma("SM80_16x8x16_F32F16F16F32_TN", "2x2x1");
  const std::string png = (dir / "m.png").string(), pdf = (dir / "m.pdf").string();
  viz::render_to_file(d, viz::Format::png, png);
  viz::render_to_file(d, viz::Format::pdf, pdf);
  const std::string p = tessera_test::read_file(png), q = tessera_test::read_file(pdf);
  CHECK(p.size() > 1000);
  CHECK(p.substr(0, 8) == std::string("\x89PNG\r\n\x1a\n", 8));
  CHECK(q.size() > 1000);
  CHECK(q.substr(0, 5) == "%PDF-");
  std::filesystem::remove_all(dir);
}
