// The shared-memory operands `tessera mma` draws for SM90 SS/RS atoms: the buffer is the
// static tier's GMMA::make_smem_layout, every cell shows its element's byte offset, and every
// descriptor the diagram lists is the one GMMA::make_gmma_descriptor gives for that slice.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "tessera/atom/gmma_descriptor.hpp"
#include "tessera/rt/atom_registry.hpp"
#include "tessera/rt/tiled.hpp"
#include "tessera/rt/to_runtime_swizzled.hpp"
#include "tessera/viz/atom_diagrams.hpp"
#include "tessera/viz/backends.hpp"
#include "tessera/viz/build_mma.hpp"
#include "tessera/viz/geometry.hpp"

using namespace tessera;
using GMMA::Major;

namespace {

// The operand (MN, K) of 16-bit elements read by (AMN, 16) instructions, from the atom
// <Major, Swizzle>: the diagram's buffer and descriptors against the static tier's.
template <Major MJ, int SW, int MN, int K, int AMN>
void check_against_static() {
  const analysis::GmmaAtomSpec spec{16, MJ, SW};
  INFO(analysis::gmma_atom_name(spec) << " (" << MN << "," << K << ") blocks of " << AMN);
  const viz::SmemOperandTile t = viz::smem_operand_tile(spec, MN, K, AMN, 16);
  constexpr int AK = MJ == Major::K ? SW / 2 : 8;  // the atom's K: a row of SW bytes, or 8 rows
  constexpr int BK = (K + AK - 1) / AK * AK;
  CHECK(t.buffer_k == BK);
  constexpr auto S = GMMA::make_smem_layout<16, MJ, SW>(make_shape(C<MN>{}, C<BK>{}));
  CHECK(t.buffer == rt::to_runtime(S));
  for (int mn = 0; mn < MN; ++mn)
    for (int k = 0; k < K; ++k) REQUIRE(t.byte_offset(mn, k) == int64_t(to_i64(S(mn, k))) * 2);
  REQUIRE(t.blocks.size() == std::size_t(MN / AMN * (K / 16)));
  std::size_t i = 0;
  [&]<int... J>(std::integer_sequence<int, J...>) {
    // blocks in the diagram's order: MN fastest, then K
    ((
         [&] {
           constexpr int bm = J % (MN / AMN), bk = J / (MN / AMN);
           constexpr auto slice =
               logical_divide(S, make_shape(C<AMN>{}, _16{}))(make_coord(_, C<bm>{}), make_coord(_, C<bk>{}));
           // Without a swizzle the slice is a plain layout, whose offset stays with the
           // caller (as CuTe's slice_and_offset): the block starts at S's offset of its corner.
           const GMMA::GmmaDescriptor want = [&] {
             if constexpr (requires { slice.offset(); }) return GMMA::make_gmma_descriptor<MJ, 16>(slice, 0);
             else return GMMA::make_gmma_descriptor<MJ, 16>(slice, S(C<bm * AMN>{}, C<bk * 16>{}), 0);
           }();
           const viz::SmemOperandTile::Block& b = t.blocks[i++];
           CHECK(b.mn0 == bm * AMN);
           CHECK(b.k0 == bk * 16);
           CHECK(b.desc.desc == want.desc);
           CHECK(b.desc.start_address() == want.start_address());
           CHECK(b.desc.leading_byte_offset() == want.leading_byte_offset());
           CHECK(b.desc.stride_byte_offset() == want.stride_byte_offset());
           CHECK(b.desc.layout_type() == want.layout_type());
           CHECK(b.desc.base_offset() == want.base_offset());
         }()),
     ...);
  }(std::make_integer_sequence<int, MN / AMN * (K / 16)>{});
}

}  // namespace

TEST_CASE("smem operand: buffer and descriptors are the static tier's, every swizzle and major") {
  check_against_static<Major::K, 128, 64, 16, 64>();
  check_against_static<Major::K, 64, 64, 16, 64>();
  check_against_static<Major::K, 32, 64, 16, 64>();
  check_against_static<Major::K, 16, 64, 16, 64>();
  check_against_static<Major::K, 128, 8, 16, 8>();
  check_against_static<Major::K, 128, 256, 16, 256>();
  check_against_static<Major::K, 128, 128, 32, 64>();  // a 2x1x2 tiled MMA's A: four instructions
  check_against_static<Major::K, 16, 128, 32, 64>();
  check_against_static<Major::MN, 128, 64, 16, 64>();
  check_against_static<Major::MN, 64, 128, 16, 128>();
  check_against_static<Major::MN, 32, 16, 16, 16>();
  check_against_static<Major::MN, 16, 64, 32, 64>();
}

TEST_CASE("smem operand: an atom wider than the operand is refused, naming the fix") {
  CHECK_THROWS_WITH(viz::smem_operand_tile({16, Major::MN, 128}, 8, 16, 8, 16),
                    Catch::Contains("gmma_mn_sw128_b16 is 64 (MN) x 8 (K)") && Catch::Contains("narrower swizzle"));
  CHECK_THROWS_WITH(viz::smem_operand_tile({16, Major::K, 128}, 60, 16, 60, 16), Catch::Contains("MN"));
}

TEST_CASE("smem operand: SS atoms draw A and B as smem tiles with their descriptors; RS only B") {
  const rt::MmaAtomInfo* ss = rt::find_mma("SM90_64x64x16_F32BF16BF16_SS");
  const rt::MmaAtomInfo* rs = rt::find_mma("SM90_64x64x16_F32BF16BF16_RS");
  const rt::MmaAtomInfo* sm80 = rt::find_mma("SM80_16x8x16_F32F16F16F32_TN");
  REQUIRE(ss != nullptr);
  REQUIRE(rs != nullptr);
  REQUIRE(sm80 != nullptr);
  CHECK(ss->a_smem);
  CHECK(ss->b_smem);
  CHECK_FALSE(rs->a_smem);
  CHECK(rs->b_smem);
  CHECK_FALSE((sm80->a_smem || sm80->b_smem));
  CHECK(ss->a_bits == 16);
  const rt::TiledMma t = rt::make_tiled_mma(*ss, rt::parse_atom_layout("1x1x1"));
  const viz::Diagram d = viz::mma_diagram(viz::mma_tv_layouts(t, ss->name));
  const std::string txt = viz::to_text(d);
  // K-major 128B bf16: 8-row groups 1024 B apart, LBO unused (16), start 0 -- the ISA's
  // fields and the 64-bit value make_gmma_descriptor encodes (checked above).
  CHECK(txt.find("A desc M 0-63, K 0-15: start 0 B, LBO 16 B (unused), SBO 1024 B, swizzle 128B, base offset 0 "
                 "(0x4000004000010000)") != std::string::npos);
  CHECK(txt.find("B desc N 0-63, K 0-15: start 0 B, LBO 16 B (unused), SBO 1024 B") != std::string::npos);
  CHECK(txt.find("T0V0") != std::string::npos);  // C is a TV map
  REQUIRE(d.panels.size() == 3);
  const viz::Panel& a = d.panels[0];
  CHECK(a.at(1, 0).label == "144");  // row 1's first 16-byte chunk lands in chunk 1 (1 XOR 0)
  CHECK(a.at(1, 0).thread == viz::Cell::kNone);
  CHECK(a.at(1, 0).chunk == 9);
  // Colour: A and B by chunk, C by thread; the legend says both.
  CHECK(a.at(1, 0).fill != a.at(0, 0).fill);
  CHECK(a.at(0, 0).fill == a.at(1, 8).fill);  // both chunk 0 of their rows... mod 8: 0 and 8 -> palette 0
  CHECK(d.legend.title.find("A, B: 16-byte chunk") != std::string::npos);
  CHECK(d.legend.title.find("C: thread") != std::string::npos);
  // RS: A is the register TV map, B the smem tile.
  const viz::Diagram r = viz::mma_diagram(viz::mma_tv_layouts(rt::make_tiled_mma(*rs, rt::parse_atom_layout("1x1x1")), rs->name));
  CHECK(r.panels[0].at(0, 0).thread == 0);
  CHECK(r.panels[1].at(0, 0).thread == viz::Cell::kNone);
  CHECK(viz::to_text(r).find("A desc") == std::string::npos);
}

TEST_CASE("smem operand: --only's subsets draw just those panels") {
  const rt::MmaAtomInfo* ss = rt::find_mma("SM90_64x256x16_F32BF16BF16_SS");
  REQUIRE(ss != nullptr);
  viz::MmaTvLayouts l = viz::mma_tv_layouts(rt::make_tiled_mma(*ss, rt::parse_atom_layout("1x1x1")), ss->name);
  l.show_a = l.show_b = false;
  const viz::Diagram c = viz::mma_diagram(l);
  REQUIRE(c.panels.size() == 1);
  CHECK(c.panels[0].rows.count == 64);
  CHECK(c.panels[0].cols.count == 256);
  CHECK(viz::to_text(c).find("desc") == std::string::npos);
  l.show_b = true;
  l.show_c = false;
  const viz::Diagram b = viz::mma_diagram(l);
  REQUIRE(b.panels.size() == 1);
  CHECK(b.panels[0].rows.count == 16);  // drawn K x N
  CHECK(viz::to_text(b).find("B desc N 0-255, K 0-15: start 0 B, LBO 16 B (unused), SBO 1024 B") != std::string::npos);
  l.show_b = false;
  CHECK_THROWS_WITH(viz::mma_diagram(l), Catch::Contains("at least one"));
}

TEST_CASE("SM90 atoms print: heatmaps within A3, few fill paths, small files") {
  for (const char* name : {"SM90_64x256x16_F32BF16BF16_SS", "SM90_64x256x16_F16F16F16_RS", "SM90_64x8x16_F32BF16BF16_SS"}) {
    INFO(name);
    const rt::MmaAtomInfo* a = rt::find_mma(name);
    REQUIRE(a != nullptr);
    const viz::Diagram d = viz::mma_diagram(viz::mma_tv_layouts(rt::make_tiled_mma(*a, rt::parse_atom_layout("1x1x1")), a->name));
    const viz::Geometry g = viz::compute_geometry(d);
    CHECK(g.heatmap);  // 64-row fragments: labelled, past A1
    CHECK(viz::fits_a3(g));
    // A run of cells of one colour is one rectangle: C's 64x256 accumulator holds pairs of
    // columns per thread, so at most half as many rectangles as cells.
    std::size_t rects = 0, cells = 0;
    for (const viz::Panel& p : d.panels) {
      rects += viz::fill_rects(p).size();
      cells += static_cast<std::size_t>(p.num_cells());
    }
    CHECK(rects * 2 <= cells);
    const std::string svg = viz::to_svg(d), tex = viz::to_tikz(d);
    CHECK(svg.size() < 1'200'000);
    CHECK(tex.size() < 700'000);
  }
  // Labelled cells stay labelled while the page fits A1 (the SM80 atom a slide shows).
  const rt::MmaAtomInfo* sm80 = rt::find_mma("SM80_16x8x16_F32F16F16F32_TN");
  const viz::Diagram s = viz::mma_diagram(viz::mma_tv_layouts(rt::make_tiled_mma(*sm80, rt::parse_atom_layout("1x1x1")), sm80->name));
  CHECK_FALSE(viz::compute_geometry(s).heatmap);
  const viz::Diagram tiled = viz::mma_diagram(viz::mma_tv_layouts(rt::make_tiled_mma(*sm80, rt::parse_atom_layout("2x2x1")), sm80->name));
  CHECK_FALSE(viz::compute_geometry(tiled).heatmap);
}

TEST_CASE("fill_rects covers every filled cell exactly once, one fill per rectangle") {
  const rt::MmaAtomInfo* a = rt::find_mma("SM90_64x64x16_F32BF16BF16_SS");
  const viz::Diagram d = viz::mma_diagram(viz::mma_tv_layouts(rt::make_tiled_mma(*a, rt::parse_atom_layout("1x1x1")), a->name));
  for (const viz::Panel& p : d.panels) {
    std::vector<int> hit(static_cast<std::size_t>(p.num_cells()), 0);
    for (const viz::FillRect& q : viz::fill_rects(p))
      for (std::int64_t r = q.r0; r < q.r1; ++r)
        for (std::int64_t c = q.c0; c < q.c1; ++c) {
          ++hit[static_cast<std::size_t>(r * p.cols.count + c)];
          REQUIRE(viz::effective_fill(p.at(r, c)) == q.fill);
        }
    for (std::int64_t r = 0; r < p.rows.count; ++r)
      for (std::int64_t c = 0; c < p.cols.count; ++c) {
        const viz::Cell& cell = p.at(r, c);
        const bool filled = cell.present && viz::effective_fill(cell) != viz::white;
        REQUIRE(hit[static_cast<std::size_t>(r * p.cols.count + c)] == (filled ? 1 : 0));
      }
  }
}
