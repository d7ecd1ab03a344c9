// The kernels' gmem -> smem loader (kernels/collective/tile_loader.hpp) on the host, for
// every thread of every G2S copy the kernels use: one operand's k-tiles are loaded the way
// the mainloops load them (one loader per thread, k-tile after k-tile), and every element
// of every stage must hold what local_tile of the operand says -- the element, or 0 where
// the tile runs past the operand (residues) -- written exactly once.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "tessera/kernels/partitions.hpp"
#include "collective/tile_loader.hpp"

using namespace tessera;
using namespace tessera::kernels;

namespace {

// Element (mn, k) of the operand holds 1 + mn * extent_k + k: nonzero, distinct.
// Through = void: loads through the smem_offset callable; else load_through<Through> (the
// stage layout type, stepping by its uniform_step where it has one).  Whole: as the
// tensor-core mainloop does, a tile the loader reports whole (all_rows, full_tiles_left) is
// loaded through the unchecked path load_through<Through, true>.
template <class Copy, bool KMajor, class Through = void, bool Whole = false, class SmemOffset>
void check_loads(std::int64_t extent_mn, std::int64_t extent_k, std::int64_t tile_mn, SmemOffset smem_offset,
                 int stage_size) {
  constexpr int MN = Copy::Extent, BK = Copy::Depth, V = Copy::Vector, Threads = Copy::ThreadCount;
  using T = std::uint32_t;
  const std::int64_t ld = (KMajor ? extent_k : extent_mn) + 8;
  const std::int64_t rows = KMajor ? extent_mn : extent_k;
  std::vector<T> operand(std::size_t(rows * ld), 0);
  auto at = [&](std::int64_t mn, std::int64_t k) -> T& {
    return operand[std::size_t(KMajor ? mn * ld + k : mn + k * ld)];
  };
  for (std::int64_t mn = 0; mn < extent_mn; ++mn)
    for (std::int64_t k = 0; k < extent_k; ++k) at(mn, k) = T(1 + mn * extent_k + k);

  std::vector<TileLoader<T, Copy, KMajor>> loaders;
  for (int t = 0; t < Threads; ++t) loaders.emplace_back(operand.data(), ld, extent_mn, extent_k, tile_mn, t);
  const std::int64_t k_tiles = (extent_k + BK - 1) / BK;
  INFO("MN " << MN << " BK " << BK << " V " << V << (KMajor ? " K-major" : " MN-major") << ", extents " << extent_mn
             << " x " << extent_k << ", tile " << tile_mn);
  for (std::int64_t kt = 0; kt < k_tiles; ++kt) {
    std::vector<T> stage(std::size_t(stage_size), T(0xdeadbeef));
    std::vector<int> writes(std::size_t(stage_size), 0);
    // What the loaders report for this k-tile, against the extents.
    using Loader = TileLoader<T, Copy, KMajor>;
    const bool rows_in = (tile_mn + 1) * MN <= extent_mn;
    REQUIRE(Loader::tile_inside(extent_mn, tile_mn) == rows_in);
    const std::int64_t whole_left = std::max<std::int64_t>(0, (extent_k - kt * BK) / BK);
    for (int t = 0; t < Threads; ++t) {
      if (rows_in) REQUIRE(loaders[std::size_t(t)].row_ok == Loader::AllRows);  // Whole's precondition
      REQUIRE(loaders[std::size_t(t)].full_tiles_left() == whole_left);
    }
    for (int t = 0; t < Threads; ++t)
    {
      auto issue = [&](T* dst, const T* src, bool pred) {
        for (int j = 0; j < V; ++j) {  // a vector: V elements contiguous in gmem and smem
          dst[j] = pred ? src[j] : T(0);
          ++writes[std::size_t(dst + j - stage.data())];
        }
      };
      if constexpr (std::is_void_v<Through>) loaders[std::size_t(t)].load(stage.data(), smem_offset, issue);
      else if (Whole && rows_in && whole_left > 0)
        loaders[std::size_t(t)].template load_through<Through, true>(stage.data(), issue);
      else loaders[std::size_t(t)].template load_through<Through>(stage.data(), issue);
    }
    for (int r = 0; r < MN; ++r)
      for (int c = 0; c < BK; ++c) {
        const std::int64_t mn = tile_mn * MN + r, k = kt * BK + c;
        const T want = mn < extent_mn && k < extent_k ? at(mn, k) : T(0);
        const auto off = std::size_t(smem_offset(TileCoord{r, c}));
        INFO("k-tile " << kt << ", tile coordinate (" << r << ", " << c << ")");
        REQUIRE(writes[off] == 1);
        REQUIRE(stage[off] == want);
      }
  }
}

template <int MN, bool KMajor, int V>
void check_tensorop(std::int64_t extent_mn, std::int64_t extent_k, std::int64_t tile_mn) {
  using P = TensorOpPartition<128, 256, 32, 2, 4, 256, true, true, true, V>;
  using Copy = typename P::template G2S<MN, KMajor>;
  using Smem = OperandSmem<MN, 32, KMajor>;
  check_loads<Copy, KMajor>(extent_mn, extent_k, tile_mn, [](TileCoord c) { return Smem::offset(c); }, Smem::size);
  check_loads<Copy, KMajor, Smem>(extent_mn, extent_k, tile_mn, [](TileCoord c) { return Smem::offset(c); }, Smem::size);
  check_loads<Copy, KMajor, Smem, true>(extent_mn, extent_k, tile_mn, [](TileCoord c) { return Smem::offset(c); },
                                        Smem::size);
}

}  // namespace

TEST_CASE("tile loader, tensor-core copies (16-byte vectors): whole tiles and residues", "[kernels]") {
  // Vectors need contiguous extents that are multiples of 8 (select_kernel's rule).
  check_tensorop<128, true, 8>(256, 96, 1);
  check_tensorop<128, true, 8>(128 + 40, 2 * 32 + 8, 1);
  check_tensorop<128, false, 8>(128 + 40, 2 * 32 + 5, 1);
  check_tensorop<256, true, 8>(256 + 8, 32 + 24, 1);
  check_tensorop<256, false, 8>(3 * 256, 72, 2);
  check_tensorop<256, false, 8>(256 + 200, 7, 1);
}

TEST_CASE("tile loader, tensor-core element copies: any extents", "[kernels]") {
  check_tensorop<128, true, 1>(128 + 37, 2 * 32 + 5, 1);
  check_tensorop<256, false, 1>(256 + 1, 1, 1);
  check_tensorop<128, false, 1>(127, 33, 0);
}

TEST_CASE("tile loader: every thread's copies are evenly spaced by copy_step_of", "[kernels]") {
  auto check = [](auto copy, auto /*kmajor*/) {
    using Copy = decltype(copy);
    constexpr TileCoord step = copy_step_of<Copy>();  // at thread 0, as the kernels use it
    for (int t = 0; t < Copy::ThreadCount; ++t) {
      const auto c = Copy::coords(t);
      for (int i = 0; i < Copy::Copies; ++i) {
        const TileCoord want = c(Copy::Vector * i);
        REQUIRE(want.row == c(0).row + i * step.row);
        REQUIRE(want.col == c(0).col + i * step.col);
      }
    }
  };
  using P = TensorOpPartition<128, 256, 32, 2, 4, 256, true, true, true, 8>;
  check(typename P::template G2S<128, true>{}, std::true_type{});
  check(typename P::template G2S<256, false>{}, std::false_type{});
  check(typename P::template G2S<128, false>{}, std::false_type{});
  check(typename TensorOpPartition<128, 256, 64, 2, 4, 256, true, false, false, 8>::template G2S<256, false>{},
        std::false_type{});
  // The epilogue's copies out of the staging tile step the same way (copy_step_of).
  check(EpilogueCopy<128, 256, 256, 8, true>{}, std::true_type{});
  check(EpilogueCopy<128, 256, 256, 8, false>{}, std::false_type{});
  check(EpilogueCopy<128, 256, 256, 1, true>{}, std::true_type{});
  check(EpilogueCopy<128, 256, 256, 1, false>{}, std::false_type{});
}

// The kernels address a thread's accumulators (epilogues) and ldmatrix sources (tensor-core
// prologue) as its value 0 plus value_deltas, computed at thread 0: that must be every
// thread's partition.
template <int Threads, class CoordsOf>
void check_deltas(CoordsOf coords_of) {
  constexpr auto delta = value_deltas(CoordsOf{}(0));  // at compile time, as in the kernels
  for (int t = 0; t < Threads; ++t) {
    const auto c = coords_of(t);
    for (int v = 0; v < decltype(c)::size(); ++v) {
      INFO("thread " << t << " value " << v);
      REQUIRE(c(v).row == c(0).row + delta.d[v].row);
      REQUIRE(c(v).col == c(0).col + delta.d[v].col);
    }
  }
}
template <class P>
void check_c_deltas() {
  STATIC_REQUIRE(P::c_deltas().d[1].row == value_deltas(P::c_coords(0)).d[1].row);
  check_deltas<P::Threads>([](int t) { return P::c_coords(t); });
  if constexpr (requires { P::ldsm_a_src(0); }) {
    check_deltas<P::Threads>([](int t) { return P::ldsm_a_src(t); });
    check_deltas<P::Threads>([](int t) { return P::ldsm_b_src(t); });
  }
}

TEST_CASE("accumulator and ldmatrix coordinates are value 0's plus deltas that are the same for every thread", "[kernels]") {
  check_c_deltas<DefaultTensorOpPartition<true>>();
  check_c_deltas<DefaultTensorOpPartition<true, false, false>>();
  check_c_deltas<DefaultTensorOpPartition<false, true, false>>();
  check_c_deltas<TensorOpPartition<256, 128, 32, 4, 2, 256, true, true, true>>();
  check_c_deltas<TensorOpPartition<128, 128, 32, 2, 2, 128, false, false, false>>();
  // A claim that can fail: value_deltas of a coordinate set whose rows wrap.
  struct Wrapping {
    int t;
    static constexpr int size() { return 2; }
    constexpr TileCoord operator()(int v) const { return {(t + 64 * v) % 128, (t + 64 * v) / 128}; }
  };
  constexpr auto d = value_deltas(Wrapping{0});
  const TileCoord c1 = Wrapping{100}(1);
  REQUIRE_FALSE((c1.row == 100 + d.d[1].row && c1.col == 0 + d.d[1].col));
}

// OperandSmem::uniform_step is a claim about every coordinate: check it against offset().
template <class Smem, int MN, int BK, int DR, int DC>
void check_uniform_step(bool expect_uniform) {
  INFO("MN " << MN << " BK " << BK << " step (" << DR << ", " << DC << ")");
  REQUIRE(Smem::template uniform_step<DR, DC> == expect_uniform);
  bool same = true;
  for (int r = 0; r + DR < MN; ++r)
    for (int c = 0; c + DC < BK; ++c)
      same = same && Smem::offset({r + DR, c + DC}) - Smem::offset({r, c}) == Smem::template plain_step<DR, DC>;
  // uniform_step is sufficient, not necessary: where it holds, every difference must be the step.
  if (expect_uniform) REQUIRE(same);
  else REQUIRE_FALSE(same);
}

TEST_CASE("operand smem: steps that pass through the swizzle unchanged", "[kernels]") {
  // K-major BK = 32 (Swizzle<2,3,3>): the k16 step flips a bit the swizzle writes; 64 rows do not.
  check_uniform_step<OperandSmem<128, 32, true>, 128, 32, 0, 16>(false);
  check_uniform_step<OperandSmem<128, 32, true>, 128, 32, 64, 0>(true);
  check_uniform_step<OperandSmem<128, 32, true>, 128, 32, 1, 0>(false);
  // MN-major (Swizzle<3,3,log2(MN)-3>): 16 k rows are two whole swizzle periods; 8 rows one.
  check_uniform_step<OperandSmem<256, 32, false>, 256, 32, 0, 16>(true);
  check_uniform_step<OperandSmem<256, 32, false>, 256, 32, 0, 8>(true);
  check_uniform_step<OperandSmem<256, 32, false>, 256, 32, 0, 1>(false);
  check_uniform_step<OperandSmem<128, 64, true>, 128, 64, 0, 16>(false);
  // Unswizzled: every step.
  check_uniform_step<OperandSmem<128, 32, true, false>, 128, 32, 0, 16>(true);
}

// OperandSmem::xor_step, and what the tensor-core mainloop builds on it: for every lane of
// the ldmatrix source partitions, a later k16 step's offset is step 0's XOR 16 kk (K-major)
// or plus 16 kk plain steps (MN-major).
template <int BM, int BN, int BK, bool AK, bool BKm>
void check_ldsm_steps() {
  using P = TensorOpPartition<BM, BN, BK, 2, 4, 256, true, AK, BKm>;
  auto check = [](auto smem, auto src_of) {
    using Smem = decltype(smem);
    const bool uniform = Smem::template uniform_step<0, 16>;
    INFO("MN-major " << !uniform << " BK " << BK);
    // K-major tiles are not uniform in k but are XOR-stepped; MN-major ones are uniform.
    REQUIRE((uniform || Smem::template xor_step<0, 16>));
    const std::int64_t d = Smem::template plain_step<0, 16>;
    for (int t = 0; t < 256; ++t) {
      const auto src = src_of(t);
      for (int i = 0; i < decltype(src)::size() / 8; ++i) {
        const TileCoord c = src(8 * i);
        for (int kk = 1; kk < BK / 16; ++kk) {
          const std::int64_t step0 = Smem::offset(c), later = Smem::offset({c.row, c.col + 16 * kk});
          if (uniform) REQUIRE(later == step0 + kk * d);
          else REQUIRE(later == (step0 ^ (kk * d)));
        }
      }
    }
  };
  check(typename P::SmemA{}, [](int t) { return P::ldsm_a_src(t); });
  check(typename P::SmemB{}, [](int t) { return P::ldsm_b_src(t); });
}

TEST_CASE("operand smem: later k16 steps of the ldmatrix sources are step 0 plus or XOR a constant", "[kernels]") {
  check_ldsm_steps<128, 256, 32, true, true>();
  check_ldsm_steps<128, 256, 32, false, true>();
  check_ldsm_steps<128, 256, 32, true, false>();
  check_ldsm_steps<128, 256, 32, false, false>();
  check_ldsm_steps<128, 256, 64, true, true>();
  check_ldsm_steps<128, 256, 64, false, false>();
  // xor_step is a claim about steps, not coordinates: a step onto a bit the swizzle reads fails.
  STATIC_REQUIRE(OperandSmem<128, 32, true>::xor_step<0, 16>);
  STATIC_REQUIRE_FALSE(OperandSmem<128, 32, true>::xor_step<2, 0>);  // row bit 6 feeds Swizzle<2,3,3>
}

// Deep MN-major copies (GmemCopy): 8 threads of 16 bytes per k row, BK rows, so every thread's
// copies repeat along MN by 64 elements -- a static gmem step -- and their smem offsets are
// copy 0's plus a constant (OperandSmem::repeat_step), at every thread.
template <int BM, int BN, int BK, int WM, int WN>
void check_deep_copies(bool expect_deep) {
  using P = TensorOpPartition<BM, BN, BK, WM, WN, 32 * WM * WN, true, false, false, 8>;
  auto check = [&](auto copy, auto smem) {
    using Copy = decltype(copy);
    using Smem = decltype(smem);
    using L = TileLoader<std::uint16_t, Copy, false>;
    INFO("MN " << Copy::Extent << " BK " << BK << " threads " << Copy::ThreadCount);
    REQUIRE(Copy::Deep == expect_deep);
    if constexpr (Copy::Deep) {
      REQUIRE(L::Step.row == 64);
      REQUIRE(L::Step.col == 0);
      STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(L::step_of(typename L::Gmem{}))>, _64>);
      REQUIRE(Smem::template repeat_step<L::Step.row, L::Step.col, Copy::Copies>);
      for (int t = 0; t < Copy::ThreadCount; ++t) {
        const auto c = Copy::coords(t);
        for (int i = 0; i < Copy::Copies; ++i)
          REQUIRE(Smem::offset(c(Copy::Vector * i)) == Smem::offset(c(0)) + i * Smem::template plain_step<64, 0>);
      }
    } else {
      REQUIRE(L::Step.row == 0);  // copies repeat along k
    }
  };
  check(typename P::G2S_A{}, typename P::SmemA{});
  check(typename P::G2S_B{}, typename P::SmemB{});
}

TEST_CASE("tile loader: deep MN-major copies step by a constant in gmem and smem", "[kernels]") {
  check_deep_copies<128, 256, 32, 2, 4>(true);   // the default tile
  check_deep_copies<256, 128, 32, 4, 2>(true);
  check_deep_copies<128, 256, 64, 2, 4>(false);  // 4 threads per k row: half lines, old arrangement
  check_deep_copies<128, 128, 32, 2, 2>(false);  // 128 threads
  // repeat_step is a claim about the bits of the repeats: one onto a bit the swizzle reads or
  // writes fails.
  STATIC_REQUIRE(OperandSmem<256, 32, false>::repeat_step<64, 0, 4>);
  STATIC_REQUIRE_FALSE(OperandSmem<256, 32, false>::repeat_step<64, 0, 8>);  // 256: k row bit 0, read
  STATIC_REQUIRE_FALSE(OperandSmem<256, 32, false>::repeat_step<8, 0, 4>);   // the chunk bits, written
  // ... and about every coordinate before the first step: with 192 rows, k row 1 starts at
  // offset 192, whose bits 6 and 7 the repeats of 64 would carry into.
  STATIC_REQUIRE(repeat_bits(64, 3) == 192);
  STATIC_REQUIRE_FALSE(OperandSmem<192, 32, false, false>::repeat_step<64, 0, 3>);
  STATIC_REQUIRE(OperandSmem<256, 32, false, false>::repeat_step<64, 0, 4>);
}
