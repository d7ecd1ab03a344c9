// tessera::attention (SM90 forward) timed as bench/timing.hpp times the GEMMs: warm-up, then the
// non-causal and the causal launch of each shape in alternating pairs after a lead-in kernel,
// each bracketed by CUDA events; medians.
// TFLOP/s = 4 * B * H * Sq * Sk * D / time, halved for causal. The launches pass the tile
// counter's workspace (AttentionGrid::Auto: persistent CTAs, strided for full attention and by
// the counter under the causal mask).
//
//   attention_bench [reps]                 the issue's shapes: B4 H16, S 4096/8192/16384, D 128, 64 and 256, bf16
//   attention_bench --dump DIR             writes a small problem's inputs and tessera's outputs
//                                          (DIR/attn_D{64,128,256}_{causal,full}.{q,k,v,o,lse}.bin, raw, and
//                                          DIR/attn_dump.txt describing them) for
//                                          tools/device/attention_torch.py to compare with torch
// Exit 77 without an sm_90 GPU.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "tessera/atom/numeric.hpp"
#include "tessera/kernels/attention.hpp"
#include "timing.hpp"

using namespace tessera;
using namespace tessera::kernels;


namespace {

struct Buffers {
  bfloat16_t *q = nullptr, *k = nullptr, *v = nullptr, *o = nullptr;
  float* lse = nullptr;
  void* workspace = nullptr;  // the tile counter's, zeroed once (every launch leaves it zeroed)
  size_t elements = 0;
  void alloc(size_t n, size_t rows_heads) {
    elements = n;
    SM90_CUDA(cudaMalloc(&workspace, attention_counter_bytes));
    SM90_CUDA(cudaMemset(workspace, 0, attention_counter_bytes));
    SM90_CUDA(cudaMalloc(&q, n * 2));
    SM90_CUDA(cudaMalloc(&k, n * 2));
    SM90_CUDA(cudaMalloc(&v, n * 2));
    SM90_CUDA(cudaMalloc(&o, n * 2));
    SM90_CUDA(cudaMalloc(&lse, rows_heads * 4));
  }
  void fill(unsigned seed) {
    std::vector<bfloat16_t> h(elements);
    std::mt19937 rng(seed);
    std::normal_distribution<float> nd(0.f, 1.f);
    for (bfloat16_t* p : {q, k, v}) {
      for (auto& x : h) x = bfloat16_t(nd(rng));
      SM90_CUDA(cudaMemcpy(p, h.data(), elements * 2, cudaMemcpyHostToDevice));
    }
  }
  void free() { cudaFree(q), cudaFree(k), cudaFree(v), cudaFree(o), cudaFree(lse), cudaFree(workspace); }
};

AttentionArguments args_for(Buffers const& b, int B, int H, int S, int D, bool causal) {
  AttentionArguments a;
  a.element = AttentionElement::BF16;
  a.batch = B, a.heads = H, a.kv_heads = H, a.head_dim = D, a.seqlen_q = S, a.seqlen_k = S;
  a.q = b.q, a.k = b.k, a.v = b.v, a.o = b.o, a.lse = b.lse;
  a.mask = causal ? AttentionMask::Causal : AttentionMask::None;
  a.workspace = b.workspace, a.workspace_bytes = attention_workspace_size(a);
  return a;
}

void launch(AttentionArguments const& a) {
  if (auto r = attention(a); !r) {
    std::fprintf(stderr, "error: tessera::attention: %s\n", r.message.c_str());
    std::exit(1);
  }
}

int dump(const std::string& dir) {
  const int B = 1, H = 2, S = 512;
  FILE* txt = std::fopen((dir + "/attn_dump.txt").c_str(), "w");
  if (!txt) {
    std::fprintf(stderr, "error: cannot write %s/attn_dump.txt\n", dir.c_str());
    return 1;
  }
  for (int D : {64, 128, 256})
    for (bool causal : {false, true}) {
      Buffers b;
      b.alloc(size_t(B) * S * H * D, size_t(B) * H * S);
      b.fill(D + causal);
      launch(args_for(b, B, H, S, D, causal));
      SM90_CUDA(cudaDeviceSynchronize());
      char stem[64];
      std::snprintf(stem, sizeof stem, "attn_D%d_%s", D, causal ? "causal" : "full");
      auto save = [&](const char* what, const void* p, size_t bytes) {
        std::vector<char> h(bytes);
        SM90_CUDA(cudaMemcpy(h.data(), p, bytes, cudaMemcpyDeviceToHost));
        FILE* f = std::fopen((dir + "/" + stem + "." + what + ".bin").c_str(), "wb");
        if (!f || std::fwrite(h.data(), 1, bytes, f) != bytes) {
          std::fprintf(stderr, "error: cannot write %s\n", stem);
          std::exit(1);
        }
        std::fclose(f);
      };
      save("q", b.q, b.elements * 2), save("k", b.k, b.elements * 2), save("v", b.v, b.elements * 2), save("o", b.o, b.elements * 2);
      save("lse", b.lse, size_t(B) * H * S * 4);
      // (layout: q, k, v, o bf16 (B, S, H, D); lse f32 (B, H, S))
      std::fprintf(txt, "%s %d %d %d %d %d\n", stem, B, S, H, D, causal ? 1 : 0);
      b.free();
    }
  std::fclose(txt);
  std::printf("dumped 6 problems to %s\n", dir.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int dev = 0, major = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess || major != 9) {
    std::printf("no sm_90 GPU: skipped\n");
    return 77;
  }
  if (argc == 3 && std::strcmp(argv[1], "--dump") == 0) return dump(argv[2]);
  const int reps = argc > 1 ? std::max(1, std::atoi(argv[1])) : 20;
  cudaDeviceProp prop;
  SM90_CUDA(cudaGetDeviceProperties(&prop, dev));
  std::printf("device: %s\n%-28s %12s %10s %12s %10s\n", prop.name, "shape (bf16)", "full ms", "TFLOP/s", "causal ms", "TFLOP/s");
  for (int D : {128, 64, 256})
    for (int S : {4096, 8192, 16384}) {
      const int B = 4, H = 16;
      Buffers b;
      b.alloc(size_t(B) * S * H * D, size_t(B) * H * S);
      b.fill(1);
      const auto full = args_for(b, B, H, S, D, false), causal = args_for(b, B, H, S, D, true);
      // (the GEMM bench's method: warm-up, alternating pairs after a lead-in kernel, medians)
      const auto t = sm90_check::time_pairs([&] { launch(full); }, [&] { launch(causal); }, reps, 3);
      SM90_CUDA(cudaGetLastError());
      const double flop = 4.0 * B * H * double(S) * S * D, mf = sm90_check::median(t.mine), mc = sm90_check::median(t.theirs);
      char shape[64];
      std::snprintf(shape, sizeof shape, "B%d H%d S%d D%d", B, H, S, D);
      std::printf("%-28s %12.3f %10.1f %12.3f %10.1f\n", shape, mf, flop / mf * 1e-9, mc, flop / 2 / mc * 1e-9);
      b.free();
    }
  return 0;
}
