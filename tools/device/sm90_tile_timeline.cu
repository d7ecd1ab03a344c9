// Per-tile timeline of the SM90 cooperative kernel: where a tile's time goes. Built by tools/device/run_sm90_tile_timeline.sh against a COPY of the kernel headers
// instrumented by sm90_tile_timeline_patch.py (clock64 stamps per CTA, unit and role: the
// producer thread and thread 0 of each consumer warpgroup; slots in sm90_tile_timeline_hooks.cuh).
//   sm90_tile_timeline [--reps N] [M N K ...]   (default: 8192 8192 1024 and 4096 4096 4096)
// Per shape: bf16 TN, D column-major, the whole-tile 128x256 c2 kernel (the library's dispatch
// at these shapes); checked against cuBLAS and fp64 samples; timed against cuBLAS (median of N
// alternating launches after a lead-in kernel) with the stamps off (the hooks run, nothing is
// written) and on; then the last recorded launch's intervals per tile: mean and p10/p50/p90 in
// us over every (CTA, unit, consumer warpgroup), and the means of the CTAs' first unit, middle
// units and last unit apart (pipeline fill, steady state, tail).
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sm90_tile_timeline_hooks.cuh"  // before the kernel headers: their hooks call it
#include "../../kernels/device/sm90_gemm.cuh"
#include "../../bench/timing.hpp"
#include "../harness/sm90_gemm_check.hpp"

using namespace tessera;
namespace s9 = tessera::kernels::sm90;
namespace tl = tessera_tl;

namespace {


double quantile(std::vector<double> v, double q) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, size_t(q * double(v.size())))];
}
double mean(std::vector<double> const& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? NAN : s / double(v.size());
}

constexpr int MaxCtas = 1024, MaxTiles = 64;
using u64 = unsigned long long;

struct Records {
  std::vector<u64> h;
  int ctas = 0;
  u64 const* at(int cta, int j, int role) const { return &h[((size_t(cta) * MaxTiles + j) * tl::Roles + role) * tl::Slots]; }
  bool valid(int cta, int j, int role) const { return j < MaxTiles && at(cta, j, role)[tl::Start] != 0; }
  int units(int cta) const {
    int j = 0;
    while (j < MaxTiles && valid(cta, j, 1)) ++j;
    return j;
  }
};

// One interval: f(cta, j, role) in cycles (NAN: not defined there), over the consumer roles
// (consumer = true) or the producer's.
struct Interval {
  const char* name;
  bool consumer;
  std::function<double(Records const&, int, int, int)> f;
};

void report(Records const& R, double cycles_per_us, int k_tiles) {
  auto d = [](u64 a, u64 b) { return double(int64_t(b - a)); };
  auto P = [](int h, int e) { return tl::part(h, e); };
  std::vector<Interval> iv = {
      {"tile: start -> next unit's start", true,
       [&](Records const& r, int c, int j, int o) { return r.valid(c, j + 1, o) ? d(r.at(c, j, o)[0], r.at(c, j + 1, o)[0]) : NAN; }},
      {"start -> first full barrier passed", true, [&](Records const& r, int c, int j, int o) { return d(r.at(c, j, o)[0], r.at(c, j, o)[tl::C_FirstFull]); }},
      {"first full -> last k-tile's wgmma issued", true,
       [&](Records const& r, int c, int j, int o) { return d(r.at(c, j, o)[tl::C_FirstFull], r.at(c, j, o)[tl::C_LastIssued]); }},
      {"last issued -> wait_group 0 done", true,
       [&](Records const& r, int c, int j, int o) { return d(r.at(c, j, o)[tl::C_LastIssued], r.at(c, j, o)[tl::C_MainloopEnd]); }},
      {"  (full-barrier waits, all k-tiles)", true, [&](Records const& r, int c, int j, int o) { return double(r.at(c, j, o)[tl::C_FullWait]); }},
      {"mainloop end -> epilogue end", true,
       [&](Records const& r, int c, int j, int o) { return d(r.at(c, j, o)[tl::C_MainloopEnd], r.at(c, j, o)[tl::C_EpilogueEnd]); }},
      {"  mainloop end -> part 0 entry", true, [&](Records const& r, int c, int j, int o) { return d(r.at(c, j, o)[tl::C_MainloopEnd], r.at(c, j, o)[P(0, 0)]); }},
  };
  for (int h = 0; h < tl::MaxParts; ++h) {
    static const char* names[2][5] = {{"  p0 store wait (leader)", "  p0 -> barrier 1 passed", "  p0 staging + barrier 2", "  p0 TMA store issue+commit",
                                       "  p0 committed -> p1 entry"},
                                      {"  p1 store wait (leader)", "  p1 -> barrier 1 passed", "  p1 staging + barrier 2", "  p1 TMA store issue+commit",
                                       "  p1 committed -> epilogue end"}};
    for (int e = 0; e < 4; ++e)
      iv.push_back({names[h][e], true, [=](Records const& r, int c, int j, int o) { return d(r.at(c, j, o)[P(h, e)], r.at(c, j, o)[P(h, e + 1)]); }});
    iv.push_back({names[h][4], true, [=](Records const& r, int c, int j, int o) {
                    return d(r.at(c, j, o)[P(h, 4)], h + 1 < tl::MaxParts ? r.at(c, j, o)[P(h + 1, 0)] : r.at(c, j, o)[tl::C_EpilogueEnd]);
                  }});
  }
  iv.push_back({"epilogue end -> next unit's start", true,
                [&](Records const& r, int c, int j, int o) { return r.valid(c, j + 1, o) ? d(r.at(c, j, o)[tl::C_EpilogueEnd], r.at(c, j + 1, o)[0]) : NAN; }});
  iv.push_back({"wg2 mainloop end - wg1's (same unit)", true, [&](Records const& r, int c, int j, int o) {
                  return o == 1 && r.valid(c, j, 2) ? d(r.at(c, j, 1)[tl::C_MainloopEnd], r.at(c, j, 2)[tl::C_MainloopEnd]) : NAN;
                }});
  iv.push_back({"producer's first TMA issued -> consumer's first full", true, [&](Records const& r, int c, int j, int o) {
                  return d(r.at(c, j, 0)[tl::P_FirstIssued], r.at(c, j, o)[tl::C_FirstFull]);
                }});
  iv.push_back({"consumer start -> producer's first TMA of the unit", true,
                [&](Records const& r, int c, int j, int o) { return d(r.at(c, j, o)[0], r.at(c, j, 0)[tl::P_FirstIssued]); }});
  iv.push_back({"P tile: start -> next unit's start", false,
                [&](Records const& r, int c, int j, int o) { return r.valid(c, j + 1, o) ? d(r.at(c, j, o)[0], r.at(c, j + 1, o)[0]) : NAN; }});
  iv.push_back({"P start -> first empty barrier passed", false, [&](Records const& r, int c, int j, int o) { return d(r.at(c, j, o)[0], r.at(c, j, o)[tl::P_FirstAcquired]); }});
  iv.push_back({"P first acquired -> first TMA issued", false,
                [&](Records const& r, int c, int j, int o) { return d(r.at(c, j, o)[tl::P_FirstAcquired], r.at(c, j, o)[tl::P_FirstIssued]); }});
  iv.push_back({"P first -> last TMA issued", false,
                [&](Records const& r, int c, int j, int o) { return d(r.at(c, j, o)[tl::P_FirstIssued], r.at(c, j, o)[tl::P_LastIssued]); }});
  iv.push_back({"P empty-barrier waits (all k-tiles)", false, [&](Records const& r, int c, int j, int o) { return double(r.at(c, j, o)[tl::P_EmptyWait]); }});
  std::printf("  %-52s %8s %8s %8s %8s | %8s %8s %8s   (us; n)\n", "interval", "mean", "p10", "p50", "p90", "first", "middle", "last");
  for (auto const& v : iv) {
    std::vector<double> all, cls[3];
    for (int c = 0; c < R.ctas; ++c) {
      const int n = R.units(c);
      for (int j = 0; j < n; ++j)
        for (int o : v.consumer ? std::vector<int>{1, 2} : std::vector<int>{0}) {
          if (!R.valid(c, j, o)) continue;
          const double x = v.f(R, c, j, o);
          if (std::isnan(x)) continue;
          const double us = x / cycles_per_us;
          all.push_back(us);
          cls[j == 0 ? 0 : j == n - 1 ? 2 : 1].push_back(us);
        }
    }
    std::printf("  %-52s %8.3f %8.3f %8.3f %8.3f | %8.3f %8.3f %8.3f   (%zu)\n", v.name, mean(all), quantile(all, 0.1), quantile(all, 0.5),
                quantile(all, 0.9), mean(cls[0]), mean(cls[1]), mean(cls[2]), all.size());
  }
  // The mainloop's rate: cycles per k-tile between the first full barrier and the last issue.
  std::vector<double> tk;
  for (int c = 0; c < R.ctas; ++c)
    for (int j = 0; j < R.units(c); ++j)
      for (int o = 1; o <= 2; ++o)
        if (k_tiles > 1) tk.push_back(d(R.at(c, j, o)[tl::C_FirstFull], R.at(c, j, o)[tl::C_LastIssued]) / (k_tiles - 1) / cycles_per_us);
  std::printf("  per k-tile (first full -> last issued) / (k-tiles - 1): mean %.3f us, p50 %.3f\n", mean(tk), quantile(tk, 0.5));
  // Cluster partners (CTAs 2c, 2c+1): how far apart their units start (globaltimer, ns).
  std::vector<double> skew;
  for (int c = 0; c + 1 < R.ctas; c += 2)
    for (int j = 0; j < std::min(R.units(c), R.units(c + 1)); ++j)
      skew.push_back(std::fabs(d(R.at(c, j, 1)[tl::GlobalStart], R.at(c + 1, j, 1)[tl::GlobalStart])) * 1e-3);
  std::printf("  cluster partners' unit starts apart (globaltimer): mean %.3f us, p90 %.3f\n", mean(skew), quantile(skew, 0.9));
}

template <class Gemm>
bool probe(cublasHandle_t h, int64_t m, int64_t n, int64_t k, int reps, u64* dbuf) {
  using T = bfloat16_t;
  sm90_check::Problem<T> p(m, n, k, 1, false, 1.0f, 0.0f, uint64_t(m * 31 + n * 7 + k), "TN");
  auto op = std::make_shared<s9::GemmSm90<Gemm>>();
  kernels::GemmArguments g = s9::as_column_major_d(p.args);
  if (auto r = op->initialize(g); !r) {
    std::printf("initialize: %s\n", r.message.c_str());
    return false;
  }
  auto set_buffer = [&](u64* b) { SM90_CUDA(cudaMemcpyToSymbol(tl::buffer, &b, sizeof b)); };
  auto mine = [&] {
    if (auto r = op->run(); !r) {
      std::printf("run: %s\n", r.message.c_str());
      std::exit(1);
    }
  };
  T* ref = nullptr;
  SM90_CUDA(cudaMalloc(&ref, size_t(m * n) * sizeof(T)));
  const float one = 1.0f, zero = 0.0f;
  auto cublas = [&] {
    if (cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, int(m), int(n), int(k), &one, p.da, CUDA_R_16BF, int(k), p.db, CUDA_R_16BF, int(k), &zero, ref,
                     CUDA_R_16BF, int(m), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS) {
      std::printf("cuBLAS failed\n");
      std::exit(2);
    }
  };
  set_buffer(nullptr);
  cublas();
  mine();
  SM90_CUDA(cudaDeviceSynchronize());
  const double vs_cublas = sm90_check::relative_difference(p.dd, ref, m * n);
  double vs_fp64 = 0;
  int64_t nans = 0;
  const bool ok = p.verify(vs_fp64, nans, 2000) && vs_cublas < sm90_check::tolerance<T, T>;
  auto time = [&](u64* b) {
    set_buffer(b);
    const auto t = sm90_check::time_pairs(mine, cublas, reps, 3);
    std::vector<double> a, c;  // us
    for (float x : t.mine) a.push_back(x * 1e3);
    for (float y : t.theirs) c.push_back(y * 1e3);
    return std::make_pair(quantile(a, 0.5), quantile(c, 0.5));
  };
  const auto off = time(nullptr);
  SM90_CUDA(cudaMemset(dbuf, 0, size_t(MaxCtas) * MaxTiles * tl::Roles * tl::Slots * sizeof(u64)));
  const auto on = time(dbuf);
  set_buffer(nullptr);
  SM90_CUDA(cudaGetLastError());
  Records R;
  R.h.resize(size_t(MaxCtas) * MaxTiles * tl::Roles * tl::Slots);
  SM90_CUDA(cudaMemcpy(R.h.data(), dbuf, R.h.size() * sizeof(u64), cudaMemcpyDeviceToHost));
  while (R.ctas < MaxCtas && R.valid(R.ctas, 0, 1)) ++R.ctas;
  const int k_tiles = int((k + Gemm::Mainloop::BK - 1) / Gemm::Mainloop::BK);
  // clock64 per globaltimer ns, each CTA from its first to its last unit start (consumer wg 1)
  std::vector<double> rate;
  int64_t units = 0, max_units = 0;
  std::vector<double> gts;
  for (int c = 0; c < R.ctas; ++c) {
    const int nu = R.units(c);
    units += nu, max_units = std::max<int64_t>(max_units, nu);
    for (int j = 0; j < nu; ++j) gts.push_back(double(R.at(c, j, 1)[tl::GlobalStart]));
    if (nu > 1) {
      const double dc = double(R.at(c, nu - 1, 1)[0] - R.at(c, 0, 1)[0]);
      const double dg = double(R.at(c, nu - 1, 1)[tl::GlobalStart] - R.at(c, 0, 1)[tl::GlobalStart]);
      if (dg > 0) rate.push_back(dc / dg * 1e3);
    }
  }
  std::sort(gts.begin(), gts.end());
  double step = 1e30;
  for (size_t i = 1; i < gts.size(); ++i)
    if (gts[i] > gts[i - 1]) step = std::min(step, gts[i] - gts[i - 1]);
  const double cpu = quantile(rate, 0.5);  // cycles per us
  std::printf("== bf16 TN %lld x %lld x %lld, 128x256 c%d whole tiles, k-tiles %d: %s (vs cuBLAS %.1e, fp64 %.1e)\n", (long long)m, (long long)n,
              (long long)k, int(Gemm::Mainloop::ClusterM), k_tiles, ok ? "ok" : "WRONG", vs_cublas, vs_fp64);
  std::printf("  stamps off: tessera %.1f us, cuBLAS %.1f us, ratio %.3f | stamps on: tessera %.1f us, cuBLAS %.1f us, ratio %.3f (median of %d)\n",
              off.first, off.second, off.second / off.first, on.first, on.second, on.second / on.first, reps);
  std::printf("  CTAs %d, units %lld (max %lld per CTA), smem %d B, SM clock from clock64/globaltimer: %.0f MHz (p10 %.0f p90 %.0f), "
              "globaltimer step seen %.0f ns\n",
              R.ctas, (long long)units, (long long)max_units, int(Gemm::smem_bytes), cpu, quantile(rate, 0.1), quantile(rate, 0.9), step);
  if (R.ctas > 0 && cpu > 0) report(R, cpu, k_tiles);
  cudaFree(ref);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 20;
  std::vector<int64_t> dims;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--reps" && i + 1 < argc) reps = std::atoi(argv[++i]);
    else dims.push_back(std::atoll(argv[i]));
  }
  if (dims.empty()) dims = {8192, 8192, 1024, 4096, 4096, 4096};
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return 2;
  u64* dbuf = nullptr;
  SM90_CUDA(cudaMalloc(&dbuf, size_t(MaxCtas) * MaxTiles * tl::Roles * tl::Slots * sizeof(u64)));
  const int max_tiles = MaxTiles;
  SM90_CUDA(cudaMemcpyToSymbol(tl::max_tiles, &max_tiles, sizeof max_tiles));
  constexpr auto KM = GMMA::Major::K;
  using Gemm = s9::DefaultGemm<bfloat16_t, KM, KM, 2>;
  bool ok = true;
  for (size_t i = 0; i + 2 < dims.size(); i += 3) ok &= probe<Gemm>(h, dims[i], dims[i + 1], dims[i + 2], reps, dbuf);
  cudaFree(dbuf);
  cublasDestroy(h);
  std::printf("timeline %s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
