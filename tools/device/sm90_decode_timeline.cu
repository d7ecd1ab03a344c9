// Per-CTA timeline of the SM90 decode kernel (sm90::DecodeGemm<bf16>: 128x64x64 tiles, no
// cluster, Stream-K): where its time goes at decode shapes. Built by
// tools/device/run_sm90_decode_timeline.sh against a COPY of the kernel headers instrumented by
// sm90_decode_timeline_patch.py (clock64 stamps per CTA, per step of its Stream-K walk and per
// role: the producer thread and thread 0 of each consumer warpgroup; slots in
// sm90_decode_timeline_hooks.cuh).
//   sm90_decode_timeline [--reps N] [--raw FILE] [M N K ...]
//   (default: 6144 64 4096, 4096 64 14336, 14336 64 4096, 10240 64 8192, 4096 128 14336)
// Per shape (bf16 TN, D column-major, the decode kernel forced, the library's Stream-K plan on
// this GPU's SMs):
//  1. checked against cuBLAS and fp64 samples; the Stream-K flags read back after a launch (none
//     keeps a tag: the owners put them back, so the kernel launched alone with initialize's tag,
//     again and again as a graph replays it, computes the same D, compared bit for bit);
//  2. event times (median of N pairs alternating with cuBLAS, after the lead-in kernel, as the
//     bench): the adapter's run() (the kernel with a fresh tag, no memset: what tessera::gemm launches), the
//     kernel alone, an empty kernel of the same grid, block, shared memory and parameters (the
//     launch floor), the same kernel on whole tiles (no workspace: data-parallel, no fix-up),
//     and the kernel alone with the patch's A/B of the owner's additions (tl::eager_fixup: two
//     peers' partials loaded at once, added in the library's order: D checked bit for bit),
//     warm L2 (the suite's condition) and cold L2 (--cold-l2's: operands not cached);
//  3. one stamped launch, warm and cold: the phases in us (mean, p50, p90 over CTAs, steps and
//     consumer warpgroups), by step role (Whole / Partial / Owner), the k-loop's achieved
//     bandwidth (operand bytes over the k-loop's window; the sum of the CTAs' own rates; a
//     profile per microsecond), the critical CTA's events, and the kernel's span (globaltimer)
//     against its event time (what the launch adds).
// --raw FILE: the warm and cold launches' records as CSV (shape, mode, CTA, step, role, raw
// slots) for later analysis.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sm90_decode_timeline_hooks.cuh"  // before the kernel headers: their hooks call it
#include "timeline_stats.hpp"
#include "../../kernels/device/sm90_gemm.cuh"
#include "../../bench/timing.hpp"
#include "../harness/sm90_gemm_check.hpp"

using namespace tessera;
namespace s9 = tessera::kernels::sm90;
namespace tl = tessera_dtl;

namespace {

using Kernel = s9::DecodeGemm<bfloat16_t>;
using Gemm = s9::GemmSm90<Kernel>;
using Mainloop = typename Kernel::Mainloop;
using u64 = unsigned long long;
// The patch puts the records' pointers in the mainloop storage's tail padding: the kernel's
// shared memory and stage count must be the library's (8 stages of 24 KiB, 227 KiB in all).
static_assert(Mainloop::Stages == 8 && Kernel::smem_bytes == 232448,
              "the instrumented decode kernel's shared storage differs from the library's (8 stages, 232448 bytes): "
              "the patch grew it, or the library's decode kernel changed (update this probe)");
static_assert(Kernel::StreamK && Kernel::ClusterM == 1, "the probe reads unit = CTA (Stream-K without a cluster)");

constexpr int MaxCtas = 1024;
constexpr size_t StepWords = size_t(MaxCtas) * tl::MaxSteps * tl::Roles * tl::Slots, CtaWords = size_t(MaxCtas) * tl::CtaSlots;

// The launch floor: an empty kernel launched as the decode kernel is (grid, block, dynamic
// shared memory, parameters).
__global__ void __launch_bounds__(Kernel::Threads, 1) empty_entry(const __grid_constant__ typename Kernel::Params p) {
  extern __shared__ __align__(1024) unsigned char smem[];
  if (threadIdx.x == 4096) smem[0] = (unsigned char)p.mainloop.k_tiles;  // (never: keeps the parameter)
}
// The floor's parts: the same grid with no parameters (the decode kernel's are ~1.9 KB of
// constant bank per launch).
__global__ void __launch_bounds__(Kernel::Threads, 1) bare_entry() {}

using timeline::mean;
using timeline::quantile;
using timeline::Table;

struct Records {
  std::vector<u64> st, ct;
  int ctas = 0;
  double f = 0;  // SM cycles per globaltimer ns
  double t0 = 0;  // the first CTA's entry (globaltimer ns)
  u64 const* s(int c, int j, int r) const { return &st[((size_t(c) * tl::MaxSteps + j) * tl::Roles + r) * tl::Slots]; }
  u64 const* h(int c) const { return &ct[size_t(c) * tl::CtaSlots]; }
  bool valid(int c, int j, int r) const { return j < tl::MaxSteps && s(c, j, r)[tl::Start] != 0; }
  int steps(int c) const {
    int j = 0;
    while (j < tl::MaxSteps && valid(c, j, 1)) ++j;
    return j;
  }
  // globaltimer ns of CTA c's clock64 stamp x, from the first CTA's entry
  double g(int c, u64 x) const { return double(h(c)[tl::GStart]) + double(int64_t(x - h(c)[tl::CStart])) / f - t0; }
};

void read_records(Records& R, const u64* dst, const u64* dct) {
  R.st.resize(StepWords);
  R.ct.resize(CtaWords);
  SM90_CUDA(cudaMemcpy(R.st.data(), dst, StepWords * sizeof(u64), cudaMemcpyDeviceToHost));
  SM90_CUDA(cudaMemcpy(R.ct.data(), dct, CtaWords * sizeof(u64), cudaMemcpyDeviceToHost));
  R.ctas = 0;
  while (R.ctas < MaxCtas && R.h(R.ctas)[tl::Valid] == 1) ++R.ctas;
  std::vector<double> rate;
  R.t0 = 1e300;
  for (int c = 0; c < R.ctas; ++c) {
    const u64* h = R.h(c);
    R.t0 = std::min(R.t0, double(h[tl::GStart]));
    const double dg = double(int64_t(h[tl::GEnd] - h[tl::GStart])), dc = double(int64_t(h[tl::C1End] - h[tl::CStart]));
    if (dg > 0) rate.push_back(dc / dg);
  }
  R.f = quantile(rate, 0.5);
}

const char* role_name(u64 r) { return r == 0 ? "Whole" : r == 1 ? "Partial" : r == 2 ? "Owner" : "?"; }

// The timeline of one stamped launch. Returns false where the records are inconsistent (a
// CTA missing, the producer's and consumers' walks differing).
bool report(Records const& R, int64_t m, int64_t n, int64_t k, double event_us, bool brief) {
  if (R.ctas == 0 || !(R.f > 0)) {
    std::printf("    no records (CTAs %d, clock %.3f GHz)\n", R.ctas, R.f);
    return false;
  }
  const double f = R.f;  // cycles per ns
  auto us = [&](u64 a, u64 b) { return double(int64_t(b - a)) / f * 1e-3; };
  bool consistent = true;
  Table T;
  double span = 0;
  std::vector<double> starts;
  int64_t a_tiles = 0;
  for (int c = 0; c < R.ctas; ++c) {
    const u64* h = R.h(c);
    starts.push_back(double(h[tl::GStart]));
    span = std::max(span, R.g(c, std::max(h[tl::C1End], h[tl::C2End])));
    T["CTA entry - first CTA's entry (globaltimer)"].push_back((double(h[tl::GStart]) - R.t0) * 1e-3);
    T["prologue: entry -> barriers ready (init, tensor-map prefetch, sync)"].push_back(us(h[tl::CStart], h[tl::CReady]));
    T["producer: barriers ready -> walk begins (setmaxnreg)"].push_back(us(h[tl::CReady], h[tl::PStart]));
    const int ns = R.steps(c);
    if (ns == 0) continue;
    T["producer: walk begins -> step 0's first empty acquired"].push_back(us(h[tl::PStart], R.s(c, 0, 0)[tl::P_FirstAcquired]));
    T["producer: step 0's first acquired -> first TMA issued"].push_back(
        us(R.s(c, 0, 0)[tl::P_FirstAcquired], R.s(c, 0, 0)[tl::P_FirstIssued]));
    for (int o = 1; o <= 2; ++o) {
      T["consumer: barriers ready -> step 0 begins (setmaxnreg)"].push_back(us(h[tl::CReady], R.s(c, 0, o)[tl::Start]));
      T["fill: step 0's first TMA issued -> its first full barrier"].push_back(us(R.s(c, 0, 0)[tl::P_FirstIssued], R.s(c, 0, o)[tl::C_FirstFull]));
      T["fill: CTA entry -> step 0's first full barrier"].push_back(us(h[tl::CStart], R.s(c, 0, o)[tl::C_FirstFull]));
    }
    for (int j = 0; j < ns; ++j) {
      const u64* p = R.s(c, j, 0);
      for (int o = 1; o <= 2; ++o) {
        const u64* r = R.s(c, j, o);
        for (int x : {int(tl::Tile), int(tl::KBegin), int(tl::KEnd), int(tl::Role)})
          if (p[x] != r[x]) consistent = false;
      }
      const u64* r1 = R.s(c, j, 1);
      a_tiles += int64_t(r1[tl::KEnd] - r1[tl::KBegin]);
      const std::string role = role_name(r1[tl::Role]);
      const int kt = int(r1[tl::KEnd] - r1[tl::KBegin]);
      T["P " + role + ": step start -> first empty acquired"].push_back(us(p[tl::Start], p[tl::P_FirstAcquired]));
      T["P " + role + ": first -> last TMA issued"].push_back(us(p[tl::P_FirstIssued], p[tl::P_LastIssued]));
      T["P " + role + ": empty-barrier waits (sum)"].push_back(double(p[tl::P_EmptyWait]) / f * 1e-3);
      for (int o = 1; o <= 2; ++o) {
        const u64* r = R.s(c, j, o);
        const std::string x = role + ": ";
        T[x + "k-tiles (count, not us)"].push_back(kt);
        T[x + "step start -> first full barrier"].push_back(us(r[tl::Start], r[tl::C_FirstFull]));
        T[x + "first full -> last k-tile's wgmma issued"].push_back(us(r[tl::C_FirstFull], r[tl::C_LastIssued]));
        if (kt > 1) T[x + "  per k-tile"].push_back(us(r[tl::C_FirstFull], r[tl::C_LastIssued]) / (kt - 1));
        T[x + "last issued -> wgmmas drained"].push_back(us(r[tl::C_LastIssued], r[tl::C_MainloopEnd]));
        T[x + "  full-barrier waits (sum)"].push_back(double(r[tl::C_FullWait]) / f * 1e-3);
        T[x + "drained -> step recomputed"].push_back(us(r[tl::C_MainloopEnd], r[tl::C_RoleStart]));
        if (r[tl::Role] == 1) {
          // the consumers issue the stores and arrive at the publisher's barrier; the publisher
          // warp fences and raises the flag (its stamp in both warpgroups' records) while the
          // consumers go on
          T[x + "partial: st.cg stores issued"].push_back(us(r[tl::C_RoleStart], r[tl::C_WriteFenced]));
          T[x + "partial: arrival at the publisher's barrier"].push_back(us(r[tl::C_WriteFenced], r[tl::C_WriteBarrier]));
          if (o == 1) {
            T[x + "partial: arrival -> flag raised (publisher's fence)"].push_back(us(r[tl::C_WriteBarrier], r[tl::C_FlagRaised]));
            T[x + "partial: drained -> flag raised (total)"].push_back(us(r[tl::C_MainloopEnd], r[tl::C_FlagRaised]));
          }
          T[x + "partial: drained -> consumers go on"].push_back(us(r[tl::C_MainloopEnd], r[tl::C_WriteBarrier]));
        }
        if (r[tl::Role] == 2) {
          if (o == 1) {
            T[x + "fix-up: wait for the peers' flags (thread 0)"].push_back(us(r[tl::C_RoleStart], r[tl::C_AwaitEnd]));
            // the peers' flags (their units are their CTAs): the last one raised against the wait's start
            double last = -1e300;
            int peers = 0;
            for (int64_t q = int64_t(r[tl::FirstPeer]); q < int64_t(r[tl::Unit]) && q < R.ctas; ++q)
              for (int jj = 0; jj < R.steps(int(q)); ++jj) {
                const u64* pr = R.s(int(q), jj, 1);
                if (pr[tl::Role] == 1 && pr[tl::Tile] == r[tl::Tile]) {
                  last = std::max(last, R.g(int(q), pr[tl::C_FlagRaised]));
                  ++peers;
                }
              }
            if (peers != int(r[tl::Unit] - r[tl::FirstPeer])) consistent = false;
            T[x + "fix-up: peers (count, not us)"].push_back(peers);
            if (peers > 0) T[x + "fix-up: last peer's flag - owner's wait start (>0: waited)"].push_back((last - R.g(c, r[tl::C_RoleStart])) * 1e-3);
          }
          T[x + "fix-up: step recomputed -> barrier after the wait"].push_back(us(r[tl::C_RoleStart], r[tl::C_AwaitBarrier]));
          T[x + "fix-up: add the peers' partials (ld.cg)"].push_back(us(r[tl::C_AwaitBarrier], r[tl::C_Added]));
          T[x + "fix-up: barrier after the additions"].push_back(us(r[tl::C_Added], r[tl::C_AddBarrier]));
          T[x + "fix-up: flags put back"].push_back(us(r[tl::C_AddBarrier], r[tl::C_Released]));
          T[x + "fix-up: drained -> released (total)"].push_back(us(r[tl::C_MainloopEnd], r[tl::C_Released]));
        }
        if (r[tl::Role] != 1) {
          T[x + "-> epilogue start"].push_back(us(r[tl::Role] == 2 ? r[tl::C_Released] : r[tl::C_RoleStart], r[tl::C_EpiStart]));
          T[x + "epilogue store (stage, TMA store issued)"].push_back(us(r[tl::C_EpiStart], r[tl::C_EpiEnd]));
        }
      }
    }
    for (int o = 1; o <= 2; ++o) {
      const u64* last = R.s(c, ns - 1, o);
      const u64 end = h[o == 1 ? tl::C1End : tl::C2End];
      const u64 from = last[tl::Role] == 1 ? last[tl::C_WriteBarrier] : last[tl::C_EpiEnd];
      T["consumer: last step's end -> warpgroup end (store wait)"].push_back(us(from, end));
      T["consumer: CTA entry -> warpgroup end"].push_back(us(h[tl::CStart], end));
    }
    T["producer: CTA entry -> walk done (last TMA issued)"].push_back(us(h[tl::CStart], h[tl::PEnd]));
    T["CTA end (wg1, globaltimer) - first CTA's entry"].push_back((double(h[tl::GEnd]) - R.t0) * 1e-3);
  }
  std::sort(starts.begin(), starts.end());
  double step = 1e30;
  for (size_t i = 1; i < starts.size(); ++i)
    if (starts[i] > starts[i - 1]) step = std::min(step, starts[i] - starts[i - 1]);
  std::printf("    CTAs %d, SM clock %.0f MHz (clock64 over globaltimer, median of CTAs), globaltimer step seen %.0f ns, records %s\n", R.ctas,
              f * 1e3, step, consistent ? "consistent" : "INCONSISTENT (producer/consumer walks or peers differ)");
  std::printf("    kernel span (first CTA entry -> last warpgroup end): %.2f us; event time %.2f us: %.2f us outside the CTAs (launch, "
              "grid drain)\n",
              span * 1e-3, event_us, event_us - span * 1e-3);
  // Bandwidth: the weight (A) tiles' bytes each k-tile brings, and B's (the tokens, from L2).
  const double a_bytes = double(a_tiles) * Mainloop::stage_a_bytes, b_bytes = double(a_tiles) * Mainloop::stage_b_bytes;
  double w0 = 1e300, w1 = -1e300;
  std::vector<double> cta_rate;
  for (int c = 0; c < R.ctas; ++c) {
    const int ns = R.steps(c);
    if (ns == 0) continue;
    w0 = std::min(w0, R.g(c, R.s(c, 0, 0)[tl::P_FirstIssued]));
    double end = 0, bytes = 0;
    for (int j = 0; j < ns; ++j) {
      end = std::max({end, R.g(c, R.s(c, j, 1)[tl::C_MainloopEnd]), R.g(c, R.s(c, j, 2)[tl::C_MainloopEnd])});
      bytes += double(R.s(c, j, 1)[tl::KEnd] - R.s(c, j, 1)[tl::KBegin]) * Mainloop::stage_a_bytes;
    }
    w1 = std::max(w1, end);
    const double from = std::min(R.g(c, R.s(c, 0, 1)[tl::C_FirstFull]), R.g(c, R.s(c, 0, 2)[tl::C_FirstFull]));
    if (end > from) cta_rate.push_back(bytes / (end - from));  // bytes per ns = GB/s
  }
  double sum_rate = 0;
  for (double x : cta_rate) sum_rate += x;
  std::printf("    k-loop: weight %.1f MB (A tiles incl. padding; + B %.1f MB from L2); window first TMA issued -> last wgmma drained "
              "%.2f us: %.2f TB/s of weight (%.2f with B); per CTA (its first full -> its last drained) mean %.1f GB/s, sum over CTAs %.2f TB/s\n",
              a_bytes * 1e-6, b_bytes * 1e-6, (w1 - w0) * 1e-3, a_bytes / (w1 - w0) * 1e-3, (a_bytes + b_bytes) / (w1 - w0) * 1e-3,
              mean(cta_rate), sum_rate * 1e-3);
  if (!brief) {
    // Profile: each step's k-tiles spread evenly from its first full barrier to its last issue
    // (warpgroup 1), summed per microsecond from the first CTA's entry.
    const int bins = int(std::ceil(span * 1e-3)) + 1;
    std::vector<double> prof(size_t(bins), 0.0);
    for (int c = 0; c < R.ctas; ++c)
      for (int j = 0; j < R.steps(c); ++j) {
        const u64* r = R.s(c, j, 1);
        const int kt = int(r[tl::KEnd] - r[tl::KBegin]);
        const double a = R.g(c, r[tl::C_FirstFull]), b = R.g(c, r[tl::C_LastIssued]);
        for (int q = 0; q < kt; ++q) {
          const double t = kt > 1 ? a + (b - a) * q / (kt - 1) : a;
          const int bin = std::clamp(int(t * 1e-3), 0, bins - 1);
          prof[size_t(bin)] += Mainloop::stage_a_bytes;
        }
      }
    std::printf("    weight TB/s per us from the first entry (k-tiles spread evenly over each step's k-loop):");
    for (double x : prof) std::printf(" %.2f", x * 1e-6);
    std::printf("\n");
  }
  T.print();
  if (!brief) {
    // The CTA whose consumers end last: its events from the first CTA's entry (us).
    int crit = 0;
    for (int c = 1; c < R.ctas; ++c)
      if (R.g(c, std::max(R.h(c)[tl::C1End], R.h(c)[tl::C2End])) > R.g(crit, std::max(R.h(crit)[tl::C1End], R.h(crit)[tl::C2End])))
        crit = c;
    const u64* h = R.h(crit);
    auto at = [&](u64 x) { return R.g(crit, x) * 1e-3; };
    std::printf("    critical CTA %d (SM %llu): entry %.2f, ready %.2f", crit, h[tl::Sm], at(h[tl::CStart]), at(h[tl::CReady]));
    for (int j = 0; j < R.steps(crit); ++j) {
      const u64* r = R.s(crit, j, 1);
      std::printf(" | step %d %s tile %llu k [%llu, %llu): start %.2f, first full %.2f, last issued %.2f, drained %.2f", j, role_name(r[tl::Role]),
                  r[tl::Tile], r[tl::KBegin], r[tl::KEnd], at(r[tl::Start]), at(r[tl::C_FirstFull]), at(r[tl::C_LastIssued]),
                  at(r[tl::C_MainloopEnd]));
      if (r[tl::Role] == 1) std::printf(", flag %.2f", at(r[tl::C_FlagRaised]));
      if (r[tl::Role] == 2) std::printf(", peers' flags seen %.2f, added %.2f, released %.2f", at(r[tl::C_AwaitEnd]), at(r[tl::C_Added]), at(r[tl::C_Released]));
      if (r[tl::Role] != 1) std::printf(", epilogue %.2f -> %.2f", at(r[tl::C_EpiStart]), at(r[tl::C_EpiEnd]));
    }
    std::printf(" | end %.2f\n", at(std::max(h[tl::C1End], h[tl::C2End])));
  }
  (void)m, (void)n, (void)k;
  return consistent;
}

FILE* g_raw = nullptr;
void dump_raw(Records const& R, int64_t m, int64_t n, int64_t k, const char* mode) {
  if (!g_raw) return;
  for (int c = 0; c < R.ctas; ++c) {
    std::fprintf(g_raw, "%lld,%lld,%lld,%s,%d,cta,-1,-1", (long long)m, (long long)n, (long long)k, mode, c);
    for (int x = 0; x < tl::CtaSlots; ++x) std::fprintf(g_raw, ",%llu", R.h(c)[x]);
    std::fprintf(g_raw, "\n");
    for (int j = 0; j < R.steps(c); ++j)
      for (int o = 0; o < tl::Roles; ++o) {
        std::fprintf(g_raw, "%lld,%lld,%lld,%s,%d,step,%d,%d", (long long)m, (long long)n, (long long)k, mode, c, j, o);
        for (int x = 0; x < tl::Slots; ++x) std::fprintf(g_raw, ",%llu", R.s(c, j, o)[x]);
        std::fprintf(g_raw, "\n");
      }
  }
}

struct Buffers {
  u64 *st = nullptr, *ct = nullptr;
  void set(bool on) {
    u64* a = on ? st : nullptr;
    u64* b = on ? ct : nullptr;
    SM90_CUDA(cudaMemcpyToSymbol(tl::buffer, &a, sizeof a));
    SM90_CUDA(cudaMemcpyToSymbol(tl::cta, &b, sizeof b));
  }
  void clear() {
    SM90_CUDA(cudaMemset(st, 0, StepWords * sizeof(u64)));
    SM90_CUDA(cudaMemset(ct, 0, CtaWords * sizeof(u64)));
  }
};

bool probe(cublasHandle_t h, int64_t m, int64_t n, int64_t k, int reps, Buffers& buf) {
  using T = bfloat16_t;
  sm90_check::Problem<T> p(m, n, k, 1, false, 1.0f, 0.0f, uint64_t(m * 31 + n * 7 + k), "TN");
  kernels::GemmArguments g = s9::as_column_major_d(p.args);
  const size_t ws_bytes = Gemm::get_workspace_size(g);
  void* ws = nullptr;
  if (ws_bytes > 0) {
    SM90_CUDA(cudaMalloc(&ws, ws_bytes));
    SM90_CUDA(cudaMemset(ws, 0xab, ws_bytes));  // (garbage: flags count only with the launch's tag)
  }
  g.workspace = ws;
  g.workspace_bytes = ws_bytes;
  Gemm op;
  if (auto r = op.initialize(g); !r) {
    std::printf("initialize: %s\n", r.message.c_str());
    return false;
  }
  const auto& sk = op.params.scheduler.schedule;
  std::printf("== bf16 TN %lld x %lld x %lld, decode kernel 128x64x64 (8 stages of 24 KiB), grid %d, tiles %lld, k-tiles %lld, plan %s: "
              "%lld whole tiles, %lld units of %.1f k-tiles (margin %lld: the owners' extra k-tiles), workspace %zu B\n",
              (long long)m, (long long)n, (long long)k, op.grid, (long long)sk.tile_count(), (long long)sk.k_tiles,
              kernels::to_string(sk.plan.kind), (long long)sk.plan.dp_tiles, (long long)sk.plan.sk_units,
              sk.plan.sk_units ? double(sk.sk_iterations()) / double(sk.plan.sk_units) : 0.0, (long long)sk.plan.margin, ws_bytes);
  if (!op.splits()) std::printf("  (the plan shares nothing here: whole tiles)\n");
  if (op.grid > MaxCtas) {
    std::printf("grid %d exceeds the probe's %d CTAs\n", op.grid, MaxCtas);
    return false;
  }
  auto check = [](kernels::GemmResult r) {
    if (!r) {
      std::printf("run: %s\n", r.message.c_str());
      std::exit(1);
    }
  };
  auto mine = [&] { check(op.run()); };
  const Gemm::Entry entry = &s9::gemm_sm90_entry<Kernel>;
  auto launch = [&](const void* fn, int grid, typename Kernel::Params const& params) {
    cudaLaunchConfig_t cfg = Gemm::launch_config(dim3(unsigned(grid)), nullptr);
    cudaLaunchAttribute at[1];
    cfg.attrs = Gemm::cluster_attribute(at);
    cfg.numAttrs = 1;
    void* args[] = {const_cast<typename Kernel::Params*>(&params)};
    SM90_CUDA(cudaLaunchKernelExC(&cfg, fn, args));
  };
  auto kernel_only = [&] { launch(reinterpret_cast<const void*>(entry), op.grid, op.params); };
  // The A/B of the cut: the same launch with units of equal length (margin 0; the same slots and
  // flags, so the same workspace). Its D differs from the plan's in the last bits (other pieces
  // are added), so it is timed only; the stamped records follow the plan's walk.
  typename Kernel::Params equal_params = op.params;
  equal_params.scheduler.schedule.plan.margin = 0;
  equal_params.scheduler.prepare();
  auto kernel_equal = [&] { launch(reinterpret_cast<const void*>(entry), op.grid, equal_params); };
  // The A/B of the owner's additions (the patch's tl::eager_fixup): the kernel alone with up to
  // two peers' partials loaded at once.
  // (set outside the timed pairs: a copy to the symbol inside them would be timed, and would
  // wait for the lead-in kernel)
  auto set_eager = [](int on) { SM90_CUDA(cudaMemcpyToSymbol(tl::eager_fixup, &on, sizeof on)); };
  SM90_CUDA(cudaFuncSetAttribute(empty_entry, cudaFuncAttributeMaxDynamicSharedMemorySize, Kernel::smem_bytes));
  auto empty = [&] { launch(reinterpret_cast<const void*>(&empty_entry), op.grid, op.params); };
  // The floor without the decode kernel's shared memory (232 KB per CTA: the SM's carveout at
  // its maximum), then also with one warpgroup instead of three, then without parameters: if
  // these rows fall below the floor, the launch's shape costs that much, and fewer stages or
  // threads would buy it back; if not, the floor is the launch itself.
  auto empty_as = [&](const void* fn, unsigned threads, size_t smem, bool params) {
    cudaLaunchConfig_t cfg = Gemm::launch_config(dim3(unsigned(op.grid)), nullptr);
    cfg.blockDim = dim3(threads);
    cfg.dynamicSmemBytes = smem;
    cudaLaunchAttribute at[1];
    cfg.attrs = Gemm::cluster_attribute(at);
    cfg.numAttrs = 1;
    void* args[] = {const_cast<typename Kernel::Params*>(&op.params)};
    SM90_CUDA(cudaLaunchKernelExC(&cfg, fn, params ? args : nullptr));
  };
  auto empty_no_smem = [&] { empty_as(reinterpret_cast<const void*>(&empty_entry), Kernel::Threads, 0, true); };
  auto empty_no_smem_128 = [&] { empty_as(reinterpret_cast<const void*>(&empty_entry), 128, 0, true); };
  auto bare = [&] { empty_as(reinterpret_cast<const void*>(&bare_entry), Kernel::Threads, 0, false); };
  // Whole tiles: the same kernel without a workspace (data-parallel plan, no fix-up).
  kernels::GemmArguments g_whole = g;
  g_whole.workspace = nullptr;
  g_whole.workspace_bytes = 0;
  Gemm whole;
  check(whole.initialize(g_whole));
  auto mine_whole = [&] { check(whole.run()); };

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
  // 1. correctness, the flags after a launch, the kernel alone bit for bit
  buf.set(false);
  cublas();
  mine();
  SM90_CUDA(cudaDeviceSynchronize());
  const double vs_cublas = sm90_check::relative_difference(p.dd, ref, m * n);
  double vs_fp64 = 0;
  int64_t nans = 0;
  bool ok = p.verify(vs_fp64, nans, 2000) && vs_cublas < sm90_check::tolerance<T, T>;
  std::vector<T> d_run(size_t(m * n)), d_alone(size_t(m * n));
  SM90_CUDA(cudaMemcpy(d_run.data(), p.dd, d_run.size() * sizeof(T), cudaMemcpyDeviceToHost));
  int64_t flags_up = -1;
  if (op.splits()) {
    const int64_t slots = sk.slots();
    std::vector<std::uint64_t> flags(static_cast<size_t>(slots));
    SM90_CUDA(cudaMemcpy(flags.data(), op.params.fixup.flags, flags.size() * sizeof(std::uint64_t), cudaMemcpyDeviceToHost));
    // (a tag left: neither cleared nor the garbage of a slot that no unit writes)
    flags_up = std::count_if(flags.begin(), flags.end(), [](std::uint64_t x) { return x != 0 && x != 0xababababababababull; });
  }
  p.poison();
  kernel_only();
  SM90_CUDA(cudaDeviceSynchronize());
  SM90_CUDA(cudaMemcpy(d_alone.data(), p.dd, d_alone.size() * sizeof(T), cudaMemcpyDeviceToHost));
  const bool same = std::memcmp(d_run.data(), d_alone.data(), d_run.size() * sizeof(T)) == 0;
  p.poison();
  set_eager(1);
  kernel_only();
  SM90_CUDA(cudaDeviceSynchronize());
  set_eager(0);
  SM90_CUDA(cudaMemcpy(d_alone.data(), p.dd, d_alone.size() * sizeof(T), cudaMemcpyDeviceToHost));
  const bool same_eager = std::memcmp(d_run.data(), d_alone.data(), d_run.size() * sizeof(T)) == 0;
  ok = ok && same && same_eager && flags_up <= 0;
  std::printf("  check: %s (vs cuBLAS %.1e, fp64 %.1e, NaN %lld); tags left after a launch: %lld of %lld; kernel alone (initialize's tag) "
              "after it: D %s; with the eager additions: D %s\n",
              ok ? "ok" : "WRONG", vs_cublas, vs_fp64, (long long)nans, (long long)flags_up, (long long)(op.splits() ? sk.slots() : 0),
              same ? "bit-identical" : "DIFFERS", same_eager ? "bit-identical" : "DIFFERS");

  // 2. event times
  struct Mode {
    const char* name;
    std::function<void()> fn;
    bool cold;
    int eager;
  };
  const std::vector<Mode> modes = {{"run() = kernel (tagged flags, no memset), warm L2", mine, false, 0},
                                   {"kernel alone (no memset), warm L2", kernel_only, false, 0},
                                   {"kernel alone, eager additions (A/B), warm L2", kernel_only, false, 1},
                                   {"kernel alone, units of equal length (A/B)", kernel_equal, false, 0},
                                   {"empty kernel, same launch (floor)", empty, false, 0},
                                   {"empty kernel, no shared memory", empty_no_smem, false, 0},
                                   {"empty kernel, no shared memory, 128 threads", empty_no_smem_128, false, 0},
                                   {"empty kernel, no params, no shared memory", bare, false, 0},
                                   {"whole tiles (no workspace), warm L2", mine_whole, false, 0},
                                   {"run(), cold L2", mine, true, 0},
                                   {"kernel alone, cold L2", kernel_only, true, 0},
                                   {"kernel alone, eager additions, cold L2", kernel_only, true, 1},
                                   {"whole tiles, cold L2", mine_whole, true, 0}};
  std::map<std::string, double> t_mine;
  std::printf("  %-44s %10s %10s %8s   (median us of %d pairs)\n", "launch", "tessera", "cuBLAS", "ratio", reps);
  for (auto const& md : modes) {
    set_eager(md.eager);
    const auto t = sm90_check::time_pairs(md.fn, cublas, reps, 3, true, 0, md.cold);
    set_eager(0);
    const double a = sm90_check::median(t.mine) * 1e3, c = sm90_check::median(t.theirs) * 1e3;
    t_mine[md.name] = a;
    std::printf("  %-44s %10.2f %10.2f %8.3f\n", md.name, a, c, c / a);
  }
  SM90_CUDA(cudaGetLastError());

  // 3. stamped launches (the last of a timed series), warm and cold L2; whole tiles (brief)
  struct Stamped {
    const char* name;
    std::function<void()> fn;
    bool cold;
    int eager;
    const char* event_mode;
    bool brief;
  };
  const std::vector<Stamped> stamped = {{"warm", kernel_only, false, 0, "kernel alone (no memset), warm L2", false},
                                        {"cold", kernel_only, true, 0, "kernel alone, cold L2", false},
                                        {"eager-warm", kernel_only, false, 1, "kernel alone, eager additions (A/B), warm L2", true},
                                        {"whole-warm", mine_whole, false, 0, "whole tiles (no workspace), warm L2", true}};
  for (auto const& s : stamped) {
    buf.clear();
    buf.set(true);
    set_eager(s.eager);
    const auto t = sm90_check::time_pairs(s.fn, cublas, std::max(reps / 4, 5), 2, true, 0, s.cold);
    set_eager(0);
    buf.set(false);
    SM90_CUDA(cudaDeviceSynchronize());
    Records R;
    read_records(R, buf.st, buf.ct);
    const double on = sm90_check::median(t.mine) * 1e3;
    std::printf("  -- stamped launch, %s (event median with stamps %.2f us, without %.2f)\n", s.name, on, t_mine[s.event_mode]);
    ok &= report(R, m, n, k, on, s.brief);
    if (!s.brief) dump_raw(R, m, n, k, s.name);
  }
  cudaFree(ref);
  cudaFree(ws);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 40;
  std::vector<int64_t> dims;
  const char* raw = nullptr;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--reps" && i + 1 < argc) reps = std::atoi(argv[++i]);
    else if (a == "--raw" && i + 1 < argc) raw = argv[++i];
    else dims.push_back(std::atoll(argv[i]));
  }
  if (dims.empty()) dims = {6144, 64, 4096, 4096, 64, 14336, 14336, 64, 4096, 10240, 64, 8192, 4096, 128, 14336};
  if (dims.size() % 3 != 0) {
    std::printf("shapes come as M N K triples\n");
    return 2;
  }
  if (raw) {
    g_raw = std::fopen(raw, "w");
    if (!g_raw) {
      std::printf("cannot write %s\n", raw);
      return 2;
    }
    std::fprintf(g_raw, "m,n,k,mode,cta,kind,step,role");
    for (int x = 0; x < tl::Slots; ++x) std::fprintf(g_raw, ",s%d", x);
    std::fprintf(g_raw, "\n");
  }
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
    std::printf("cublasCreate failed (no GPU?)\n");
    return 2;
  }
  Buffers buf;
  SM90_CUDA(cudaMalloc(&buf.st, StepWords * sizeof(u64)));
  SM90_CUDA(cudaMalloc(&buf.ct, CtaWords * sizeof(u64)));
  bool ok = true;
  for (size_t i = 0; i + 2 < dims.size(); i += 3) ok &= probe(h, dims[i], dims[i + 1], dims[i + 2], reps, buf);
  cudaFree(buf.st);
  cudaFree(buf.ct);
  cublasDestroy(h);
  if (g_raw) std::fclose(g_raw);
  std::printf("decode timeline %s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
