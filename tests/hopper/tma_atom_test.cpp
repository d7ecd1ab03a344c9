// TMA copy atoms: the boxes one tile's copies issue, where each lands, and the
// transaction bytes its barrier expects, for the kernels' operand tiles (host; no GPU).
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <set>

#include "tessera/atom/copy_sm90_tma.hpp"
#include "tessera/atom/tma_coord.hpp"
#include "tessera/tensor.hpp"
#include "tessera/atom/gmma_layout.hpp"

using namespace tessera;
using GMMA::Major;

namespace {

// Every element of the tile is box q's start plus its dense offset inside the box, each
// element in exactly one box, and the boxes' bytes sum to tx_bytes.
template <int MaxBoxes, class Smem>
int check_boxes(tma::Arguments const& a, tma::TileBoxes<MaxBoxes> const& b, Smem const& smem, int64_t tm, int64_t tk) {
  int bad = 0;
  std::set<int64_t> seen;
  const auto inner = [&] { if constexpr (is_composed_layout_v<Smem>) return smem.inner(); else return smem; }();
  for (int64_t k = 0; k < tk; ++k)
    for (int64_t m = 0; m < tm; ++m) {
      const int64_t by_mode[2] = {m, k};
      int hits = 0;
      for (int q = 0; q < b.count; ++q) {
        int64_t within = 0, pitch = 1;
        bool inside = true;
        for (int d = 0; d < b.rank; ++d) {
          const int mode = b.mode_of_dim[d];
          const int64_t x = (mode < 2 ? by_mode[mode] : 0) - b.corner[q][d];
          if (x < 0 || x >= a.box_dim[d]) inside = false;
          within += x * pitch;
          pitch *= a.box_dim[d];
        }
        if (!inside) continue;
        ++hits;
        bad += int64_t(b.smem_offset_bytes[q]) + within * a.element_bytes != int64_t(inner(m, k)) * a.element_bytes;
      }
      bad += hits != 1;
      seen.insert(int64_t(inner(m, k)));
    }
  bad += int64_t(seen.size()) != tm * tk;
  bad += int64_t(b.tx_bytes) != tm * tk * a.element_bytes;
  return bad;
}

}  // namespace

TEST_CASE("TMA load atom: the kernels' operand tiles (bf16, 128B swizzle)") {
  // A 128x64 K-major over (M, K):(ld, 1): one box {64, 128}, 16 KiB.
  {
    constexpr auto sA = GMMA::make_smem_layout<16, Major::K, 128>(make_shape(_128{}, _64{}));
    tma::Arguments a;
    const auto t = make_tma_copy<SM90_TMA_LOAD, 4, 16>(a, make_layout(make_shape(int64_t(8192), int64_t(8192)), make_stride(int64_t(8192), _1{})), sA);
    REQUIRE(t.boxes.ok());
    CHECK(t.boxes.count == 1);
    CHECK(t.tx_bytes() == 128 * 64 * 2);
    CHECK(a.box_dim[0] == 64);
    CHECK(a.box_dim[1] == 128);
    CHECK(t.boxes.mode_of_dim[0] == 1);  // dim 0 is K, the contiguous mode
    CHECK(check_boxes(a, t.boxes, sA, 128, 64) == 0);
  }
  // B 256x64 K-major: one box {64, 256}, 32 KiB.
  {
    constexpr auto sB = GMMA::make_smem_layout<16, Major::K, 128>(make_shape(_256{}, _64{}));
    tma::Arguments a;
    const auto t = make_tma_copy<SM90_TMA_LOAD, 4, 16>(a, make_layout(make_shape(int64_t(11008), int64_t(4096)), make_stride(int64_t(4096), _1{})), sB);
    REQUIRE(t.boxes.ok());
    CHECK(t.boxes.count == 1);
    CHECK(t.tx_bytes() == 256 * 64 * 2);
    CHECK(check_boxes(a, t.boxes, sB, 256, 64) == 0);
  }
  // A 128x64 MN-major over (M, K):(1, ld), atoms walking K first (as the kernels tile MN-major
  // operands): dim 0 is M, 64 elements per 128-byte row: two boxes {64, 64}.
  {
    constexpr auto sA = GMMA::make_smem_layout<16, Major::MN, 128>(make_shape(_128{}, _64{}), tuple<_2, _1>{});
    tma::Arguments a;
    const auto t = make_tma_copy<SM90_TMA_LOAD, 4, 16>(a, make_layout(make_shape(int64_t(1000), int64_t(1000)), make_stride(_1{}, int64_t(1000))), sA);
    REQUIRE(t.boxes.ok());
    CHECK(t.boxes.count == 2);
    CHECK(t.boxes.mode_of_dim[0] == 0);
    CHECK(t.boxes.corner[1][0] == 64);
    CHECK(t.boxes.smem_offset_bytes[1] == 64 * 64 * 2);  // the second column of atoms along M
    CHECK(t.tx_bytes() == 128 * 64 * 2);
    CHECK(check_boxes(a, t.boxes, sA, 128, 64) == 0);
  }
  // Batched: (M, K, L) with the tile's 2 modes: rank 3, box 1 along L.
  {
    constexpr auto sA = GMMA::make_smem_layout<16, Major::K, 64>(make_shape(_64{}, _32{}));
    tma::Arguments a;
    const auto gmem = make_layout(make_shape(int64_t(300), int64_t(72), int64_t(5)), make_stride(int64_t(72), _1{}, int64_t(300 * 72)));
    const auto t = make_tma_copy<SM90_TMA_LOAD, 4, 16>(a, gmem, sA);
    REQUIRE(t.boxes.ok());
    CHECK(t.boxes.rank == 3);
    CHECK(a.box_dim[2] == 1);
    CHECK(check_boxes(a, t.boxes, sA, 64, 32) == 0);
  }
  // Atoms walking M first: a box along K ends at each 8-row atom (16 boxes).
  {
    constexpr auto sA = GMMA::make_smem_layout<16, Major::MN, 128>(make_shape(_128{}, _64{}));
    tma::Arguments a;
    const auto t = make_tma_copy<SM90_TMA_LOAD, 16, 16>(a, make_layout(make_shape(int64_t(1000), int64_t(1000)), make_stride(_1{}, int64_t(1000))), sA);
    REQUIRE(t.boxes.ok());
    CHECK(t.boxes.count == 16);
    CHECK(a.box_dim[1] == 8);
    CHECK(check_boxes(a, t.boxes, sA, 128, 64) == 0);
  }
  // More boxes than the atom holds: refused, not truncated.
  {
    constexpr auto sA = GMMA::make_smem_layout<16, Major::MN, 32>(make_shape(_128{}, _64{}));
    tma::Arguments a;
    const auto t = make_tma_copy<SM90_TMA_LOAD, 2, 16>(a, make_layout(make_shape(int64_t(512), int64_t(512)), make_stride(_1{}, int64_t(512))), sA);
    CHECK(a.rule == tma::Rule::ok);
    CHECK(a.boxes > 2);
    CHECK_FALSE(t.boxes.ok());
  }
}

TEST_CASE("TMA load atom: boxes of generated GMMA tiles cover each element once (generated)") {
  rc::prop("K- and MN-major bf16 tiles, every swizzle", [] {
    const int sw = *rc::gen::element(16, 32, 64, 128);
    const bool k_major = *rc::gen::arbitrary<bool>();
    const int64_t M = *rc::gen::inRange<int64_t>(1, 5000), K = *rc::gen::inRange<int64_t>(1, 5000);
    const int64_t ld = ((k_major ? K : M) + 7) / 8 * 8;
    const auto gmem = k_major ? make_layout(make_shape(M, K), make_stride(ld, int64_t(1)))
                              : make_layout(make_shape(M, K), make_stride(int64_t(1), ld));
    auto run = [&](auto smem) {
      tma::Arguments a;
      const auto t = make_tma_copy<SM90_TMA_LOAD, 64, 16>(a, gmem, smem);
      RC_ASSERT(t.boxes.ok());
      RC_ASSERT(check_boxes(a, t.boxes, smem, 64, 64) == 0);
    };
    if (k_major) {
      if (sw == 16) run(GMMA::make_smem_layout<16, Major::K, 16>(make_shape(_64{}, _64{})));
      if (sw == 32) run(GMMA::make_smem_layout<16, Major::K, 32>(make_shape(_64{}, _64{})));
      if (sw == 64) run(GMMA::make_smem_layout<16, Major::K, 64>(make_shape(_64{}, _64{})));
      if (sw == 128) run(GMMA::make_smem_layout<16, Major::K, 128>(make_shape(_64{}, _64{})));
    } else {
      if (sw == 16) run(GMMA::make_smem_layout<16, Major::MN, 16>(make_shape(_64{}, _64{})));
      if (sw == 32) run(GMMA::make_smem_layout<16, Major::MN, 32>(make_shape(_64{}, _64{})));
      if (sw == 64) run(GMMA::make_smem_layout<16, Major::MN, 64>(make_shape(_64{}, _64{})));
      if (sw == 128) run(GMMA::make_smem_layout<16, Major::MN, 128>(make_shape(_64{}, _64{})));
    }
  });
}

// tma::coord_of: the origin a TMA copy takes, from an element of the tiled coordinate tensor:
// tile (m, k) of (BM, BK) tiles starts at (m BM, k BK), tiles past the edge keep counting past
// it (TMA zero-fills there), and a nested coordinate flattens, mode 0 first.
TEST_CASE("tma::coord_of: a tile's TMA origin from the coordinate tensor") {
  for (auto [M, K] : {std::pair{1024, 512}, std::pair{200, 100}, std::pair{1, 8}}) {
    const auto id = make_identity_tensor(make_shape(M, K));
    for (int m = 0; m * 128 < M; ++m)
      for (int k = 0; k * 64 < K; ++k) {
        const auto tile = local_tile(id, make_shape(_128{}, _64{}), make_coord(m, k));
        const tma::Coord o = tma::coord_of(tile(0, 0));
        CHECK(o.c[0] == m * 128);
        CHECK(o.c[1] == k * 64);
        const tma::Coord last = tma::coord_of(tile(127, 63));  // (the last element: past the edge when M, K are not whole tiles)
        CHECK(last.c[0] == m * 128 + 127);
        CHECK(last.c[1] == k * 64 + 63);
      }
  }
  const tma::Coord nested = tma::coord_of(make_coord(3, make_coord(4, _5{})));
  CHECK((nested.c[0] == 3 && nested.c[1] == 4 && nested.c[2] == 5));
  STATIC_REQUIRE(tma::coord_of(make_coord(_7{}, _9{})).c[1] == 9);
}
