// The SM90 attention kernel's register-level plan, checked on the host for every thread:
// the P retile (S's accumulators read as the A operand of the RS wgmma), the rows of S for
// the online softmax's reductions, and the softmax's rescaling over tiles against a direct
// softmax in double.
//
// The references are the PTX ISA's register fragments of wgmma .m64nNk16 (written out below
// from the ISA's figures, not from tessera's TV layouts): in warp q of a warpgroup, lane
// (g = lane / 4, t = lane % 4)
//   accumulator d_i   at (16q + g + 8 ((i / 2) % 2),  8 (i / 4) + 2t + i % 2)
//   A register a_i    at (16q + g + 8 ((i / 2) % 2),  2t + i % 2 + 8 (i / 4))      i < 8, per k16
#include <catch2/catch.hpp>
#include <rapidcheck/catch.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>
#include <vector>

#include "collective/sm90_attention_config.hpp"
#include "collective/sm90_attention_problem.hpp"
#include "collective/sm90_attention_softmax.hpp"
#include "tessera/atom/copy_sm90_tma.hpp"
#include "isa_gmma.hpp"

using namespace tessera;
using namespace tessera::kernels::sm90::attention;

namespace {

struct Coord2 {
  int row, col;
  bool operator==(Coord2 const&) const = default;
};
// (thread of the CTA's consumers 0 .. 128 Consumers - 1: warpgroup = thread / 128)
Coord2 isa_accumulator(int thread, int i) {
  const int wg = thread / 128, q = thread % 128 / 32, g = thread % 32 / 4, t = thread % 4;
  return {64 * wg + 16 * q + g + 8 * ((i / 2) % 2), 8 * (i / 4) + 2 * t + i % 2};
}
Coord2 isa_operand_a(int thread, int i, int k_block) {
  const int wg = thread / 128, q = thread % 128 / 32, g = thread % 32 / 4, t = thread % 4;
  return {64 * wg + 16 * q + g + 8 * ((i / 2) % 2), 16 * k_block + 2 * t + i % 2 + 8 * (i / 4)};
}

template <class Cfg>
void check_p_retile() {
  using MmaS = typename Cfg::TiledMmaS;
  using MmaO = typename Cfg::TiledMmaO;
  using TileS = typename Cfg::TileS;
  constexpr auto retile = typename Cfg::PRetile{};
  auto frag_a = partition_fragment_A(MmaO{}, TileS{});
  auto acc_s = partition_fragment_C(MmaS{}, TileS{});
  // The accumulator fragment's values are its storage in order (PRetile's codomain).
  STATIC_REQUIRE(std::is_same_v<decltype(coalesce(acc_s.layout())), Layout<C<decltype(size(acc_s))::value>, _1>>);
  STATIC_REQUIRE(decltype(size(frag_a))::value == decltype(size(acc_s))::value);
  // The A fragment: (8 registers of one k16, M repeats 1, K/16 blocks).
  STATIC_REQUIRE(decltype(size<0>(frag_a))::value == 8);
  STATIC_REQUIRE(decltype(size<1>(frag_a))::value == 1);
  STATIC_REQUIRE(decltype(size<2>(frag_a))::value == Cfg::bN / 16);
  CHECK(thread_preserving(MmaS{}, MmaO{}, TileS{}));
  constexpr auto a_tv = MmaO::get_layoutA_TV(TileS{});
  constexpr auto c_tv = MmaS::get_layoutC_TV(TileS{});
  constexpr int threads = 128 * Cfg::Consumers;
  int checked = 0;
  std::set<int> used;
  for (int thread = 0; thread < threads; ++thread)
    for (int kb = 0; kb < Cfg::bN / 16; ++kb)
      for (int i = 0; i < 8; ++i) {
        const int c = int(retile(i, 0, kb));
        if (thread == 0) used.insert(c);
        // The defining property: the (row, k) the RS instruction expects in this register is
        // the (row, col) of the S accumulator placed there.
        INFO("thread " << thread << " k-block " << kb << " register " << i << " <- accumulator " << c);
        REQUIRE(isa_operand_a(thread, i, kb) == isa_accumulator(thread, c));
        // and tessera's TV maps agree with the ISA (offsets in the (bM, bN) tile, column-major)
        const int a_off = int(a_tv(thread, i + 8 * kb)), c_off = int(c_tv(thread, c));
        REQUIRE(a_off == c_off);
        REQUIRE(Coord2{a_off % Cfg::bM, a_off / Cfg::bM} == isa_accumulator(thread, c));
        ++checked;
      }
  CHECK(checked == threads * Cfg::bN / 2);
  // The mainloop's coordinates of S's values (and the epilogue's of O's): value 0 of the thread
  // plus value i of thread 0, row and column apart.
  constexpr auto o_tv = MmaO::get_layoutC_TV(typename Cfg::TileO{});
  for (int thread = 0; thread < threads; ++thread) {
    for (int c = 0; c < Cfg::bN / 2; ++c) {
      const int t0 = int(c_tv(thread, 0)), v0 = int(c_tv(0, c)), tv = int(c_tv(thread, c));
      REQUIRE(Coord2{tv % Cfg::bM, tv / Cfg::bM} == Coord2{t0 % Cfg::bM + v0 % Cfg::bM, t0 / Cfg::bM + v0 / Cfg::bM});
    }
    for (int c = 0; c < Cfg::head_dim / 2; ++c) {
      const int t0 = int(o_tv(thread, 0)), v0 = int(o_tv(0, c)), tv = int(o_tv(thread, c));
      REQUIRE(Coord2{tv % Cfg::bM, tv / Cfg::bM} == Coord2{t0 % Cfg::bM + v0 % Cfg::bM, t0 / Cfg::bM + v0 / Cfg::bM});
    }
  }
  CHECK(int(used.size()) == Cfg::bN / 2);  // a permutation of the thread's accumulators
}

template <class Cfg>
void check_rows() {
  using MmaS = typename Cfg::TiledMmaS;
  using TileS = typename Cfg::TileS;
  constexpr auto rows = accumulator_rows(MmaS{}, TileS{});
  constexpr auto slots = typename Cfg::RowSlots{};
  constexpr int values = Cfg::bN / 2;
  STATIC_REQUIRE(Cfg::rows_per_thread == 2);
  STATIC_REQUIRE(Cfg::row_lanes == 3);  // the quad of lanes 4g..4g+3
  constexpr int threads = 128 * Cfg::Consumers;
  for (int thread = 0; thread < threads; ++thread) {
    for (int c = 0; c < values; ++c) {
      REQUIRE(int(rows(thread, c)) == isa_accumulator(thread, c).row);
      for (int c2 = 0; c2 < values; ++c2)  // same slot exactly when the same row
        REQUIRE((int(slots(c)) == int(slots(c2))) == (isa_accumulator(thread, c).row == isa_accumulator(thread, c2).row));
    }
    // The threads holding values of thread's rows: exactly thread ^ x for x in the mask.
    std::set<int> sharing, butterfly;
    for (int other = 0; other < threads; ++other)
      for (int c = 0; c < values; ++c)
        if (isa_accumulator(other, c).row == isa_accumulator(thread, 0).row) sharing.insert(other);
    for (int x = 0; x < 32; ++x)
      if ((x & ~Cfg::row_lanes) == 0) butterfly.insert(thread ^ x);
    REQUIRE(sharing == butterfly);
    // O's values: slot r is the same row as in S (the softmax's factors rescale O by slot).
    constexpr auto rows_o = accumulator_rows(typename Cfg::TiledMmaO{}, typename Cfg::TileO{});
    constexpr auto slots_o = typename Cfg::RowSlotsO{};
    for (int o = 0; o < Cfg::head_dim / 2; ++o)
      for (int c = 0; c < values; ++c)
        if (int(slots_o(o)) == int(slots(c))) REQUIRE(int(rows_o(thread, o)) == int(rows(thread, c)));
  }
}

TEST_CASE("sm90 attention: P from S's accumulators is the RS operand, register for register") {
  check_p_retile<AttentionConfig<bfloat16_t, 64>>();
  check_p_retile<AttentionConfig<bfloat16_t, 128>>();
  check_p_retile<AttentionConfig<half_t, 64>>();
  check_p_retile<AttentionConfig<half_t, 128>>();
  check_p_retile<DefaultConfig<bfloat16_t, 128>>();  // (192 keys)
  check_p_retile<AttentionConfig<half_t, 64, 192>>();
  // Three consumer warpgroups (bM 192): the same retile in each.
  check_p_retile<AttentionConfig<bfloat16_t, 64, 128, 3>>();
  check_p_retile<AttentionConfig<half_t, 64, 128, 3>>();
  check_p_retile<AttentionConfig<bfloat16_t, 64, 192, 3>>();
  // Head dim 256 (80 keys shipped, 64 the alternative): n256 for O, the same retile of S.
  check_p_retile<DefaultConfig<bfloat16_t, 256>>();
  check_p_retile<DefaultConfig<half_t, 256>>();
  check_p_retile<AttentionConfig<bfloat16_t, 256, 64>>();
}

TEST_CASE("sm90 attention: rows of S, their slots in a thread and the lanes sharing them") {
  check_rows<AttentionConfig<bfloat16_t, 128>>();
  check_rows<AttentionConfig<half_t, 64>>();
  check_rows<DefaultConfig<half_t, 128>>();
  check_rows<AttentionConfig<bfloat16_t, 64, 128, 3>>();
  check_rows<AttentionConfig<half_t, 64, 192, 3>>();
  check_rows<DefaultConfig<bfloat16_t, 256>>();
  check_rows<AttentionConfig<half_t, 256, 64>>();
}

// The kernel's TMA copies: (rows, D, heads, batch) tensors into its smem tiles, whole tiles in
// at most 4 boxes (the kernel's TmaLoad<4>), bringing the bytes the mbarriers expect.
template <class Cfg>
void check_tma(int64_t rows, int64_t heads, int64_t batch) {
  constexpr auto D = C<Cfg::head_dim>{};
  const int64_t rs = heads * Cfg::head_dim, hs = Cfg::head_dim, bs = rows * rs;
  const int64_t bytes = Cfg::bN * Cfg::head_dim * 2;
  tma::Arguments aq, ak, av;
  auto tq = make_tma_copy<SM90_TMA_LOAD, 4, 16>(aq, make_layout(make_shape(rows, D, heads, batch), make_stride(rs, _1{}, hs, bs)), typename Cfg::SmemQ{});
  auto tk = make_tma_copy<SM90_TMA_LOAD, 4, 16>(ak, make_layout(make_shape(rows, D, heads, batch), make_stride(rs, _1{}, hs, bs)), typename Cfg::StageK{});
  auto tv = make_tma_copy<SM90_TMA_LOAD, 4, 16>(av, make_layout(make_shape(D, rows, heads, batch), make_stride(_1{}, rs, hs, bs)), typename Cfg::StageV{});
  for (auto* a : {&aq, &ak, &av}) REQUIRE(a->rule == tma::Rule::ok);
  REQUIRE((tq.boxes.ok() && tk.boxes.ok() && tv.boxes.ok()));
  CHECK(int64_t(tq.tx_bytes()) == Cfg::bM * Cfg::head_dim * 2);
  CHECK(int64_t(tk.tx_bytes()) == bytes);
  CHECK(int64_t(tv.tx_bytes()) == bytes);
  CHECK(tq.boxes.count == Cfg::head_dim / 64);  // Q and K: one box per 64 of D (128 swizzled bytes)
  CHECK(tk.boxes.count == Cfg::head_dim / 64);
  CHECK(tv.boxes.count == Cfg::head_dim / 64);  // V: one box per 64 of D, all bN rows
}

TEST_CASE("sm90 attention: the Q, K and V tiles are whole TMA boxes") {
  check_tma<AttentionConfig<bfloat16_t, 64>>(1000, 4, 2);
  check_tma<AttentionConfig<half_t, 128>>(17, 16, 3);
  check_tma<AttentionConfig<bfloat16_t, 128>>(1, 1, 1);
  check_tma<DefaultConfig<bfloat16_t, 128>>(1000, 8, 3);
  check_tma<AttentionConfig<bfloat16_t, 64, 128, 3>>(1000, 4, 2);  // (Q: 192 rows)
  check_tma<AttentionConfig<half_t, 64, 128, 3>>(17, 16, 3);
  // Head dim 256: four boxes a tile (the kernel's TmaLoad<4>), 80 or 64 rows of K and V.
  check_tma<DefaultConfig<bfloat16_t, 256>>(1000, 8, 3);
  check_tma<DefaultConfig<half_t, 256>>(17, 2, 1);
  check_tma<AttentionConfig<bfloat16_t, 256, 64>>(1, 1, 1);
}

// The wgmma descriptors of the consumers' operands (Q as A, K and V as B, every k-block and
// stage, each warpgroup) read, by the PTX ISA's rules (isa_gmma.hpp), the element the smem
// layout puts there: V's tile is MN-major with its atoms walked along K first.
template <class Cfg>
void check_descriptors() {
  using T = typename Cfg::Element;
  const uint32_t q0 = 2048, k0 = q0 + 2 * Cfg::q_elements, v0 = k0 + 2 * Cfg::Stages * Cfg::kv_stage_elements;
  const auto sQ = make_tensor(reinterpret_cast<T*>(uintptr_t(q0)), typename Cfg::SmemQ{});
  const auto sK = make_tensor(reinterpret_cast<T*>(uintptr_t(k0)), typename Cfg::SmemK{});
  const auto sV = make_tensor(reinterpret_cast<T*>(uintptr_t(v0)), typename Cfg::SmemV{});
  constexpr auto lq = typename Cfg::SmemQ{};
  constexpr auto lk = typename Cfg::SmemK{};
  constexpr auto lv = typename Cfg::SmemV{};
  int bad = 0, checked = 0;
  for (int wg = 0; wg < Cfg::Consumers; ++wg) {
    const int t = 128 * wg;
    const auto tSrQ = typename Cfg::TiledMmaS{}.get_slice(t).partition_fragment_A(sQ);
    const auto tSrK = typename Cfg::TiledMmaS{}.get_slice(t).partition_fragment_B(sK);
    const auto tOrV = typename Cfg::TiledMmaO{}.get_slice(t).partition_fragment_B(sV);
    for (int kb = 0; kb < Cfg::head_dim / 16; ++kb)
      for (int k = 0; k < 16; ++k) {
        for (int mn = 0; mn < 64; ++mn, ++checked)
          bad += isa::gmma_address(tSrQ(0, 0, kb), Major::K, 16, mn, k) != q0 + 2 * int64_t(lq(64 * wg + mn, 16 * kb + k));
        for (int s = 0; s < Cfg::Stages; ++s)
          for (int mn = 0; mn < Cfg::bN; ++mn, ++checked)
            bad += isa::gmma_address(tSrK(0, 0, kb, s), Major::K, 16, mn, k) != k0 + 2 * int64_t(lk(mn, 16 * kb + k, s));
      }
    for (int kb = 0; kb < Cfg::bN / 16; ++kb)
      for (int k = 0; k < 16; ++k)
        for (int s = 0; s < Cfg::Stages; ++s)
          for (int mn = 0; mn < Cfg::head_dim; ++mn, ++checked)
            bad += isa::gmma_address(tOrV(0, 0, kb, s), Major::MN, 16, mn, k) != v0 + 2 * int64_t(lv(mn, 16 * kb + k, s));
  }
  CHECK(checked > 0);
  CHECK(bad == 0);
}

TEST_CASE("sm90 attention: the operands' wgmma descriptors read what the smem tiles hold") {
  check_descriptors<AttentionConfig<bfloat16_t, 64>>();
  check_descriptors<AttentionConfig<half_t, 128>>();
  check_descriptors<DefaultConfig<bfloat16_t, 128>>();
  check_descriptors<AttentionConfig<bfloat16_t, 64, 128, 3>>();
  check_descriptors<DefaultConfig<bfloat16_t, 256>>();  // (Q and K rows of 4 atoms, V 80 keys)
  check_descriptors<AttentionConfig<half_t, 256, 64>>();
}

// The CTA's shape per number of consumer warpgroups: rows, threads, and the registers setmaxnreg
// shares out within an SM's 65536.
template <class Cfg>
void check_cta_shape() {
  STATIC_REQUIRE(Cfg::bM == 64 * Cfg::Consumers);
  STATIC_REQUIRE(Cfg::Threads == 128 * (Cfg::Consumers + 1));
  STATIC_REQUIRE(decltype(size(typename Cfg::TiledMmaS{}))::value == 128 * Cfg::Consumers);
  STATIC_REQUIRE(decltype(size(typename Cfg::TiledMmaO{}))::value == 128 * Cfg::Consumers);
  STATIC_REQUIRE(Cfg::q_elements == Cfg::bM * Cfg::head_dim);
  STATIC_REQUIRE(decltype(cosize(typename Cfg::SmemQ{}))::value == Cfg::q_elements);
  STATIC_REQUIRE(128 * (Cfg::producer_registers + Cfg::Consumers * Cfg::consumer_registers) <= 65536);
  // A consumer thread's S, P and O fit its registers (the rest: addresses, row state, loop).
  STATIC_REQUIRE(Cfg::bN / 2 + Cfg::bN / 4 + Cfg::head_dim / 2 < Cfg::consumer_registers);
}

TEST_CASE("sm90 attention: 2 and 3 consumer warpgroups, their rows, threads and registers") {
  check_cta_shape<AttentionConfig<bfloat16_t, 64>>();
  check_cta_shape<DefaultConfig<half_t, 128>>();
  check_cta_shape<AttentionConfig<bfloat16_t, 64, 128, 3>>();
  check_cta_shape<AttentionConfig<half_t, 64, 128, 3>>();
  STATIC_REQUIRE(AttentionConfig<half_t, 64, 128, 3>::bM == 192);
  STATIC_REQUIRE(AttentionConfig<half_t, 64, 128, 3>::Threads == 512);
  // The shipped kernels: three consumer warpgroups at head dim 64, two at 128 (192 keys).
  STATIC_REQUIRE(DefaultConfig<bfloat16_t, 64>::Consumers == 3 && DefaultConfig<half_t, 64>::Consumers == 3);
  STATIC_REQUIRE(DefaultConfig<bfloat16_t, 128>::Consumers == 2 && DefaultConfig<bfloat16_t, 128>::bN == 192);
  // Head dim 256: two warpgroups and 80 keys; O is 128 registers a thread, S 40, P 20.
  check_cta_shape<DefaultConfig<bfloat16_t, 256>>();
  check_cta_shape<DefaultConfig<half_t, 256>>();
  check_cta_shape<AttentionConfig<bfloat16_t, 256, 64>>();
  using D256 = DefaultConfig<bfloat16_t, 256>;
  STATIC_REQUIRE(D256::Consumers == 2 && D256::bM == 128 && D256::bN == 80 && D256::consumer_registers == 240);
  STATIC_REQUIRE(decltype(size(partition_fragment_C(D256::TiledMmaO{}, D256::TileO{})))::value == 128);
  STATIC_REQUIRE(decltype(size(partition_fragment_C(D256::TiledMmaS{}, D256::TileS{})))::value == 40);
  // Shared memory bounds the key tile: 80 keys take 224 KiB (Q 64, K and V 2 x 2 x 40);
  // 96 would take 256 KiB, past an SM90 CTA's 227.
  STATIC_REQUIRE(D256::tile_bytes == 224 * 1024);
  STATIC_REQUIRE(2 * (128 * 256 + 2 * 2 * 96 * 256) > 227 * 1024);
  STATIC_REQUIRE(AttentionConfig<bfloat16_t, 256, 64>::tile_bytes == 192 * 1024);
  // P's retile over 80 keys: 5 k-blocks of 8 accumulators in order (docs/attention.md).
  CHECK(to_string(D256::PRetile{}) == "((2,2,2),1,5):((1,2,4),0,8)");
}

TEST_CASE("accumulator_as_operand_A: a retile that needs other threads' values is detected") {
  // S's accumulator read by an RS MMA whose warpgroups split M the other way round: the rows
  // a thread must supply are another warpgroup's.
  using Cfg = AttentionConfig<bfloat16_t, 64>;
  using Flipped = decltype(make_tiled_mma(SM90_64xNx16_F32BF16BF16_RS<64, Major::K, Major::MN>{},
                                          Layout<tuple<_2, _1, _1>, tuple<_1, _0, _0>>{}, make_tile(Layout<tuple<_64, _2>, tuple<_2, _1>>{})));
  CHECK_FALSE(thread_preserving(Cfg::TiledMmaS{}, Flipped{}, Cfg::TileS{}));
}

// The online softmax over K/V tiles of `tile` columns, as the kernel runs it per row (f32, P
// rounded to bf16 before P V as the kernel's RS operand is), against softmax in double.
void check_online_softmax(int rows, int cols, int d, int tile, bool causal, float scale, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> nd(0.f, 3.f);
  std::vector<float> s(size_t(rows) * cols), v(size_t(cols) * d);
  for (auto& x : s) x = nd(rng);
  for (auto& x : v) x = bfloat16_t(nd(rng)).to_float();
  const int offset = cols - rows;  // causal: row r sees columns <= r + offset (bottom-right, as FlashAttention)
  auto masked = [&](int r, int c) { return causal && c > r + offset; };
  const float cexp = scale * kernels::approx::log2e;
  for (int r = 0; r < rows; ++r) {
    RowSoftmax st;
    std::vector<float> o(d, 0.f);
    for (int j0 = 0; j0 < cols; j0 += tile) {
      const int j1 = std::min(cols, j0 + tile);
      float tmax = -INFINITY;
      for (int c = j0; c < j1; ++c)
        if (!masked(r, c)) tmax = std::max(tmax, s[size_t(r) * cols + c]);
      const float factor = st.update_max(tmax, cexp);
      for (auto& x : o) x *= factor;
      for (int c = j0; c < j1; ++c) {
        const float p = masked(r, c) ? 0.f : st.probability(s[size_t(r) * cols + c], cexp);
        st.sum += p;
        const float pr = bfloat16_t(p).to_float();
        for (int k = 0; k < d; ++k) o[k] += pr * v[size_t(c) * d + k];
      }
    }
    // Direct softmax in double.
    double m = -INFINITY, l = 0;
    for (int c = 0; c < cols; ++c)
      if (!masked(r, c)) m = std::max(m, double(s[size_t(r) * cols + c]) * scale);
    std::vector<double> want(d, 0.0);
    for (int c = 0; c < cols; ++c)
      if (!masked(r, c)) {
        const double p = std::exp(double(s[size_t(r) * cols + c]) * scale - m);
        l += p;
        for (int k = 0; k < d; ++k) want[k] += p * v[size_t(c) * d + k];
      }
    const double lse = l > 0 ? m + std::log(l) : -INFINITY;
    INFO("row " << r << " of " << rows << ", " << cols << " columns, tile " << tile << (causal ? ", causal" : ""));
    if (l == 0) {
      CHECK(st.lse(scale) == -INFINITY);
      CHECK(st.inverse_sum() == 0.f);
      continue;
    }
    REQUIRE(std::abs(st.lse(scale) - lse) <= 1e-4 * std::max(1.0, std::abs(lse)));
    const float inv = st.inverse_sum();
    for (int k = 0; k < d; ++k) {
      const double w = want[k] / l;
      // P rounded to bf16: a relative error of 2^-8 per term, on sums of |v| <= a few sigma
      REQUIRE(std::abs(o[k] * inv - w) <= 2e-2 * std::max(1.0, std::abs(w)));
    }
  }
}

TEST_CASE("sm90 attention: the online softmax's rescaling over tiles equals softmax in double") {
  check_online_softmax(8, 1000, 16, 128, false, 0.125f, 1);
  check_online_softmax(8, 1000, 16, 128, true, 0.125f, 2);
  check_online_softmax(17, 17, 8, 128, true, 0.3f, 3);
  check_online_softmax(4, 1, 8, 128, false, 1.f, 4);
  // More rows than columns, causal: the first rows see no column (O = 0, LSE = -inf).
  check_online_softmax(40, 9, 8, 4, true, 0.5f, 5);
  check_online_softmax(8, 1000, 256, 80, true, 0.0625f, 6);  // (head dim 256, 80-key tiles)
  rc::prop("any shape, tile and mask", [] {
    const int rows = *rc::gen::inRange(1, 20), cols = *rc::gen::inRange(1, 300), tile = 16 * *rc::gen::inRange(1, 9);
    const bool causal = *rc::gen::arbitrary<bool>();
    check_online_softmax(rows, cols, 4, tile, causal, 0.0883883f, *rc::gen::arbitrary<unsigned>());
  });
}

// A Q tile's key tiles: every column a row of the tile sees lies in one of them, and the first
// unmasked_tiles of them hold no masked (row, column) for any of the tile's bM rows, the next one
// at least one (the mainloop runs the first ones without the mask's code).
void check_key_tiles(int sq, int sk, bool causal, int bM, int bN) {
  Problem p{1, 1, 1, sq, sk, sq, nullptr, nullptr, 1.f, causal};
  for (int m = 0; m * bM < sq; ++m) {
    const WorkItem w = work_item(p, m, 0, 0, bM, bN);
    REQUIRE(!w.empty_rows(bM));
    const int u = w.unmasked_tiles(bM, bN, causal);
    REQUIRE(0 <= u);
    REQUIRE(u <= w.key_tiles);
    for (int r = m * bM; r < std::min(sq, (m + 1) * bM); ++r)
      for (int c = 0; c < sk; ++c)
        if (!masked(w, causal, r, c)) REQUIRE(c < w.key_tiles * bN);
    auto tile_masked = [&](int j) {
      for (int r = m * bM; r < (m + 1) * bM; ++r)
        for (int c = j * bN; c < (j + 1) * bN; ++c)
          if (masked(w, causal, r, c)) return true;
      return false;
    };
    for (int j = 0; j < u; ++j) REQUIRE(!tile_masked(j));
    if (u < w.key_tiles) REQUIRE(tile_masked(u));
  }
}

TEST_CASE("sm90 attention: the key tiles a Q tile reads, and the unmasked ones first") {
  check_key_tiles(4096, 4096, false, 128, 128);
  check_key_tiles(4096, 4096, true, 128, 128);
  check_key_tiles(1000, 1000, true, 128, 128);
  check_key_tiles(300, 1000, true, 128, 128);   // fewer queries than keys: the diagonal moves right
  check_key_tiles(1000, 300, true, 128, 128);   // more: the first rows see no key
  check_key_tiles(1, 1, false, 128, 128);
  check_key_tiles(1000, 1000, true, 192, 128);  // (three consumer warpgroups)
  check_key_tiles(300, 1000, true, 192, 128);
  check_key_tiles(1000, 1000, true, 128, 80);   // (head dim 256: 80-key tiles)
  check_key_tiles(300, 1000, true, 128, 80);
  check_key_tiles(1000, 300, true, 128, 80);
  rc::prop("any lengths, mask and tile", [] {
    const int sq = *rc::gen::inRange(1, 600), sk = *rc::gen::inRange(1, 600);
    const int bN = 16 * *rc::gen::inRange(1, 12);
    check_key_tiles(sq, sk, *rc::gen::arbitrary<bool>(), 64 * *rc::gen::inRange(1, 4), bN);
  });
}

// The consumers' turn protocol against a model of one named barrier per warpgroup (bar.sync /
// bar.arrive with 256 threads: a phase completes when two warpgroups' 128 have arrived; a sync
// waits for its phase), over every interleaving of n warpgroups. What a run found.
struct TurnsOutcome {
  bool deadlock = false, double_arrival = false, out_of_turn = false, idle_at_end = true;
  int issues = 0;
};
// A protocol: who arrives before its first turn, who passes after turn (last or not), and at
// which warpgroup's barrier.
struct TurnRules {
  std::function<bool(int)> arrives_first;
  std::function<bool(int, bool)> passes;
  std::function<int(int)> next;
};
template <int N>
TurnRules protocol_rules() {
  using P = ConsumerTurnProtocol<N>;
  return {P::arrives_before_first, P::passes, P::next};
}

// tiles: the key tiles of each work tile a (persistent) CTA runs in turn, the protocol
// starting afresh on each.
TurnsOutcome explore_turns(int n, std::vector<int> const& tiles, TurnRules const& rules) {
  enum Op { Arrive, Sync, Issue };
  struct Step {
    Op op;
    int barrier;
  };
  std::vector<std::vector<Step>> prog(static_cast<std::size_t>(n));
  for (int w = 0; w < n; ++w) {
    auto& p = prog[std::size_t(w)];
    for (int key_tiles : tiles) {
      const int turns = key_tiles + 1;
      if (rules.arrives_first(w)) p.push_back({Arrive, rules.next(w)});
      for (int t = 0; t < turns; ++t) {
        p.push_back({Sync, w});
        p.push_back({Issue, -1});
        if (rules.passes(w, t == turns - 1)) p.push_back({Arrive, rules.next(w)});
      }
    }
  }
  // Per warpgroup: pc, the phase a blocked sync waits to complete (-1: none); per barrier: the
  // threads arrived, which warpgroups, its phase; and the issues so far.
  struct State {
    std::vector<int> pc, waits_for, count, mask, phase;
    int issues = 0;
    auto key() const {
      std::vector<int> k{issues};
      for (auto const* v : {&pc, &waits_for, &count, &mask, &phase}) k.insert(k.end(), v->begin(), v->end());
      return k;
    }
  };
  const std::vector<int> zeros(static_cast<std::size_t>(n), 0), none(static_cast<std::size_t>(n), -1);
  TurnsOutcome out;
  std::set<std::vector<int>> seen;
  std::vector<State> stack{State{zeros, none, zeros, zeros, zeros, 0}};
  while (!stack.empty()) {
    const State st = stack.back();
    stack.pop_back();
    if (!seen.insert(st.key()).second) continue;
    bool moved = false, done = true;
    for (int w = 0; w < n; ++w) {
      const auto uw = std::size_t(w);
      if (st.pc[uw] == int(prog[uw].size())) continue;
      done = false;
      State nx = st;
      if (nx.waits_for[uw] >= 0) {  // blocked in a sync until its phase completes
        if (nx.phase[uw] <= nx.waits_for[uw]) continue;
        nx.waits_for[uw] = -1, ++nx.pc[uw];
      } else {
        const Step step = prog[uw][std::size_t(nx.pc[uw])];
        if (step.op == Issue) {
          if (nx.issues % n != w) out.out_of_turn = true;
          ++nx.issues, ++nx.pc[uw];
        } else {
          const auto b = std::size_t(step.barrier);
          if (nx.mask[b] & (1 << w)) out.double_arrival = true;
          nx.mask[b] |= 1 << w, nx.count[b] += 128;
          const int phase = nx.phase[b];
          if (nx.count[b] == 256) nx.count[b] = 0, nx.mask[b] = 0, ++nx.phase[b];
          if (step.op == Sync && nx.phase[b] == phase) nx.waits_for[uw] = phase;  // (its phase still open)
          else ++nx.pc[uw];
        }
      }
      moved = true;
      stack.push_back(nx);
    }
    if (done) {
      out.issues = st.issues;
      for (int c : st.count)
        if (c != 0) out.idle_at_end = false;
    } else if (!moved) {
      out.deadlock = true;
    }
  }
  return out;
}
TurnsOutcome explore_turns(int n, int key_tiles, TurnRules const& rules) { return explore_turns(n, std::vector<int>{key_tiles}, rules); }

template <int N>
void check_turns() {
  using P = ConsumerTurnProtocol<N>;
  INFO(N << " consumer warpgroups");
  for (int key_tiles = 1; key_tiles <= (N == 2 ? 12 : 6); ++key_tiles) {
    const TurnsOutcome o = explore_turns(N, key_tiles, protocol_rules<N>());
    CHECK(!o.deadlock);
    CHECK(!o.double_arrival);
    CHECK(!o.out_of_turn);
    CHECK(o.idle_at_end);
    CHECK(o.issues == N * P::turns(key_tiles));
  }
  // A persistent CTA's work tiles one after another: the ring goes on in order, no barrier phase
  // mixes two tiles' arrivals, all idle at the end.
  for (std::vector<int> tiles : {std::vector<int>{1, 1}, std::vector<int>{2, 1, 3}, std::vector<int>{1, 2, 1, 1}}) {
    int turns = 0;
    for (int k : tiles) turns += P::turns(k);
    const TurnsOutcome o = explore_turns(N, tiles, protocol_rules<N>());
    CHECK(!o.deadlock);
    CHECK(!o.double_arrival);
    CHECK(!o.out_of_turn);
    CHECK(o.idle_at_end);
    CHECK(o.issues == N * turns);
  }
  // The model sees the protocol's mistakes: no first arrival (all wait forever), a pass after
  // the last turn (a barrier left half arrived), every warpgroup arriving first (warpgroup 0
  // handed its first turn more than once), the turn passed the wrong way round the ring.
  TurnRules r = protocol_rules<N>();
  r.arrives_first = [](int) { return false; };
  CHECK(explore_turns(N, 3, r).deadlock);
  r = protocol_rules<N>();
  r.passes = [](int, bool) { return true; };
  CHECK(!explore_turns(N, 3, r).idle_at_end);
  r = protocol_rules<N>();
  r.arrives_first = [](int) { return true; };
  const TurnsOutcome first = explore_turns(N, 3, r);
  CHECK((first.double_arrival || first.out_of_turn || first.deadlock || !first.idle_at_end));
  if (N > 2) {
    r = protocol_rules<N>();
    r.next = [](int w) { return (w + N - 1) % N; };  // (arrives at its predecessor's barrier)
    const TurnsOutcome back = explore_turns(N, 3, r);
    CHECK((back.double_arrival || back.out_of_turn || back.deadlock || !back.idle_at_end));
    r = protocol_rules<N>();
    r.arrives_first = [](int w) { return w == 0; };  // (the wrong warpgroup opens the ring)
    const TurnsOutcome opener = explore_turns(N, 3, r);
    CHECK((opener.double_arrival || opener.out_of_turn || opener.deadlock || !opener.idle_at_end));
  }
}

TEST_CASE("sm90 attention: the consumers' turns go round in order and leave every barrier idle, in every interleaving") {
  check_turns<2>();
  check_turns<3>();
  // The two-warpgroup ring is the ping-pong: each passes to the other.
  STATIC_REQUIRE(ConsumerTurnProtocol<2>::next(0) == 1 && ConsumerTurnProtocol<2>::next(1) == 0);
  STATIC_REQUIRE(ConsumerTurnProtocol<3>::next(2) == 0);
}

}  // namespace
