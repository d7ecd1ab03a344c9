// The SIMT FP32 GEMM's CTA code (kernels/kernel/gemm_simt.cuh: GemmSimtKernel of the SIMT
// CollectiveMma + EpilogueSimt, as the collective builder composes them, written with copy /
// copy_if / gemm / axpby) run on the host for every thread of every
// CTA through tessera::host_warp, which emulates cp.async (zero fill included), LDS.128,
// FFMA and __syncthreads from the atoms' layouts:
//   - products against a plain reference: every configuration of kernels/device/configs.cuh
//     (BK 8/16, stages 3/4, flat or 8x4-warp thread grid), both majors of A, B and D,
//     residues in M, N and K, fewer k-tiles than stages, batches, alpha/beta, vector and
//     scalar epilogues; elements outside D (padding, gaps between batches) stay untouched;
//   - the trace policy: the CTA run with a host recorder gives the trace `gemm_trace`
//     records on the GPU, and tessera::verify checks it against the TiledMma / TiledCopy
//     maps (trace_maps.hpp), as run_gpu.sh's trace step does for the device.
#include <catch2/catch.hpp>

#include <cstdint>
#include <mutex>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "kernel/gemm_kernel.hpp"
#include "kernel/gemm_simt.cuh"
#include "trace_maps.hpp"

using namespace tessera;
using namespace tessera::kernels;

namespace {

// The kernel of a SimtShape (configs.cuh), majors and trace policy, composed as the library
// composes it (kernels/device/launch.cuh): the collective builder's parts, EpilogueSimt,
// GroupedRasterization<8>.
template <bool KM>
using major_t = std::conditional_t<KM, KMajor, MNMajor>;
template <class Shape, bool AK, bool BK>
using SimtBuilder =
    CollectiveBuilder<arch::Sm80, OpClassSimt, float, major_t<AK>, 1, float, major_t<BK>, 1, float,
                      tuple<C<Shape::BM>, C<Shape::BN>, C<Shape::BK>>, tuple<_1, _1, _1>, StageCount<Shape::Stages>,
                      std::conditional_t<Shape::WarpGrid8x4, KernelSimtWarpGrid8x4, KernelSimtThreadGrid16x16>>;
template <class Shape, bool AK, bool BK, class Trace = trace::NoTrace>
using SimtKernel =
    gemm_kernel_t<GemmProblemShape, traced_t<typename SimtBuilder<Shape, AK, BK>::CollectiveOp, Trace>,
                  traced_t<typename CollectiveEpilogueBuilder<SimtBuilder<Shape, AK, BK>, float, 1>::CollectiveOp, Trace>,
                  GroupedRasterization<8>>;

struct Dims {
  std::int64_t m, n, k, batch;
};

// Element (r, c) of batch l of a matrix with leading dimension ld and batch stride bs.
std::int64_t at(bool row, std::int64_t ld, std::int64_t bs, std::int64_t l, std::int64_t r, std::int64_t c) {
  return l * bs + (row ? r * ld + c : r + c * ld);
}

// Runs SimtKernel<Shape, AK, BK> on the host; returns the number of wrong elements of D
// (inside: against the reference; outside: the sentinel must survive).
template <class Shape, bool AK, bool BK>
int run_case(Dims d, bool d_row, bool vector_ok, float alpha, float beta) {
  using K = SimtKernel<Shape, AK, BK>;
  std::mt19937 rng(unsigned(d.m * 131 + d.n * 7 + d.k + AK * 2 + BK));
  std::uniform_int_distribution<int> dist(-2, 2);  // integer products: f32 sums are exact
  const bool a_row = AK, b_row = !BK;              // A (M, K) row-major = K-major; B (K, N) column-major = K-major
  const std::int64_t lda = (a_row ? d.k : d.m) + 3, ldb = (b_row ? d.n : d.k) + 1;
  const std::int64_t ldd = (d_row ? d.n : d.m) + (vector_ok ? 4 : 1);
  const std::int64_t bsa = lda * (a_row ? d.m : d.k) + 5, bsb = ldb * (b_row ? d.k : d.n) + 2;
  const std::int64_t bsd = ldd * (d_row ? d.m : d.n) + (vector_ok ? 8 : 3);
  std::vector<float> A(std::size_t(bsa * d.batch)), B(std::size_t(bsb * d.batch));
  std::vector<float> Cm(std::size_t(bsd * d.batch), 0.f), D(std::size_t(bsd * d.batch), -777.f);
  for (auto& x : A) x = float(dist(rng));
  for (auto& x : B) x = float(dist(rng));
  for (auto& x : Cm) x = float(dist(rng));

  Problem p{};
  p.m = d.m, p.n = d.n, p.k = d.k, p.batch = d.batch;
  p.a = {A.data(), lda, bsa, a_row};
  p.b = {B.data(), ldb, bsb, b_row};
  p.c = {Cm.data(), ldd, bsd, d_row};
  p.d = {D.data(), ldd, bsd, d_row};
  p.alpha = alpha, p.beta = beta;
  p.d_vector_ok = vector_ok;
  p.trace = nullptr;
  std::vector<unsigned char> smem(std::size_t(K::smem_bytes));
  const auto sched = K::scheduler(p);
  for (std::int64_t l = 0; l < d.batch; ++l)
    for (std::int64_t pid = 0; pid < sched.tile_count(); ++pid) {
      const auto t = sched.tile_of(pid);
      host_warp::launch(K::Threads, [&](int tid) { K::run_tile(p, t.m, t.n, l, tid, smem.data()); });
    }
  std::vector<char> inside(D.size(), 0);
  int wrong = 0;
  for (std::int64_t l = 0; l < d.batch; ++l)
    for (std::int64_t m = 0; m < d.m; ++m)
      for (std::int64_t n = 0; n < d.n; ++n) {
        double want = 0;
        for (std::int64_t k = 0; k < d.k; ++k)
          want += double(A[std::size_t(at(a_row, lda, bsa, l, m, k))]) * double(B[std::size_t(at(b_row, ldb, bsb, l, k, n))]);
        const std::size_t i = std::size_t(at(d_row, ldd, bsd, l, m, n));
        want = alpha * want + (beta != 0 ? beta * double(Cm[i]) : 0.0);
        inside[i] = 1;
        wrong += D[i] != float(want);
      }
  for (std::size_t i = 0; i < D.size(); ++i) wrong += !inside[i] && D[i] != -777.f;
  return wrong;
}

template <class Shape, bool AK, bool BK>
void check_all(Dims d) {
  INFO("BK " << Shape::BK << " stages " << Shape::Stages << " warps8x4 " << Shape::WarpGrid8x4 << " A " << (AK ? "K" : "M")
             << "-major B " << (BK ? "K" : "N") << "-major, " << d.m << " x " << d.n << " x " << d.k << " x " << d.batch);
  CHECK(run_case<Shape, AK, BK>(d, true, true, 2.f, -1.f) == 0);
  CHECK(run_case<Shape, AK, BK>(d, false, true, 1.f, 0.f) == 0);
  CHECK(run_case<Shape, AK, BK>(d, true, false, -1.f, 3.f) == 0);
  CHECK(run_case<Shape, AK, BK>(d, false, false, 2.f, 1.f) == 0);
}

// The trace policy on the host: records appended under a lock (the threads run at once).
struct HostRecorder {
  static constexpr bool enabled = true;
  static inline std::mutex lock;
  static inline std::vector<verify::Record> records;
  static void record(trace::Sink*, trace::Map m, int thread, int value, int row, int col) {
    std::lock_guard<std::mutex> g(lock);
    records.push_back({trace::name(m), thread, value, row, col});
  }
};

// One CTA tile (M = BM, N = BN, K = BK) of coordinate-coded inputs, as gemm_trace runs it.
template <class Shape, bool AK, bool BK>
verify::Report trace_case() {
  using K = SimtKernel<Shape, AK, BK, HostRecorder>;
  // The maps are the partition's; the kernel's parts are its.
  using P = SimtPartition<Shape::WarpGrid8x4, Shape::BK>;
  using Coll = typename K::Mainloop;
  static_assert(std::is_same_v<typename Coll::Trace, HostRecorder> && std::is_same_v<typename Coll::TiledMma, typename P::TiledMma> &&
                std::is_same_v<typename Coll::G2SA, typename P::template G2S<P::BM, AK>::Tiled> &&
                std::is_same_v<typename Coll::G2SB, typename P::template G2S<P::BN, BK>::Tiled> &&
                std::is_same_v<typename Coll::S2RA, typename P::S2R_A> && std::is_same_v<typename Coll::S2RB, typename P::S2R_B>);
  constexpr int M = Shape::BM, N = Shape::BN, KK = Shape::BK;
  std::vector<float> A(std::size_t(M * KK)), B(std::size_t(N * KK)), D(std::size_t(M * N));
  for (int m = 0; m < M; ++m)
    for (int k = 0; k < KK; ++k) A[std::size_t(AK ? m * KK + k : m + k * M)] = float(m * KK + k);
  for (int n = 0; n < N; ++n)
    for (int k = 0; k < KK; ++k) B[std::size_t(BK ? n * KK + k : n + k * N)] = float(n * KK + k);
  Problem p{};
  p.m = M, p.n = N, p.k = KK, p.batch = 1;
  p.a = {A.data(), AK ? KK : M, 0, AK};
  p.b = {B.data(), BK ? KK : N, 0, !BK};
  p.c = {nullptr, N, 0, true};
  p.d = {D.data(), N, 0, true};
  p.alpha = 1.f, p.beta = 0.f;
  p.d_vector_ok = true;
  std::vector<unsigned char> smem(std::size_t(K::smem_bytes));
  HostRecorder::records.clear();
  host_warp::launch(K::Threads, [&](int tid) { K::run_tile(p, 0, 0, 0, tid, smem.data()); });
  verify::Trace t;
  t.kernel = "simt host BK=" + std::to_string(KK);
  t.maps = trace::simt_maps<P, AK, BK>();
  t.records = HostRecorder::records;
  return verify::verify(t);
}

}  // namespace

TEST_CASE("SIMT GEMM on the host: the default configuration, every major, residues and batches", "[kernels]") {
  using S = SimtShape<8, 3, false>;
  check_all<S, true, true>({130, 129, 21, 2});
  check_all<S, false, false>({130, 129, 21, 2});
  check_all<S, true, false>({256, 128, 24, 1});  // whole tiles: the unpredicated copies
  check_all<S, false, true>({77, 200, 5, 1});    // one partial k-tile, fewer than the stages
}

TEST_CASE("SIMT GEMM on the host: the variants of configs.cuh", "[kernels]") {
  check_all<SimtShape<8, 3, true>, true, false>({130, 129, 21, 1});
  check_all<SimtShape<16, 3, false>, false, true>({129, 130, 40, 1});
  check_all<SimtShape<16, 3, true>, true, true>({128, 256, 33, 1});
  check_all<SimtShape<16, 4, true>, false, false>({140, 131, 70, 1});
}

TEST_CASE("SIMT GEMM on the host: generated shapes, majors and epilogues", "[kernels]") {
  // Extents from 1 to 300 (one to three tiles, any residue), K from 1 to 50, 1 or 2 batches.
  std::mt19937 rng(16);
  auto draw = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int i = 0; i < 24; ++i) {
    const Dims d{draw(1, 300), draw(1, 300), draw(1, 50), draw(1, 2)};
    const bool d_row = draw(0, 1), vec = draw(0, 1);
    const float alpha = float(draw(-2, 2)), beta = float(draw(-1, 1));
    using S = SimtShape<8, 3, false>;
    int wrong = 0;
    switch (draw(0, 3)) {
      case 0: wrong = run_case<S, true, true>(d, d_row, vec, alpha, beta); break;
      case 1: wrong = run_case<S, true, false>(d, d_row, vec, alpha, beta); break;
      case 2: wrong = run_case<S, false, true>(d, d_row, vec, alpha, beta); break;
      default: wrong = run_case<S, false, false>(d, d_row, vec, alpha, beta); break;
    }
    INFO("case " << i << ": " << d.m << " x " << d.n << " x " << d.k << " x " << d.batch << " D " << (d_row ? "row" : "col")
                 << " vector " << vec << " alpha " << alpha << " beta " << beta);
    CHECK(wrong == 0);
  }
}

TEST_CASE("SIMT GEMM on the host: the traced CTA verifies against the TV maps", "[kernels]") {
  auto ok = [](verify::Report const& r) {
    INFO(verify::format_report(r));
    REQUIRE(r.maps.size() == 7);
    for (const auto& m : r.maps) CHECK(m.matched == m.expected);
    CHECK(r.ok);
  };
  ok(trace_case<SimtShape<8, 3, false>, true, true>());
  ok(trace_case<SimtShape<8, 3, false>, false, false>());
  ok(trace_case<SimtShape<16, 3, true>, true, false>());
}
