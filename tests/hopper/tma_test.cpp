// TMA arguments from gmem and smem layouts: derivations and every refusal.
#include <catch2/catch.hpp>
#include <rapidcheck/catch.h>

#include <string>
#include <vector>

#include "tessera/rt/eval.hpp"
#include "tessera/analysis/gmma_atoms.hpp"
#include "tessera/analysis/tma_runtime.hpp"
#include "tessera/algorithm/copy_tma.hpp"
#include "tessera/atom/gmma_layout.hpp"

using namespace tessera;
using tma::Rule;

namespace {

rt::Layout lay(const char* text) { return rt::evaluate(text).layout(); }
rt::SwizzledLayout sw(const char* text) {
  const rt::Value v = rt::evaluate(text);
  if (v.kind() == rt::Value::Kind::Swizzled) return v.swizzled();
  return rt::SwizzledLayout{rt::Swizzle(0, 0, 0), v.layout()};
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


// Divided modes: the tensor map's dims follow the smem tile's structure.
// The MN-major bf16 stage tile of the SM90 kernel (128 x 64, atoms walking K first):
// rows (64, 2):(1, 4096), K 64:64, so one box (64, 64, 2) where per-mode dims need two.
constexpr auto mn_tile = GMMA::make_smem_layout<16, GMMA::Major::MN, 128>(make_shape(_128{}, _64{}), tuple<_2, _1>{});
constexpr auto mn_gmem = make_layout(make_shape(int64_t(4096), int64_t(2048)), make_stride(_1{}, int64_t(4096)));
constexpr tma::Arguments mn_divided = tma::make_divided_arguments<16>(mn_gmem, mn_tile);
static_assert(mn_divided.rule == Rule::ok && mn_divided.rank == 3 && mn_divided.boxes == 1 && mn_divided.box_bytes == 16384);
static_assert(mn_divided.box_dim[0] == 64 && mn_divided.box_dim[1] == 64 && mn_divided.box_dim[2] == 2);
static_assert(mn_divided.mode_of_dim[0] == 0 && mn_divided.mode_of_dim[1] == 1 && mn_divided.mode_of_dim[2] == 0);
static_assert(mn_divided.divisor[0] == 1 && mn_divided.divisor[1] == 1 && mn_divided.divisor[2] == 64);
static_assert(mn_divided.sub_extent[0] == 64 && mn_divided.sub_extent[1] == 0 && mn_divided.sub_extent[2] == 0);
static_assert(mn_divided.global_dim[0] == 64 && mn_divided.global_dim[1] == 2048 && mn_divided.global_dim[2] == 64);
static_assert(mn_divided.global_stride_bytes[1] == 8192 && mn_divided.global_stride_bytes[2] == 128);
static_assert(tma::make_arguments<16>(mn_gmem, mn_tile).boxes == 2);
// The tile's boxes: one copy; a tile origin (rows 384, K 128) goes to dims (0, 128, 6).
constexpr auto mn_boxes = tma::make_tile_boxes<4>(mn_divided, mn_tile);
static_assert(mn_boxes.ok() && mn_boxes.count == 1 && mn_boxes.tx_bytes == 16384 && mn_boxes.smem_offset_bytes[0] == 0);
// K-major tiles have nothing to divide: the same arguments as one dim per mode.
constexpr auto k_tile = GMMA::make_smem_layout<16, GMMA::Major::K, 128>(make_shape(_128{}, _64{}));
constexpr auto k_gmem = make_layout(make_shape(int64_t(4096), int64_t(2048)), make_stride(int64_t(2048), _1{}));
constexpr tma::Arguments k_divided = tma::make_divided_arguments<16>(k_gmem, k_tile), k_plain = tma::make_arguments<16>(k_gmem, k_tile);
static_assert(k_divided.rule == Rule::ok && k_divided.rank == 2 && k_divided.boxes == 1 && k_divided.box_dim[0] == k_plain.box_dim[0] &&
              k_divided.box_dim[1] == k_plain.box_dim[1] && k_divided.divisor[1] == 1 && k_divided.sub_extent[1] == 0);

TEST_CASE("TMA: the producer's box coordinates from a tile origin (divided and per-mode dims)") {
  // mn_boxes: dims (rows % 64, K, rows / 64) as shift and mask.
  CHECK(mn_boxes.shift[2] == 6);
  CHECK(mn_boxes.mask[0] == 63);
  CHECK(mn_boxes.mask[1] == -1);
  int32_t c[tma::kMaxRank];
  detail::tma_box_coord(mn_boxes, tma::Coord{{384, 128, 0}}, 0, c);
  CHECK(std::vector<int32_t>(c, c + 5) == std::vector<int32_t>{0, 128, 6, 0, 0});
  // Per-mode dims: two boxes (64, 64), the second 64 rows on.
  const auto plain = tma::make_tile_boxes<4>(tma::make_arguments<16>(mn_gmem, mn_tile), mn_tile);
  REQUIRE(plain.count == 2);
  detail::tma_box_coord(plain, tma::Coord{{384, 128, 0}}, 1, c);
  CHECK(std::vector<int32_t>(c, c + 5) == std::vector<int32_t>{448, 128, 0, 0, 0});
  // Batched (4-D): the batch is dim 3.
  const auto g3 = make_layout(make_shape(int64_t(4096), int64_t(2048), int64_t(3)), make_stride(_1{}, int64_t(4096), int64_t(4096 * 2048)));
  const auto b3 = tma::make_tile_boxes<4>(tma::make_divided_arguments<16>(g3, mn_tile), mn_tile);
  REQUIRE(b3.ok());
  // Every tile origin (multiples of the tile along rows and K) splits into dims that add back up.
  rc::prop("box coordinates add back to the origin", [&] {
    const int32_t t = *rc::gen::inRange(0, 32), u = *rc::gen::inRange(0, 32), l = *rc::gen::inRange(0, 3);
    int32_t k[tma::kMaxRank];
    detail::tma_box_coord(b3, tma::Coord{{128 * t, 64 * u, l}}, 0, k);
    RC_ASSERT(k[0] == 0);
    RC_ASSERT(k[1] == 64 * u);
    RC_ASSERT(k[2] == 2 * t);
    RC_ASSERT(k[3] == l);
    RC_ASSERT(k[4] == 0);
  });
}

TEST_CASE("TMA: divided modes, rebinding and residues") {
  // Batched: rank 4, the batch last.
  const auto g3 = make_layout(make_shape(int64_t(4096), int64_t(2048), int64_t(3)), make_stride(_1{}, int64_t(4096), int64_t(4096 * 2048)));
  const tma::Arguments b = tma::make_divided_arguments<16>(g3, mn_tile);
  REQUIRE(b.rule == Rule::ok);
  CHECK(b.rank == 4);
  CHECK(v(b.box_dim, 4) == std::vector<int64_t>{64, 64, 2, 1});
  CHECK(v(b.global_dim, 4) == std::vector<int64_t>{64, 2048, 64, 3});
  CHECK(b.mode_of_dim[3] == 2);
  // Rebinding to a problem: the divided mode's extent must be a multiple of 64.
  const int64_t ok_ext[2] = {1024, 1000}, ok_str[2] = {1, 1032};
  const tma::Arguments r = tma::rebind_gmem(mn_divided, 2, ok_ext, ok_str);
  REQUIRE(r.rule == Rule::ok);
  CHECK(v(r.global_dim, 3) == std::vector<int64_t>{64, 1000, 16});
  CHECK(r.global_stride_bytes[1] == 2064);
  CHECK(r.global_stride_bytes[2] == 128);
  const int64_t bad_ext[2] = {1000, 1000}, bad_str[2] = {1, 1000};
  const tma::Arguments bad = tma::rebind_gmem(mn_divided, 2, bad_ext, bad_str);
  CHECK(bad.rule == Rule::divided_mode_residue);
  CHECK(bad.bad_mode == 0);
  CHECK(std::string(tma::to_string(bad.rule)).find("multiple") != std::string::npos);
  // The per-mode arrangement takes the same residue (zero-filled past M).
  CHECK(tma::rebind_gmem(tma::make_arguments<16>(mn_gmem, mn_tile), 2, bad_ext, bad_str).rule == Rule::ok);
}

// Replays a divided arrangement over a runtime tile: returns "" or what failed.
std::string replay_divided(const tma::Arguments& a, const rt::SwizzledLayout& tile, const int64_t* gmem_stride, int gmem_modes) {
  const int tm = int(tile.layout.rank());
  std::vector<int64_t> ext(std::size_t(gmem_modes), 1);
  for (int m = 0; m < tm; ++m) ext[std::size_t(m)] = tile.layout.mode(std::size_t(m)).size();
  auto smem_at = [&](const std::vector<int64_t>& c) {
    int64_t o = 0;
    for (int m = 0; m < tm; ++m) o += tile.layout.mode(std::size_t(m))(c[std::size_t(m)]);
    return o;
  };
  const int eb = a.element_bytes;
  std::vector<int> hits(std::size_t(tile.layout.cosize()), 0);
  int64_t per_box = 1;
  for (int d = 0; d < a.rank; ++d) per_box *= a.box_dim[d];
  for (int64_t q = 0; q < a.boxes; ++q) {
    std::vector<int64_t> corner(std::size_t(a.rank));
    int64_t rest = q;
    for (int d = 0; d < a.rank; ++d) {
      corner[std::size_t(d)] = (rest % a.boxes_per_dim[d]) * a.box_dim[d];
      rest /= a.boxes_per_dim[d];
    }
    std::vector<int64_t> c0(std::size_t(gmem_modes), 0);
    for (int d = 0; d < a.rank; ++d) c0[std::size_t(a.mode_of_dim[d])] += corner[std::size_t(d)] * a.divisor[d];
    const int64_t start = smem_at(c0);
    if (start * eb % 128 != 0) return "box start not 128-byte aligned";
    for (int64_t x = 0; x < per_box; ++x) {
      std::vector<int64_t> c(std::size_t(gmem_modes), 0);
      int64_t r2 = x, gaddr = 0, gref = 0;
      for (int d = 0; d < a.rank; ++d) {
        const int64_t xd = r2 % a.box_dim[d];
        r2 /= a.box_dim[d];
        const int64_t cd = corner[std::size_t(d)] + xd;
        if (a.sub_extent[d] != 0 && cd >= a.sub_extent[d]) return "an inner part's coordinate past its extent";
        c[std::size_t(a.mode_of_dim[d])] += cd * a.divisor[d];
        gaddr += cd * (d == 0 ? 1 : a.global_stride_bytes[d] / eb);
      }
      for (int m = 0; m < gmem_modes; ++m) {
        if (c[std::size_t(m)] >= ext[std::size_t(m)]) return "box element outside the tile";
        gref += c[std::size_t(m)] * gmem_stride[m];
      }
      if (gaddr != gref) return "TMA reads another gmem element than the tile's";
      if (start + x != smem_at(c)) return "TMA writes the element elsewhere than the tile";
      ++hits[std::size_t(tile.swizzle(start + x))];
    }
  }
  int64_t once = 0, size = 1;
  for (int h : hits) {
    if (h > 1) return "an smem element written twice";
    once += h;
  }
  for (int64_t e : ext) size *= e;
  return once == size ? "" : "the tile is not covered";
}

TEST_CASE("TMA: divided modes fill the tile with at most as many boxes (rapidcheck)") {
  rc::prop("divided arguments replay the tile", [] {
    const int bits = *rc::gen::element(8, 16, 32);
    const GMMA::Major mj = bits == 16 ? *rc::gen::element(GMMA::Major::K, GMMA::Major::MN) : GMMA::Major::K;
    const int swz = *rc::gen::element(16, 32, 64, 128);
    const rt::SwizzledLayout atom = analysis::gmma_layout_atom({bits, mj, swz});
    const int64_t am = atom.layout.mode(0).size(), ak = atom.layout.mode(1).size();
    const int64_t r = *rc::gen::inRange<int64_t>(1, 5), s = *rc::gen::inRange<int64_t>(1, 5);
    const int64_t BM = am * r, BK = ak * s;
    const bool k_first = *rc::gen::arbitrary<bool>();
    rt::SwizzledLayout tile{atom.swizzle, rt::tile_to_shape(atom.layout, rt::IntTuple::tuple({BM, BK}))};
    if (mj == GMMA::Major::MN && k_first) {
      // ((am, r), (ak, s)) : ((1, am ak s), (am, am ak)): the atoms walk K first
      const int64_t sa = atom.layout.mode(1).stride.is_leaf() ? atom.layout.mode(1).stride.value() : am;
      tile.layout = rt::evaluate(("((" + std::to_string(am) + "," + std::to_string(r) + "),(" + std::to_string(ak) + "," + std::to_string(s) +
                                  ")):((1," + std::to_string(am * ak * s) + "),(" + std::to_string(sa) + "," + std::to_string(am * ak) + "))")
                                     .c_str())
                        .layout();
    }
    const int64_t per16 = 128 / bits;
    const int64_t M = BM * *rc::gen::inRange<int64_t>(1, 4), K = BK * *rc::gen::inRange<int64_t>(1, 4);
    const int64_t pad = per16 * *rc::gen::inRange<int64_t>(0, 3);
    const bool batched = *rc::gen::arbitrary<bool>();
    const int modes = batched ? 3 : 2;
    const int64_t ld = (mj == GMMA::Major::K ? K : M) + pad;
    const int64_t extent[3] = {M, K, 3};
    const int64_t stride[3] = {mj == GMMA::Major::K ? ld : 1, mj == GMMA::Major::K ? 1 : ld, ld * (mj == GMMA::Major::K ? M : K)};
    auto offset = [&](const int64_t* c) {
      int64_t o = 0;
      for (int m = 0; m < 2; ++m) o += tile.layout.mode(std::size_t(m))(c[m]);
      return o;
    };
    const int64_t tile_ext[2] = {BM, BK};
    const tma::Arguments d = tma::derive_divided_arguments(bits, modes, extent, stride, 2, tile_ext, tile.swizzle.bits, tile.swizzle.base,
                                                           tile.swizzle.shift, offset);
    const tma::Arguments p = tma::derive_arguments(bits, modes, extent, stride, 2, tile_ext, tile.swizzle.bits, tile.swizzle.base,
                                                   tile.swizzle.shift, offset);
    RC_ASSERT(p.rule == Rule::ok);
    if (d.rule == Rule::gmem_rank) RC_SUCCEED("more than 5 dims");
    RC_ASSERT(d.rule == Rule::ok);
    RC_ASSERT(d.boxes <= p.boxes);
    const std::string why = replay_divided(d, tile, stride, modes);
    RC_ASSERT(why == "");
    // An MN-major tile of whole atom columns walked K first is one box.
    if (mj == GMMA::Major::MN && k_first && swz != 16) RC_ASSERT(d.boxes == int64_t(1));
    // Rebinding to the same extents gives the same dims; a tile origin t along each mode splits over
    // its dims as copy_tma.hpp does and adds back up.
    const tma::Arguments again = tma::rebind_gmem(d, modes, extent, stride);
    RC_ASSERT(again.rule == Rule::ok);
    for (int dd = 0; dd < d.rank; ++dd) RC_ASSERT(again.global_dim[dd] == d.global_dim[dd]);
    const int64_t t = *rc::gen::inRange<int64_t>(0, 4), origin[3] = {t * BM, t * BK, t};
    int64_t back[3] = {};
    for (int dd = 0; dd < d.rank; ++dd) {
      int64_t o = origin[d.mode_of_dim[dd]] / d.divisor[dd];
      if (d.sub_extent[dd] != 0) o %= d.sub_extent[dd];
      back[d.mode_of_dim[dd]] += o * d.divisor[dd];
    }
    for (int m = 0; m < modes; ++m) RC_ASSERT(back[m] == origin[m]);
  });
}

}  // namespace
