// copy / copy_if over copy atoms and tiled copies, run on the host through the atoms'
// emulation (tessera::host_warp runs every thread of a tiled copy as a host thread):
// which element each value moves, for every thread -- against the ISA's ldmatrix /
// mma fragment tables (isa_reference.hpp) and against the MMA's own partitions.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <vector>

#include "isa_reference.hpp"
#include "tessera/algorithm.hpp"

using namespace tessera;

namespace {

// A distinct half for every element index: its bit pattern (not its value: f16 integers are
// exact only up to 2048).
half_t tag(int i) { return half_t::from_bits(uint16_t(i)); }
int untag(half_t h) { return int(h.bits); }

// One warp of ldmatrix through a tiled copy built from a single-atom MMA: lane l's
// fragment value i must be the operand element the ISA's mma table gives for (l, i).
// The smem tile is (rows, cols) = the operand's (M or N, K), stored K-major (row-major) or
// MN-major, element (r, c) tagged r + rows * c.
template <class CopyOp, class MmaOp, bool IsA, int Rows, int Cols, class IsaFn>
void check_ldmatrix_against_isa(bool k_major, IsaFn isa_fn, int n_vals) {
  constexpr int rows = Rows, cols = Cols;
  auto mma = make_tiled_mma(MmaOp{});
  auto atom = Copy_Atom<CopyOp, half_t>{};
  std::vector<half_t> smem(std::size_t(rows * cols));
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) smem[std::size_t(k_major ? r * cols + c : r + rows * c)] = tag(r + rows * c);
  std::vector<std::vector<int>> got(32);
  auto run = [&](auto const& tile_layout) {
    host_warp::launch(32, [&](int t) {
      auto s = make_tensor(smem.data(), tile_layout);
      auto thr_mma = mma.get_slice(t);
      if constexpr (IsA) {
        auto frag = thr_mma.partition_fragment_A(s);
        auto cp = make_tiled_copy_A(atom, mma).get_slice(t);
        copy(cp, cp.partition_S(s), cp.retile_D(frag));
        for (int i = 0; i < int(size(frag)); ++i) got[std::size_t(t)].push_back(untag(frag[i]));
      } else {
        auto frag = thr_mma.partition_fragment_B(s);
        auto cp = make_tiled_copy_B(atom, mma).get_slice(t);
        copy(cp, cp.partition_S(s), cp.retile_D(frag));
        for (int i = 0; i < int(size(frag)); ++i) got[std::size_t(t)].push_back(untag(frag[i]));
      }
    });
  };
  // (rows, cols) logical tile over the stored order
  if (k_major) {
    run(make_layout(make_shape(C<rows>{}, C<cols>{}), make_stride(C<cols>{}, _1{})));
  } else {
    run(make_layout(make_shape(C<rows>{}, C<cols>{}), make_stride(_1{}, C<rows>{})));
  }
  int bad = 0;
  for (int lane = 0; lane < 32; ++lane) {
    REQUIRE(int(got[std::size_t(lane)].size()) == n_vals);
    for (int i = 0; i < n_vals; ++i) {
      isa::RC rc = isa_fn(lane, i);  // A: (row m, col k); B: (row k, col n)
      int r = IsA ? rc.row : rc.col, c = IsA ? rc.col : rc.row;
      bad += got[std::size_t(lane)][std::size_t(i)] != r + rows * c;
    }
  }
  CHECK(bad == 0);
}

// A tiled copy's destination fragment must equal the MMA's partition of the same smem
// tile, element for element, for every thread (the fragment has the partition's shape).
template <bool IsA, class Mma, class CopyAtom, class SLayout>
int mismatches_against_partition(Mma const& mma, CopyAtom const& atom, SLayout const& slayout, int n_threads,
                                 std::vector<half_t> const& storage) {
  std::vector<int> bad(std::size_t(n_threads), 0);
  host_warp::launch(n_threads, [&](int t) {
    auto s = make_tensor(storage.data(), slayout);
    auto thr_mma = mma.get_slice(t);
    if constexpr (IsA) {
      auto frag = thr_mma.partition_fragment_A(s);
      auto cp = make_tiled_copy_A(atom, mma).get_slice(t);
      copy(cp, cp.partition_S(s), cp.retile_D(frag));
      auto want = thr_mma.partition_A(s);
      for (int i = 0; i < int(size(frag)); ++i) bad[std::size_t(t)] += frag[i].bits != want[i].bits;
    } else {
      auto frag = thr_mma.partition_fragment_B(s);
      auto cp = make_tiled_copy_B(atom, mma).get_slice(t);
      copy(cp, cp.partition_S(s), cp.retile_D(frag));
      auto want = thr_mma.partition_B(s);
      for (int i = 0; i < int(size(frag)); ++i) bad[std::size_t(t)] += frag[i].bits != want[i].bits;
    }
  });
  int total = 0;
  for (int b : bad) total += b;
  return total;
}

std::vector<half_t> tagged(int n) {
  std::vector<half_t> v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) v[std::size_t(i)] = tag(i);
  return v;
}

}  // namespace

TEST_CASE("copy with ldmatrix: each lane receives the elements of the ISA's mma fragment", "[algorithm][copy][isa]") {
  // x4 for A of m16n8k16 (16 x 16, four 8x8 matrices), K-major smem
  check_ldmatrix_against_isa<SM75_U32x4_LDSM_N, SM80_16x8x16_F32F16F16F32_TN, true, 16, 16>(true, isa::m16n8k16_f16_A, 8);
  // x2 for B of m16n8k16 (8 x 16 as (N, K)), K-major
  check_ldmatrix_against_isa<SM75_U32x2_LDSM_N, SM80_16x8x16_F32F16F16F32_TN, false, 8, 16>(true, isa::m16n8k16_f16_B, 4);
  // x1 for B of m16n8k8 (8 x 8), K-major
  check_ldmatrix_against_isa<SM75_U32x1_LDSM_N, SM80_16x8x8_F32F16F16F32_TN, false, 8, 8>(true, isa::m16n8k8_f16_B, 2);
  // x2 for A of m16n8k8 (16 x 8)
  check_ldmatrix_against_isa<SM75_U32x2_LDSM_N, SM80_16x8x8_F32F16F16F32_TN, true, 16, 8>(true, isa::m16n8k8_f16_A, 4);
  // .trans: B stored N-major (n contiguous), x1 / x2 for k8 / k16
  check_ldmatrix_against_isa<SM75_U16x2_LDSM_T, SM80_16x8x8_F32F16F16F32_TN, false, 8, 8>(false, isa::m16n8k8_f16_B, 2);
  check_ldmatrix_against_isa<SM75_U16x4_LDSM_T, SM80_16x8x16_F32F16F16F32_TN, false, 8, 16>(false, isa::m16n8k16_f16_B, 4);
  // .trans x4 for A stored M-major
  check_ldmatrix_against_isa<SM75_U16x8_LDSM_T, SM80_16x8x16_F32F16F16F32_TN, true, 16, 16>(false, isa::m16n8k16_f16_A, 8);
}

// stmatrix: lane l's register j element e holds what ldmatrix would deliver there (the
// ISA's fragment of matrix j); after the store, row r of matrix j (addressed by lane 8j+r)
// holds it at its place.
template <class Op, int Count, bool Trans>
void check_stmatrix_against_isa() {
  std::vector<half_t> smem(std::size_t(Count * 64), tag(999));
  auto code = [](isa::DstElem e) { return e.matrix * 64 + e.row * 8 + e.col; };
  host_warp::launch(32, [&](int lane) {
    auto regs = make_tensor<half_t>(make_shape(C<2 * Count>{}));
    for (int j = 0; j < Count; ++j)
      for (int e = 0; e < 2; ++e) regs(2 * j + e) = tag(code(isa::ldmatrix_dst(lane, j, e, Trans)));
    // The row this lane addresses (lanes past 8 * Count repeat the used lanes' rows).
    auto row = make_tensor(smem.data() + 8 * (lane % (8 * Count)), make_layout(_8{}));
    copy(Copy_Atom<Op, half_t>{}, regs, row);
  });
  int bad = 0;
  for (int i = 0; i < Count * 64; ++i) bad += untag(smem[std::size_t(i)]) != i;
  CHECK(bad == 0);
}

TEST_CASE("copy with stmatrix: each row of smem receives the ISA's fragment elements", "[algorithm][copy][isa]") {
  check_stmatrix_against_isa<SM90_U32x1_STSM_N, 1, false>();
  check_stmatrix_against_isa<SM90_U32x2_STSM_N, 2, false>();
  check_stmatrix_against_isa<SM90_U32x4_STSM_N, 4, false>();
  check_stmatrix_against_isa<SM90_U16x2_STSM_T, 1, true>();
  check_stmatrix_against_isa<SM90_U16x4_STSM_T, 2, true>();
  check_stmatrix_against_isa<SM90_U16x8_STSM_T, 4, true>();
}

TEST_CASE("stmatrix then ldmatrix is the identity on a tiled MMA's A fragments (plain and swizzled smem)", "[algorithm][copy]") {
  auto mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, make_layout(make_shape(_2{}, _2{}, _1{})),
                            make_tile(_32{}, _32{}, _16{}));
  auto atom_k = make_layout(make_shape(_8{}, _64{}), make_stride(_64{}, _1{}));
  auto plain = tile_to_shape(atom_k, make_shape(_128{}, _64{}));
  auto swizzled = composition(Swizzle<3, 3, 3>{}, plain);
  auto round_trip = [&](auto slayout) {
    std::vector<half_t> smem(std::size_t(128 * 64), tag(999));
    std::vector<int> bad(128, 0);
    host_warp::launch(128, [&](int t) {
      auto s = make_tensor(smem.data(), slayout);
      auto thr_mma = mma.get_slice(t);
      auto frag = thr_mma.partition_fragment_A(s);
      auto want = thr_mma.partition_A(s);  // (only its shape and the smem offsets: tag by offset)
      for (int i = 0; i < int(size(frag)); ++i) frag[i] = tag(int(&want[i] - smem.data()));
      auto st = make_tiled_copy_A(Copy_Atom<SM90_U32x4_STSM_N, half_t>{}, mma).get_slice(t);
      copy(st, st.retile_S(frag), st.partition_D(s));
      sync_threads();
      auto back = thr_mma.partition_fragment_A(s);
      auto ld = make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma).get_slice(t);
      copy(ld, ld.partition_S(s), ld.retile_D(back));
      for (int i = 0; i < int(size(frag)); ++i) bad[std::size_t(t)] += back[i].bits != frag[i].bits;
    });
    int total = 0;
    for (int b : bad) total += b;
    // every smem element was written with its own offset
    int misplaced = 0;
    for (int i = 0; i < 128 * 64; ++i) misplaced += untag(smem[std::size_t(i)]) != i;
    return total + misplaced;
  };
  CHECK(round_trip(plain) == 0);
  CHECK(round_trip(swizzled) == 0);
}

TEST_CASE("copy with tiled ldmatrix delivers every thread's MMA partition (plain and swizzled smem)", "[algorithm][copy]") {
  auto mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, make_layout(make_shape(_2{}, _2{}, _1{})),
                            make_tile(_32{}, _32{}, _16{}));
  auto data = tagged(128 * 64);
  // (M, K) = (128, 64) K-major rows, plain and Sw<3,3,3> over 8-row atoms.
  auto atom_k = make_layout(make_shape(_8{}, _64{}), make_stride(_64{}, _1{}));
  auto plain = tile_to_shape(atom_k, make_shape(_128{}, _64{}));
  auto swizzled = composition(Swizzle<3, 3, 3>{}, plain);
  CHECK(mismatches_against_partition<true>(mma, Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, plain, 128, data) == 0);
  CHECK(mismatches_against_partition<true>(mma, Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, swizzled, 128, data) == 0);
  CHECK(mismatches_against_partition<false>(mma, Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, swizzled, 128, data) == 0);
  CHECK(mismatches_against_partition<false>(mma, Copy_Atom<SM75_U32x2_LDSM_N, half_t>{}, plain, 128, data) == 0);
  // B stored N-major (n contiguous), read with .trans
  auto n_major = make_layout(make_shape(_64{}, _32{}));
  CHECK(mismatches_against_partition<false>(mma, Copy_Atom<SM75_U16x8_LDSM_T, half_t>{}, n_major, 128, data) == 0);
  CHECK(mismatches_against_partition<false>(mma, Copy_Atom<SM75_U16x4_LDSM_T, half_t>{}, n_major, 128, data) == 0);
}

TEST_CASE("ldmatrix outside a host warp stops loudly rather than guessing", "[algorithm][copy]") {
  // A warp-collective instruction on one host thread has no lanes to exchange with: the
  // emulation aborts with a message (run in a child process).
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    std::freopen("/dev/null", "w", stderr);
    auto mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{});
    std::vector<half_t> smem(16 * 16);
    auto s = make_tensor(smem.data(), make_layout(make_shape(_16{}, _16{}), LayoutRight{}));
    auto frag = mma.get_slice(0).partition_fragment_A(s);
    auto cp = make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma).get_slice(0);
    copy(cp, cp.partition_S(s), cp.retile_D(frag));
    std::_Exit(0);  // not reached
  }
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGABRT);
}

TEST_CASE("tiled cp.async gmem -> swizzled smem moves every element once", "[algorithm][copy]") {
  // 128 x 64 K-major half tile, 16 x 8 threads x (1 x 8) values = 16-byte cp.async.
  auto g2s = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<16>, half_t>{},
                             make_layout(make_shape(_16{}, _8{}), LayoutRight{}), make_layout(make_shape(_1{}, _8{})));
  auto gmem = tagged(128 * 64);
  std::vector<half_t> smem(128 * 64);
  auto g = make_tensor(gmem.data(), make_layout(make_shape(_128{}, _64{}), LayoutRight{}));
  auto s_layout = composition(Swizzle<3, 3, 3>{}, tile_to_shape(make_layout(make_shape(_8{}, _64{}), make_stride(_64{}, _1{})),
                                                                make_shape(_128{}, _64{})));
  auto s = make_tensor(smem.data(), s_layout);
  for (int t = 0; t < 128; ++t) {  // one thread at a time: cp.async is per thread
    auto thr = g2s.get_slice(t);
    auto src = thr.partition_S(g);
    auto dst = thr.partition_D(s);
    STATIC_REQUIRE(decltype(size<0>(src.layout()))::value == 8);
    copy(g2s, src, dst);
  }
  cp_async_fence();
  cp_async_wait<0>();
  int bad = 0;
  for (int m = 0; m < 128; ++m)
    for (int k = 0; k < 64; ++k) bad += untag(s(m, k)) != m * 64 + k;
  CHECK(bad == 0);
  // The swizzle moved the data: the storage is not the row-major copy.
  int moved = 0;
  for (int i = 0; i < 128 * 64; ++i) moved += untag(smem[std::size_t(i)]) != i;
  CHECK(moved > 0);
}

TEST_CASE("copy_if with the zero-filling cp.async: rows past the residue become zeros", "[algorithm][copy]") {
  auto g2s = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<16, 128>, half_t>{},
                             make_layout(make_shape(_8{}, _4{}), LayoutRight{}), make_layout(make_shape(_1{}, _8{})));
  const int rows_valid = 5;
  auto gmem = tagged(8 * 32);
  std::vector<half_t> smem(8 * 32, tag(999));
  auto g = make_tensor(gmem.data(), make_layout(make_shape(_8{}, _32{}), LayoutRight{}));
  auto s = make_tensor(smem.data(), make_layout(make_shape(_8{}, _32{}), LayoutRight{}));
  auto coords = make_identity_tensor(make_shape(_8{}, _32{}));
  for (int t = 0; t < 32; ++t) {
    auto thr = g2s.get_slice(t);
    auto src = thr.partition_S(g);
    auto dst = thr.partition_D(s);
    auto crd = thr.partition_S(coords);  // (m, k) of each value
    // one predicate per instruction: the row of its first value is inside the matrix
    auto pred = make_copy_predicate(g2s, crd, [&](auto c) { return get<0>(c) < rows_valid; });
    auto instr = detail::by_instruction(crd, C<8>{});
    CHECK(int(size(pred)) == int(size<1>(instr.layout())));
    for (int j = 0; j < int(size(pred)); ++j) CHECK(pred(j) == (get<0>(instr(0, j)) < rows_valid));
    copy_if(pred, g2s, src, dst);
  }
  int bad = 0;
  for (int m = 0; m < 8; ++m)
    for (int k = 0; k < 32; ++k) bad += untag(s(m, k)) != (m < rows_valid ? m * 32 + k : 0);
  CHECK(bad == 0);

  // The plain cp.async under copy_if skips: the old contents stay.
  auto g2s_plain = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<16>, half_t>{},
                                   make_layout(make_shape(_8{}, _4{}), LayoutRight{}), make_layout(make_shape(_1{}, _8{})));
  std::fill(smem.begin(), smem.end(), tag(999));
  for (int t = 0; t < 32; ++t) {
    auto thr = g2s_plain.get_slice(t);
    bool pred[1] = {t / 4 < rows_valid};
    copy_if(pred, g2s_plain, thr.partition_S(g), thr.partition_D(s));
  }
  bad = 0;
  for (int m = 0; m < 8; ++m)
    for (int k = 0; k < 32; ++k) bad += untag(s(m, k)) != (m < rows_valid ? m * 32 + k : 999);
  CHECK(bad == 0);
}

TEST_CASE("universal copies, element-wise copy / copy_if, fill, clear, transform, axpby", "[algorithm]") {
  float a[16], b[16];
  for (int i = 0; i < 16; ++i) a[i] = float(i), b[i] = -1.f;
  auto ta = make_tensor(a, make_layout(make_shape(_4{}, _4{})));
  auto tb = make_tensor(b, make_layout(make_shape(_4{}, _4{}), LayoutRight{}));  // a transpose
  copy(ta, tb);
  for (int m = 0; m < 4; ++m)
    for (int n = 0; n < 4; ++n) CHECK(b[m * 4 + n] == float(m + 4 * n));
  // a 64-bit universal copy moves two floats per instruction: 8 instructions
  float c[16] = {};
  auto tc = make_tensor(c, make_layout(make_shape(_2{}, _8{})));
  copy(Copy_Atom<UniversalCopy<uint64_t>, float>{}, make_tensor(a, make_layout(make_shape(_2{}, _8{}))), tc);
  for (int i = 0; i < 16; ++i) CHECK(c[i] == float(i));
  // gathered: values of each instruction strided in the source registers
  float d[16] = {};
  copy(Copy_Atom<UniversalCopy<uint64_t>, float>{}, make_tensor(a, make_layout(make_shape(_2{}, _8{}), make_stride(_8{}, _1{}))),
       make_tensor(d, make_layout(make_shape(_2{}, _8{}))));
  for (int i = 0; i < 16; ++i) CHECK(d[i] == float((i % 2) * 8 + i / 2));

  bool even[16];
  for (int i = 0; i < 16; ++i) even[i] = i % 2 == 0;
  float e[16];
  auto te = make_tensor(e, make_layout(_16{}));
  fill(te, 7.f);
  copy_if(even, make_tensor(a, make_layout(_16{})), te);
  for (int i = 0; i < 16; ++i) CHECK(e[i] == (i % 2 == 0 ? float(i) : 7.f));

  auto frag = make_tensor<float>(make_shape(_4{}, _2{}));
  fill(frag, 3.f);
  clear(frag(_, 1));
  for (int i = 0; i < 8; ++i) CHECK(frag[i] == (i < 4 ? 3.f : 0.f));
  auto halves = make_tensor<half_t>(make_shape(_4{}, _2{}));
  transform(frag, halves, [](float x) { return x + 0.5f; });
  for (int i = 0; i < 8; ++i) CHECK(halves[i].to_float() == (i < 4 ? 3.5f : 0.5f));
  transform(frag, [](float x) { return 2 * x; });
  CHECK(frag[0] == 6.f);
  auto y = make_tensor<float>(make_shape(_8{}));
  fill(y, 1.f);
  axpby(2.f, frag, 3.f, y);  // 2*6+3 and 2*0+3
  for (int i = 0; i < 8; ++i) CHECK(y[i] == (i < 4 ? 15.f : 3.f));
  float garbage[8];
  for (float& g : garbage) g = std::numeric_limits<float>::quiet_NaN();
  auto yo = make_tensor(garbage, make_layout(_8{}));
  axpby(1.f, frag, 0.f, yo);  // beta == 0 does not read y
  for (int i = 0; i < 8; ++i) CHECK(garbage[i] == frag[i]);
}

TEST_CASE("property: tiled universal copies move every element exactly to its place", "[algorithm][copy][property]") {
  rc::prop("random thread grids and value blocks over a row-major tile", [] {
    const int tm = *rc::gen::element(1, 2, 4, 8);
    const int tn = *rc::gen::element(1, 2, 4);
    const int reps_m = *rc::gen::inRange(1, 4);
    const int reps_n = *rc::gen::inRange(1, 4);
    // threads (4, 8) row-major, values (1, 4): 16-byte copies of floats; the tile repeats
    auto tcopy = make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, float>{},
                                 make_layout(make_shape(_4{}, _8{}), LayoutRight{}), make_layout(make_shape(_1{}, _4{})));
    const int M = 4 * tm * reps_m, N = 32 * tn * reps_n;
    std::vector<float> src(std::size_t(M * N)), dst(std::size_t(M * N), -1.f);
    for (int i = 0; i < M * N; ++i) src[std::size_t(i)] = float(*rc::gen::inRange(-1000, 1000));
    auto gs = make_tensor(src.data(), make_layout(make_shape(M, N), make_stride(N, 1)));
    auto gd = make_tensor(dst.data(), make_layout(make_shape(M, N), make_stride(N, 1)));
    for (int t = 0; t < 32; ++t) {
      auto thr = tcopy.get_slice(t);
      copy(tcopy, thr.partition_S(gs), thr.partition_D(gd));
    }
    RC_ASSERT(src == dst);
  });
}

TEST_CASE("property: the 16-byte store atom puts every register value at its place in gmem", "[algorithm][copy][property]") {
  rc::prop("STG_U32x4 over 16x8 threads of 8 halves, a random number of tile repeats", [] {
    const int reps_m = *rc::gen::inRange(1, 4);
    const int reps_n = *rc::gen::inRange(1, 4);
    auto tcopy = make_tiled_copy(Copy_Atom<STG_U32x4, half_t>{}, make_layout(make_shape(_16{}, _8{}), LayoutRight{}),
                                 make_layout(make_shape(_1{}, _8{})));
    const int M = 16 * reps_m, N = 64 * reps_n;
    std::vector<half_t> src(std::size_t(M * N)), dst(std::size_t(M * N), tag(0xffff));
    for (int i = 0; i < M * N; ++i) src[std::size_t(i)] = tag(*rc::gen::inRange(0, 0xfffe));
    // (D's contiguous stride is static: the atom's 16 bytes must be contiguous)
    auto gs = make_tensor(src.data(), make_layout(make_shape(M, N), make_stride(N, _1{})));
    auto gd = make_tensor(dst.data(), make_layout(make_shape(M, N), make_stride(N, _1{})));
    // each copy of each thread: its 8 source values into registers, then one store
    for (int t = 0; t < 128; ++t) {
      auto thr = tcopy.get_slice(t);
      auto from = detail::by_instruction(thr.partition_S(gs), _8{});  // (8, copies)
      auto to = detail::by_instruction(thr.partition_D(gd), _8{});
      for (int j = 0; j < int(size<1>(to.layout())); ++j) {
        auto regs = make_tensor<half_t>(make_shape(_8{}));
        copy(from(_, j), regs);
        copy(Copy_Atom<STG_U32x4, half_t>{}, regs, to(_, j));
      }
    }
    for (int i = 0; i < M * N; ++i) RC_ASSERT(untag(dst[std::size_t(i)]) == untag(src[std::size_t(i)]));
  });
}
