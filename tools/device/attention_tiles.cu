// Tile shapes of the SM90 attention kernel side by side (a probe, not the library's bench):
// AttentionConfig<bf16, D, BN, Consumers> launched through Sm90Attention<Cfg> directly, in
// alternating pairs against a baseline configuration in one process, after warm-up; medians
// (bench/timing.hpp). B4 H16, S 4096 and 16384, full and causal. Compared: key-tile widths
// against bN 128 (two consumer warpgroups), and the shipped D 64 configuration (DefaultConfig:
// three consumer warpgroups, Q tiles of 192 rows) against two; at head dim 256, 80 keys (the
// shipped tile) against 64. `attention_tiles order`: the shipped kernels' grid orders instead
// (sm90_attention_scheduler.hpp: longest_first against tile_major, the same kernel; B4 H16,
// S 4096 / 8192 / 16384, D 64 / 128 / 256, causal, and full as the control, where the
// order cannot shorten the grid). `attention_tiles persistent`: the shipped kernels with
// persistent CTAs (AttentionGrid::Persistent: the resident CTAs striding through the same
// schedule; under the causal mask also taking tiles from the tile counter) against a CTA per
// work tile (PerTile), B4 H16, S 4096 / 8192 / 16384, D 64 / 128 / 256, full and causal. -DTESSERA_TILES_ORDER_ONLY compiles only the shipped kernels (enough
// for `order` and `persistent`).
//   nvcc <run_attention.sh's flags> -gencode=arch=compute_90a,code=sm_90a \
//     tools/device/attention_tiles.cu -lcuda -o /tmp/attention_tiles && /tmp/attention_tiles
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "../../bench/timing.hpp"
#include "device/sm90_attention.cuh"

using namespace tessera;
using namespace tessera::kernels;
namespace att = tessera::kernels::sm90::attention;

namespace {

template <class Cfg>
void launch(AttentionArguments const& a) {
  if (auto r = att::Sm90Attention<Cfg>::run(a, nullptr); !r) {
    std::fprintf(stderr, "error: %s\n", r.message.c_str());
    std::exit(1);
  }
}
template <class Cfg>
void launch(AttentionArguments const& a, att::TileOrder order) {
  if (auto r = att::Sm90Attention<Cfg>::run(a, nullptr, order); !r) {
    std::fprintf(stderr, "error: %s\n", r.message.c_str());
    std::exit(1);
  }
}

// B4 H16 (seqlen S, head dim D) bf16 tensors of normal values, freed at the end of the scope.
struct Tensors {
  static constexpr int B = 4, H = 16;
  AttentionArguments a;
  bfloat16_t *q = nullptr, *k = nullptr, *v = nullptr, *o = nullptr;
  float* lse = nullptr;
  Tensors(int S, int D, bool causal) {
    const size_t n = size_t(B) * S * H * D;
    for (auto** p : {&q, &k, &v, &o}) SM90_CUDA(cudaMalloc(p, n * 2));
    SM90_CUDA(cudaMalloc(&lse, size_t(B) * H * S * 4));
    std::vector<bfloat16_t> h(n);
    std::mt19937 rng(1);
    std::normal_distribution<float> nd(0.f, 1.f);
    for (auto* p : {q, k, v}) {
      for (auto& x : h) x = bfloat16_t(nd(rng));
      SM90_CUDA(cudaMemcpy(p, h.data(), n * 2, cudaMemcpyHostToDevice));
    }
    a.element = AttentionElement::BF16;
    a.batch = B, a.heads = H, a.kv_heads = H, a.head_dim = D, a.seqlen_q = S, a.seqlen_k = S;
    a.q = q, a.k = k, a.v = v, a.o = o, a.lse = lse;
    a.mask = causal ? AttentionMask::Causal : AttentionMask::None;
  }
  ~Tensors() {
    for (auto* p : {q, k, v, o}) cudaFree(p);
    cudaFree(lse);
  }
  Tensors(Tensors const&) = delete;
  Tensors& operator=(Tensors const&) = delete;
};

// The shipped kernel Cfg with its blocks longest_first against tile_major, one problem.
template <class Cfg>
void compare_orders(int S, bool causal) {
  constexpr int D = Cfg::head_dim;
  Tensors t(S, D, causal);
  const auto r = sm90_check::time_pairs([&] { launch<Cfg>(t.a, att::TileOrder::longest_first); },
                                        [&] { launch<Cfg>(t.a, att::TileOrder::tile_major); }, 20, 3);
  SM90_CUDA(cudaGetLastError());
  const double flop = 4.0 * Tensors::B * Tensors::H * double(S) * S * D / (causal ? 2 : 1);
  const double mine = sm90_check::median(r.mine), base = sm90_check::median(r.theirs);
  std::printf("D%-4d S%-6d %-7s longest_first: %7.1f TFLOP/s   tile_major: %7.1f   ratio %.3f\n", D, S, causal ? "causal" : "full",
              flop / mine * 1e-9, flop / base * 1e-9, base / mine);
}
void all_orders() {
  for (bool causal : {true, false})
    for (int S : {4096, 8192, 16384}) {
      compare_orders<att::DefaultConfig<bfloat16_t, 64>>(S, causal);
      compare_orders<att::DefaultConfig<bfloat16_t, 128>>(S, causal);
      compare_orders<att::DefaultConfig<bfloat16_t, 256>>(S, causal);
    }
}

// The shipped kernel Cfg on persistent CTAs against a CTA per work tile, one problem: full
// attention strided; causal with the tile counter (a zeroed workspace: what Auto runs there
// when given one), then strided.
template <class Cfg>
void compare_grids(int S, bool causal) {
  constexpr int D = Cfg::head_dim;
  Tensors t(S, D, causal);
  void* workspace = nullptr;
  SM90_CUDA(cudaMalloc(&workspace, attention_counter_bytes));
  SM90_CUDA(cudaMemset(workspace, 0, attention_counter_bytes));
  AttentionArguments per_tile = t.a;
  per_tile.grid = AttentionGrid::PerTile;
  auto compare = [&](AttentionArguments const& persistent, const char* what) {
    const auto r = sm90_check::time_pairs([&] { launch<Cfg>(persistent); }, [&] { launch<Cfg>(per_tile); }, 20, 3);
    SM90_CUDA(cudaGetLastError());
    const double flop = 4.0 * Tensors::B * Tensors::H * double(S) * S * D / (causal ? 2 : 1);
    const double mine = sm90_check::median(r.mine), base = sm90_check::median(r.theirs);
    std::printf("D%-4d S%-6d %-7s persistent (%s): %7.1f TFLOP/s   per tile: %7.1f   ratio %.3f\n", D, S, causal ? "causal" : "full", what,
                flop / mine * 1e-9, flop / base * 1e-9, base / mine);
  };
  AttentionArguments persistent = t.a;
  persistent.grid = AttentionGrid::Persistent;
  if (causal) {
    AttentionArguments counter = persistent;
    counter.workspace = workspace, counter.workspace_bytes = attention_counter_bytes;  // (this TU has the kernels, not the library)
    compare(counter, "counter");
  }
  compare(persistent, "strided");
  cudaFree(workspace);
}
void all_grids() {
  for (bool causal : {false, true})
    for (int S : {4096, 8192, 16384}) {
      compare_grids<att::DefaultConfig<bfloat16_t, 64>>(S, causal);
      compare_grids<att::DefaultConfig<bfloat16_t, 128>>(S, causal);
      compare_grids<att::DefaultConfig<bfloat16_t, 256>>(S, causal);
    }
}

template <class Cfg>
const char* describe() {
  static char name[64];
  std::snprintf(name, sizeof name, "bN %3d, %d consumers", Cfg::bN, Cfg::Consumers);
  return name;
}

#ifndef TESSERA_TILES_ORDER_ONLY
// Cfg against Base, one problem.
template <class Cfg, class Base>
void compare(int S, bool causal) {
  static_assert(Cfg::head_dim == Base::head_dim, "the same problem for both");
  constexpr int D = Cfg::head_dim;
  Tensors t(S, D, causal);
  const auto r = sm90_check::time_pairs([&] { launch<Cfg>(t.a); }, [&] { launch<Base>(t.a); }, 20, 3);
  SM90_CUDA(cudaGetLastError());
  const double flop = 4.0 * Tensors::B * Tensors::H * double(S) * S * D / (causal ? 2 : 1);
  const double mine = sm90_check::median(r.mine), base = sm90_check::median(r.theirs);
  std::printf("D%-4d S%-6d %-7s %s: %7.1f TFLOP/s", D, S, causal ? "causal" : "full", describe<Cfg>(), flop / mine * 1e-9);
  std::printf("   %s: %7.1f   ratio %.3f\n", describe<Base>(), flop / base * 1e-9, base / mine);
}

template <class Cfg, class Base>
void all() {
  for (int S : {4096, 16384})
    for (bool causal : {false, true}) compare<Cfg, Base>(S, causal);
}
template <int D, int BN>
using Bf16 = att::AttentionConfig<bfloat16_t, D, BN>;
#endif

}  // namespace

int main(int argc, char** argv) {
  int major = 0;
  if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0) != cudaSuccess || major != 9) return 77;
  if (argc > 1 && std::string(argv[1]) == "order") {
    all_orders();
    return 0;
  }
  if (argc > 1 && std::string(argv[1]) == "persistent") {
    all_grids();
    return 0;
  }
#ifdef TESSERA_TILES_ORDER_ONLY
  std::fprintf(stderr, "built with TESSERA_TILES_ORDER_ONLY: run `%s order` or `%s persistent`\n", argv[0], argv[0]);
  return 2;
#else
  all<Bf16<128, 128>, Bf16<128, 128>>();  // (the same kernel on both sides: the method's noise)
  all<Bf16<128, 176>, Bf16<128, 128>>();
  all<Bf16<128, 192>, Bf16<128, 128>>();
  all<Bf16<64, 192>, Bf16<64, 128>>();
  // The shipped head-dim-64 kernel (three consumer warpgroups) against two.
  all<att::DefaultConfig<bfloat16_t, 64>, att::AttentionConfig<bfloat16_t, 64, 128, 2>>();
  // Head dim 256: the shipped 80 keys (FlashAttention-3's tile) against 64.
  all<Bf16<256, 80>, Bf16<256, 64>>();
  return 0;
#endif
}
