// Host checks (no GPU) of what the SM90 GEMM relies on:
//  - the epilogue's residue predicates: in the cooperative TiledMma (two wgmma 64x256 atoms
//    along M), every thread's value v sits at its value 0 plus thread 0's value v (the thread
//    and value parts of the C layout never carry), and the 256 threads x 128 values cover the
//    128 x 256 tile once; likewise the 256 x 128 tile (the same TiledMma of 64x128 atoms
//    repeated twice along M: warpgroup w owns rows 64 w and 128 + 64 w) and ping-pong's 128 x 128;
//  - the TMA-store epilogue's staging view, for a 16-bit and an f32 D: the TiledMma's C
//    partition of it puts each (m, n) of the tile at the staging layout's offset in its
//    warpgroup's buffer, each part's columns once; the f32 staging tile is two TMA boxes;
//  - the 16-bit staging through stmatrix (EpilogueStaging::stsm, the copy emulated warp by
//    warp): each part's instructions put exactly that part's values of the tile at their
//    staging offsets, for the cooperative (two warpgroups) and the ping-pong (one) TiledMma;
//  - the row-major staging (a row-major kernel D): stmatrix without .trans emulated warp by
//    warp, then each part's TMA store boxes read as the TMA unit reads them (the 128-byte
//    swizzle applied to the box's byte addresses, not the layout's) into a row-major D: every
//    element of the CTA tile lands once where D expects it (BN 64/128/192/256, bf16 and f16);
//    and a row-major C loaded by the same boxes is where each thread reads it;
//  - the persistent tile scheduler: every (m, n, l) tile exactly once, grouped raster.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <algorithm>
#include <set>
#include <tuple>
#include <vector>

#include "collective/sm90_epilogue_staging.hpp"
#include "kernel/sm90_tile_scheduler.cuh"
#include "tessera/algorithm/copy.hpp"
#include "tessera/algorithm/copy_tma.hpp"
#include "tessera/atom/copy_sm90_tma.hpp"
#include "tessera/atom/tma_coord.hpp"
#include "tessera/atom/gmma_layout.hpp"
#include "tessera/atom/mma_sm90.hpp"
#include "tessera/tensor.hpp"
#include "tessera/tiled_mma.hpp"

using namespace tessera;

// W warpgroups of the 64 x BN atom along M, repeated AtomsM times over BM = 64 W AtomsM rows:
// every thread's value v at its value 0 plus thread 0's value v, the tile covered once, and
// warpgroup w's rows those of its A operand in the mainloop: 64 w + 64 W i .. + 63 for repeat i
// (value v of repeat i is accumulator v + V i, V = BN / 2).
template <int W, int AtomsM, int BN>
void check_c_partition() {
  constexpr int BM = 64 * W * AtomsM, V = BN / 2, values = AtomsM * V;
  const auto tiled = make_tiled_mma(MMA_Atom<SM90_64xNx16_F32BF16BF16_SS<BN>>{}, make_layout(make_shape(C<W>{}, _1{}, _1{})));
  const auto tile = make_shape(C<BM>{}, C<BN>{});
  const auto id = make_identity_tensor(tile);
  const auto c0 = tiled.get_slice(0).partition_C(id);
  REQUIRE(int(size(c0)) == values);
  REQUIRE(int(size<1>(c0)) == AtomsM);
  std::vector<int> owners(size_t(BM * BN), 0);
  int bad = 0, wrong_rows = 0;
  for (int t = 0; t < W * 128; ++t) {
    const auto ct = tiled.get_slice(t).partition_C(id);
    const auto base = ct(0);
    for (int v = 0; v < values; ++v) {
      const auto x = ct(v), d = c0(v), z = c0(0);
      const int64_t m = int64_t(get<0>(x)), n = int64_t(get<1>(x));
      bad += m != int64_t(get<0>(base)) + int64_t(get<0>(d)) - int64_t(get<0>(z));
      bad += n != int64_t(get<1>(base)) + int64_t(get<1>(d)) - int64_t(get<1>(z));
      ++owners[size_t(m + BM * n)];
      const int i = v / V;  // the M repeat of accumulator v
      wrong_rows += m / 64 != t / 128 + W * i;
    }
  }
  INFO(BM << " x " << BN << ", " << W << " warpgroups, M repeat " << AtomsM);
  CHECK(bad == 0);
  CHECK(wrong_rows == 0);
  CHECK(std::count(owners.begin(), owners.end(), 1) == BM * BN);  // every (m, n) owned by exactly one thread
}

TEST_CASE("sm90 epilogue: C coordinates are value 0's plus thread 0's constants, covering the tile once") {
  check_c_partition<2, 1, 256>();  // cooperative 128 x 256: warpgroup w rows 64 w ..
  check_c_partition<1, 2, 128>();  // ping-pong 128 x 128 per consumer
  check_c_partition<2, 2, 128>();  // cooperative 256 x 128: warpgroup w rows 64 w .. and 128 + 64 w ..
}

// The view kernels/collective/sm90_epilogue_tma.cuh stages through (EpilogueStaging):
// ((staging rows), W) x ((staging columns), Parts) : (staging's, buffer) x (staging's, 0),
// Cols columns of 64 rows in 16 KiB.
template <int Bits>
void check_staging_view() {
  using S = kernels::sm90::EpilogueStaging<Bits, 256, 2, 1>;
  constexpr int Cols = S::Cols, Parts = S::Parts;
  constexpr auto staging = S::staging;
  constexpr auto L = staging.inner();
  constexpr int staging_elements = S::elements;
  REQUIRE(staging_elements * Bits / 8 == 16 * 1024);
  constexpr auto view = S::view;
  const auto tiled = make_tiled_mma(MMA_Atom<SM90_64xNx16_F32BF16BF16_SS<256>>{}, make_layout(make_shape(_2{}, _1{}, _1{})));
  std::vector<float> buffers(2 * staging_elements);
  const auto sD = make_tensor(buffers.data(), view);
  const auto id = make_identity_tensor(make_shape(_128{}, _256{}));
  int bad = 0;
  std::vector<int> hits(size_t(2 * Parts * staging_elements), 0);
  for (int t = 0; t < 256; ++t) {
    const auto ct = tiled.get_slice(t).partition_C(id);
    const auto st = tiled.get_slice(t).partition_C(sD);
    for (int v = 0; v < 128; ++v) {
      const int64_t m = int64_t(get<0>(ct(v))), n = int64_t(get<1>(ct(v)));
      const int64_t wg = m / 64, part = n / Cols;
      const int64_t offset = &st(v) - buffers.data();
      bad += offset != wg * staging_elements + int64_t(L(m % 64, n % Cols));
      ++hits[size_t((wg * Parts + part) * staging_elements + (offset - wg * staging_elements))];
    }
  }
  CHECK(bad == 0);
  int not_once = 0;
  for (int h : hits) not_once += h != 1;
  CHECK(not_once == 0);
  // The TMA store of one part: 128-byte swizzle rows are the box's inner extent, so a 16-bit
  // part is one box of 64 x Cols, an f32 part two of 32 x 64 (the second 256 floats in).
  tma::Arguments a;
  (void)make_tma_copy<SM90_TMA_STORE, 2, Bits>(a, make_layout(make_shape(int64_t(1024), int64_t(1024)), make_stride(int64_t(1), int64_t(1024))),
                                               staging);
  const auto boxes = tma::make_tile_boxes<2>(a, staging);
  INFO("bits " << Bits << ": " << tma::to_string(boxes.rule) << ", fits " << boxes.fits << ", boxes " << a.boxes);
  REQUIRE(boxes.ok());
  CHECK(boxes.count == (Bits == 16 ? 1 : 2));
  CHECK(boxes.tx_bytes == 16u * 1024u);
  if constexpr (Bits == 32) {
    CHECK(boxes.corner[1][0] == 32);
    CHECK(boxes.smem_offset_bytes[1] == 32u * 64u * 4u);  // the second 32 rows' atoms follow the first's 64 columns
    // With the atoms walking the rows first (tile_to_shape's default), a box would end after
    // 8 columns: 16 boxes per store.
    tma::Arguments rows_first;
    (void)make_tma_copy<SM90_TMA_STORE, 16, Bits>(
        rows_first, make_layout(make_shape(int64_t(1024), int64_t(1024)), make_stride(int64_t(1), int64_t(1024))),
        GMMA::make_smem_layout<Bits, GMMA::Major::MN, 128>(make_shape(_64{}, C<Cols>{})));
    CHECK(rows_first.boxes == 16);
  }
}

TEST_CASE("sm90 TMA-store epilogue: the staging view of a 16-bit and an f32 D") {
  check_staging_view<16>();
  check_staging_view<32>();
}

// The stmatrix staging of a 16-bit D, as the epilogue runs it: every thread's accumulator v
// (tagged with its (m, n) in the tile) converted into a fragment of the TiledMma's C shape,
// retiled for the copy, and part h's instructions (M repeat h / Parts, instructions
// (h % Parts) K .. (h % Parts) K + K - 1) copied into the
// staging view; after each part every buffer element holds the tag of the (m, n) the TMA
// store sends there, i.e. part h's element at the staging layout's offset, nothing else.
template <int BM, int W, int AtomsM, int BN = 256>
void check_stmatrix_staging() {
  using S = kernels::sm90::EpilogueStaging<16, BN, W, AtomsM>;
  const auto tiled =
      make_tiled_mma(MMA_Atom<SM90_64xNx16_F32BF16BF16_SS<BN>>{}, make_layout(make_shape(C<W>{}, _1{}, _1{})));
  const auto tile = make_shape(C<BM>{}, C<BN>{});
  const auto id = make_identity_tensor(tile);
  const auto tag = [](int64_t m, int64_t n) { return bfloat16_t::from_bits(uint16_t(1 + (m % 64) + 64 * (n % 256))); };
  const auto wants = [&](int64_t m, int64_t n) { return uint16_t(1 + m % 64 + 64 * (n % 256)); };
  constexpr int K = S::instructions_per_part;
  // (16 KiB buffers hold 128 columns: a 256-column tile stages in two parts of 8
  // instructions, a 64-column one in one part of 4, half of each buffer, a 192-column one in
  // two parts of 96 columns, 6 instructions each, a 160-column one in two of 80, 5 each)
  static_assert(S::Cols == (BN < 128 ? BN : BN % 128 == 0 ? 128 : BN / 2) && S::Parts == BN / S::Cols && K == S::Cols / 16);
  static_assert(S::buffer_elements == 8 * 1024 && S::elements == 64 * S::Cols);
  std::vector<bfloat16_t> buffers(size_t(W * S::buffer_elements));
  const auto sD = S::tensor(buffers.data());
  for (int h = 0; h < AtomsM * S::Parts; ++h) {
    for (auto& b : buffers) b = bfloat16_t::from_bits(0);
    host_warp::launch(W * 128, [&](int t) {
      const auto ct = tiled.get_slice(t).partition_C(id);
      const auto shape_c = shape(tiled.get_slice(t).partition_C(sD));
      bfloat16_t staged[AtomsM * BN / 2];
      auto frag = make_tensor(&staged[0], make_layout(shape_c));
      for (int v = 0; v < int(size(frag)); ++v) frag(v) = tag(int64_t(get<0>(ct(v))), int64_t(get<1>(ct(v))));
      const auto stsm = S::template stsm<bfloat16_t>(tiled).get_slice(t);
      auto src = stsm.retile_S(frag);
      auto dst = stsm.partition_D(sD);
      static_assert(S::instructions_in_value_order(decltype(src.layout()){}), "instruction k holds values 8k .. 8k+7");
      const int i = h / S::Parts;  // the M repeat
      for (int k = (h % S::Parts) * K; k < (h % S::Parts + 1) * K; ++k)
        copy(Copy_Atom<SM90_U16x8_STSM_T, bfloat16_t>{}, src(make_coord(_, k), i, 0), dst(make_coord(_, k), i, 0));
    });
    // What part h is: its M repeat h / Parts (rows 64 W i + 64 w ..), its columns Cols (h % Parts) ..
    int bad = 0, zero = 0;
    for (int w = 0; w < W; ++w)
      for (int mm = 0; mm < 64; ++mm)
        for (int nn = 0; nn < S::Cols; ++nn) {
          const int64_t m = 64 * W * (h / S::Parts) + 64 * w + mm, n = int64_t(S::Cols) * (h % S::Parts) + nn;
          const uint16_t got = buffers[size_t(w * S::buffer_elements + int64_t(S::staging(mm, nn)))].bits;
          bad += got != wants(m, n);
          zero += got == 0;
        }
    INFO("BM " << BM << " W " << W << " part " << h);
    CHECK(bad == 0);
    CHECK(zero == 0);
  }
}

TEST_CASE("sm90 TMA-store epilogue: stmatrix staging puts each part's values at their staging offsets") {
  check_stmatrix_staging<128, 2, 1>();  // cooperative: two consumer warpgroups, 64 x 256 each
  check_stmatrix_staging<64, 1, 1>();   // ping-pong 64 x 256
  check_stmatrix_staging<128, 1, 2>();  // one warpgroup, two M repeats sharing its buffer (the TiledMma is 64 rows)
  check_stmatrix_staging<128, 2, 1, 64>();  // cooperative 128 x 64 (decode): one part in half of each buffer
  check_stmatrix_staging<128, 2, 1, 192>();  // cooperative 128 x 192: two parts of 96 columns (12 KiB of a buffer)
  // cooperative 128 x 160 (per-tensor FP8 for a few hundred tokens: its C fragment is the 16-bit
  // wgmma's): two parts of 80 columns (10 KiB of a buffer), 5 stmatrix x4 each
  check_stmatrix_staging<128, 2, 1, 160>();
  // cooperative 256 x 128: each warpgroup's two M repeats (rows 64 w, 128 + 64 w) one part each, in turn
  check_stmatrix_staging<256, 2, 2, 128>();
}

// The epilogue under the next tile (pack, then store_packed): each thread converts all its
// values at once into EpilogueStaging::fragment (value i at offset i, tagged here with its
// (m, n) as pack() converts accumulator i, whose coordinate is the C partition's value i),
// then stages part after part from that one fragment through the same stmatrix copy. After
// each part the buffers equal, element for element, what the current epilogue stages for
// that part (a fragment of the staging view's C partition shape, filled per part: above).
template <int BM, int W, int AtomsM, int BN, kernels::Major DMajor>
void check_packed_staging() {
  using S = kernels::sm90::EpilogueStaging<16, BN, W, AtomsM, DMajor>;
  using Op = typename S::StsmOp;
  const auto tiled =
      make_tiled_mma(MMA_Atom<SM90_64xNx16_F32BF16BF16_SS<BN>>{}, make_layout(make_shape(C<W>{}, _1{}, _1{})));
  const auto id = make_identity_tensor(make_shape(C<BM>{}, C<BN>{}));
  const auto tag = [](int64_t m, int64_t n) { return bfloat16_t::from_bits(uint16_t(1 + (m % 64) + 64 * (n % 256))); };
  constexpr int K = S::instructions_per_part;
  std::vector<bfloat16_t> packed_buffers(size_t(W * S::buffer_elements)), current(size_t(W * S::buffer_elements));
  const auto sDp = S::tensor(packed_buffers.data());
  const auto sDc = S::tensor(current.data());
  // every thread's packed registers, filled once (pack), kept across the parts
  std::vector<std::vector<bfloat16_t>> packed(size_t(W * 128), std::vector<bfloat16_t>(size_t(AtomsM * BN / 2)));
  for (int t = 0; t < W * 128; ++t) {
    const auto ct = tiled.get_slice(t).partition_C(id);
    auto frag = S::fragment(packed[size_t(t)].data(), tiled);
    static_assert(decltype(size(frag))::value == AtomsM * BN / 2, "the fragment holds a thread's values");
    for (int v = 0; v < int(size(frag)); ++v) frag(v) = tag(int64_t(get<0>(ct(v))), int64_t(get<1>(ct(v))));
    for (int v = 0; v < int(size(frag)); ++v) CHECK(&frag(v) == packed[size_t(t)].data() + v);  // value i at offset i
  }
  int differ = 0, staged = 0;
  for (int h = 0; h < AtomsM * S::Parts; ++h) {
    for (auto& b : packed_buffers) b = bfloat16_t::from_bits(0);
    for (auto& b : current) b = bfloat16_t::from_bits(0);
    const int i = h / S::Parts;
    host_warp::launch(W * 128, [&](int t) {
      const auto frag = S::fragment(static_cast<const bfloat16_t*>(packed[size_t(t)].data()), tiled);
      const auto stsm = S::template stsm<bfloat16_t>(tiled).get_slice(t);
      const auto src = stsm.retile_S(frag);
      auto dst = stsm.partition_D(sDp);
      for (int k = (h % S::Parts) * K; k < (h % S::Parts + 1) * K; ++k)
        copy(Copy_Atom<Op, bfloat16_t>{}, src(make_coord(_, k), i, 0), dst(make_coord(_, k), i, 0));
    });
    host_warp::launch(W * 128, [&](int t) {  // the current epilogue: this part's fragment over the view's C partition
      const auto ct = tiled.get_slice(t).partition_C(id);
      bfloat16_t part[AtomsM * BN / 2] = {};
      auto frag = make_tensor(&part[0], make_layout(shape(tiled.get_slice(t).partition_C(sDc))));
      for (int v = 0; v < int(size(frag)); ++v) frag(v) = tag(int64_t(get<0>(ct(v))), int64_t(get<1>(ct(v))));
      const auto stsm = S::template stsm<bfloat16_t>(tiled).get_slice(t);
      auto src = stsm.retile_S(frag);
      auto dst = stsm.partition_D(sDc);
      for (int k = (h % S::Parts) * K; k < (h % S::Parts + 1) * K; ++k)
        copy(Copy_Atom<Op, bfloat16_t>{}, src(make_coord(_, k), i, 0), dst(make_coord(_, k), i, 0));
    });
    for (size_t e = 0; e < current.size(); ++e) {
      differ += packed_buffers[e].bits != current[e].bits;
      staged += current[e].bits != 0;
    }
  }
  INFO("BM " << BM << " W " << W << " BN " << BN << " row-major " << (DMajor == kernels::Major::Row));
  CHECK(differ == 0);
  CHECK(staged == BM * BN);  // every element of the tile staged (a part's W x 64 x Cols, over all parts)
}

TEST_CASE("sm90 TMA-store epilogue: the packed fragment stages every part as the current epilogue does") {
  check_packed_staging<128, 2, 1, 256, kernels::Major::Col>();  // the cooperative kernel's tile, column-major D
  check_packed_staging<128, 2, 1, 256, kernels::Major::Row>();  // row-major D
  check_packed_staging<128, 2, 1, 192, kernels::Major::Col>();
  check_packed_staging<128, 2, 1, 160, kernels::Major::Col>();
  check_packed_staging<128, 1, 2, 256, kernels::Major::Col>();  // two M repeats in one warpgroup's fragment
  check_packed_staging<256, 2, 2, 128, kernels::Major::Col>();  // cooperative 256 x 128: two warpgroups of two repeats
}

// The fused pack's bias in registers (PackedBias, collective/sm90_epilogue_tma.cuh): along N
// group J's slot holds the columns of values (I = 0, J, V = 0) and (0, J, 1), along M repeat
// I's slots the rows of (I, 0, 0) and (I, 0, 2). Every value (I, J, V) must read the element
// its own coordinates name: its column that of (0, J, V % 2), its row that of (I, 0, V - V % 2),
// for every thread, at the kernels' tiles (one and two M repeats per warpgroup, BN 256 / 192).
template <int BM, int W, int BN>
void check_packed_bias_slots() {
  constexpr int AtomsM = BM / (64 * W);
  const auto tiled = make_tiled_mma(MMA_Atom<SM90_64xNx16_F32BF16BF16_SS<BN>>{}, make_layout(make_shape(C<W>{}, _1{}, _1{})));
  const auto id = make_identity_tensor(make_shape(C<BM>{}, C<BN>{}));
  constexpr int groups = BN / 8;
  int bad = 0, values = 0;
  for (int t = 0; t < W * 128; ++t) {
    const auto ct = tiled.get_slice(t).partition_C(id);
    REQUIRE(int(size<0, 2>(ct)) == groups);
    REQUIRE(int(size<1>(ct)) == AtomsM);
    for (int i = 0; i < AtomsM; ++i)
      for (int j = 0; j < groups; ++j)
        for (int v = 0; v < 4; ++v) {
          const auto x = ct(make_coord(make_coord(_, _, j), i, 0))(v);
          const auto col_slot = ct(make_coord(make_coord(_, _, j), 0, 0))(v % 2);
          const auto row_slot = ct(make_coord(make_coord(_, _, 0), i, 0))(v - v % 2);
          bad += int64_t(get<1>(x)) != int64_t(get<1>(col_slot));
          bad += int64_t(get<0>(x)) != int64_t(get<0>(row_slot));
          ++values;
        }
    // (the 32-bit loads: a slot's two columns adjacent, low half first, at an even distance
    // from the thread's first column, so that an aligned vector gives aligned words)
    for (int j = 0; j < groups; ++j) {
      const auto g = ct(make_coord(make_coord(_, _, j), 0, 0));
      bad += int64_t(get<1>(g(1))) != int64_t(get<1>(g(0))) + 1;
      bad += (int64_t(get<1>(g(0))) - int64_t(get<1>(ct(0)))) % 2 != 0;
    }
  }
  INFO("BM " << BM << " W " << W << " BN " << BN);
  CHECK(values == W * 128 * AtomsM * groups * 4);
  CHECK(bad == 0);
}

TEST_CASE("sm90 TMA-store epilogue: the fused pack's bias slots hold each value's bias") {
  check_packed_bias_slots<128, 2, 256>();  // the fused kernels' tile
  check_packed_bias_slots<128, 1, 256>();  // two M repeats per warpgroup
  check_packed_bias_slots<128, 2, 192>();
  check_packed_bias_slots<256, 2, 128>();  // cooperative 256 x 128: two warpgroups of two M repeats
}

// Staging slots (EpilogueStaging::first, buffer): the ping-pong kernel's two consumers (one
// warpgroup each, different tiles at once) and the cooperative kernel's two warpgroups (one
// tile, one slot). Every (slot, warpgroup) writes a buffer of its own among the Slots x W, and
// the slot's view (from first(slot)) puts each of that warpgroup's values in that buffer, at
// the staging layout's offset: two consumers' tiles never share a buffer or its named barrier.
template <int W, int AtomsM, int Slots, int BN = 256>
void check_staging_slots() {
  using S = kernels::sm90::EpilogueStaging<16, BN, W, AtomsM>;
  const auto tiled = make_tiled_mma(MMA_Atom<SM90_64xNx16_F32BF16BF16_SS<BN>>{}, make_layout(make_shape(C<W>{}, _1{}, _1{})));
  const auto id = make_identity_tensor(make_shape(C<64 * W * AtomsM>{}, C<BN>{}));
  std::vector<bfloat16_t> buffers(size_t(Slots * W * S::buffer_elements));
  std::set<int> owned;
  int bad = 0;
  for (int slot = 0; slot < Slots; ++slot) {
    const auto sD = S::tensor(buffers.data() + S::first(slot) * S::buffer_elements);
    for (int t = 0; t < W * 128; ++t) {
      const int wg = t / 128, b = S::buffer(slot, wg);
      owned.insert(b);
      CHECK((b >= 0 && b < Slots * W));
      const auto ct = tiled.get_slice(t).partition_C(id);
      const auto st = tiled.get_slice(t).partition_C(sD);
      for (int v = 0; v < int(size(st)); ++v) {
        const int64_t m = int64_t(get<0>(ct(v))), n = int64_t(get<1>(ct(v)));
        const int64_t offset = &st(v) - buffers.data();
        bad += offset != int64_t(b) * S::buffer_elements + int64_t(S::staging(int(m % 64), int(n % S::Cols)));
      }
    }
  }
  INFO("W " << W << " AtomsM " << AtomsM << " slots " << Slots);
  CHECK(bad == 0);
  CHECK(int(owned.size()) == Slots * W);
}

TEST_CASE("sm90 TMA-store epilogue: each slot's warpgroups stage into buffers of their own") {
  check_staging_slots<1, 1, 2>();  // ping-pong 64 x 256 per consumer: a slot each
  check_staging_slots<1, 2, 2>();  // ping-pong 128 x 256 per consumer (two M repeats in one buffer)
  check_staging_slots<2, 1, 1>();  // cooperative: one slot, a buffer per warpgroup
  check_staging_slots<2, 2, 1, 128>();  // cooperative 256 x 128: a buffer per warpgroup, its two M repeats in turn
}

// Where each part's TMA store (and C load) starts (EpilogueStaging::part_origin): part h of
// warpgroup w of CTA tile (tm, tn) at (tm BM + 64 w + 64 W (h / Parts), tn BN + Cols (h % Parts),
// l), the formula it replaces; and the parts' (64, Cols) boxes cover the CTA tile once.
template <int Bits, int BN, int W, int AtomsM, kernels::Major DMajor = kernels::Major::Col>
void check_part_origins() {
  using S = kernels::sm90::EpilogueStaging<Bits, BN, W, AtomsM, DMajor>;
  constexpr int BM = 64 * W * AtomsM;
  const int64_t tm = *rc::gen::inRange<int64_t>(0, (int64_t(1) << 31) / BM), tn = *rc::gen::inRange<int64_t>(0, (int64_t(1) << 31) / BN);
  const int64_t l = *rc::gen::inRange<int64_t>(0, 1 << 16);
  std::set<std::pair<int64_t, int64_t>> blocks;
  for (int w = 0; w < W; ++w)
    for (int h = 0; h < AtomsM * S::Parts; ++h) {
      const tma::Coord o = tma::coord_of(S::part_origin(tm, tn, l, w, h));
      RC_ASSERT(int64_t(o.c[0]) == tm * BM + 64 * w + 64 * W * (h / S::Parts));
      RC_ASSERT(int64_t(o.c[1]) == tn * BN + int64_t(S::Cols) * (h % S::Parts));
      RC_ASSERT(int64_t(o.c[2]) == l);
      RC_ASSERT(blocks.insert({(o.c[0] - tm * BM) / 64, (o.c[1] - tn * BN) / S::Cols}).second);
    }
  RC_ASSERT(int64_t(blocks.size()) * 64 * S::Cols == int64_t(BM) * BN);
}

TEST_CASE("sm90 TMA-store epilogue: each part's store starts at its rows and columns of the CTA tile") {
  rc::prop("part_origin over generated tiles, every warpgroup and part", [] {
    check_part_origins<16, 256, 2, 1>();  // cooperative
    check_part_origins<16, 256, 1, 1>();  // ping-pong
    check_part_origins<16, 256, 1, 2>();  // one warpgroup, two M repeats
    check_part_origins<32, 256, 2, 1>();  // an f32 D: four parts per repeat
    check_part_origins<16, 128, 2, 2>();  // cooperative 256 x 128: two warpgroups of two M repeats
    check_part_origins<32, 128, 2, 2>();  // the same, an f32 D: two parts of 64 per repeat
    check_part_origins<16, 64, 2, 1>();   // cooperative 128 x 64: one part per warpgroup
    check_part_origins<16, 192, 2, 1>();  // cooperative 128 x 192: two parts of 96 columns
    check_part_origins<32, 192, 2, 1>();  // an f32 D: three parts of 64
    check_part_origins<16, 160, 2, 1>();  // cooperative 128 x 160: two parts of 80 columns
    check_part_origins<16, 192, 2, 1, kernels::Major::Row>();  // row-major 128 x 192: three parts of 64
    check_part_origins<16, 256, 2, 1, kernels::Major::Row>();  // row-major: two parts of 128
    check_part_origins<32, 128, 2, 1, kernels::Major::Row>();  // row-major f32: two parts of 64
    check_part_origins<16, 128, 2, 2, kernels::Major::Row>();  // row-major 256 x 128: one part per M repeat
  });
}

// The row-major staging of a 16-bit D (EpilogueStaging<..., Major::Row>), end to end on the
// host: the cooperative TiledMma's accumulators, each tagged with its (m, n), staged part by
// part by the stmatrix copy the epilogue runs (no .trans), then every box of the part's TMA
// store (the plan the epilogue derives over a row-major tensor) read out of the buffers as
// the TMA unit does: box element (i0, i1) at the box's smem offset + (i0 + box_dim0 i1)
// elements, the 128-byte swizzle on the byte address (bits 4-6 ^= bits 7-9), written to a
// row-major D at the box's coordinates (tma_box_coord of the part's origin). Every element of
// the CTA tile must arrive once, with its own tag. Then C: a row-major C tagged the same way,
// loaded box by box into the buffers (the inverse), must sit where each thread's C partition
// of the view reads it for the value it holds (what the plain epilogue adds beta C from).
// Thread t's stmatrix instructions of part h (row-major staging), its values tagged.
template <class T, class S, int BN, class Tiled, class Id, class SD, class Tag>
void stage_row_major_part(Tiled const& tiled, Id const& id, SD const& sD, int t, int h, Tag const& tag) {
  const auto ct = tiled.get_slice(t).partition_C(id);
  T staged[decltype(size(tiled.get_slice(t).partition_C(sD)))::value];
  auto frag = make_tensor(&staged[0], make_layout(shape(tiled.get_slice(t).partition_C(sD))));
  for (int v = 0; v < int(size(frag)); ++v) frag(v) = T::from_bits(tag(int64_t(get<0>(ct(v))), int64_t(get<1>(ct(v)))));
  const auto stsm = S::template stsm<T>(tiled).get_slice(t);
  auto src = stsm.retile_S(frag);
  auto dst = stsm.partition_D(sD);
  static_assert(S::instructions_in_value_order(decltype(src.layout()){}), "instruction k holds values 8k .. 8k+7");
  const int K = S::instructions_per_part;
  for (int k = (h % S::Parts) * K; k < (h % S::Parts + 1) * K; ++k)
    copy(Copy_Atom<SM90_U32x4_STSM_N, T>{}, src(make_coord(_, k), h / S::Parts, 0), dst(make_coord(_, k), h / S::Parts, 0));
}

// AtomsM = 2: the cooperative 256-row tile (each warpgroup's rows 64 w and 128 + 64 w staged
// one M repeat after the other through its own buffer).
template <class T, int BN, int AtomsM = 1>
void check_row_major_staging() {
  constexpr int W = 2, BM = 64 * W * AtomsM;
  using S = kernels::sm90::EpilogueStaging<16, BN, W, AtomsM, kernels::Major::Row>;
  static_assert(S::Cols % 64 == 0 && S::Cols <= 128 && BN % S::Cols == 0, "row-major parts: whole 128-byte rows, at most 16 KiB");
  const auto tiled = make_tiled_mma(MMA_Atom<SM90_64xNx16_F32BF16BF16_SS<BN>>{}, make_layout(make_shape(C<W>{}, _1{}, _1{})));
  const auto id = make_identity_tensor(make_shape(C<BM>{}, C<BN>{}));
  const auto tag = [](int64_t m, int64_t n) { return uint16_t(1 + m + BM * n); };  // unique over the tile, never 0
  // The TMA plan the epilogue derives over a row-major D (ld = 4096 columns), and its boxes.
  tma::Arguments a;
  (void)make_tma_copy<SM90_TMA_STORE, S::boxes, 16>(
      a, make_layout(make_shape(int64_t(4096), int64_t(4096)), make_stride(int64_t(4096), int64_t(1))), S::staging);
  const auto boxes = tma::make_tile_boxes<S::boxes>(a, S::staging);
  INFO("BM " << BM << " BN " << BN << ": " << tma::to_string(boxes.rule) << ", boxes " << a.boxes);
  REQUIRE(boxes.ok());
  REQUIRE(boxes.count == S::boxes);
  REQUIRE(boxes.tx_bytes == uint32_t(64 * S::Cols * 2));
  REQUIRE(a.box_dim[0] * 2 == 128);  // the inner extent: one 128-byte swizzle row
  const int64_t tm = 3, tn = 5, l = 0;  // a CTA tile away from the origin
  // Each element of box q: its byte offset in the buffer (swizzled as TMA does) and its (m, n) in D.
  const auto each_box_element = [&](int q, tma::Coord const& origin, auto&& f) {
    int32_t c[tma::kMaxRank];
    detail::tma_box_coord(boxes, origin, q, c);
    for (int64_t i1 = 0; i1 < a.box_dim[1]; ++i1)
      for (int64_t i0 = 0; i0 < a.box_dim[0]; ++i0) {
        int64_t mode[3] = {0, 0, 0};
        mode[boxes.mode_of_dim[0]] = c[0] + i0;
        mode[boxes.mode_of_dim[1]] = c[1] + i1;
        const uint32_t b = boxes.smem_offset_bytes[q] + uint32_t(2 * (i0 + a.box_dim[0] * i1));
        const uint32_t swizzled = b ^ (((b >> 7) & 7u) << 4);
        f(swizzled / 2, mode[0] - tm * BM, mode[1] - tn * BN);
      }
  };
  std::vector<T> buffers(size_t(W * S::buffer_elements));
  const auto sD = S::tensor(buffers.data());
  std::vector<int> hits(size_t(BM * BN), 0);
  int wrong = 0, outside = 0;
  for (int h = 0; h < AtomsM * S::Parts; ++h) {
    for (auto& b : buffers) b = T::from_bits(0);
    host_warp::launch(W * 128, [&](int t) { stage_row_major_part<T, S, BN>(tiled, id, sD, t, h, tag); });
    for (int w = 0; w < W; ++w) {
      const tma::Coord origin = tma::coord_of(S::part_origin(tm, tn, l, w, h));
      for (int q = 0; q < boxes.count; ++q)
        each_box_element(q, origin, [&](uint32_t element, int64_t m, int64_t n) {
          if (m < 0 || m >= BM || n < 0 || n >= BN) return void(++outside);
          ++hits[size_t(m * BN + n)];
          wrong += buffers[size_t(w * S::buffer_elements) + element].bits != tag(m, n);
        });
    }
  }
  int not_once = 0;
  for (int x : hits) not_once += x != 1;
  CHECK(outside == 0);
  CHECK(not_once == 0);
  CHECK(wrong == 0);
  // C: loaded by the same boxes, read by each thread at its value's place in the view.
  int c_wrong = 0;
  for (int h = 0; h < AtomsM * S::Parts; ++h) {
    for (auto& b : buffers) b = T::from_bits(0);
    for (int w = 0; w < W; ++w) {
      const tma::Coord origin = tma::coord_of(S::part_origin(tm, tn, l, w, h));
      for (int q = 0; q < boxes.count; ++q)
        each_box_element(q, origin, [&](uint32_t element, int64_t m, int64_t n) {
          buffers[size_t(w * S::buffer_elements) + element] = T::from_bits(tag(m, n));
        });
    }
    for (int t = 0; t < W * 128; ++t) {
      const auto ct = tiled.get_slice(t).partition_C(id);
      const auto st = tiled.get_slice(t).partition_C(sD);
      for (int v = 0; v < int(size(st)); ++v) {
        const int64_t m = int64_t(get<0>(ct(v))), n = int64_t(get<1>(ct(v)));
        if (n / S::Cols != h % S::Parts || m / (64 * W) != h / S::Parts) continue;  // another part's value
        c_wrong += st(v).bits != tag(m, n);
      }
    }
  }
  CHECK(c_wrong == 0);
}

TEST_CASE("sm90 TMA-store epilogue, row-major D: stmatrix staging and the TMA boxes put every element of the tile once") {
  check_row_major_staging<bfloat16_t, 64>();
  check_row_major_staging<bfloat16_t, 128>();
  check_row_major_staging<bfloat16_t, 192>();
  check_row_major_staging<bfloat16_t, 256>();
  check_row_major_staging<half_t, 64>();
  check_row_major_staging<half_t, 128>();
  check_row_major_staging<half_t, 192>();
  check_row_major_staging<half_t, 256>();
  check_row_major_staging<bfloat16_t, 128, 2>();  // the cooperative 256 x 128 tile: two M repeats per warpgroup
  check_row_major_staging<half_t, 128, 2>();
}

TEST_CASE("sm90 persistent scheduler: every tile once, grouped raster (generated)") {
  rc::prop("bijection onto (m, n, l)", [] {
    kernels::sm90::PersistentTileScheduler s;
    s.tiles_m = *rc::gen::inRange<int64_t>(1, 40);
    s.tiles_n = *rc::gen::inRange<int64_t>(1, 40);
    s.batch = *rc::gen::inRange<int64_t>(1, 4);
    s.group = *rc::gen::inRange<int64_t>(1, 10);
    std::set<std::tuple<int64_t, int64_t, int64_t>> seen;
    for (int64_t t = 0; t < s.tile_count(); ++t) {
      const auto x = s.tile(t);
      RC_ASSERT(x.m >= 0 && x.m < s.tiles_m && x.n >= 0 && x.n < s.tiles_n && x.l >= 0 && x.l < s.batch);
      seen.insert({x.m, x.n, x.l});
      // Inside a whole group, consecutive tiles go down M first.
      const int64_t g = s.group < s.tiles_m ? s.group : s.tiles_m;
      const int64_t r = t % (s.tiles_m * s.tiles_n);
      if (r < s.tiles_m / g * g * s.tiles_n && r % g != 0) {
        const auto prev = s.tile(t - 1);
        RC_ASSERT(prev.m + 1 == x.m && prev.n == x.n);
      }
    }
    RC_ASSERT(int64_t(seen.size()) == s.tile_count());
  });
}
