// The SM90 mainloop's compile-time TMA plans (kernels/collective/sm90_tma_plan.hpp) for its
// stage tiles, the producer's static box coordinates (copy_static's
// detail::tma_static_box_coord: every box property a constant) against the run-time ones
// (detail::tma_box_coord over the same boxes, which tma_test.cpp replays against the tile),
// and the origins of its copies (the copies' partitions of the operands' coordinate tensors)
// against the formula: CTA rank r of a cluster of ClusterM along M copies A's rows
// (m ClusterM + r) BM .. and B's rows n BN + r BN / ClusterM .., k-tile k at K = k BK.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <cstdint>
#include <utility>

#include <tessera/algorithm/copy_tma.hpp>
#include <tessera/atom/gmma_layout.hpp>

#include "collective/sm90_tma_plan.hpp"

using namespace tessera;
using tessera::kernels::sm90::make_tma_plan;
using tessera::kernels::sm90::TmaPlan;
using namespace tessera::kernels::sm90;

namespace {
// The mainloop's stage tiles (bf16, 128-byte swizzle; MN-major atoms walk K first): A and a
// cluster's part of B (128 x 64), B without a cluster (256 x 64).
constexpr auto k_tile = GMMA::make_smem_layout<16, GMMA::Major::K, 128>(make_shape(_128{}, _64{}), tuple<_1, _2>{});
constexpr auto mn_tile = GMMA::make_smem_layout<16, GMMA::Major::MN, 128>(make_shape(_128{}, _64{}), tuple<_2, _1>{});
constexpr auto mn_tile_256 = GMMA::make_smem_layout<16, GMMA::Major::MN, 128>(make_shape(_256{}, _64{}), tuple<_2, _1>{});

// plan[batched][divided], as the mainloop keeps them.
template <int Bits = 16, int BK = 64, class Stage>
constexpr auto plans(Stage const& stage, bool k_major, int64_t rows) {
  struct P { TmaPlan<4> p[2][2]; } r{};
  for (int b = 0; b < 2; ++b)
    for (int d = 0; d < 2; ++d) r.p[b][d] = make_tma_plan<4, Bits>(stage, k_major, rows, BK, tma_arrangement(b == 1, d == 1));
  return r;
}
constexpr auto k_plans = plans(k_tile, true, 128);
constexpr auto mn_plans = plans(mn_tile, false, 128);
constexpr auto mn_plans_256 = plans(mn_tile_256, false, 256);

// The boxes as a type, as the mainloop's BoxesOf hands them to copy_static.
template <auto const& Plans, int B, int D>
struct BoxesOf {
  static constexpr tma::TileBoxes<4> value = Plans.p[B][D].boxes;
};

// Every plan is copyable and brings a whole 16 KiB (32 KiB) stage; the batch adds one dim.
constexpr bool all_ok(auto const& ps, uint32_t bytes) {
  for (int b = 0; b < 2; ++b)
    for (int d = 0; d < 2; ++d)
      if (!ps.p[b][d].boxes.ok() || ps.p[b][d].boxes.tx_bytes != bytes || ps.p[b][d].boxes.rank != ps.p[0][d].boxes.rank + b) return false;
  return true;
}
static_assert(all_ok(k_plans, 16384) && all_ok(mn_plans, 16384) && all_ok(mn_plans_256, 32768));
// Boxes per stage: K-major one either way (nothing to divide); MN-major one divided box
// against one per 64 rows per mode.
static_assert(k_plans.p[0][0].boxes.count == 1 && k_plans.p[0][1].boxes.count == 1);
static_assert(mn_plans.p[0][0].boxes.count == 2 && mn_plans.p[0][1].boxes.count == 1 && mn_plans.p[0][1].boxes.rank == 3);
static_assert(mn_plans_256.p[0][0].boxes.count == 4 && mn_plans_256.p[0][1].boxes.count == 1);
static_assert(mn_plans.p[1][1].boxes.rank == 4 && mn_plans.p[1][1].boxes.mode_of_dim[3] == 2);
// The cooperative 256-row FP8 tile's A stage (256 x 128 one-byte elements, K-major, 32 KiB)
// and a cluster pair's part of its B (64 x 128): one box each (256 rows: TMA's largest box dim).
constexpr auto fp8_a_256 = GMMA::make_smem_layout<8, GMMA::Major::K, 128>(make_shape(_256{}, _128{}), tuple<_1, _2>{});
constexpr auto fp8_b_part = GMMA::make_smem_layout<8, GMMA::Major::K, 128>(make_shape(_64{}, _128{}), tuple<_1, _2>{});
constexpr auto fp8_a_256_plans = plans<8, 128>(fp8_a_256, true, 256);
constexpr auto fp8_b_part_plans = plans<8, 128>(fp8_b_part, true, 64);
static_assert(all_ok(fp8_a_256_plans, 32768) && all_ok(fp8_b_part_plans, 8192) && fp8_a_256_plans.p[0][0].boxes.count == 1 &&
              fp8_b_part_plans.p[0][0].boxes.count == 1);

// Static against run-time coordinates of every box of a plan at a tile origin.
template <class Boxes, int... Q>
bool same_coordinates(tma::Coord const& origin, std::integer_sequence<int, Q...>) {
  auto one = [&](auto q) {
    int32_t s[tma::kMaxRank], r[tma::kMaxRank];
    detail::tma_static_box_coord<Boxes, decltype(q)::value>(origin, s, std::make_integer_sequence<int, tma::kMaxRank>{});
    detail::tma_box_coord(Boxes::value, origin, decltype(q)::value, r);
    for (int d = 0; d < tma::kMaxRank; ++d)
      if (s[d] != r[d]) return false;
    return true;
  };
  return (one(std::integral_constant<int, Q>{}) && ...);
}
template <auto const& Plans, int B, int D>
bool same_at(tma::Coord const& origin) {
  using Boxes = BoxesOf<Plans, B, D>;
  return same_coordinates<Boxes>(origin, std::make_integer_sequence<int, Boxes::value.count>{});
}
}  // namespace

TEST_CASE("SM90 TMA plans: the producer's static box coordinates are the run-time ones") {
  // A known answer: the divided MN-major box at tile origin (rows 384, K 128) starts at dims
  // (rows % 64, K, rows / 64) = (0, 128, 6); per-mode box 1 at (448, 128).
  int32_t c[tma::kMaxRank];
  detail::tma_static_box_coord<BoxesOf<mn_plans, 0, 1>, 0>(tma::Coord{{384, 128, 0}}, c, std::make_integer_sequence<int, tma::kMaxRank>{});
  CHECK((c[0] == 0 && c[1] == 128 && c[2] == 6 && c[3] == 0 && c[4] == 0));
  detail::tma_static_box_coord<BoxesOf<mn_plans, 0, 0>, 1>(tma::Coord{{384, 128, 0}}, c, std::make_integer_sequence<int, tma::kMaxRank>{});
  CHECK((c[0] == 448 && c[1] == 128 && c[2] == 0));
  // Every tile origin the kernels issue: rows a multiple of the tile's, K of BK, any batch.
  rc::prop("static and run-time coordinates agree at every tile origin", [] {
    const int32_t t = *rc::gen::inRange(0, 512), u = *rc::gen::inRange(0, 512), l = *rc::gen::inRange(0, 64);
    const tma::Coord o128{{128 * t, 64 * u, l}}, o256{{256 * t, 64 * u, l}};
    RC_ASSERT((same_at<k_plans, 0, 0>(o128) && same_at<k_plans, 1, 0>(o128) && same_at<k_plans, 1, 1>(o128)));
    RC_ASSERT((same_at<mn_plans, 0, 0>(o128) && same_at<mn_plans, 0, 1>(o128) && same_at<mn_plans, 1, 0>(o128) &&
               same_at<mn_plans, 1, 1>(o128)));
    RC_ASSERT((same_at<mn_plans_256, 0, 0>(o256) && same_at<mn_plans_256, 0, 1>(o256) && same_at<mn_plans_256, 1, 1>(o256)));
  });
}

TEST_CASE("SM90 TMA arrangements: each (batched, divided) is one arrangement and reads back") {
  int seen[4] = {};
  for (int b = 0; b < 2; ++b)
    for (int d = 0; d < 2; ++d) {
      const TmaArrangement a = tma_arrangement(b == 1, d == 1);
      CHECK(is_batched(a) == (b == 1));
      CHECK(is_divided(a) == (d == 1));
      for (int i = 0; i < 4; ++i) seen[i] += tma_arrangements[i] == a;
    }
  CHECK((seen[0] == 1 && seen[1] == 1 && seen[2] == 1 && seen[3] == 1));
}

namespace {
// The producer's copy origins for a kernel's tiles: (rows, BK) of its smem tiles (A's and B's
// stage and this CTA's part of the shared one), every cluster rank of a cluster along M
// (ClusterM CTAs share B) or along N (ClusterN CTAs share A), generated tiles and k-tiles:
// CTA rank r of cluster tile (m, n) copies its own tile m ClusterM + r of A (n ClusterN + r of B)
// or rows r rows / Cluster.. of the shared tile, each copy the whole extent of its smem tile.
template <int BM, int BN, int BK, int ClusterM, int ClusterN = 1>
void check_copy_origins() {
  static_assert(ClusterM == 1 || ClusterN == 1);
  constexpr auto stage_a = GMMA::make_smem_layout<16, GMMA::Major::K, 128>(make_shape(C<BM>{}, C<BK>{}), tuple<_1, _2>{});
  constexpr auto part_a = GMMA::make_smem_layout<16, GMMA::Major::K, 128>(make_shape(C<BM / ClusterN>{}, C<BK>{}), tuple<_1, _2>{});
  constexpr auto stage_b = GMMA::make_smem_layout<16, GMMA::Major::MN, 128>(make_shape(C<BN>{}, C<BK>{}), tuple<_2, _1>{});
  constexpr auto part_b = GMMA::make_smem_layout<16, GMMA::Major::MN, 128>(make_shape(C<BN / ClusterM>{}, C<BK>{}), tuple<_2, _1>{});
  constexpr auto tile_a = product_each(shape(stage_a));
  constexpr auto tile_b = product_each(shape(stage_b));
  constexpr auto tile_part_a = product_each(shape(part_a));
  constexpr auto tile_part_b = product_each(shape(part_b));
  constexpr int64_t rows_a = BM / ClusterN, rows_b = BN / ClusterM;  // each CTA's copy
  // tiles up to the int32 coordinates' range
  const int64_t m = *rc::gen::inRange<int64_t>(0, (int64_t(1) << 31) / (BM * ClusterM));
  const int64_t n = *rc::gen::inRange<int64_t>(0, (int64_t(1) << 31) / (BN * ClusterN));
  const int64_t l = *rc::gen::inRange<int64_t>(0, 1 << 16);
  const int k = *rc::gen::inRange(0, int((int64_t(1) << 31) / BK));
  for (int rank = 0; rank < ClusterM * ClusterN; ++rank) {
    const auto tAgA = cta_copy_coordinates<ClusterM>(tile_a, tile_part_a, m, l, rank);
    const auto tBgB = cta_copy_coordinates<ClusterN>(tile_b, tile_part_b, n, l, rank);
    RC_ASSERT((int64_t(size<0>(tAgA)) == rows_a && int64_t(size<1>(tAgA)) == BK));
    RC_ASSERT((int64_t(size<0>(tBgB)) == rows_b && int64_t(size<1>(tBgB)) == BK));
    // A: tile m ClusterM + r (a cluster along M), or part r of tile m (along N); B the mirror.
    const int64_t a0 = ClusterM > 1 ? (m * ClusterM + rank) * BM : m * BM + (ClusterN > 1 ? rank : 0) * rows_a;
    const int64_t b0 = ClusterN > 1 ? (n * ClusterN + rank) * BN : n * BN + (ClusterM > 1 ? rank : 0) * rows_b;
    const tma::Coord a = tma::coord_of(tAgA(_0{}, _0{}, k)), b = tma::coord_of(tBgB(_0{}, _0{}, k));
    RC_ASSERT(int64_t(a.c[0]) == a0);
    RC_ASSERT(int64_t(a.c[1]) == int64_t(k) * BK);
    RC_ASSERT(int64_t(a.c[2]) == l);
    RC_ASSERT(int64_t(b.c[0]) == b0);
    RC_ASSERT(int64_t(b.c[1]) == int64_t(k) * BK);
    RC_ASSERT(int64_t(b.c[2]) == l);
    // the copy's last element: its smem tile's far corner
    const auto a_last = tAgA(C<BM / ClusterN - 1>{}, C<BK - 1>{}, k);
    RC_ASSERT(int64_t(get<0>(a_last)) == a0 + rows_a - 1);
    RC_ASSERT(int64_t(get<1>(a_last)) == (int64_t(k) + 1) * BK - 1);
    const auto b_last = tBgB(C<BN / ClusterM - 1>{}, C<BK - 1>{}, k);
    RC_ASSERT(int64_t(get<0>(b_last)) == b0 + rows_b - 1);
  }
}
}  // namespace

TEST_CASE("SM90 TMA copies start where the producer's formula says, for every cluster rank") {
  rc::prop("copy origins of A's and B's tiles and parts at (m, n, l, k, rank)", [] {
    check_copy_origins<128, 128, 64, 1>();
    check_copy_origins<128, 256, 64, 1>();
    check_copy_origins<128, 128, 64, 2>();
    check_copy_origins<128, 256, 64, 2>();
    check_copy_origins<256, 128, 64, 2>();
    check_copy_origins<64, 128, 64, 2>();
    check_copy_origins<128, 64, 64, 1, 2>();  // clusters along N: A shared
    check_copy_origins<128, 128, 64, 1, 2>();
    check_copy_origins<128, 256, 64, 1, 4>();
  });
}
