// TMA arguments from gmem and smem layouts (issue 17): derivations and every refusal.
#include <catch2/catch.hpp>
#include <rapidcheck/catch.h>

#include <string>
#include <vector>

#include "tessera/rt/eval.hpp"
#include "tessera/analysis/gmma_atoms.hpp"
#include "tessera/analysis/tma_runtime.hpp"
#include "tessera/atom/gmma_layout.hpp"

using namespace tessera;
using tma::Rule;

namespace {

rt::Layout lay(const char* text) { return rt::evaluate(text).layout; }
rt::SwizzledLayout sw(const char* text) {
  const rt::Value v = rt::evaluate(text);
  if (v.kind == rt::Value::Kind::Swizzled) return v.swizzled;
  return rt::SwizzledLayout{rt::Swizzle(0, 0, 0), v.layout};
}
tma::Arguments derive(const char* g, const rt::SwizzledLayout& s, int bits = 16, std::vector<int64_t> box = {}) {
  return analysis::derive_tma_arguments(lay(g), s, bits, box);
}
std::vector<int64_t> v(const int64_t* p, int n) { return std::vector<int64_t>(p, p + n); }

// The static tier derives the same arguments at compile time.
constexpr tma::Arguments static_k_major_a() {
  constexpr auto S = GMMA::make_smem_layout<16, GMMA::Major::K, 128>(make_shape(_128{}, _64{}));
  const int64_t extent[] = {8192, 4096}, stride[] = {4096, 1}, tile[] = {128, 64};
  return tma::derive_arguments(16, 2, extent, stride, 2, tile, 3, 3, 3,
                               [&](const int64_t* c) { return int64_t(to_i64(S.inner()(c[0], c[1]))); });
}
static_assert(static_k_major_a().rule == Rule::ok);
static_assert(static_k_major_a().box_dim[0] == 64 && static_k_major_a().box_dim[1] == 128);
static_assert(static_k_major_a().swizzle == tma::Swizzle::b128);

// The static entry: a kernel's gmem layout (dynamic extents) and its static smem tile.
constexpr auto static_entry =
    tma::make_arguments<16>(make_layout(make_shape(int64_t(8192), int64_t(4096)), make_stride(int64_t(4096), _1{})),
                            GMMA::make_smem_layout<16, GMMA::Major::K, 128>(make_shape(_128{}, _128{})));
static_assert(static_entry.rule == Rule::ok && static_entry.box_dim[0] == 64 && static_entry.box_dim[1] == 128 &&
              static_entry.boxes == 2 && static_entry.global_stride_bytes[1] == 8192);
static_assert(tma::make_arguments<16>(make_layout(make_shape(int64_t(100), int64_t(64)), make_stride(_1{}, int64_t(100))),
                                      make_layout(make_shape(_64{}, _8{}), make_stride(_1{}, _64{})))
                  .rule == Rule::global_stride_alignment);

TEST_CASE("TMA: K-major A into the 128B-swizzled GMMA tile") {
  // A is (M, K) = (8192, 4096), K contiguous; the stage tile is (128, 64) of the bf16 atom.
  const rt::SwizzledLayout tile{rt::Swizzle(3, 3, 3), rt::tile_to_shape(analysis::gmma_layout_atom({16, GMMA::Major::K, 128}).layout,
                                                                           rt::IntTuple::tuple({128, 64}))};
  const tma::Arguments a = derive("(8192,4096):(4096,1)", tile);
  REQUIRE(a.rule == Rule::ok);
  CHECK(a.rank == 2);
  CHECK(v(a.global_dim, 2) == std::vector<int64_t>{4096, 8192});  // dim 0 is K, the contiguous mode
  CHECK(a.mode_of_dim[0] == 1);
  CHECK(a.global_stride_bytes[1] == 8192);
  CHECK(v(a.box_dim, 2) == std::vector<int64_t>{64, 128});
  CHECK(v(a.element_strides, 2) == std::vector<int64_t>{1, 1});
  CHECK(a.swizzle == tma::Swizzle::b128);
  CHECK(a.l2_promotion == tma::L2Promotion::b128);
  CHECK(a.boxes == 1);
  CHECK(a.box_bytes == 16384);
  // BK = 128: two 128-byte-wide boxes side by side in K.
  const rt::SwizzledLayout wide{rt::Swizzle(3, 3, 3), rt::tile_to_shape(analysis::gmma_layout_atom({16, GMMA::Major::K, 128}).layout,
                                                                           rt::IntTuple::tuple({128, 128}))};
  const tma::Arguments b = derive("(8192,4096):(4096,1)", wide);
  REQUIRE(b.rule == Rule::ok);
  CHECK(v(b.box_dim, 2) == std::vector<int64_t>{64, 128});
  CHECK(v(b.boxes_per_dim, 2) == std::vector<int64_t>{2, 1});
  // The atom alone: one 8-row box.
  const tma::Arguments c = derive("(8192,4096):(4096,1)", analysis::gmma_layout_atom({16, GMMA::Major::K, 128}));
  CHECK(v(c.box_dim, 2) == std::vector<int64_t>{64, 8});
  CHECK(analysis::format_tma_arguments(a).find("boxDim          {64, 128}") != std::string::npos);
}

TEST_CASE("TMA: MN-major tiles; the atoms' walk decides how many boxes") {
  const rt::Layout atom = analysis::gmma_layout_atom({16, GMMA::Major::MN, 128}).layout;
  // Atoms walking M first: a box is one atom column (64 x 8): 2 x 8 boxes.
  const tma::Arguments a = derive("(4096,4096):(1,4096)", rt::SwizzledLayout{rt::Swizzle(3, 3, 3), rt::tile_to_shape(atom, rt::IntTuple::tuple({128, 64}))});
  REQUIRE(a.rule == Rule::ok);
  CHECK(v(a.box_dim, 2) == std::vector<int64_t>{64, 8});
  CHECK(a.boxes == 16);
  // Atoms walking K first (CuTe's order for MN-major): 64 x 64 boxes, 2 of them.
  const tma::Arguments b = derive("(4096,4096):(1,4096)", sw("Sw<3,3,3> o ((64,2),(8,8)):((1,4096),(64,512))"));
  REQUIRE(b.rule == Rule::ok);
  CHECK(v(b.box_dim, 2) == std::vector<int64_t>{64, 64});
  CHECK(b.boxes == 2);
}

TEST_CASE("TMA: batched and 3-D tensors, unswizzled and fp32/8-bit tiles") {
  const tma::Arguments a = derive("(4096,4096,8):(1,4096,16777216)", sw("(64,32):(1,64)"));
  REQUIRE(a.rule == Rule::ok);
  CHECK(a.rank == 3);
  CHECK(v(a.box_dim, 3) == std::vector<int64_t>{64, 32, 1});
  CHECK(a.global_stride_bytes[1] == 8192);
  CHECK(a.global_stride_bytes[2] == 33554432);
  CHECK(a.swizzle == tma::Swizzle::none);
  // 256-element cap: a 512-wide contiguous row is two boxes, each one row (the next row is
  // 512 on, not 256).
  const tma::Arguments b = derive("(4096,4096):(1,4096)", sw("(512,2):(1,512)"), 32);
  REQUIRE(b.rule == Rule::ok);
  CHECK(v(b.box_dim, 2) == std::vector<int64_t>{256, 1});
  CHECK(b.boxes == 4);
  CHECK(b.l2_promotion == tma::L2Promotion::b256);
  // tf32 64B atom, 8-bit 32B atom
  CHECK(derive("(1024,1024):(1024,1)", analysis::gmma_layout_atom({32, GMMA::Major::K, 64}), 32).box_dim[0] == 16);
  CHECK(derive("(1024,1024):(1024,1)", analysis::gmma_layout_atom({8, GMMA::Major::K, 32}), 8).box_dim[0] == 32);
}

TEST_CASE("TMA: every refusal names its rule") {
  const rt::SwizzledLayout k128 = analysis::gmma_layout_atom({16, GMMA::Major::K, 128});
  CHECK(derive("(64,64):(64,1)", k128, 12).rule == Rule::element_bits);
  CHECK(derive("(2,2,2,2,2,64):(64,32,16,8,4,1)", sw("64:1")).rule == Rule::gmem_rank);
  CHECK(derive("(8589934592,64):(64,1)", k128).rule == Rule::global_dim_range);
  CHECK(derive("(64,64):(2,128)", k128).rule == Rule::no_contiguous_mode);
  CHECK(derive("(100,64):(1,100)", sw("(64,8):(1,64)")).rule == Rule::global_stride_alignment);
  CHECK(derive("(64,2):(1,1099511627776)", sw("(64,2):(1,64)")).rule == Rule::global_stride_range);
  CHECK(derive("(64,64):(64,1)", sw("(8,8,2):(8,1,64)")).rule == Rule::smem_rank);
  CHECK(derive("(64,64):(64,1)", sw("Sw<3,4,3> o (8,64):(64,1)")).rule == Rule::smem_swizzle);
  CHECK(derive("(4096,4096):(4096,1)", analysis::gmma_layout_atom({16, GMMA::Major::MN, 128})).rule == Rule::not_contiguous);
  CHECK(derive("(4096,4096):(1,4096)", sw("(4,8):(1,4)")).rule == Rule::inner_box_bytes);
  CHECK(derive("(4096,4096):(4096,1)", sw("Sw<3,3,3> o (8,128):(128,1)"), 16, {0, 128}).rule == Rule::inner_box_swizzle);
  CHECK(derive("(4096,4096):(1,4096)", sw("(512,2):(1,512)"), 16, {512, 0}).rule == Rule::box_dim_range);
  CHECK(derive("(4096,4096):(1,4096)", sw("(64,2):(1,64)"), 16, {48, 0}).rule == Rule::box_divides_tile);
  CHECK(derive("(4096,64):(1,4096)", sw("((3,2),4):((1,100),200)"), 64, {2, 0}).rule == Rule::not_boxes);
  CHECK(derive("(4096,4096):(1,4096)", sw("(64,8):(1,72)")).rule == Rule::box_smem_alignment);
  CHECK(derive("(4096,4096):(1,4096)", sw("(64,2):(1,32)"), 32).rule == Rule::boxes_overlap);
  CHECK_THROWS_WITH(derive("((64,2),64):((1,64),128)", k128), Catch::Contains("flat modes"));
  // Each rule has its own message.
  for (int r = 1; r <= int(Rule::boxes_overlap); ++r)
    for (int q = r + 1; q <= int(Rule::boxes_overlap); ++q) CHECK(std::string(tma::to_string(Rule(r))) != tma::to_string(Rule(q)));
}

// Generated GMMA stage tiles over generated global tensors: the derived boxes tile the
// smem tile exactly: replaying the copies (box by box, element by element, the way TMA
// writes them) fills every smem element once, with the gmem element the layouts pair it with.
TEST_CASE("TMA: replaying the derived copies fills the tile (rapidcheck)") {
  rc::prop("boxes cover the tile exactly", [] {
    const int bits = *rc::gen::element(8, 16, 32);
    const GMMA::Major mj = bits == 16 ? *rc::gen::element(GMMA::Major::K, GMMA::Major::MN) : GMMA::Major::K;
    const int swz = *rc::gen::element(16, 32, 64, 128);
    const rt::SwizzledLayout atom = analysis::gmma_layout_atom({bits, mj, swz});
    const int64_t am = atom.layout.mode(0).size(), ak = atom.layout.mode(1).size();
    const int64_t BM = am * *rc::gen::inRange<int64_t>(1, 5), BK = ak * *rc::gen::inRange<int64_t>(1, 5);
    const rt::SwizzledLayout tile{atom.swizzle, rt::tile_to_shape(atom.layout, rt::IntTuple::tuple({BM, BK}))};
    // The global tensor: contiguous along the tile's contiguous mode, padded leading dimension.
    const int64_t per16 = 128 / bits;
    const int64_t M = BM * *rc::gen::inRange<int64_t>(1, 4), K = BK * *rc::gen::inRange<int64_t>(1, 4);
    const int64_t pad = per16 * *rc::gen::inRange<int64_t>(0, 3);
    const rt::Layout gmem = mj == GMMA::Major::K
                                ? rt::Layout(rt::IntTuple::tuple({M, K}), rt::IntTuple::tuple({K + pad, 1}))
                                : rt::Layout(rt::IntTuple::tuple({M, K}), rt::IntTuple::tuple({1, M + pad}));
    const tma::Arguments a = analysis::derive_tma_arguments(gmem, tile, bits);
    RC_ASSERT(a.rule == Rule::ok);
    RC_ASSERT(a.box_dim[0] * bits / 8 <= (swz == 16 ? 256 * bits / 8 : swz));
    // Replay: box q at the tile corner, element x at dense offset; TMA writes it at smem
    // offset start(q) + dense(x) and reads gmem at the same tile coordinate.
    std::vector<int> hits(std::size_t(tile.layout.cosize()), 0);
    const int m0 = a.mode_of_dim[0], m1 = a.mode_of_dim[1];
    const int64_t ext[2] = {BM, BK};
    auto smem_at = [&](int64_t m, int64_t k) { return tile.layout.at(rt::IntTuple::tuple({m, k})); };
    for (int64_t q1 = 0; q1 < a.boxes_per_dim[1]; ++q1)
      for (int64_t q0 = 0; q0 < a.boxes_per_dim[0]; ++q0) {
        int64_t corner[2];
        corner[m0] = q0 * a.box_dim[0];
        corner[m1] = q1 * a.box_dim[1];
        const int64_t start = smem_at(corner[0], corner[1]);
        RC_ASSERT(start * bits / 8 % 128 == 0);
        for (int64_t x1 = 0; x1 < a.box_dim[1]; ++x1)
          for (int64_t x0 = 0; x0 < a.box_dim[0]; ++x0) {
            int64_t c[2] = {corner[0], corner[1]};
            c[m0] += x0;
            c[m1] += x1;
            RC_ASSERT(c[0] < ext[0] && c[1] < ext[1]);
            const int64_t written = start + x0 + a.box_dim[0] * x1;
            RC_ASSERT(written == smem_at(c[0], c[1]));
            ++hits[std::size_t(tile.swizzle(written))];
          }
      }
    int64_t once = 0;
    for (int h : hits) { RC_ASSERT(h <= 1); once += h; }
    RC_ASSERT(once == BM * BK);
    RC_ASSERT(a.global_stride_bytes[1] == (mj == GMMA::Major::K ? (K + pad) : (M + pad)) * bits / 8);
  });
}

}  // namespace
