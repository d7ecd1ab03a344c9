// tessera::attention on the GPU against an FP64 reference on the host: head dims 64, 128 and
// 256, bf16 and f16, causal and not, GQA ratios 1/2/4, varlen batches of uneven lengths, residues
// (sequence lengths 1, 17, 129, 1000; 81 and 160 around D 256's 80-key tiles) and more
// (batch, head) pairs than SMs, varlen batches with more work tiles than resident CTAs at each
// head dim. Every case runs on more grids (persistent CTAs, as many as resident and only 3,
// strided and with the tile counter; a CTA per work tile; Auto with the counter's workspace),
// which must write the same bits, the counter's workspace zero after each launch; the counter
// under CUDA graph capture and on two streams at once. O and LSE are
// filled with NaN before each launch, so anything the kernel fails to write is caught. The
// same cases at head dim 64 run the kernel with two consumer warpgroups too (Q tiles of 128
// rows; the shipped one has three: attention_consumers_gpu.cu).
// Also: the argument checks' refusals (no GPU needed).
// Exit 0: all pass; 1: a failure (printed); 77: no sm_90 GPU (after the refusal checks).
//   hopper_attention_gpu_test [--small]                      (--small: compute-sanitizer's cases)
//   hopper_attention_gpu_test --trace FILE [bf16|f16] [64|128|256]    (256: bf16 only)
//     the traced kernel (kernels/collective/sm90_attention_trace.hpp) on one tile: its S, P and
//     O records written to FILE for `tessera verify FILE`; 77 without an sm_90 GPU.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "tessera/atom/numeric.hpp"
#include "tessera/kernels/attention.hpp"
#include "../../tools/harness/harness.cuh"  // TESSERA_CUDA_CHECK
#include "attention_consumers_gpu.hpp"
#include "attention_trace_gpu.hpp"
#include "sm90_attention_trace_file.hpp"

using namespace tessera;
using namespace tessera::kernels;

namespace {

int failures = 0;

struct Case {
  AttentionElement element;
  int d, batch, heads, kv_heads, sq, sk;
  bool causal;
  std::vector<int> lens_q, lens_k;  // varlen when not empty (batch = size)
  int consumers = 0;                // 0: the shipped kernel (tessera::attention); 2:
                                    // AttentionConfig<T, 64, 128, 2>, launched directly
};

template <class T>
float to_f(T x) { return x.to_float(); }

// The tile counter's workspace the cases share (zeroed once, as the API asks: every launch must
// leave it zeroed, which each use checks).
unsigned* counter_workspace() {
  static unsigned* w = [] {
    unsigned* p = nullptr;
    TESSERA_CUDA_CHECK(cudaMalloc(&p, attention_counter_bytes));
    TESSERA_CUDA_CHECK(cudaMemset(p, 0, attention_counter_bytes));
    return p;
  }();
  return w;
}
// Whether the workspace holds zeros again (after a launch: the last CTA's reset).
bool counter_zero(const void* workspace) {
  unsigned words[2] = {1, 1};
  TESSERA_CUDA_CHECK(cudaMemcpy(words, workspace, sizeof words, cudaMemcpyDeviceToHost));
  return words[0] == 0 && words[1] == 0;
}

template <class T>
bool run_case(Case const& c, unsigned seed) {
  const bool varlen = !c.lens_q.empty();
  const int batch = varlen ? int(c.lens_q.size()) : c.batch;
  std::vector<int> cu_q(batch + 1, 0), cu_k(batch + 1, 0);
  for (int b = 0; b < batch; ++b) {
    cu_q[b + 1] = cu_q[b] + (varlen ? c.lens_q[b] : c.sq);
    cu_k[b + 1] = cu_k[b] + (varlen ? c.lens_k[b] : c.sk);
  }
  int max_q = 0, max_k = 0;
  for (int b = 0; b < batch; ++b) max_q = std::max(max_q, cu_q[b + 1] - cu_q[b]), max_k = std::max(max_k, cu_k[b + 1] - cu_k[b]);
  const int total_q = cu_q[batch], total_k = cu_k[batch], H = c.heads, HK = c.kv_heads, D = c.d;
  // (batch, seq, heads, D) packed == (total, heads, D)
  std::vector<T> q(size_t(total_q) * H * D), k(size_t(total_k) * HK * D), v(size_t(total_k) * HK * D);
  std::mt19937 rng(seed);
  std::normal_distribution<float> nd(0.f, 1.f);
  for (auto& x : q) x = T(nd(rng));
  for (auto& x : k) x = T(nd(rng));
  for (auto& x : v) x = T(nd(rng));
  T *dq, *dk, *dv, *dout;
  float* dlse;
  int *dcq = nullptr, *dck = nullptr;
  TESSERA_CUDA_CHECK(cudaMalloc(&dq, q.size() * sizeof(T)));
  // (at least one element: with no keys K and V hold nothing, yet the API takes their pointers)
  TESSERA_CUDA_CHECK(cudaMalloc(&dk, std::max<size_t>(k.size(), 1) * sizeof(T)));
  TESSERA_CUDA_CHECK(cudaMalloc(&dv, std::max<size_t>(v.size(), 1) * sizeof(T)));
  TESSERA_CUDA_CHECK(cudaMalloc(&dout, q.size() * sizeof(T)));
  TESSERA_CUDA_CHECK(cudaMalloc(&dlse, size_t(total_q) * H * sizeof(float)));
  TESSERA_CUDA_CHECK(cudaMemcpy(dq, q.data(), q.size() * sizeof(T), cudaMemcpyHostToDevice));
  TESSERA_CUDA_CHECK(cudaMemcpy(dk, k.data(), k.size() * sizeof(T), cudaMemcpyHostToDevice));
  TESSERA_CUDA_CHECK(cudaMemcpy(dv, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  TESSERA_CUDA_CHECK(cudaMemset(dout, 0xff, q.size() * sizeof(T)));  // NaN in bf16 and f16
  TESSERA_CUDA_CHECK(cudaMemset(dlse, 0xff, size_t(total_q) * H * sizeof(float)));  // NaN
  AttentionArguments a;
  a.element = std::is_same_v<T, bfloat16_t> ? AttentionElement::BF16 : AttentionElement::F16;
  a.batch = batch, a.heads = H, a.kv_heads = HK, a.head_dim = D, a.seqlen_q = max_q, a.seqlen_k = max_k;
  a.q = dq, a.k = dk, a.v = dv, a.o = dout, a.lse = dlse;
  a.mask = c.causal ? AttentionMask::Causal : AttentionMask::None;
  if (varlen) {
    TESSERA_CUDA_CHECK(cudaMalloc(&dcq, cu_q.size() * sizeof(int)));
    TESSERA_CUDA_CHECK(cudaMalloc(&dck, cu_k.size() * sizeof(int)));
    TESSERA_CUDA_CHECK(cudaMemcpy(dcq, cu_q.data(), cu_q.size() * sizeof(int), cudaMemcpyHostToDevice));
    TESSERA_CUDA_CHECK(cudaMemcpy(dck, cu_k.data(), cu_k.size() * sizeof(int), cudaMemcpyHostToDevice));
    a.cu_seqlens_q = dcq, a.cu_seqlens_k = dck, a.total_q = total_q, a.total_k = total_k;
  }
  char name[200];
  std::snprintf(name, sizeof name, "%s D%d B%d H%d/%d sq %d sk %d%s%s%s", a.element == AttentionElement::BF16 ? "bf16" : "f16", D, batch, H,
                HK, max_q, max_k, c.causal ? " causal" : "", varlen ? " varlen" : "", c.consumers == 2 ? " (2 consumer warpgroups)" : "");
  bool ok = true;
  if (auto r = c.consumers == 2 ? sm90::attention::run_two_consumers(a) : attention(a); !r) {
    std::printf("FAIL %s: %s\n", name, r.message.c_str());
    ok = false;
  } else {
    TESSERA_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<T> o(q.size());
    std::vector<float> lse(size_t(total_q) * H);
    TESSERA_CUDA_CHECK(cudaMemcpy(o.data(), dout, o.size() * sizeof(T), cudaMemcpyDeviceToHost));
    TESSERA_CUDA_CHECK(cudaMemcpy(lse.data(), dlse, lse.size() * sizeof(float), cudaMemcpyDeviceToHost));
    const double scale = 1.0 / std::sqrt(double(D));
    double worst = 0, worst_lse = 0;
    std::vector<double> s, acc(D);
    for (int b = 0; b < batch && ok; ++b) {
      const int sqb = cu_q[b + 1] - cu_q[b], skb = cu_k[b + 1] - cu_k[b];
      for (int h = 0; h < H && ok; ++h) {
        const int hk = h / (H / HK);
        for (int i = 0; i < sqb; ++i) {
          const size_t qi = (size_t(cu_q[b] + i) * H + h) * D;
          s.assign(skb, -INFINITY);
          double m = -INFINITY;
          for (int j = 0; j < skb; ++j) {
            if (c.causal && j > i + skb - sqb) continue;
            const size_t kj = (size_t(cu_k[b] + j) * HK + hk) * D;
            double dot = 0;
            for (int x = 0; x < D; ++x) dot += double(to_f(q[qi + x])) * to_f(k[kj + x]);
            s[j] = dot * scale;
            m = std::max(m, s[j]);
          }
          double l = 0;
          std::fill(acc.begin(), acc.end(), 0.0);
          for (int j = 0; j < skb; ++j) {
            if (s[j] == -INFINITY) continue;
            const double p = std::exp(s[j] - m);
            l += p;
            const size_t vj = (size_t(cu_k[b] + j) * HK + hk) * D;
            for (int x = 0; x < D; ++x) acc[x] += p * to_f(v[vj + x]);
          }
          const double want_lse = l > 0 ? m + std::log(l) : -INFINITY;
          const float got_lse = varlen ? lse[size_t(h) * total_q + cu_q[b] + i] : lse[(size_t(b) * H + h) * max_q + i];
          const double e_lse = (l > 0) ? std::abs(got_lse - want_lse) : (got_lse == -INFINITY ? 0.0 : INFINITY);
          worst_lse = std::max(worst_lse, std::isnan(got_lse) ? INFINITY : e_lse);
          for (int x = 0; x < D; ++x) {
            const double want = l > 0 ? acc[x] / l : 0.0;
            const float got = to_f(o[qi + x]);
            const double e = std::isnan(got) ? INFINITY : std::abs(got - want);
            worst = std::max(worst, e);
          }
        }
      }
    }
    // Tolerance: P rounded to 16 bits (rel. 2^-8 for bf16) over O's values of size ~1, and O's
    // own rounding.
    const double tol = a.element == AttentionElement::BF16 ? 2e-2 : 4e-3;
    ok = worst <= tol && worst_lse <= 1e-3;
    std::printf("%s %s: max |O - ref| %.2e, max |LSE - ref| %.2e\n", ok ? "ok  " : "FAIL", name, worst, worst_lse);
    // The grids: persistent CTAs (as many as resident, and 3, so that each takes many work
    // tiles across varlen's empty tiles and causal's keyless ones) and a CTA per tile compute
    // the same bits as the run above (AttentionGrid::Auto).
    if (ok) {
      const size_t o_bytes = o.size() * sizeof(T), lse_bytes = lse.size() * sizeof(float);
      std::vector<unsigned char> o_bits(o_bytes), lse_bits(lse_bytes);
      std::memcpy(o_bits.data(), o.data(), o_bytes), std::memcpy(lse_bits.data(), lse.data(), lse_bytes);
      // With the tile counter's workspace (causal and varlen: the CTAs take tiles from the
      // counter, in an order that depends on timing; full attention: striding, as without).
      struct Grid {
        AttentionGrid grid;
        int ctas;
        const char* name;
        bool counter = false;
      };
      for (Grid g : {Grid{AttentionGrid::Persistent, 0, "persistent"}, Grid{AttentionGrid::Persistent, 3, "persistent, 3 CTAs"},
                     Grid{AttentionGrid::PerTile, 0, "a CTA per tile"}, Grid{AttentionGrid::Persistent, 0, "persistent, counter", true},
                     Grid{AttentionGrid::Persistent, 3, "persistent, 3 CTAs, counter", true},
                     Grid{AttentionGrid::Auto, 0, "auto, counter", true}}) {
        AttentionArguments ag = a;
        ag.grid = g.grid, ag.persistent_ctas = g.ctas;
        if (g.counter) ag.workspace = counter_workspace(), ag.workspace_bytes = attention_workspace_size(ag);
        TESSERA_CUDA_CHECK(cudaMemset(dout, 0xff, o_bytes));
        TESSERA_CUDA_CHECK(cudaMemset(dlse, 0xff, lse_bytes));
        if (auto r = c.consumers == 2 ? sm90::attention::run_two_consumers(ag) : attention(ag); !r) {
          std::printf("FAIL %s (%s): %s\n", name, g.name, r.message.c_str());
          ok = false;
          continue;
        }
        TESSERA_CUDA_CHECK(cudaDeviceSynchronize());
        if (g.counter && !counter_zero(ag.workspace)) {
          std::printf("FAIL %s (%s): the tile counter is not zero after the launch\n", name, g.name);
          ok = false;
        }
        std::vector<unsigned char> o2(o_bytes), lse2(lse_bytes);
        TESSERA_CUDA_CHECK(cudaMemcpy(o2.data(), dout, o_bytes, cudaMemcpyDeviceToHost));
        TESSERA_CUDA_CHECK(cudaMemcpy(lse2.data(), dlse, lse_bytes, cudaMemcpyDeviceToHost));
        if (o2 != o_bits || lse2 != lse_bits) {
          size_t at = 0;
          while (at < o_bytes && o2[at] == o_bits[at]) ++at;
          std::printf("FAIL %s (%s): not the same bits as the default grid (%s, first O byte %zu)\n", name, g.name,
                      o2 != o_bits ? "O" : "LSE", at);
          ok = false;
        }
      }
    }
    // The two-warpgroup cases again in both grid orders: the same bits (the order decides only
    // when a CTA runs).
    if (c.consumers == 2) {
      if (auto r = sm90::attention::check_orders_agree(a); !r) {
        std::printf("FAIL %s: %s\n", name, r.message.c_str());
        ok = false;
      }
    }
  }
  cudaFree(dq), cudaFree(dk), cudaFree(dv), cudaFree(dout), cudaFree(dlse), cudaFree(dcq), cudaFree(dck);
  return ok;
}

bool run(Case const& c, unsigned seed) {
  return c.element == AttentionElement::BF16 ? run_case<bfloat16_t>(c, seed) : run_case<half_t>(c, seed);
}

// The tile counter's workspace under CUDA graph capture and on two streams at once: a causal
// problem with more work tiles than CTAs (bf16, D 128, Auto with a workspace: the counter), its
// per-tile grid's bits the reference. A captured launch replayed three times (the workspace
// zeroed by each replay's last CTA, as a graph cannot zero it between replays unless asked);
// then launches on two streams at once, each with its own workspace and output, three rounds.
// Each output must be the reference's bits, each workspace zero after.
bool check_counter_graph_and_streams(int sms) {
  using T = bfloat16_t;
  const int B = sms / 8 + 1, H = 8, S = 600, D = 128;
  const size_t n = size_t(B) * S * H * D, o_bytes = n * sizeof(T), lse_bytes = size_t(B) * H * S * sizeof(float);
  std::vector<T> h(n);
  std::mt19937 rng(3);
  std::normal_distribution<float> nd(0.f, 1.f);
  T *dq, *dk, *dv, *o[3];
  float* lse[3];
  void* ws[2];
  for (T** p : {&dq, &dk, &dv}) {
    for (auto& x : h) x = T(nd(rng));
    TESSERA_CUDA_CHECK(cudaMalloc(p, o_bytes));
    TESSERA_CUDA_CHECK(cudaMemcpy(*p, h.data(), o_bytes, cudaMemcpyHostToDevice));
  }
  for (int i = 0; i < 3; ++i) {
    TESSERA_CUDA_CHECK(cudaMalloc(&o[i], o_bytes));
    TESSERA_CUDA_CHECK(cudaMalloc(&lse[i], lse_bytes));
  }
  for (void*& w : ws) {
    TESSERA_CUDA_CHECK(cudaMalloc(&w, attention_counter_bytes));
    TESSERA_CUDA_CHECK(cudaMemset(w, 0, attention_counter_bytes));
  }
  AttentionArguments a;
  a.element = AttentionElement::BF16, a.batch = B, a.heads = H, a.kv_heads = H, a.head_dim = D, a.seqlen_q = S, a.seqlen_k = S;
  a.q = dq, a.k = dk, a.v = dv, a.mask = AttentionMask::Causal;
  auto with = [&](int out, AttentionGrid grid, void* w) {
    AttentionArguments x = a;
    x.o = o[out], x.lse = lse[out], x.grid = grid, x.workspace = w, x.workspace_bytes = w ? attention_workspace_size(x) : 0;
    return x;
  };
  bool ok = attention_workspace_size(with(0, AttentionGrid::Auto, nullptr)) == attention_counter_bytes;
  std::vector<unsigned char> ref_o(o_bytes), ref_lse(lse_bytes), got_o(o_bytes), got_lse(lse_bytes);
  auto same = [&](int out, const char* what) {
    TESSERA_CUDA_CHECK(cudaDeviceSynchronize());
    TESSERA_CUDA_CHECK(cudaMemcpy(got_o.data(), o[out], o_bytes, cudaMemcpyDeviceToHost));
    TESSERA_CUDA_CHECK(cudaMemcpy(got_lse.data(), lse[out], lse_bytes, cudaMemcpyDeviceToHost));
    if (got_o != ref_o || got_lse != ref_lse) std::printf("FAIL counter (%s): not the per-tile grid's bits\n", what), ok = false;
    for (void* w : ws)
      if (!counter_zero(w)) std::printf("FAIL counter (%s): a workspace is not zero after\n", what), ok = false;
  };
  // The reference: a CTA per tile.
  if (auto r = attention(with(0, AttentionGrid::PerTile, nullptr)); !r) return std::printf("FAIL counter: %s\n", r.message.c_str()), false;
  TESSERA_CUDA_CHECK(cudaDeviceSynchronize());
  TESSERA_CUDA_CHECK(cudaMemcpy(ref_o.data(), o[0], o_bytes, cudaMemcpyDeviceToHost));
  TESSERA_CUDA_CHECK(cudaMemcpy(ref_lse.data(), lse[0], lse_bytes, cudaMemcpyDeviceToHost));
  cudaStream_t st[2];
  for (auto& x : st) TESSERA_CUDA_CHECK(cudaStreamCreateWithFlags(&x, cudaStreamNonBlocking));
  // (one launch outside the capture first: the adapter's per-device queries are then cached)
  if (auto r = attention(with(1, AttentionGrid::Auto, ws[0]), st[0]); !r) return std::printf("FAIL counter: %s\n", r.message.c_str()), false;
  same(1, "one launch");
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  TESSERA_CUDA_CHECK(cudaStreamBeginCapture(st[0], cudaStreamCaptureModeGlobal));
  const AttentionResult captured = attention(with(1, AttentionGrid::Auto, ws[0]), st[0]);
  TESSERA_CUDA_CHECK(cudaStreamEndCapture(st[0], &graph));
  if (!captured) return std::printf("FAIL counter (graph capture): %s\n", captured.message.c_str()), false;
  TESSERA_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int replay = 0; replay < 3; ++replay) {
    TESSERA_CUDA_CHECK(cudaMemsetAsync(o[1], 0xff, o_bytes, st[0]));
    TESSERA_CUDA_CHECK(cudaMemsetAsync(lse[1], 0xff, lse_bytes, st[0]));
    TESSERA_CUDA_CHECK(cudaGraphLaunch(exec, st[0]));
    same(1, "graph replay");
  }
  for (int round = 0; round < 3; ++round) {
    for (int i : {1, 2}) {
      TESSERA_CUDA_CHECK(cudaMemset(o[i], 0xff, o_bytes));
      TESSERA_CUDA_CHECK(cudaMemset(lse[i], 0xff, lse_bytes));
    }
    TESSERA_CUDA_CHECK(cudaDeviceSynchronize());  // (the poison lands before either stream's launch)
    for (int i : {0, 1})
      if (auto r = attention(with(1 + i, AttentionGrid::Persistent, ws[i]), st[i]); !r) return std::printf("FAIL counter: %s\n", r.message.c_str()), false;
    same(1, "two streams");
    same(2, "two streams");
  }
  TESSERA_CUDA_CHECK(cudaGraphExecDestroy(exec));
  TESSERA_CUDA_CHECK(cudaGraphDestroy(graph));
  for (auto& x : st) TESSERA_CUDA_CHECK(cudaStreamDestroy(x));
  for (T* p : {dq, dk, dv, o[0], o[1], o[2]}) cudaFree(p);
  for (float* p : lse) cudaFree(p);
  for (void* w : ws) cudaFree(w);
  std::printf("%s counter: %d work tiles on %d SMs, graph replays and two streams, the per-tile grid's bits, workspaces zero after\n",
              ok ? "ok  " : "FAIL", B * H * ((S + 127) / 128), sms);
  return ok;
}

void expect_refused(AttentionArguments a, AttentionStatus want, const char* what) {
  const auto r = can_implement(a);
  if (r.status != want || r.message.empty()) {
    std::printf("FAIL refusal (%s): status %d, message '%s'\n", what, int(r.status), r.message.c_str());
    ++failures;
  }
}

bool sm90_device() {
  int dev = 0, major = 0, minor = 0;
  return cudaGetDevice(&dev) == cudaSuccess && cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) == cudaSuccess &&
         cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev) == cudaSuccess && major == 9 && minor == 0;
}

// --trace FILE [bf16|f16] [64|128|256]: the traced kernel on one tile, its trace written for
// `tessera verify FILE` (the file is written whole or not at all).
int write_trace(int argc, char** argv) {
  const std::string path = argv[2];
  bool bf16 = true;
  int head_dim = 128;
  for (int i = 3; i < argc; ++i) {
    const std::string x = argv[i];
    if (x == "bf16" || x == "f16") bf16 = x == "bf16";
    else if (x == "64" || x == "128" || x == "256") head_dim = std::stoi(x);
    else {
      std::fprintf(stderr, "error: --trace FILE [bf16|f16] [64|128|256]: unknown '%s'\n", x.c_str());
      return 2;
    }
  }
  if (!sm90_device()) {
    std::printf("no sm_90 GPU: trace skipped\n");
    return 77;
  }
  std::vector<int> records;
  if (const std::string why = tessera::kernels::sm90::attention::run_attention_trace(bf16, head_dim, records); !why.empty()) {
    std::fprintf(stderr, "error: the traced attention kernel: %s\n", why.c_str());
    return 1;
  }
  const std::string tmp = path + ".partial";
  {
    std::ofstream out(tmp);
    tessera::kernels::sm90::attention::write_attention_trace(out, bf16, head_dim, records);
    if (!out) {
      std::fprintf(stderr, "error: cannot write %s\n", tmp.c_str());
      std::remove(tmp.c_str());
      return 2;
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::fprintf(stderr, "error: cannot write %s\n", path.c_str());
    return 2;
  }
  std::printf("trace: %zu records (%s, D = %d) written to %s; check them with: tessera verify %s\n", records.size() / 5,
              bf16 ? "bf16" : "f16", head_dim, path.c_str(), path.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 3 && std::strcmp(argv[1], "--trace") == 0) return write_trace(argc, argv);
  const bool small = argc > 1 && std::strcmp(argv[1], "--small") == 0;  // (compute-sanitizer)
  // Refusals, with a reason, before any device work.
  {
    static char buf[256] __attribute__((aligned(16)));
    AttentionArguments a;
    a.q = a.k = a.v = buf, a.o = buf, a.seqlen_q = a.seqlen_k = 16;
    a.head_dim = 96;
    expect_refused(a, AttentionStatus::Unsupported, "head_dim 96");
    a.head_dim = 512;
    expect_refused(a, AttentionStatus::Unsupported, "head_dim 512");
    a.head_dim = 32;
    expect_refused(a, AttentionStatus::Unsupported, "head_dim 32");
    a.head_dim = 64, a.heads = 6, a.kv_heads = 4;
    expect_refused(a, AttentionStatus::InvalidArgument, "heads not a multiple of kv_heads");
    a.heads = a.kv_heads = 1, a.q = buf + 2;
    expect_refused(a, AttentionStatus::Misaligned, "misaligned q");
    a.q = buf, a.q_row_stride = 68;
    expect_refused(a, AttentionStatus::Misaligned, "row stride not 16-byte");
    a.q_row_stride = 0, a.cu_seqlens_q = reinterpret_cast<const int*>(buf);
    expect_refused(a, AttentionStatus::InvalidArgument, "cu_seqlens_q without cu_seqlens_k");
    a.cu_seqlens_q = nullptr, a.seqlen_q = 0;
    expect_refused(a, AttentionStatus::InvalidArgument, "seqlen_q 0");
    a.seqlen_q = 16, a.persistent_ctas = -1;
    expect_refused(a, AttentionStatus::InvalidArgument, "persistent_ctas -1");
    a.persistent_ctas = 0, a.grid = static_cast<AttentionGrid>(7);
    expect_refused(a, AttentionStatus::Unsupported, "grid 7");
    a.grid = AttentionGrid::Auto, a.workspace_bytes = attention_counter_bytes;
    expect_refused(a, AttentionStatus::InvalidArgument, "workspace null with workspace_bytes 8");
    a.workspace = buf + 2;
    expect_refused(a, AttentionStatus::Misaligned, "workspace misaligned");
    a.workspace = nullptr, a.workspace_bytes = 0;
  }
  int dev = 0, major = 0, minor = 0, sms = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev) != cudaSuccess || major != 9 || minor != 0) {
    std::printf("%s; no sm_90 GPU: skipped\n", failures ? "refusal checks FAILED" : "refusal checks ok");
    return failures ? 1 : 77;
  }
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  const auto BF = AttentionElement::BF16, F16 = AttentionElement::F16;
  std::vector<Case> cases;
  if (small) {
    cases = {{BF, 64, 1, 2, 1, 129, 129, true, {}, {}}, {F16, 128, 1, 2, 2, 17, 200, false, {}, {}}, {BF, 128, 0, 2, 1, 0, 0, true, {5, 130}, {7, 140}},
             {F16, 64, 0, 2, 1, 0, 0, true, {5, 200}, {7, 260}, 2}, {BF, 256, 1, 2, 1, 129, 170, true, {}, {}},
             {F16, 256, 0, 2, 2, 0, 0, false, {5, 200}, {7, 170}}};
  } else {
    for (auto el : {BF, F16})
      for (int d : {64, 128, 256})
        for (bool causal : {false, true}) {
          // (residues of the Q tiles: 128 rows at head dim 128 and 256, 192 at 64; of the key
          // tiles: 80 keys at 256)
          for (int s : {1, 17, 129, 193, 1000}) cases.push_back({el, d, 2, 4, 2, s, s, causal, {}, {}});
          if (d == 256)
            for (int s : {81, 160}) cases.push_back({el, d, 2, 4, 2, s, s, causal, {}, {}});
          cases.push_back({el, d, 1, 4, 4, 300, 700, causal, {}, {}});    // sq < sk
          cases.push_back({el, d, 1, 4, 1, 700, 300, causal, {}, {}});    // sq > sk: causal rows with no key
          cases.push_back({el, d, 2, 4, 2, 100, 0, causal, {}, {}});      // no keys, default strides: O = 0, LSE = -inf
          cases.push_back({el, d, 0, 8, 2, 0, 0, causal, {1, 300, 17, 385, 64}, {5, 256, 17, 1000, 1}});  // varlen, GQA 4
        }
    // More (batch, head) pairs than SMs, GQA 2.
    cases.push_back({BF, 128, (sms + 7) / 8 + 1, 8, 4, 256, 256, false, {}, {}});
    cases.push_back({F16, 64, (sms + 7) / 8 + 1, 8, 4, 256, 256, true, {}, {}});
    cases.push_back({BF, 64, (sms + 7) / 8 + 1, 8, 4, 600, 600, true, {}, {}});
    cases.push_back({BF, 256, (sms + 7) / 8 + 1, 8, 4, 200, 200, true, {}, {}});
    cases.push_back({F16, 256, (sms + 7) / 8 + 1, 8, 2, 130, 170, false, {}, {}});
    // More work tiles than resident CTAs at every head dim, varlen with causal and not: each
    // persistent CTA takes several tiles, of different sequences, some past their sequence's
    // end, some (causal, sq > sk) reading no key.
    for (int d : {64, 128, 256})
      for (bool causal : {false, true}) {
        std::vector<int> lq, lk;
        std::mt19937 lens(unsigned(d) + (causal ? 1u : 0u));
        for (int b = 0; b < sms / 4 + 2; ++b) {
          lq.push_back(1 + int(lens() % 300));
          // (some far shorter than their Q, a few empty: causal rows, and whole tiles, with no key)
          lk.push_back(int(lens() % 4 == 0 ? lens() % 40 : 1 + lens() % 300));
        }
        cases.push_back({causal ? F16 : BF, d, 0, 8, 2, 0, 0, causal, lq, lk});
      }
    // Two consumer warpgroups at head dim 64 (Q tiles of 128 rows, not shipped): residues around
    // 128, the masks, GQA, varlen, more CTAs than SMs.
    for (auto el : {BF, F16})
      for (bool causal : {false, true}) {
        for (int s : {1, 17, 127, 129, 1000}) cases.push_back({el, 64, 2, 4, 2, s, s, causal, {}, {}, 2});
        cases.push_back({el, 64, 1, 4, 4, 300, 700, causal, {}, {}, 2});
        cases.push_back({el, 64, 1, 4, 1, 700, 300, causal, {}, {}, 2});
        cases.push_back({el, 64, 0, 8, 2, 0, 0, causal, {1, 300, 17, 129, 64}, {5, 256, 17, 1000, 1}, 2});
      }
    cases.push_back({BF, 64, (sms + 7) / 8 + 1, 8, 4, 600, 600, true, {}, {}, 2});
  }
  unsigned seed = 1;
  for (auto const& c : cases) failures += run(c, seed++) ? 0 : 1;
  if (!small) failures += check_counter_graph_and_streams(sms) ? 0 : 1;
  std::printf("%s: %d of %zu cases failed\n", failures ? "FAILED" : "all passed", failures, cases.size());
  return failures ? 1 : 0;
}
