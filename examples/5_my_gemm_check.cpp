// 5. Check your GEMM kernel on the host, without a GPU: the partitions the kernel relies on,
// then the kernel's own CTA function (5_my_gemm.hpp) run for every thread of two CTAs on
// host threads (tessera::host_warp emulates cp.async, ldmatrix, mma.sync and
// __syncthreads from the atoms' layouts), against a plain reference product; then its trace
// (5_my_gemm_trace.hpp: what every thread's copies and MMA fragments held) verified against
// the maps of the same objects, as `tessera verify` does.
//   example_my_gemm_check [--trace FILE]     FILE: the host trace, for `tessera verify FILE`
#include <cstdio>
#include <array>
#include <random>
#include <vector>

#include <fstream>
#include <sstream>
#include <string>

#include <tessera/verify/trace.hpp>

#include "5_my_gemm_trace.hpp"

using namespace tessera;
using my_gemm::T;

int failures = 0;
#define EXPECT(cond)                                                   \
  do {                                                                 \
    if (!(cond)) {                                                     \
      std::fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                      \
    }                                                                  \
  } while (0)

// The CTA's trace, both runs, every thread on host threads.
std::vector<int> host_trace_records() {
  constexpr int capacity = 1 << 16;
  std::vector<int> records(5 * capacity);
  int count = 0;
  std::vector<T> A, B, C(std::size_t(int(my_gemm::bM) * int(my_gemm::bN))), smem(my_gemm::smem_elements);
  for (bool accumulators : {false, true}) {
    my_gemm::trace_inputs(accumulators, A, B);
    const my_gemm::Recorder rec{{&count, capacity, records.data()}, accumulators};
    host_warp::launch(my_gemm::Threads, [&](int tid) {
      my_gemm::gemm_cta_tile<false>(A.data(), B.data(), C.data(), int(my_gemm::bM), int(my_gemm::bN), int(my_gemm::bK), 1.f, 0.f, 0,
                                    0, tid, smem.data(), rec);
    });
  }
  if (count > capacity) return {};
  records.resize(std::size_t(5 * count));
  return records;
}

int main(int argc, char** argv) {
  std::string trace_path;
  if (argc == 3 && std::string(argv[1]) == "--trace") trace_path = argv[2];
  else if (argc != 1) {
    std::fprintf(stderr, "usage: %s [--trace FILE]\n", argv[0]);
    return 1;
  }
  // 1. Partitions: every smem element is written by exactly one cp.async value, and the
  //    ldmatrix copies deliver exactly the MMA's fragments (per thread, per value).
  auto s = my_gemm::smem_layout();
  std::vector<int> writes(std::size_t(my_gemm::smem_elements / 2), 0);
  for (int t = 0; t < my_gemm::Threads; ++t) {
    auto dst = my_gemm::G2S{}.get_slice(t).partition_D_layout(s(_, _, 0));
    auto d = get<0>(dst);
    for (int i = 0; i < int(size(d)); ++i) ++writes[std::size_t(int64_t(get<1>(dst)) + d(i))];
  }
  int bad = 0;
  for (int w = 0; w < int(size(s.inner())) / my_gemm::Stages; ++w) bad += writes[std::size_t(w)] != 1;
  EXPECT(bad == 0);
  auto a_copy = my_gemm::S2RA::get_layoutD_TV();
  auto a_mma = my_gemm::TiledMma::get_layoutA_TV();
  auto b_copy = my_gemm::S2RB::get_layoutD_TV();
  auto b_mma = my_gemm::TiledMma::get_layoutB_TV();
  bad = 0;
  for (int t = 0; t < my_gemm::Threads; ++t)
    for (int v = 0; v < int(size<1>(a_mma)); ++v) bad += a_copy(t, v) != a_mma(t, v) || b_copy(t, v) != b_mma(t, v);
  EXPECT(bad == 0);

  // 2. The kernel's CTA function on the host against a plain reference product, alpha = 2,
  //    beta = -1: 256 x 128 x 256 (two whole CTAs, four k-tiles: the 3-stage pipeline fills,
  //    runs and drains), then shapes whose tiles cross every edge (M, N not multiples of 128,
  //    K not of 64, fewer k-tiles than stages): elements outside C must stay untouched.
  auto run = [&](int M, int N, int K) {
    std::mt19937 rng(unsigned(5 + M + N + K));
    std::uniform_int_distribution<int> d(-2, 2);  // |C| <= 2 * 256 * 4 + 2: exact in f16
        std::vector<T> A(std::size_t(M * K)), B(std::size_t(N * K)), C(std::size_t(M * N + 3 * N), T::from_float(7.f)),
        smem(my_gemm::smem_elements);
    std::vector<int> a(A.size()), b(B.size()), c(std::size_t(M * N));
    for (std::size_t i = 0; i < A.size(); ++i) a[i] = d(rng), A[i] = T::from_float(float(a[i]));
    for (std::size_t i = 0; i < B.size(); ++i) b[i] = d(rng), B[i] = T::from_float(float(b[i]));
    // C (M, N) dense, then a margin of 7s that a store past the last row would overwrite.
    for (int i = 0; i < M * N; ++i) c[std::size_t(i)] = d(rng), C[std::size_t(i)] = T::from_float(float(c[std::size_t(i)]));
    const int m_tiles = (M + 127) / 128, n_tiles = (N + 127) / 128;
    for (int m_tile = 0; m_tile < m_tiles; ++m_tile)
      for (int n_tile = 0; n_tile < n_tiles; ++n_tile)
        host_warp::launch(my_gemm::Threads, [&](int tid) {
          my_gemm::gemm_cta(A.data(), B.data(), C.data(), M, N, K, 2.f, -1.f, m_tile, n_tile, tid, smem.data());
        });
    int wrong = 0;
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) {
        int want = -c[std::size_t(m * N + n)];
        for (int k = 0; k < K; ++k) want += 2 * a[std::size_t(m * K + k)] * b[std::size_t(n * K + k)];
        wrong += C[std::size_t(m * N + n)].to_float() != float(want);
      }
    for (std::size_t i = std::size_t(M * N); i < C.size(); ++i) wrong += C[i].to_float() != 7.f;
    std::printf("  %d x %d x %d: %d wrong elements\n", M, N, K, wrong);
    return wrong;
  };
  bad = 0;
  for (auto [M, N, K] : {std::array{256, 128, 256}, std::array{200, 136, 200}, std::array{72, 34, 40}, std::array{129, 2, 8}})
    bad += run(M, N, K);
  EXPECT(bad == 0);

  // 3. The trace: every (thread, value) of the five maps recorded once, at the element the
  //    map names; then one record moved, which the verifier must find.
  std::ostringstream text;
  my_gemm::write_trace(text, host_trace_records());
  std::istringstream in(text.str());
  verify::Trace trace = verify::parse_trace(in, "host trace");
  auto report = verify::verify(trace);
  std::printf("  trace: %zu maps, %zu records: %s\n", trace.maps.size(), trace.records.size(), report.ok ? "verified" : "FINDINGS");
  if (!report.ok) std::fprintf(stderr, "%s", verify::format_report(report).c_str());
  EXPECT(report.ok && trace.maps.size() == 5);
  int64_t expected = 0;
  for (auto const& m : trace.maps) expected += verify::num_threads(m) * verify::num_values(m);
  EXPECT(int64_t(trace.records.size()) == expected);
  if (!trace.records.empty()) {
    verify::Trace moved = trace;
    moved.records[moved.records.size() / 2].col ^= 1;
    EXPECT(!verify::verify(moved).ok);
  }
  if (!trace_path.empty()) {
    std::ofstream f(trace_path, std::ios::binary);
    f << text.str();
    EXPECT(bool(f.flush()));
  }
  std::printf("5_my_gemm host check: %s (%d wrong elements)\n", failures ? "FAILED" : "ok", bad);
  return failures ? 1 : 0;
}
