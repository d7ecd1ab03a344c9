// Per-tile timeline of the SM90 cooperative kernel: where a tile's time goes. Built by
// tools/device/run_sm90_tile_timeline.sh against a COPY of the kernel headers instrumented by
// sm90_tile_timeline_patch.py (clock64 stamps per CTA, unit and role: the producer thread and
// thread 0 of each consumer warpgroup; slots in sm90_tile_timeline_hooks.cuh).
//   sm90_tile_timeline [--reps N] [--raw FILE] [M N K ...]
//   (default: 4096 4096 4096, 8192 8192 1024, 6144 4096 4096)
// The kernel (one per build, TESSERA_TL_ORDER): 0 the whole-tile 128x256 c2 kernel with its
// epilogue after each tile (DefaultGemm<bf16, K, K, 2>, whose order is EpilogueAfterTile in
// every tree); 1 the same kernel with its epilogue
// under the next tile (OverlappedEpilogueGemm<bf16>, EpilogueUnderNextTile<2>: the library's
// kernel, which its dispatch runs at the default shapes, as the probe prints from the rule;
// where the tree has kernels/kernel/sm90_epilogue_order.hpp).
// Per shape: bf16 TN, D column-major; checked against cuBLAS and fp64 samples; timed against
// cuBLAS (median of N alternating pairs after a lead-in kernel) with the stamps off (the hooks
// run, nothing is written) and on; then the last stamped launch: the SM clock (clock64 against
// %globaltimer, per CTA from its first unit's start to its last epilogue's end), and per
// interval mean / p50 / p90 in us over every (CTA, unit, consumer warpgroup) -- the producer's
// rows over (CTA, unit) -- with the means of the CTAs' first, middle and last units (pipeline
// fill, steady state, tail); the k-loop's rate per k-tile; the cluster partners' skew.
// --raw FILE: every record of the stamped launches as CSV (order, shape, CTA, unit, role, slots).
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
#include "timeline_stats.hpp"
#include "../../kernels/device/sm90_gemm.cuh"
#include "../../bench/timing.hpp"
#include "../harness/sm90_gemm_check.hpp"

#ifndef TESSERA_TL_ORDER
#define TESSERA_TL_ORDER 0
#endif

using namespace tessera;
namespace s9 = tessera::kernels::sm90;
namespace tl = tessera_tl;
using timeline::mean;
using timeline::quantile;

namespace {

constexpr auto KM = GMMA::Major::K;
#if TESSERA_TL_ORDER == 1
#if !__has_include("../../kernels/kernel/sm90_epilogue_order.hpp")
#error "TESSERA_TL_ORDER=1 times the epilogue under the next tile: this tree has no kernels/kernel/sm90_epilogue_order.hpp"
#endif
using Kernel = s9::OverlappedEpilogueGemm<bfloat16_t>;
constexpr bool Overlapped = true;
constexpr int HeadKTiles = Kernel::HeadKTiles;
#elif TESSERA_TL_ORDER == 0
using Kernel = s9::DefaultGemm<bfloat16_t, KM, KM, 2>;
constexpr bool Overlapped = false;
constexpr int HeadKTiles = 0;
#else
#error "TESSERA_TL_ORDER: 0 (epilogue after the tile) or 1 (under the next tile)"
#endif
using Gemm = s9::GemmSm90<Kernel>;
using Mainloop = typename Kernel::Mainloop;
using u64 = unsigned long long;
const char* const order_name = Overlapped ? "under-next-tile" : "after-tile";

// The patch puts the record pointers in the mainloop's and the epilogue's storage tail padding:
// the kernel's shared memory and stage count must be the library's (4 stages of 48 KiB, two 16
// KiB staging buffers: 227 KiB in all).
static_assert(Mainloop::Stages == 4 && Kernel::smem_bytes == 232448,
              "the instrumented cooperative kernel's shared storage differs from the library's (4 stages, 232448 bytes): "
              "the patch grew it, or the library's 128x256 kernel changed (update this probe)");
static_assert(Mainloop::BM == 128 && Mainloop::BN == 256 && Mainloop::ClusterM == 2 && !Kernel::StreamK,
              "the probe times the whole-tile 128x256 c2 kernel");
static_assert(Kernel::Epilogue::AtomsM * Kernel::Epilogue::Parts <= tl::MaxParts, "every epilogue part has its stamps");

constexpr int MaxCtas = 1024, MaxTiles = 64;
constexpr size_t Words = size_t(MaxCtas) * MaxTiles * tl::Roles * tl::Slots;

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

// The summary of one stamped launch; false where the records disagree (the producer's and the
// consumers' unit sequences, a stamp missing).
bool report(Records const& R, double cycles_per_us) {
  auto d = [&](u64 a, u64 b) { return double(int64_t(b - a)) / cycles_per_us; };  // us
  auto sum = [&](u64 x) { return double(x) / cycles_per_us; };
  timeline::Table T;
  bool consistent = true;
  std::vector<double> per_k_tile;
  for (int c = 0; c < R.ctas; ++c) {
    const int n = R.units(c);
    for (int j = 0; j < n; ++j) {
      const auto pos = timeline::position(j, n);
      const u64* p = R.at(c, j, 0);
      const bool next = j + 1 < n;
      if (!R.valid(c, j, 0) || p[tl::Unit] != R.at(c, j, 1)[tl::Unit] || p[tl::KTiles] != R.at(c, j, 1)[tl::KTiles]) consistent = false;
      for (int o = 1; o <= 2; ++o) {
        const u64* r = R.at(c, j, o);
        if (!R.valid(c, j, o) || r[tl::Unit] != R.at(c, j, 1)[tl::Unit] || r[tl::C_EpilogueEnd] == 0) {
          consistent = false;
          continue;
        }
        const u64* rn = next ? R.at(c, j + 1, o) : nullptr;
        const double kt = double(r[tl::KTiles]);
        T.add("unit: start -> next unit's start (the tile's period)", next ? d(r[tl::Start], rn[tl::Start]) : NAN, pos);
        T.add("start -> first full barrier passed", d(r[tl::Start], r[tl::C_FirstFull]), pos);
        T.add("first full -> last k-tile's wgmmas issued", d(r[tl::C_FirstFull], r[tl::C_LastIssued]), pos);
        T.add("last issued -> wgmmas drained (wait_group 0)", d(r[tl::C_LastIssued], r[tl::C_MainloopEnd]), pos);
        T.add("  full-barrier waits (sum over the unit's k-tiles)", sum(r[tl::C_FullWait]), pos);
        T.add("drained -> epilogue begins", d(r[tl::C_MainloopEnd], r[tl::C_EpiStart]), pos);
        if (kt > 1) per_k_tile.push_back(d(r[tl::C_FirstFull], r[tl::C_LastIssued]) / (kt - 1));
        u64 before_part0 = r[tl::C_EpiStart];
        if (Overlapped) {
          T.add("  pack (accumulators -> 16-bit pairs)", d(r[tl::C_EpiStart], r[tl::C_PackEnd]), pos);
          T.add("  packed -> store begins (the next unit's head issued)", d(r[tl::C_PackEnd], r[tl::C_StoreStart]), pos);
          before_part0 = r[tl::C_StoreStart];
        }
        T.add(Overlapped ? "  store begins -> part 0 entry" : "  epilogue begins -> part 0 entry", d(before_part0, r[tl::part(0, 0)]), pos);
        constexpr int parts = Kernel::Epilogue::AtomsM * Kernel::Epilogue::Parts;
        for (int h = 0; h < parts; ++h) {
          const std::string x = "  p" + std::to_string(h) + " ";
          T.add(x + "entry -> store wait passed (leader: the buffer's last store read it)", d(r[tl::part(h, 0)], r[tl::part(h, 1)]), pos);
          T.add(x + "-> staging barrier 1 passed", d(r[tl::part(h, 1)], r[tl::part(h, 2)]), pos);
          T.add(x + "staging (stmatrix, fence) + barrier 2", d(r[tl::part(h, 2)], r[tl::part(h, 3)]), pos);
          T.add(x + "TMA store issue + commit", d(r[tl::part(h, 3)], r[tl::part(h, 4)]), pos);
          T.add(x + (h + 1 < parts ? "committed -> next part's entry" : "committed -> epilogue end"),
                d(r[tl::part(h, 4)], h + 1 < parts ? r[tl::part(h + 1, 0)] : r[tl::C_EpilogueEnd]), pos);
        }
        T.add("epilogue: begins -> ends (whole)", d(r[tl::C_EpiStart], r[tl::C_EpilogueEnd]), pos);
        if (Overlapped) {
          // the epilogue's parts run under the next unit: its head's wgmmas and first barriers
          T.add("  next unit's start -> this unit's epilogue end", next ? d(rn[tl::Start], r[tl::C_EpilogueEnd]) : NAN, pos);
        } else {
          T.add("epilogue end -> next unit's start", next ? d(r[tl::C_EpilogueEnd], rn[tl::Start]) : NAN, pos);
        }
        if (o == 2) T.add("wg2 drained - wg1 drained (same unit)", d(R.at(c, j, 1)[tl::C_MainloopEnd], r[tl::C_MainloopEnd]), pos);
        T.add("producer's first TMA issued -> consumer's first full", d(p[tl::P_FirstIssued], r[tl::C_FirstFull]), pos);
        T.add("consumer's start -> producer's first TMA issued", d(r[tl::Start], p[tl::P_FirstIssued]), pos);
      }
      T.add("P unit: start -> next unit's start", next ? d(p[tl::Start], R.at(c, j + 1, 0)[tl::Start]) : NAN, pos);
      T.add("P start -> first empty barrier passed", d(p[tl::Start], p[tl::P_FirstAcquired]), pos);
      T.add("P first acquired -> first TMA issued", d(p[tl::P_FirstAcquired], p[tl::P_FirstIssued]), pos);
      T.add("P first -> last TMA issued", d(p[tl::P_FirstIssued], p[tl::P_LastIssued]), pos);
      T.add("P empty-barrier waits (sum over the unit's k-tiles)", sum(p[tl::P_EmptyWait]), pos);
    }
  }
  T.print("interval (us)", 72);
  std::printf("  k-loop per k-tile (first full -> last issued, over k-tiles - 1): mean %.3f us, p50 %.3f, p90 %.3f\n", mean(per_k_tile),
              quantile(per_k_tile, 0.5), quantile(per_k_tile, 0.9));
  // Cluster partners (CTAs 2c, 2c+1 share B's multicast): how far apart their units start.
  std::vector<double> skew;
  for (int c = 0; c + 1 < R.ctas; c += 2)
    for (int j = 0; j < std::min(R.units(c), R.units(c + 1)); ++j)
      skew.push_back(std::fabs(double(int64_t(R.at(c + 1, j, 1)[tl::GlobalStart] - R.at(c, j, 1)[tl::GlobalStart]))) * 1e-3);
  std::printf("  cluster partners' unit starts apart (globaltimer): mean %.3f us, p90 %.3f\n", mean(skew), quantile(skew, 0.9));
  if (!consistent) std::printf("  RECORDS INCONSISTENT: the producer's and consumers' units differ, or a stamp is missing\n");
  return consistent;
}

FILE* g_raw = nullptr;
void dump_raw(Records const& R, int64_t m, int64_t n, int64_t k) {
  if (!g_raw) return;
  for (int c = 0; c < R.ctas; ++c)
    for (int j = 0; j < R.units(c); ++j)
      for (int o = 0; o < tl::Roles; ++o) {
        std::fprintf(g_raw, "%s,%lld,%lld,%lld,%d,%d,%d", order_name, (long long)m, (long long)n, (long long)k, c, j, o);
        for (int x = 0; x < tl::Slots; ++x) std::fprintf(g_raw, ",%llu", R.at(c, j, o)[x]);
        std::fprintf(g_raw, "\n");
      }
}

bool probe(cublasHandle_t h, int64_t m, int64_t n, int64_t k, int reps, u64* dbuf, int sms) {
  using T = bfloat16_t;
  sm90_check::Problem<T> p(m, n, k, 1, false, 1.0f, 0.0f, uint64_t(m * 31 + n * 7 + k), "TN");
  const kernels::GemmArguments g = s9::as_column_major_d(p.args);
  // The dispatch's rule for this orientation (the wave model on this GPU's SMs; a tuning cache
  // or the row-major-D kernels' transposed problem can override it)
  const auto sk = s9::choose_stream_k(g, sms);
  std::printf("== bf16 TN %lld x %lld x %lld, 128x256 c2 whole tiles, epilogue %s%s; the dispatch's rule here: whole tiles %s, "
              "Stream-K %s\n",
              (long long)m, (long long)n, (long long)k, order_name, Overlapped ? (" (H = " + std::to_string(HeadKTiles) + ")").c_str() : "",
              s9::to_string(s9::choose_schedule(g, sms)), sk ? s9::to_string(*sk) : "none");
  auto op = std::make_shared<Gemm>();
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
  bool ok = p.verify(vs_fp64, nans, 2000) && vs_cublas < sm90_check::tolerance<T, T>;
  std::printf("  check: %s (vs cuBLAS %.1e, fp64 %.1e, NaN %lld)\n", ok ? "ok" : "WRONG", vs_cublas, vs_fp64, (long long)nans);
  auto time = [&](u64* b) {
    set_buffer(b);
    const auto t = sm90_check::time_pairs(mine, cublas, reps, 3);
    return std::make_pair(sm90_check::median(t.mine) * 1e3, sm90_check::median(t.theirs) * 1e3);  // us
  };
  const auto off = time(nullptr);
  SM90_CUDA(cudaMemset(dbuf, 0, Words * sizeof(u64)));
  const auto on = time(dbuf);  // (each launch writes the same records: the last one's are read)
  set_buffer(nullptr);
  SM90_CUDA(cudaDeviceSynchronize());
  SM90_CUDA(cudaGetLastError());
  std::printf("  stamps off: tessera %.1f us, cuBLAS %.1f us, cuBLAS/tessera %.3f | stamps on: tessera %.1f us, cuBLAS %.1f us, %.3f "
              "(median of %d pairs)\n",
              off.first, off.second, off.second / off.first, on.first, on.second, on.second / on.first, reps);
  Records R;
  R.h.resize(Words);
  SM90_CUDA(cudaMemcpy(R.h.data(), dbuf, Words * sizeof(u64), cudaMemcpyDeviceToHost));
  while (R.ctas < MaxCtas && R.valid(R.ctas, 0, 1)) ++R.ctas;
  // The SM clock: clock64 cycles per globaltimer us, per CTA from its first unit's start to
  // its last unit's epilogue end (consumer warpgroup 1).
  std::vector<double> rate, gts;
  int64_t units = 0, max_units = 0;
  for (int c = 0; c < R.ctas; ++c) {
    const int nu = R.units(c);
    units += nu, max_units = std::max<int64_t>(max_units, nu);
    for (int j = 0; j < nu; ++j) gts.push_back(double(R.at(c, j, 1)[tl::GlobalStart]));
    if (nu == 0) continue;
    const u64* a = R.at(c, 0, 1);
    const u64* b = R.at(c, nu - 1, 1);
    const double dc = double(int64_t(b[tl::C_EpilogueEnd] - a[tl::Start])), dg = double(int64_t(b[tl::GlobalEnd] - a[tl::GlobalStart]));
    if (dg > 0 && b[tl::C_EpilogueEnd] != 0) rate.push_back(dc / dg * 1e3);
  }
  std::sort(gts.begin(), gts.end());
  double step = NAN;
  for (size_t i = 1; i < gts.size(); ++i)
    if (gts[i] > gts[i - 1] && !(gts[i] - gts[i - 1] >= step)) step = gts[i] - gts[i - 1];
  const double cpu = quantile(rate, 0.5);  // cycles per us
  std::printf("  CTAs %d, units %lld (at most %lld per CTA), k-tiles %lld, smem %d B, %d stages; SM clock (clock64 / globaltimer per CTA): "
              "%.0f MHz (p10 %.0f, p90 %.0f); smallest globaltimer step seen %.0f ns\n",
              R.ctas, (long long)units, (long long)max_units, (long long)((k + Mainloop::BK - 1) / Mainloop::BK), int(Kernel::smem_bytes),
              int(Mainloop::Stages), cpu, quantile(rate, 0.1), quantile(rate, 0.9), step);
  if (max_units > MaxTiles) std::printf("  (units past %d per CTA are not recorded)\n", MaxTiles);
  if (R.ctas == 0 || !(cpu > 0)) {
    std::printf("  no records\n");
    ok = false;
  } else {
    ok &= report(R, cpu);
    dump_raw(R, m, n, k);
  }
  cudaFree(ref);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 20;
  std::vector<int64_t> dims;
  const char* raw = nullptr;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--reps" && i + 1 < argc) reps = std::atoi(argv[++i]);
    else if (a == "--raw" && i + 1 < argc) raw = argv[++i];
    else if (char* end = nullptr; std::strtoll(argv[i], &end, 10) > 0 && *end == 0) dims.push_back(std::atoll(argv[i]));
    else {
      std::printf("error: unknown argument %s (sm90_tile_timeline [--reps N] [--raw FILE] [M N K ...])\n", argv[i]);
      return 2;
    }
  }
  if (dims.empty()) dims = {4096, 4096, 4096, 8192, 8192, 1024, 6144, 4096, 4096};
  if (dims.size() % 3 != 0) {
    std::printf("error: shapes come as M N K triples\n");
    return 2;
  }
  if (raw) {
    // appended: the run script's two builds (one per epilogue order) write one file, its
    // header once
    FILE* before = std::fopen(raw, "r");
    const bool fresh = before == nullptr || std::fgetc(before) == EOF;
    if (before) std::fclose(before);
    g_raw = std::fopen(raw, "a");
    if (!g_raw) {
      std::printf("error: cannot write %s\n", raw);
      return 2;
    }
    if (fresh) {
      std::fprintf(g_raw, "order,m,n,k,cta,unit,role");
      for (int x = 0; x < tl::Slots; ++x) std::fprintf(g_raw, ",s%d", x);
      std::fprintf(g_raw, "\n");
    }
  }
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
    std::printf("cublasCreate failed (no GPU?)\n");
    return 2;
  }
  int dev = 0, sms = 0;
  SM90_CUDA(cudaGetDevice(&dev));
  SM90_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  u64* dbuf = nullptr;
  SM90_CUDA(cudaMalloc(&dbuf, Words * sizeof(u64)));
  const int max_tiles = MaxTiles;
  SM90_CUDA(cudaMemcpyToSymbol(tl::max_tiles, &max_tiles, sizeof max_tiles));
  bool ok = true;
  for (size_t i = 0; i + 2 < dims.size(); i += 3) ok &= probe(h, dims[i], dims[i + 1], dims[i + 2], reps, dbuf, sms);
  cudaFree(dbuf);
  cublasDestroy(h);
  if (g_raw) std::fclose(g_raw);
  std::printf("tile timeline (%s) %s\n", order_name, ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
