// gemm over MMA atoms and tiled MMAs, run on the host through the atoms' emulation
// (tessera::host_warp runs the warp's lanes as host threads):
//  - per atom: registers filled from the ISA's fragment tables (isa_reference.hpp, written
//    independently of tessera's layouts), one gemm, each lane's D registers against the
//    reference product at the positions the ISA gives -- which register each MMA reads
//    and writes;
//  - tiled MMAs: partition_fragment_A/B/C + copy + gemm over whole tiles against a plain
//    reference product, fixed cases and rapidcheck properties (random data and tile counts).
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <array>
#include <random>
#include <vector>

#include "isa_reference.hpp"
#include "tessera/algorithm.hpp"

using namespace tessera;

namespace {

template <class T> T from_int(int v) { return detail::convert_to<T>(float(v)); }
template <class T> double to_double(T const& v) { return detail::convert_to<double>(v); }

// Lanes of a warp run `groups` independent problems (4 for Volta's quad-pairs, else 1).
template <class Op, int M, int N, int K, int NA, int NB, int NC, class FA, class FB, class FC, class Group>
void check_atom_against_isa(FA fa, FB fb, FC fc, Group group_of, int groups = 1) {
  using Tr = MMA_Traits<Op>;
  INFO(Tr::name);
  using TA = typename Tr::ValTypeA;
  using TB = typename Tr::ValTypeB;
  using TC = typename Tr::ValTypeC;
  std::mt19937 rng(12345);
  std::uniform_int_distribution<int> small(-3, 3);
  std::vector<int> A(std::size_t(groups * M * K)), B(std::size_t(groups * K * N)), C0(std::size_t(groups * M * N));
  for (int& x : A) x = small(rng);
  for (int& x : B) x = small(rng);
  for (int& x : C0) x = small(rng);
  auto a_at = [&](int g, int m, int k) { return A[std::size_t(g * M * K + m * K + k)]; };
  auto b_at = [&](int g, int k, int n) { return B[std::size_t(g * K * N + k * N + n)]; };
  auto c_at = [&](int g, int m, int n) { return C0[std::size_t(g * M * N + m * N + n)]; };
  std::vector<std::array<double, NC>> out(32);
  host_warp::launch(32, [&](int lane) {
    const int g = group_of(lane);
    auto ra = make_tensor<TA>(make_shape(C<NA>{}));
    auto rb = make_tensor<TB>(make_shape(C<NB>{}));
    auto rc = make_tensor<TC>(make_shape(C<NC>{}));
    for (int i = 0; i < NA; ++i) { auto p = fa(lane, i); ra[i] = from_int<TA>(a_at(g, p.row, p.col)); }
    for (int i = 0; i < NB; ++i) { auto p = fb(lane, i); rb[i] = from_int<TB>(b_at(g, p.row, p.col)); }
    for (int i = 0; i < NC; ++i) { auto p = fc(lane, i); rc[i] = from_int<TC>(c_at(g, p.row, p.col)); }
    gemm(MMA_Atom<Op>{}, ra, rb, rc);
    for (int i = 0; i < NC; ++i) out[std::size_t(lane)][std::size_t(i)] = to_double(rc[i]);
  });
  int bad = 0;
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < NC; ++i) {
      const int g = group_of(lane);
      auto p = fc(lane, i);
      int want = c_at(g, p.row, p.col);
      for (int k = 0; k < K; ++k) want += a_at(g, p.row, k) * b_at(g, k, p.col);
      bad += out[std::size_t(lane)][std::size_t(i)] != double(want);
    }
  CHECK(bad == 0);
}

int one_problem(int) { return 0; }

}  // namespace

TEST_CASE("gemm per mma.sync atom: D registers hold A*B+C where the ISA puts them", "[algorithm][gemm][isa]") {
  check_atom_against_isa<SM80_16x8x16_F32F16F16F32_TN, 16, 8, 16, 8, 4, 4>(isa::m16n8k16_f16_A, isa::m16n8k16_f16_B, isa::m16n8_C, one_problem);
  check_atom_against_isa<SM80_16x8x16_F32BF16BF16F32_TN, 16, 8, 16, 8, 4, 4>(isa::m16n8k16_f16_A, isa::m16n8k16_f16_B, isa::m16n8_C, one_problem);
  check_atom_against_isa<SM80_16x8x16_F16F16F16F16_TN, 16, 8, 16, 8, 4, 4>(isa::m16n8k16_f16_A, isa::m16n8k16_f16_B, isa::m16n8_C, one_problem);
  check_atom_against_isa<SM80_16x8x8_F32F16F16F32_TN, 16, 8, 8, 4, 2, 4>(isa::m16n8k8_f16_A, isa::m16n8k8_f16_B, isa::m16n8_C, one_problem);
  check_atom_against_isa<SM80_16x8x8_F32BF16BF16F32_TN, 16, 8, 8, 4, 2, 4>(isa::m16n8k8_f16_A, isa::m16n8k8_f16_B, isa::m16n8_C, one_problem);
  check_atom_against_isa<SM80_16x8x8_F16F16F16F16_TN, 16, 8, 8, 4, 2, 4>(isa::m16n8k8_f16_A, isa::m16n8k8_f16_B, isa::m16n8_C, one_problem);
  check_atom_against_isa<SM75_16x8x8_F32F16F16F32_TN, 16, 8, 8, 4, 2, 4>(isa::m16n8k8_f16_A, isa::m16n8k8_f16_B, isa::m16n8_C, one_problem);
  check_atom_against_isa<SM80_16x8x8_F32TF32TF32F32_TN, 16, 8, 8, 4, 2, 4>(isa::m16n8k8_tf32_A, isa::m16n8k8_tf32_B, isa::m16n8_C, one_problem);
  check_atom_against_isa<SM80_8x8x4_F64F64F64F64_TN, 8, 8, 4, 1, 1, 2>(isa::m8n8k4_f64_A, isa::m8n8k4_f64_B, isa::m8n8k4_f64_C, one_problem);
  check_atom_against_isa<SM80_16x8x32_S32S8S8S32_TN, 16, 8, 32, 16, 8, 4>(isa::m16n8k32_s8_A, isa::m16n8k32_s8_B, isa::m16n8_C, one_problem);
}

TEST_CASE("gemm per Volta quad-pair atom: four independent MMAs per warp", "[algorithm][gemm][isa]") {
  auto qp = isa::m8n8k4_quadpair;
  check_atom_against_isa<SM70_8x8x4_F32F16F16F32_TN, 8, 8, 4, 4, 4, 8>(isa::m8n8k4_A_row, isa::m8n8k4_B_col, isa::m8n8k4_C_f32, qp, 4);
  check_atom_against_isa<SM70_8x8x4_F16F16F16F16_TN, 8, 8, 4, 4, 4, 8>(isa::m8n8k4_A_row, isa::m8n8k4_B_col, isa::m8n8k4_C_f16, qp, 4);
  check_atom_against_isa<SM70_8x8x4_F32F16F16F32_NT, 8, 8, 4, 4, 4, 8>(isa::m8n8k4_A_col, isa::m8n8k4_B_row, isa::m8n8k4_C_f32, qp, 4);
  check_atom_against_isa<SM70_8x8x4_F32F16F16F32_NN, 8, 8, 4, 4, 4, 8>(isa::m8n8k4_A_col, isa::m8n8k4_B_col, isa::m8n8k4_C_f32, qp, 4);
  check_atom_against_isa<SM70_8x8x4_F32F16F16F32_TT, 8, 8, 4, 4, 4, 8>(isa::m8n8k4_A_row, isa::m8n8k4_B_row, isa::m8n8k4_C_f32, qp, 4);
}

namespace {

// C (M,N) += A (M,K) * B (N,K)^T over a whole tile: every thread of the tiled MMA loads its
// partitions of A and B into fragments (element-wise copy), runs gemm, and stores its C.
// Row-major int-valued float matrices; returns the number of wrong elements of C.
template <class TA, class TiledMma, int M, int N, int K>
int tiled_gemm_mismatches(TiledMma const& mma, std::vector<int> const& A, std::vector<int> const& B) {
  std::vector<TA> a(A.size()), b(B.size());
  for (std::size_t i = 0; i < A.size(); ++i) a[i] = from_int<TA>(A[i]);
  for (std::size_t i = 0; i < B.size(); ++i) b[i] = from_int<TA>(B[i]);
  std::vector<float> c(std::size_t(M * N), -1.f);
  const int n_threads = int(decltype(size(mma))::value);
  host_warp::launch(n_threads, [&](int t) {
    auto gA = make_tensor(a.data(), make_layout(make_shape(C<M>{}, C<K>{}), LayoutRight{}));
    auto gB = make_tensor(b.data(), make_layout(make_shape(C<N>{}, C<K>{}), LayoutRight{}));
    auto gC = make_tensor(c.data(), make_layout(make_shape(C<M>{}, C<N>{}), LayoutRight{}));
    auto thr = mma.get_slice(t);
    auto rA = thr.partition_fragment_A(gA);
    auto rB = thr.partition_fragment_B(gB);
    auto rC = thr.partition_fragment_C(gC);
    copy(thr.partition_A(gA), rA);
    copy(thr.partition_B(gB), rB);
    clear(rC);
    gemm(mma, rA, rB, rC);
    copy(rC, thr.partition_C(gC));
  });
  int bad = 0;
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      int want = 0;
      for (int k = 0; k < K; ++k) want += A[std::size_t(m * K + k)] * B[std::size_t(n * K + k)];
      bad += c[std::size_t(m * N + n)] != float(want);
    }
  return bad;
}

std::vector<int> random_ints(int n, int seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(-4, 4);
  std::vector<int> v(static_cast<std::size_t>(n));
  for (int& x : v) x = d(rng);
  return v;
}

}  // namespace

TEST_CASE("gemm over tiled MMAs equals the reference product", "[algorithm][gemm]") {
  SECTION("SM80 16x8x16 f16, 2x2 warps, tile 32x32x16 permuted, problem 64x64x32") {
    auto mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, make_layout(make_shape(_2{}, _2{}, _1{})),
                              make_tile(_32{}, _32{}, _16{}));
    CHECK(tiled_gemm_mismatches<half_t, decltype(mma), 64, 64, 32>(mma, random_ints(64 * 32, 1), random_ints(64 * 32, 2)) == 0);
  }
  SECTION("SM80 16x8x8 bf16, 1x2 warps, problem 32x32x16") {
    auto mma = make_tiled_mma(SM80_16x8x8_F32BF16BF16F32_TN{}, make_layout(make_shape(_1{}, _2{}, _1{})));
    CHECK(tiled_gemm_mismatches<bfloat16_t, decltype(mma), 32, 32, 16>(mma, random_ints(32 * 16, 3), random_ints(32 * 16, 4)) == 0);
  }
  SECTION("UniversalFMA, 8x8 threads, problem 16x24x5") {
    auto mma = make_tiled_mma(UniversalFMA<float>{}, make_layout(make_shape(_8{}, _8{}, _1{})));
    CHECK(tiled_gemm_mismatches<float, decltype(mma), 16, 24, 5>(mma, random_ints(16 * 5, 5), random_ints(24 * 5, 6)) == 0);
  }
}

namespace {
template <int MT, int NT, int KT>
int sm80_case(std::vector<int> const& A, std::vector<int> const& B) {
  auto mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, make_layout(make_shape(_2{}, _1{}, _1{})));
  return tiled_gemm_mismatches<half_t, decltype(mma), 32 * MT, 8 * NT, 16 * KT>(mma, A, B);
}
template <int MT, int NT, int KT>
int simt_case(std::vector<int> const& A, std::vector<int> const& B) {
  auto mma = make_tiled_mma(UniversalFMA<float>{}, make_layout(make_shape(_4{}, _8{}, _1{})));
  return tiled_gemm_mismatches<float, decltype(mma), 4 * MT, 8 * NT, KT>(mma, A, B);
}
}  // namespace

TEST_CASE("property: tiled gemm equals the reference for random data and tile counts", "[algorithm][gemm][property]") {
  rc::prop("SM80 16x8x16, 2x1 warps, 1-2 tiles per mode", [] {
    const int mt = *rc::gen::inRange(1, 3), nt = *rc::gen::inRange(1, 3), kt = *rc::gen::inRange(1, 3);
    const int M = 32 * mt, N = 8 * nt, K = 16 * kt;
    std::vector<int> A = *rc::gen::container<std::vector<int>>(std::size_t(M * K), rc::gen::inRange(-8, 9));
    std::vector<int> B = *rc::gen::container<std::vector<int>>(std::size_t(N * K), rc::gen::inRange(-8, 9));
    // (the tile counts are template arguments: each combination is its own instantiation)
    int bad = -1;
    const int key = (mt - 1) * 4 + (nt - 1) * 2 + (kt - 1);
    detail::static_for<8>([&](auto c) {
      constexpr int k = int(decltype(c)::value);
      if (k == key) bad = sm80_case<k / 4 + 1, (k / 2) % 2 + 1, k % 2 + 1>(A, B);
    });
    RC_ASSERT(bad == 0);
  });
  rc::prop("UniversalFMA 4x8 threads, 1-2 tiles per mode, K 1 or 3", [] {
    const int mt = *rc::gen::inRange(1, 3), nt = *rc::gen::inRange(1, 3), kt = *rc::gen::element(1, 3);
    const int M = 4 * mt, N = 8 * nt, K = kt;
    std::vector<int> A = *rc::gen::container<std::vector<int>>(std::size_t(M * K), rc::gen::inRange(-100, 101));
    std::vector<int> B = *rc::gen::container<std::vector<int>>(std::size_t(N * K), rc::gen::inRange(-100, 101));
    int bad = -1;
    const int key = (mt - 1) * 4 + (nt - 1) * 2 + (kt == 3 ? 1 : 0);
    detail::static_for<8>([&](auto c) {
      constexpr int k = int(decltype(c)::value);
      if (k == key) bad = simt_case<k / 4 + 1, (k / 2) % 2 + 1, k % 2 == 1 ? 3 : 1>(A, B);
    });
    RC_ASSERT(bad == 0);
  });
}

TEST_CASE("static_for_inlined visits C<0>..C<N-1> in order, each a static index, as static_for does", "[algorithm][loops]") {
  std::vector<int64_t> a, b;
  detail::static_for<7>([&](auto i) {
    static_assert(is_static_v<decltype(i)>);
    a.push_back(decltype(i)::value);
  });
  detail::static_for_inlined<7>([&](auto i) {
    static_assert(is_static_v<decltype(i)>);
    b.push_back(decltype(i)::value);
  });
  CHECK(a == std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6});
  CHECK(b == a);
  // In a constant expression too (what the kernels' static offsets rely on).
  constexpr int64_t sum = [] {
    int64_t s = 0;
    detail::static_for_inlined<5>([&](auto i) { s += decltype(i)::value * decltype(i)::value; });
    return s;
  }();
  STATIC_REQUIRE(sum == 0 + 1 + 4 + 9 + 16);
  int calls = 0;
  detail::static_for_inlined<0>([&](auto) { ++calls; });
  CHECK(calls == 0);
}

// convert(src, dst): f32 fragments to bf16 / f16 (in pairs on the GPU; here the portable
// rounding), bit for bit T(x) at every index, odd sizes included; other types as convert_to.
TEST_CASE("convert: f32 fragments rounded to bf16 and f16 as T(x), every value") {
  std::mt19937 rng(3);
  std::uniform_int_distribution<uint32_t> bits;
  auto check = [&](auto tag, auto n) {
    using T = typename decltype(tag)::type;
    std::vector<float> src_values(64 * 4);
    std::vector<T> dst_values(64 * 4);
    auto src = make_tensor(src_values.data(), make_layout(n));  // (a static size unrolls; a dynamic one loops)
    auto dst = make_tensor(dst_values.data(), make_layout(n));
    for (int i = 0; i < int(size(src)); ++i) {
      const uint32_t x = bits(rng);
      src(i) = i % 5 == 0 ? 1.f + float(i) / 256.f : __builtin_bit_cast(float, x);  // ties, NaNs, infinities, subnormals
    }
    convert(src, dst);
    int wrong = 0;
    for (int i = 0; i < int(size(src)); ++i) wrong += dst(i).bits != T(src(i)).bits;
    CHECK(wrong == 0);
  };
  for (int round = 0; round < 50; ++round) {
    check(std::type_identity<bfloat16_t>{}, _128{});
    check(std::type_identity<half_t>{}, _7{});
    check(std::type_identity<bfloat16_t>{}, 9);  // a dynamic size: one value at a time
  }
  auto ints = make_tensor<int>(make_layout(_3{}));
  auto floats = make_tensor<float>(make_layout(_3{}));
  ints(0) = -2, ints(1) = 0, ints(2) = 7;
  convert(ints, floats);
  CHECK((floats(0) == -2.f && floats(1) == 0.f && floats(2) == 7.f));
}
