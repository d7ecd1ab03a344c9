// Every MMA atom's A/B/C TV layouts against the PTX ISA's fragment tables
// (isa_reference.hpp), for every (thread, value), plus each operand's coverage of its tile.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "isa_reference.hpp"
#include "tessera/atom/mma.hpp"
#include "tessera/atom/mma_sm90_8bit.hpp"

using namespace tessera;

namespace {

enum class Operand { A, B, C };

// Walks every (thread, value) of an operand's TV layout, converts the column-major index
// into (row, col) of the ISA's matrix (A: M x K, B: K x N, C: M x N) and compares it with
// ref(lane, value).  Returns the number of mismatches (and reports the first few).
template <class Traits, class L, class Ref>
int compare_with_isa(L const& tv, Operand op, Ref ref) {
  constexpr int M = int(get<0>(typename Traits::Shape_MNK{}));
  constexpr int N = int(get<1>(typename Traits::Shape_MNK{}));
  const int nthr = int(size<0>(tv)), nval = int(size<1>(tv));
  const int rows = op == Operand::B ? N : M;
  int bad = 0;
  for (int t = 0; t < nthr; ++t)
    for (int v = 0; v < nval; ++v) {
      int64_t idx = tv(t, v);
      int r = int(idx % rows), c = int(idx / rows);
      int lane = int(typename Traits::ThrID{}(t));
      isa::RC want = ref(lane, v);
      // ISA's (row, col): A (m, k), B (k, n), C (m, n).  Ours: A (m, k), B (n, k), C (m, n).
      isa::RC got = op == Operand::B ? isa::RC{c, r} : isa::RC{r, c};
      if (!(got == want)) {
        if (bad < 5)
          UNSCOPED_INFO(Traits::name << " operand " << "ABC"[int(op)] << " t=" << t << " (lane " << lane
                                     << ") v=" << v << ": layout gives (" << got.row << "," << got.col
                                     << "), ISA says (" << want.row << "," << want.col << ")");
        ++bad;
      }
    }
  return bad;
}

// How often each element of the operand's tile is hit by (thread, value) pairs.
template <class L>
std::vector<int> coverage(L const& tv, int tile_size) {
  std::vector<int> hits(tile_size, 0);
  for (int t = 0; t < int(size<0>(tv)); ++t)
    for (int v = 0; v < int(size<1>(tv)); ++v) {
      int64_t idx = tv(t, v);
      if (idx >= 0 && idx < tile_size) ++hits[idx];
      else hits.push_back(-1);  // out of the tile: makes the size check fail
    }
  return hits;
}

template <class Traits>
void check_exact_cover(Operand op) {
  constexpr int M = int(get<0>(typename Traits::Shape_MNK{}));
  constexpr int N = int(get<1>(typename Traits::Shape_MNK{}));
  constexpr int K = int(get<2>(typename Traits::Shape_MNK{}));
  std::vector<int> hits;
  int tile = 0;
  if (op == Operand::A) { tile = M * K; hits = coverage(typename Traits::ALayout{}, tile); }
  if (op == Operand::B) { tile = N * K; hits = coverage(typename Traits::BLayout{}, tile); }
  if (op == Operand::C) { tile = M * N; hits = coverage(typename Traits::CLayout{}, tile); }
  INFO(Traits::name << " operand " << "ABC"[int(op)]);
  REQUIRE(int(hits.size()) == tile);
  for (int i = 0; i < tile; ++i) CHECK(hits[i] == 1);
}

template <class Op, class RA, class RB, class RC>
void check_mma(RA ra, RB rb, RC rc) {
  using T = MMA_Traits<Op>;
  INFO(T::name);
  CHECK(compare_with_isa<T>(typename T::ALayout{}, Operand::A, ra) == 0);
  CHECK(compare_with_isa<T>(typename T::BLayout{}, Operand::B, rb) == 0);
  CHECK(compare_with_isa<T>(typename T::CLayout{}, Operand::C, rc) == 0);
  check_exact_cover<T>(Operand::A);
  check_exact_cover<T>(Operand::B);
  check_exact_cover<T>(Operand::C);
  // One thread per ThrID entry, and the layouts' thread modes agree with it.
  CHECK(size<0>(typename T::ALayout{}) == size(typename T::ThrID{}.shape()));
  CHECK(size<0>(typename T::BLayout{}) == size(typename T::ThrID{}.shape()));
  CHECK(size<0>(typename T::CLayout{}) == size(typename T::ThrID{}.shape()));
}

}  // namespace

TEST_CASE("UniversalFMA is one thread, one value", "[atoms][isa]") {
  check_mma<UniversalFMA<float>>(isa::fma_A, isa::fma_B, isa::fma_C);
}

TEST_CASE("SM70 mma.m8n8k4 quad-pair atoms match the ISA", "[atoms][isa]") {
  // The atom is quad-pair 0; the ISA formulas hold for each quad-pair's own MMA.
  CHECK(int(sm70::ThrID{}(3)) == 3);
  CHECK(int(sm70::ThrID{}(4)) == 16);
  CHECK(int(sm70::ThrID{}(7)) == 19);
  check_mma<SM70_8x8x4_F16F16F16F16_TN>(isa::m8n8k4_A_row, isa::m8n8k4_B_col, isa::m8n8k4_C_f16);
  check_mma<SM70_8x8x4_F16F16F16F16_NT>(isa::m8n8k4_A_col, isa::m8n8k4_B_row, isa::m8n8k4_C_f16);
  check_mma<SM70_8x8x4_F16F16F16F16_NN>(isa::m8n8k4_A_col, isa::m8n8k4_B_col, isa::m8n8k4_C_f16);
  check_mma<SM70_8x8x4_F16F16F16F16_TT>(isa::m8n8k4_A_row, isa::m8n8k4_B_row, isa::m8n8k4_C_f16);
  check_mma<SM70_8x8x4_F32F16F16F32_TN>(isa::m8n8k4_A_row, isa::m8n8k4_B_col, isa::m8n8k4_C_f32);
  check_mma<SM70_8x8x4_F32F16F16F32_NT>(isa::m8n8k4_A_col, isa::m8n8k4_B_row, isa::m8n8k4_C_f32);
  check_mma<SM70_8x8x4_F32F16F16F32_NN>(isa::m8n8k4_A_col, isa::m8n8k4_B_col, isa::m8n8k4_C_f32);
  check_mma<SM70_8x8x4_F32F16F16F32_TT>(isa::m8n8k4_A_row, isa::m8n8k4_B_row, isa::m8n8k4_C_f32);
}

TEST_CASE("SM75/SM80 mma.sync atoms match the ISA", "[atoms][isa]") {
  check_mma<SM75_16x8x8_F32F16F16F32_TN>(isa::m16n8k8_f16_A, isa::m16n8k8_f16_B, isa::m16n8_C);
  check_mma<SM80_16x8x8_F16F16F16F16_TN>(isa::m16n8k8_f16_A, isa::m16n8k8_f16_B, isa::m16n8_C);
  check_mma<SM80_16x8x8_F32F16F16F32_TN>(isa::m16n8k8_f16_A, isa::m16n8k8_f16_B, isa::m16n8_C);
  check_mma<SM80_16x8x8_F32BF16BF16F32_TN>(isa::m16n8k8_f16_A, isa::m16n8k8_f16_B, isa::m16n8_C);
  check_mma<SM80_16x8x16_F16F16F16F16_TN>(isa::m16n8k16_f16_A, isa::m16n8k16_f16_B, isa::m16n8_C);
  check_mma<SM80_16x8x16_F32F16F16F32_TN>(isa::m16n8k16_f16_A, isa::m16n8k16_f16_B, isa::m16n8_C);
  check_mma<SM80_16x8x16_F32BF16BF16F32_TN>(isa::m16n8k16_f16_A, isa::m16n8k16_f16_B, isa::m16n8_C);
  check_mma<SM80_16x8x8_F32TF32TF32F32_TN>(isa::m16n8k8_tf32_A, isa::m16n8k8_tf32_B, isa::m16n8_C);
  check_mma<SM80_8x8x4_F64F64F64F64_TN>(isa::m8n8k4_f64_A, isa::m8n8k4_f64_B, isa::m8n8k4_f64_C);
  check_mma<SM80_16x8x32_S32S8S8S32_TN>(isa::m16n8k32_s8_A, isa::m16n8k32_s8_B, isa::m16n8_C);
}

namespace {
template <template <int, GMMA::Major, GMMA::Major, GMMA::ScaleIn, GMMA::ScaleIn> class Op, int N>
void check_wgmma(bool a_from_registers) {
  using T = MMA_Traits<Op<N, GMMA::Major::K, GMMA::Major::K, GMMA::ScaleIn::One, GMMA::ScaleIn::One>>;
  INFO(T::name << " N=" << N);
  CHECK(int(get<1>(typename T::Shape_MNK{})) == N);
  CHECK(compare_with_isa<T>(typename T::CLayout{}, Operand::C, isa::wgmma_m64nNk16_D) == 0);
  check_exact_cover<T>(Operand::C);
  if (a_from_registers) {
    CHECK(compare_with_isa<T>(typename T::ALayout{}, Operand::A, isa::wgmma_m64nNk16_A_reg) == 0);
    check_exact_cover<T>(Operand::A);
  } else {
    // Every thread sees the whole (64,16) tile: element e at (e % 64, e / 64).
    CHECK(compare_with_isa<T>(typename T::ALayout{}, Operand::A,
                              [](int, int e) { return isa::wgmma_smem_A(e); }) == 0);
  }
  // B always comes from shared memory: the whole (N,16) tile, ISA (row=k, col=n).
  CHECK(compare_with_isa<T>(typename T::BLayout{}, Operand::B, [](int, int e) {
          isa::RC nk = isa::wgmma_smem_B(N, e);
          return isa::RC{nk.col, nk.row};
        }) == 0);
}
// tf32 (k = 8): the same accumulator, A from registers in the m16n8k8 .tf32 arrangement.
template <int N>
void check_wgmma_tf32() {
  using SS = MMA_Traits<SM90_64xNx8_F32TF32TF32_SS<N>>;
  using RS = MMA_Traits<SM90_64xNx8_F32TF32TF32_RS<N>>;
  INFO("tf32 N=" << N);
  CHECK(int(get<1>(typename SS::Shape_MNK{})) == N);
  CHECK(int(get<2>(typename SS::Shape_MNK{})) == 8);
  CHECK(compare_with_isa<SS>(typename SS::CLayout{}, Operand::C, isa::wgmma_m64nNk16_D) == 0);
  CHECK(compare_with_isa<RS>(typename RS::CLayout{}, Operand::C, isa::wgmma_m64nNk16_D) == 0);
  check_exact_cover<SS>(Operand::C);
  CHECK(compare_with_isa<RS>(typename RS::ALayout{}, Operand::A, isa::wgmma_m64nNk8_A_reg) == 0);
  check_exact_cover<RS>(Operand::A);
  CHECK(compare_with_isa<SS>(typename SS::ALayout{}, Operand::A, [](int, int e) { return isa::wgmma_smem_A(e); }) == 0);
  CHECK(size<1>(typename SS::ALayout{}) == 64 * 8);
  const auto b_ref = [](int, int e) {
    isa::RC nk = isa::wgmma_smem_B(N, e);
    return isa::RC{nk.col, nk.row};
  };
  CHECK(compare_with_isa<SS>(typename SS::BLayout{}, Operand::B, b_ref) == 0);
  CHECK(compare_with_isa<RS>(typename RS::BLayout{}, Operand::B, b_ref) == 0);
  CHECK(size<1>(typename SS::BLayout{}) == N * 8);
  static_assert(std::is_same_v<typename SS::ValTypeA, tfloat32_t> && std::is_same_v<typename SS::ValTypeD, float>);
}
// 8-bit types (k = 32): the same accumulator, A from registers in the m16n8k32 .s8
// arrangement, A and B tiles (64,32) and (N,32) from shared memory. The layouts depend on N
// and the operand source only (value types share them): a few N here, every N against CuTe's
// answers in tests/hopper/wgmma_8bit_test.cpp.
template <template <int, GMMA::Major, GMMA::Major, GMMA::ScaleIn, GMMA::ScaleIn> class SS,
          template <int, GMMA::Major, GMMA::Major, GMMA::ScaleIn, GMMA::ScaleIn> class RS, int N>
void check_wgmma_8bit() {
  using S = MMA_Traits<SS<N, GMMA::Major::K, GMMA::Major::K, GMMA::ScaleIn::One, GMMA::ScaleIn::One>>;
  using R = MMA_Traits<RS<N, GMMA::Major::K, GMMA::Major::K, GMMA::ScaleIn::One, GMMA::ScaleIn::One>>;
  INFO(S::name << " N=" << N);
  CHECK(int(get<1>(typename S::Shape_MNK{})) == N);
  CHECK(int(get<2>(typename S::Shape_MNK{})) == 32);
  CHECK(compare_with_isa<S>(typename S::CLayout{}, Operand::C, isa::wgmma_m64nNk16_D) == 0);
  CHECK(compare_with_isa<R>(typename R::CLayout{}, Operand::C, isa::wgmma_m64nNk16_D) == 0);
  check_exact_cover<S>(Operand::C);
  CHECK(compare_with_isa<R>(typename R::ALayout{}, Operand::A, isa::wgmma_m64nNk32_A_reg) == 0);
  check_exact_cover<R>(Operand::A);
  CHECK(compare_with_isa<S>(typename S::ALayout{}, Operand::A, [](int, int e) { return isa::wgmma_smem_A(e); }) == 0);
  CHECK(size<1>(typename S::ALayout{}) == 64 * 32);
  const auto b_ref = [](int, int e) {
    isa::RC nk = isa::wgmma_smem_B(N, e);
    return isa::RC{nk.col, nk.row};
  };
  CHECK(compare_with_isa<S>(typename S::BLayout{}, Operand::B, b_ref) == 0);
  CHECK(compare_with_isa<R>(typename R::BLayout{}, Operand::B, b_ref) == 0);
  CHECK(size<1>(typename S::BLayout{}) == N * 32);
}
template <int... Ns>
void check_wgmma_all(std::integer_sequence<int, Ns...>) {
  (check_wgmma<SM90_64xNx16_F32F16F16_SS, 8 * (Ns + 1)>(false), ...);
  (check_wgmma<SM90_64xNx16_F32F16F16_RS, 8 * (Ns + 1)>(true), ...);
  (check_wgmma<SM90_64xNx16_F32BF16BF16_SS, 8 * (Ns + 1)>(false), ...);
  (check_wgmma<SM90_64xNx16_F32BF16BF16_RS, 8 * (Ns + 1)>(true), ...);
  (check_wgmma<SM90_64xNx16_F16F16F16_SS, 8 * (Ns + 1)>(false), ...);
  (check_wgmma<SM90_64xNx16_F16F16F16_RS, 8 * (Ns + 1)>(true), ...);
  (check_wgmma_tf32<8 * (Ns + 1)>(), ...);
}
}  // namespace

TEST_CASE("SM90 wgmma m64nNk16 and m64nNk8 (tf32) atoms match the ISA for N = 8..256", "[atoms][isa]") {
  check_wgmma_all(std::make_integer_sequence<int, 32>{});
  static_assert(std::is_same_v<SM90_64x128x16_F32BF16BF16_SS, SM90_64xNx16_F32BF16BF16_SS<128>>);
  static_assert(std::is_same_v<SM90_64x256x8_F32TF32TF32_SS, SM90_64xNx8_F32TF32TF32_SS<256>>);
}

TEST_CASE("SM90 wgmma m64nNk32 (8-bit) atoms match the ISA", "[atoms][isa]") {
  check_wgmma_8bit<SM90_64xNx32_F32E4M3E4M3_SS, SM90_64xNx32_F32E4M3E4M3_RS, 8>();
  check_wgmma_8bit<SM90_64xNx32_F16E5M2E4M3_SS, SM90_64xNx32_F16E5M2E4M3_RS, 40>();
  check_wgmma_8bit<SM90_64xNx32_F32E4M3E5M2_SS, SM90_64xNx32_F32E4M3E5M2_RS, 256>();
  check_wgmma_8bit<SM90_64xNx32_S32S8U8_SS, SM90_64xNx32_S32S8U8_RS, 48>();
  check_wgmma_8bit<SM90_64xNx32_S32U8U8_SS, SM90_64xNx32_S32U8U8_RS, 24>();
}
