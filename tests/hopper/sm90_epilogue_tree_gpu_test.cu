// GPU check of an epilogue tree in the SM90 GEMM (TMA + wgmma, cooperative 128x128 tiles, the
// tree epilogues: kernels/collective/sm90_epilogue_tree.cuh and _tree_tma.cuh), the worked example of
// docs/gemm_epilogue.md:
//   z = alpha acc s_m[m] s_n[n] + bias[n]     (alpha given or per batch in memory, s_m per row,
//                                             s_n per column and batch, bias bf16)
//   aux = bf16(z)                             (AuxStore, column-major with padding)
//   D = relu(z)                               (bf16)
//   r[n] = max over m of D (per batch), amax = max |D| (over every batch)
// against an FP64 reference over fresh random inputs, NaN-poisoned D and aux: residues in M, N
// and K, a problem below one tile, batches, both D majors. The reductions are checked exactly:
// rounding is monotone, so bf16(r[n]) is the largest bf16 D of column n, and bf16(amax) the
// largest of all; the aux tensor's padding keeps its poison. The tree's refusals (named node)
// are checked first, without a GPU.
// Two kernel instances (this TU's), the example tree's: D stored from the registers
// (EpilogueTree<Tree>) and through the TMA-store staging (EpilogueTree<Tree, EpilogueTmaStore>).
// Besides, the menu's act(alpha acc + bias[n]) as trees (BiasActivation, TMA-store) for GELU
// (tanh) and SiLU, checked against FP64 the same way, and for GELU (erf) timed.
// The ping-pong kernel (kernel/sm90_gemm_tma_warpspecialized_pingpong.cuh: two consumer
// warpgroups with a whole tile each, one's epilogue under the other's mainloop) with the
// example tree (64 x 128 and 128 x 128 tiles) and the bias + activation trees (64 x 256 and
// 128 x 128) through TMA stores (a staging slot per consumer), checked the same way, on
// problems where each CTA runs several tiles, so that both consumers' tiles meet in the column
// maxima and amax.
// --small: four small residue problems (for compute-sanitizer). --time M N K: each tree beside
// the plain TMA-store kernels (cooperative 128 x 128 and 128 x 256; ping-pong 64 x 256,
// 128 x 128 and 64 x 128), the menu's fused GELU + bias and cuBLASLt's GELU_BIAS, launched in
// turns in one process (and bias + GELU on the cooperative 128 x 256): TFLOP/s, the ratio of
// each to the cooperative 128 x 128 plain kernel, to the fastest plain kernel, of cuBLASLt to
// it, of a tree to the plain kernel of its own kernel and tile, and each tree's budget over
// the fastest plain kernel (bias + activation 3%, the example + amax 6%). The kernels that only
// --time needs (the ping-pong and 128 x 256 plain kernels, the 128 x 256 bias + GELU tree) are
// compiled where TESSERA_TREE_TIMING_KERNELS is defined (tools/device/run_epilogue_tree.sh),
// not in the CMake build: CI's compile time goes to the checked kernels.
// Exit 0: all pass; 1: a failure (printed); 77: no sm_90 GPU (after the host checks).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "../../kernels/collective/sm90_epilogue_tree_tma.cuh"
#include "../../kernels/device/sm90_gemm.cuh"
#include "../../tools/harness/cublaslt_gelu_bias.hpp"
#include "../../tools/harness/sm90_gemm_check.hpp"

using namespace tessera;
using namespace tessera::kernels;
using namespace tessera::kernels::tree;
namespace s9 = tessera::kernels::sm90;

namespace {

using Z = Compute<plus, Compute<multiplies, Compute<multiplies, Compute<multiplies, Scalar<>, Accumulator>, ColumnBroadcast<float>>,
                                RowBroadcast<float>>,
                  RowBroadcast<bfloat16_t>>;
using Example = ScalarReduction<absolute_maximum, RowReduction<maximum_value, Compute<relu, AuxStore<bfloat16_t, Z>>>>;

// The two kernels: the tree's D stored from the registers (any D), and staged in shared memory
// with TMA stores (a D that TMA can store).
using Mainloop = s9::Sm90Mainloop<bfloat16_t, GMMA::Major::K, GMMA::Major::K, tuple<_128, _128, _64>, 2>;
template <class Stores>
using KernelOf = gemm_kernel_t<GemmProblemShape, Mainloop::CollectiveOp,
                               typename CollectiveEpilogueBuilder<Mainloop, bfloat16_t, 8, EpilogueTree<Example, Stores>>::CollectiveOp,
                               s9::WholeTileScheduler>;
using RegisterKernel = KernelOf<EpilogueDirect>;
using TmaKernel = KernelOf<EpilogueTmaStore>;
// The same mainloop with other epilogues: the plain TMA-store one, the menu's fused GELU + bias,
// and act(alpha acc + bias[n]) as trees.
template <class Epilogue>
using KernelWith = gemm_kernel_t<GemmProblemShape, Mainloop::CollectiveOp,
                                 typename CollectiveEpilogueBuilder<Mainloop, bfloat16_t, 8, Epilogue>::CollectiveOp, s9::WholeTileScheduler>;
using PlainKernel = KernelWith<EpilogueTmaStore>;
// The library's default tile (sm90::DefaultGemm: cooperative 128 x 256, clusters of 2), plain:
// --time's reference for the trees' budgets, beside this TU's other plain kernels.
using DefaultTileMainloop = s9::Sm90Mainloop<bfloat16_t, GMMA::Major::K, GMMA::Major::K, tuple<_128, _256, _64>, 2>;
template <class Epilogue>
using DefaultTileWith =
    gemm_kernel_t<GemmProblemShape, DefaultTileMainloop::CollectiveOp,
                  typename CollectiveEpilogueBuilder<DefaultTileMainloop, bfloat16_t, 8, Epilogue>::CollectiveOp, s9::WholeTileScheduler>;
using DefaultTilePlainKernel = DefaultTileWith<EpilogueTmaStore>;
using FusedGeluKernel = KernelWith<EpilogueTmaStoreFused<Activation::GELU>>;
template <Activation A>
using BiasAct = BiasActivation<bfloat16_t, RowBroadcast<bfloat16_t>, A>;
template <Activation A>
using BiasActKernel = KernelWith<EpilogueTree<BiasAct<A>, EpilogueTmaStore>>;
// Ping-pong, tiles per consumer warpgroup, clusters of 2 along M as the cooperative kernels
// here (B multicast: worth 20-25% to the ping-pong kernels at large shapes,
// bench/notes/sm90_gemm.md): 64 x 256 (wgmma m64n256k16, 128 accumulators per thread, 4 stages
// of 40 KiB beside two 16 KiB staging slots), 128 x 128 (two m64n128k16 per k16 step, 128
// accumulators, 6 stages of 32 KiB) and 64 x 128 (64 accumulators, 8 stages of 24 KiB). A row
// or column broadcast and a column reduction keep a register per held column (64 at BN = 256,
// 32 at BN = 128): the example tree's three of them spill beside 128 accumulators (ptxas: 572
// bytes at 64 x 256, 340 at 128 x 128), not beside 64 (64 x 128); it runs on 64 x 128, and on
// 128 x 128 for its reductions over two M repeats per thread; the bias + activation trees (one
// broadcast) on 64 x 256 and 128 x 128.
using Pp64x256 = tuple<_64, _256, _64>;
using Pp128x128 = tuple<_128, _128, _64>;
using Pp64x128 = tuple<_64, _128, _64>;
template <class Tile>
using PingpongMainloop = s9::Sm90Mainloop<bfloat16_t, GMMA::Major::K, GMMA::Major::K, Tile, 2, KernelTmaWarpSpecializedPingpong>;
template <class Tile, class Epilogue>
using PingpongWith =
    gemm_kernel_t<GemmProblemShape, typename PingpongMainloop<Tile>::CollectiveOp,
                  typename CollectiveEpilogueBuilder<PingpongMainloop<Tile>, bfloat16_t, 8, Epilogue>::CollectiveOp, s9::WholeTileScheduler>;
template <class Tile>
using PingpongPlainKernel = PingpongWith<Tile, EpilogueTmaStore>;
template <class Tile>
using PingpongExampleKernel = PingpongWith<Tile, EpilogueTree<Example, EpilogueTmaStore>>;
template <Activation A, class Tile>
using PingpongBiasActKernel = PingpongWith<Tile, EpilogueTree<BiasAct<A>, EpilogueTmaStore>>;
static_assert(std::is_same_v<PingpongExampleKernel<Pp64x128>,
                             s9::GemmTmaWarpSpecializedPingpong<
                                 PingpongMainloop<Pp64x128>::CollectiveOp,
                                 s9::CollectiveEpilogueSm90TreeTmaStore<bfloat16_t, 64, 128, 1, Example, s9::TreeFromCaller, 2>,
                                 s9::WholeTileScheduler>>,
              "the builder's tree on ping-pong: the ping-pong kernel with the TMA-store tree epilogue, a staging slot per consumer");
// Probes for the ping-pong kernel's cost of a tree (--time only, TESSERA_TREE_TIMING_KERNELS):
// the bias + GELU (erf) tree's two halves, each alone on the 128 x 128 tile, so that its cost
// over the plain kernel is split between the bias (a broadcast's loads per tile, begin_tile)
// and the activation (arithmetic per value, MUFU ex2 and rcp).
using GeluNoBias = Compute<activation_op<Activation::GELU>, Compute<multiplies, Scalar<>, Accumulator>>;
using BiasNoActivation = Compute<multiply_add, Scalar<>, Accumulator, RowBroadcast<bfloat16_t>>;
// and the whole tree with GELU's 2^t and reciprocal by FFMA and integer instructions, no MUFU
// (the library's GELU takes an ex2 and an rcp per value): whether the per-value MUFU is what
// the other consumer's mainloop pays for. A timing probe, not a library formula: t clamped to
// [-126, 126], 2^f by a degree-6 Taylor polynomial on |f| <= 1/2 (~1e-7 relative), the
// reciprocal by three Newton steps from an integer guess.
struct gelu_without_mufu {
  TESSERA_HOST_DEVICE float operator()(float x) const {
    float t = tessera::kernels::epilogue::fast::gelu_exponent(x);  // (the library GELU's exponent)
    t = t < -126.0f ? -126.0f : t > 126.0f ? 126.0f : t;
    const float shifted = t + 12582912.0f;  // 1.5 2^23: t rounded to an integer in the low bits
    const float n = shifted - 12582912.0f, f = t - n;
    float e = 1.5403530393381606e-04f;  // (ln 2)^k / k!, k = 6 .. 0: 2^f = e^(f ln 2)
    e = e * f + 0.0013333558146428443f;
    e = e * f + 0.009618129107628477f;
    e = e * f + 0.05550410866482158f;
    e = e * f + 0.2402265069591007f;
    e = e * f + 0.6931471805599453f;
    e = e * f + 1.0f;
    std::uint32_t eb, sb;
    std::memcpy(&eb, &e, 4);
    std::memcpy(&sb, &shifted, 4);
    eb += (sb - 0x4B400000u) << 23;  // times 2^n (n's integer in shifted's low mantissa bits)
    float pow2;
    std::memcpy(&pow2, &eb, 4);
    const float d = 1.0f + pow2;
    std::uint32_t db;
    std::memcpy(&db, &d, 4);
    db = 0x7EF311C3u - db;  // 1/d to a few bits
    float r;
    std::memcpy(&r, &db, 4);
    r = r * (2.0f - d * r);
    r = r * (2.0f - d * r);
    r = r * (2.0f - d * r);
    return x * r;
  }
};
using BiasGeluWithoutMufu = Compute<gelu_without_mufu, Compute<multiply_add, Scalar<>, Accumulator, RowBroadcast<bfloat16_t>>>;
template <class Tile>
std::string tile_name() {
  return std::to_string(int(get<0>(Tile{}))) + "x" + std::to_string(int(get<1>(Tile{})));
}
// How a kernel of this TU stores D (the lines' names).
template <class Kernel>
std::string stores_of() {
  if constexpr (std::is_same_v<Kernel, RegisterKernel>) return "registers";
  else if constexpr (std::is_same_v<Kernel, TmaKernel>) return "TMA";
  else if constexpr (std::is_same_v<Kernel, PingpongExampleKernel<Pp64x128>>) return "ping-pong " + tile_name<Pp64x128>() + ", TMA";
  else return "ping-pong " + tile_name<Pp128x128>() + ", TMA";
}
template <class Kernel>
inline constexpr bool tma_stores = !std::is_same_v<Kernel, RegisterKernel>;
static_assert(std::is_same_v<CollectiveEpilogueBuilder<Mainloop, bfloat16_t, 8, EpilogueTree<Example>>::CollectiveOp,
                             s9::CollectiveEpilogueSm90Tree<bfloat16_t, Example>> &&
                  std::is_same_v<CollectiveEpilogueBuilder<Mainloop, bfloat16_t, 8, EpilogueTree<Example, EpilogueTmaStore>>::CollectiveOp,
                                 s9::CollectiveEpilogueSm90TreeTmaStore<bfloat16_t, 128, 128, 2, Example>>,
              "the builder's EpilogueTree<Tree, Stores> is the tree epilogue of that tree with those stores");

template <class T>
T* to_device(std::vector<T> const& v) {
  T* p = nullptr;
  SM90_CUDA(cudaMalloc(&p, v.size() * sizeof(T)));
  SM90_CUDA(cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  return p;
}
template <class T>
std::vector<T> to_host(const T* p, std::size_t n) {
  std::vector<T> v(n);
  SM90_CUDA(cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost));
  return v;
}

struct Operands {
  std::vector<float> sm, sn;
  std::vector<bfloat16_t> bias;
  float alpha = 0.5f;
};
Operands operands(int64_t m, int64_t n, int64_t l, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(0.5f, 1.5f), b(-1.0f, 1.0f);
  Operands o;
  o.sm.resize(size_t(m));
  o.sn.resize(size_t(n * l));
  o.bias.resize(size_t(n));
  for (auto& x : o.sm) x = u(rng);
  for (auto& x : o.sn) x = u(rng);
  for (auto& x : o.bias) x = bfloat16_t(b(rng));
  return o;
}

// The tree's arguments: aux column-major (ld_aux, batch stride bs_aux), r per batch (N apart),
// amax one for all batches, s_n per batch.
Example::Arguments example_arguments(Scalar<>::Arguments alpha, const float* sm, const float* sn, int64_t n, const bfloat16_t* bias, bfloat16_t* aux,
                                     int64_t ld_aux, int64_t bs_aux, float* r, float* amax) {
  return {amax, 0, {r, n, {{aux, 1, ld_aux, bs_aux, {{{{alpha, {}}, {sm}}, {sn, n}}, {bias}}}}}};
}

// alpha_in_memory: alpha read from device memory, one per batch (alpha (1 + q/4) for batch q),
// as an FP8 scale a quantization step wrote.
template <class Kernel>
int check(int64_t m, int64_t n, int64_t k, int64_t l, bool d_row, bool alpha_in_memory = false) {
  const std::string kernel_name = stores_of<Kernel>();
  const char* stores = kernel_name.c_str();
  sm90_check::Problem<bfloat16_t> p(m, n, k, l, d_row, 1.0f, 0.0f, uint64_t(m * 7919 + n * 31 + k + l), "TN");
  const Operands o = operands(m, n, l, uint64_t(m + n + k));
  float* dsm = to_device(o.sm);
  float* dsn = to_device(o.sn);
  bfloat16_t* dbias = to_device(o.bias);
  const int64_t ld_aux = m + 8, bs_aux = ld_aux * n + 64;
  bfloat16_t* daux = nullptr;
  SM90_CUDA(cudaMalloc(&daux, size_t(bs_aux * l) * sizeof(bfloat16_t)));
  SM90_CUDA(cudaMemset(daux, 0xff, size_t(bs_aux * l) * sizeof(bfloat16_t)));  // NaN
  const std::vector<float> r0(size_t(n * l), -std::numeric_limits<float>::infinity());
  float* dr = to_device(r0);
  float* damax = to_device(std::vector<float>{0.0f});

  auto fail = [&](const std::string& what) {
    std::printf("tree (%s) %lld x %lld x %lld x %lld D %s: FAIL (%s)\n", stores, (long long)m, (long long)n, (long long)k, (long long)l,
                d_row ? "row" : "col", what.c_str());
    return 1;
  };
  if (auto r = check_arguments(p.args); !r) return fail("check_arguments: " + r.message);
  auto args = Kernel::arguments_of(p.args);
  std::vector<float> alphas(size_t(l), o.alpha);
  if (alpha_in_memory)
    for (int64_t q = 0; q < l; ++q) alphas[size_t(q)] = o.alpha * (1.0f + 0.25f * float(q));
  float* dalphas = to_device(alphas);
  args.epilogue.tree = example_arguments(alpha_in_memory ? Scalar<>::Arguments{0.0f, dalphas, 1} : Scalar<>::Arguments{o.alpha}, dsm, dsn,
                                         n, dbias, daux, ld_aux, bs_aux, dr, damax);
  s9::GemmSm90<Kernel> op;
  if (auto r = op.initialize(args); !r) return fail("initialize: " + r.message);
  if (auto r = op.run(); !r) return fail("run: " + r.message);
  SM90_CUDA(cudaDeviceSynchronize());

  const auto d = to_host(p.dd, size_t(m * n * l));
  const auto aux = to_host(daux, size_t(bs_aux * l));
  const auto r = to_host(dr, size_t(n * l));
  const float amax = to_host(damax, 1)[0];
  int64_t bad_d = 0, bad_aux = 0, bad_pad = 0, bad_r = 0;
  double num = 0, den = 0;
  float all_max = 0.0f;
  for (int64_t q = 0; q < l; ++q)
    for (int64_t j = 0; j < n; ++j) {
      float col_max = -std::numeric_limits<float>::infinity();
      for (int64_t i = 0; i < m; ++i) {
        const double z = double(alphas[size_t(q)]) * p.ref(i, j, q) * o.sm[size_t(i)] * o.sn[size_t(j + n * q)] + double(o.bias[size_t(j)].to_float());
        const double want = z < 0 ? 0.0 : z;
        const float got = d[size_t(p.at_d(i, j, q))].to_float();
        // bf16 rounding (2^-9 relative) and the f32 accumulation's error
        if (!(std::fabs(got - want) <= std::ldexp(std::fabs(want), -7) + 1e-3)) ++bad_d;
        const float stored = aux[size_t(q * bs_aux + i + j * ld_aux)].to_float();
        if (!(std::fabs(stored - z) <= std::ldexp(std::fabs(z), -7) + 1e-3)) ++bad_aux;
        num += (got - want) * (got - want);
        den += want * want;
        col_max = std::fmax(col_max, got);
        all_max = std::fmax(all_max, std::fabs(got));
      }
      if (bfloat16_t(r[size_t(j + n * q)]).bits != bfloat16_t(col_max).bits) ++bad_r;
    }
  for (int64_t q = 0; q < l; ++q)
    for (int64_t off = 0; off < bs_aux; ++off)
      if (!(off < ld_aux * n && off % ld_aux < m) && aux[size_t(q * bs_aux + off)].bits != 0xffff) ++bad_pad;
  const double rel = std::sqrt(num / (den > 0 ? den : 1));
  cudaFree(dsm); cudaFree(dsn); cudaFree(dbias); cudaFree(daux); cudaFree(dr); cudaFree(damax); cudaFree(dalphas);
  std::printf("tree (%s) %lld x %lld x %lld x %lld D %s: rel %.2e, D off %lld, aux off %lld, aux padding written %lld, r[n] off %lld, amax %g (want %g)\n",
              stores, (long long)m, (long long)n, (long long)k, (long long)l, d_row ? "row" : "col", rel, (long long)bad_d, (long long)bad_aux,
              (long long)bad_pad, (long long)bad_r, double(amax), double(all_max));
  if (bad_d || bad_aux || bad_pad || bad_r || rel > 1e-2) return fail("elements off");
  if (bfloat16_t(amax).bits != bfloat16_t(all_max).bits) return fail("amax");
  return 0;
}

// act(alpha acc + bias[n]) as a tree (TMA stores, D column-major) against FP64: the harness's
// fused-epilogue reference (its bias, its activation), the menu's fields cleared for the tree.
// PingpongTile: void the cooperative kernel, else the ping-pong kernel of that tile per consumer.
template <Activation A, class PingpongTile = void>
int check_bias_act(int64_t m, int64_t n, int64_t k, int64_t l) {
  constexpr bool pingpong = !std::is_void_v<PingpongTile>;
  using Tile = std::conditional_t<pingpong, PingpongTile, Pp64x256>;  // (named only where pingpong)
  using Kernel = std::conditional_t<pingpong, PingpongBiasActKernel<A, Tile>, BiasActKernel<A>>;
  std::string kernel_name = "TMA";
  if constexpr (pingpong) kernel_name = "ping-pong " + tile_name<PingpongTile>() + ", TMA";
  const char* kernel = kernel_name.c_str();
  const float alpha = 0.75f;
  sm90_check::Problem<bfloat16_t> p(m, n, k, l, false, alpha, 0.0f, uint64_t(m * 131 + n * 7 + k + l), "TN");
  p.fuse(A, Bias::PerColumn, uint64_t(m + n));
  auto args = Kernel::arguments_of(p.args);
  args.epilogue.activation = Activation::Identity;  // (the tree computes them)
  args.epilogue.bias = Bias::None;
  args.epilogue.bias_ptr = nullptr;
  args.epilogue.alpha = 1.0f;
  args.epilogue.tree = {{{alpha}, {}, {p.dbias, 0}}};
  auto fail = [&](const std::string& what) {
    std::printf("tree bias + %s (%s) %lld x %lld x %lld x %lld: FAIL (%s)\n", to_string(A), kernel, (long long)m, (long long)n,
                (long long)k, (long long)l, what.c_str());
    return 1;
  };
  s9::GemmSm90<Kernel> op;
  if (auto r = op.initialize(args); !r) return fail("initialize: " + r.message);
  if (auto r = op.run(); !r) return fail("run: " + r.message);
  SM90_CUDA(cudaDeviceSynchronize());
  const auto d = to_host(p.dd, size_t(m * n * l));
  int64_t bad = 0;
  double num = 0, den = 0;
  for (int64_t q = 0; q < l; ++q)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < m; ++i) {
        const double want = p.ref(i, j, q);
        const float got = d[size_t(p.at_d(i, j, q))].to_float();
        if (!(std::fabs(got - want) <= std::ldexp(std::fabs(want), -7) + 1e-3)) ++bad;
        num += (got - want) * (got - want);
        den += want * want;
      }
  const double rel = std::sqrt(num / (den > 0 ? den : 1));
  std::printf("tree bias + %s (%s) %lld x %lld x %lld x %lld: rel %.2e, D off %lld\n", to_string(A), kernel, (long long)m,
              (long long)n, (long long)k, (long long)l, rel, (long long)bad);
  return bad || rel > 1e-2 ? fail("elements off") : 0;
}

// What the kernel refuses before it runs (no GPU needed): a tree operand missing, a misaligned
// vector, the fixed menu's fields beside a tree.
template <class Kernel>
int check_refusals() {
  int fails = 0;
  sm90_check::GemmArguments g;
  g.m = 256; g.n = 128; g.k = 64; g.batch = 1;
  g.element = Element::BF16;
  alignas(16) static bfloat16_t storage[256 * 128];
  alignas(16) static float vectors[512];
  g.a = {storage, Major::Row, 64, 0};
  g.b = {storage, Major::Col, 64, 0};
  g.c = {nullptr, Major::Col, 256, 0};
  g.d = storage;
  g.ldd = 256;
  auto expect = [&](typename Kernel::Arguments const& a, GemmStatus status, const char* text) {
    const GemmResult r = Kernel::can_implement(a);
    if (r.status != status || r.message.find(text) == std::string::npos) {
      std::printf("refusal: FAIL: want status %d with \"%s\", got %d \"%s\"\n", int(status), text, int(r.status), r.message.c_str());
      ++fails;
    }
  };
  auto a = Kernel::arguments_of(g);
  a.epilogue.tree = example_arguments({1.0f}, vectors, vectors, g.n, nullptr, storage, 256, 0, vectors, vectors);
  expect(a, GemmStatus::NullPointer, "root.0.0.0.0.1 (RowBroadcast): null pointer for a vector of N = 128 bf16 elements");
  a.epilogue.tree = example_arguments({1.0f}, vectors, reinterpret_cast<const float*>(reinterpret_cast<const char*>(vectors) + 2), g.n,
                                      storage, storage, 256, 0, vectors, vectors);
  expect(a, GemmStatus::Misaligned, "root.0.0.0.0.0.1 (RowBroadcast): a vector of N = 128 f32 elements is not aligned");
  a.epilogue.tree = example_arguments({1.0f}, vectors, vectors, g.n, storage, storage, 256, 0, vectors, vectors);
  expect(a, GemmStatus::Success, "");
  a.epilogue.beta = 1.0f;
  expect(a, GemmStatus::Unsupported, "nodes of the tree");
  a.epilogue.beta = 0.0f;
  a.epilogue.c.major = Major::Row;  // D row-major: the registers' stores only
  a.epilogue.ldd = 128;
  if constexpr (tma_stores<Kernel>) expect(a, GemmStatus::Unsupported, "needs a D that TMA can store");
  else expect(a, GemmStatus::Success, "");
  return fails;
}

// --time M N K (D column-major, no check): the plain TMA-store kernels (cooperative 128 x 128
// and 128 x 256, the library's default tile; ping-pong 64 x 256, 128 x 128 and 64 x 128 per
// consumer), the menu's fused GELU + bias, cuBLASLt's GELU_BIAS (tanh, bias along M), the trees
// bias + GELU (erf), bias + GELU (tanh), bias + SiLU, and the example tree (alpha, row and
// column scales, bias, an aux store, ReLU, a column max and amax) on the cooperative and the
// ping-pong kernels (bias + GELU (erf) on the cooperative 128 x 256 too), all on one problem's
// operands. Rounds: each kernel in turn launched `burst` times between two events, so that
// clocks and temperature drift alike for all; a kernel's time is its median round. A tree's
// budget is over the fastest plain kernel (what the tree may cost beside the best plain GEMM).
// The bias + activation tree kernels of one kernel kind, by activation (--time's lines).
struct CoopBiasAct {
  template <Activation A>
  using type = BiasActKernel<A>;
};
struct DefaultTileBiasAct {
  template <Activation A>
  using type = DefaultTileWith<EpilogueTree<BiasAct<A>, EpilogueTmaStore>>;
};
template <class Tile>
struct PingpongBiasAct {
  template <Activation A>
  using type = PingpongBiasActKernel<A, Tile>;
};
struct Timed {
  const char* name;
  std::function<void()> launch;
  std::vector<float> ms;
  bool plain = false;   // a plain kernel (the budgets' reference: the fastest one)
  double budget = 0;    // a tree's time over the fastest plain kernel's, at most (0: none)
  bool anchor = false;  // cuBLASLt's GELU_BIAS (each line's time against it)
  const char* own = nullptr;  // a tree's plain kernel of the same kernel and tile (what it adds to it)
};
void time_all(int64_t m, int64_t n, int64_t k) {
  sm90_check::Problem<bfloat16_t> p(m, n, k, 1, false, 1.0f, 0.0f, 1, "TN");
  p.fuse(Activation::GELU, Bias::PerColumn, 3);
  const Operands o = operands(m, n, 1, 2);
  float* dsm = to_device(o.sm);
  float* dsn = to_device(o.sn);
  bfloat16_t* dbias = to_device(o.bias);
  bfloat16_t* daux = nullptr;
  SM90_CUDA(cudaMalloc(&daux, size_t(m * n) * sizeof(bfloat16_t)));
  float* dr = to_device(std::vector<float>(size_t(n), 0.0f));
  float* damax = to_device(std::vector<float>{0.0f});
  GemmArguments plain_args = p.args;  // (the menu's fields cleared: the plain kernel and the trees)
  plain_args.epilogue.activation = Activation::Identity;
  plain_args.epilogue.bias = Bias::None;
  plain_args.epilogue.bias_ptr = nullptr;

  std::vector<Timed> kernels;
  bool ok = true;
  auto add = [&](const char* name, auto op_tag, auto const& args, bool plain = false, double budget = 0, const char* own = nullptr) {
    using Op = typename decltype(op_tag)::type;
    auto op = std::make_shared<Op>();
    if (auto r = op->initialize(args); !r) {
      std::printf("time: %s: initialize: %s\n", name, r.message.c_str());
      ok = false;
      return;
    }
    kernels.push_back({name, [op] { (void)op->run(); }, {}, plain, budget, false, own});
  };
  const char* coop128 = "cooperative 128x128: plain (TMA store)";  // (first: the "/ plain" column's)
  [[maybe_unused]] const char* coop256 = "cooperative 128x256: plain (TMA store)";  // (TESSERA_TREE_TIMING_KERNELS)
  const char* pp256 = "ping-pong 64x256: plain (TMA store)";
  const char* pp128 = "ping-pong 128x128: plain (TMA store)";
  const char* pp64 = "ping-pong 64x128: plain (TMA store)";
  add(coop128, std::type_identity<s9::GemmSm90<PlainKernel>>{}, PlainKernel::arguments_of(plain_args), true);
#if defined(TESSERA_TREE_TIMING_KERNELS)
  add(coop256, std::type_identity<s9::GemmSm90<DefaultTilePlainKernel>>{}, DefaultTilePlainKernel::arguments_of(plain_args), true);
  add(pp256, std::type_identity<s9::GemmSm90<PingpongPlainKernel<Pp64x256>>>{}, PingpongPlainKernel<Pp64x256>::arguments_of(plain_args),
      true);
  add(pp128, std::type_identity<s9::GemmSm90<PingpongPlainKernel<Pp128x128>>>{},
      PingpongPlainKernel<Pp128x128>::arguments_of(plain_args), true);
  add(pp64, std::type_identity<s9::GemmSm90<PingpongPlainKernel<Pp64x128>>>{}, PingpongPlainKernel<Pp64x128>::arguments_of(plain_args),
      true);
#else
  std::printf("time: built without TESSERA_TREE_TIMING_KERNELS: no ping-pong or 128x256 plain kernel; the budgets are over the "
              "cooperative 128x128 plain kernel\n");
#endif
  add("menu: fused GELU + bias (cooperative 128x128)", std::type_identity<s9::GemmSm90<FusedGeluKernel>>{},
      FusedGeluKernel::arguments_of(p.args), false, 0, coop128);
  // cuBLASLt's GELU_BIAS on the same operands (its own D; a bias of M elements, along D's rows)
  bfloat16_t* lt_d = nullptr;
  SM90_CUDA(cudaMalloc(&lt_d, size_t(m * n) * sizeof(bfloat16_t)));
  bfloat16_t* lt_bias = to_device(std::vector<bfloat16_t>(size_t(m), bfloat16_t(0.25f)));
  cublasLtHandle_t lt = nullptr;
  std::shared_ptr<sm90_check::LtGeluBias> lt_gemm;
  if (cublasLtCreate(&lt) == CUBLAS_STATUS_SUCCESS) {
    lt_gemm = std::make_shared<sm90_check::LtGeluBias>(lt, m, n, k, p.da, p.db, lt_d, lt_bias);
    if (lt_gemm->error().empty()) kernels.push_back({"cuBLASLt GELU_BIAS (tanh)", [lt_gemm] { (void)lt_gemm->run(); }, {}, false, 0, true});
    else std::printf("time: %s (no cuBLASLt anchor)\n", lt_gemm->error().c_str());
  } else {
    std::printf("time: cublasLtCreate failed (no cuBLASLt anchor)\n");
  }
  auto bias_act = [&](const char* name, auto act_tag, auto kernel_tag, const char* own) {
    constexpr Activation A = decltype(act_tag)::value;
    using Kernel = typename decltype(kernel_tag)::template type<A>;
    auto args = Kernel::arguments_of(plain_args);
    args.epilogue.tree = {{{1.0f}, {}, {p.dbias, 0}}};
    add(name, std::type_identity<s9::GemmSm90<Kernel>>{}, args, false, 1.03, own);
  };
  using Gelu = std::integral_constant<Activation, Activation::GELU>;
  using GeluTanh = std::integral_constant<Activation, Activation::GELUTanh>;
  using Silu = std::integral_constant<Activation, Activation::SiLU>;
  bias_act("cooperative 128x128 tree: bias + GELU (erf)", Gelu{}, CoopBiasAct{}, coop128);
  bias_act("cooperative 128x128 tree: bias + GELU (tanh)", GeluTanh{}, CoopBiasAct{}, coop128);
  bias_act("cooperative 128x128 tree: bias + SiLU", Silu{}, CoopBiasAct{}, coop128);
#if defined(TESSERA_TREE_TIMING_KERNELS)
  bias_act("cooperative 128x256 tree: bias + GELU (erf)", Gelu{}, DefaultTileBiasAct{}, coop256);
#endif
  bias_act("ping-pong 64x256 tree: bias + GELU (erf)", Gelu{}, PingpongBiasAct<Pp64x256>{}, pp256);
  bias_act("ping-pong 64x256 tree: bias + GELU (tanh)", GeluTanh{}, PingpongBiasAct<Pp64x256>{}, pp256);
  bias_act("ping-pong 64x256 tree: bias + SiLU", Silu{}, PingpongBiasAct<Pp64x256>{}, pp256);
  bias_act("ping-pong 128x128 tree: bias + GELU (erf)", Gelu{}, PingpongBiasAct<Pp128x128>{}, pp128);
  bias_act("ping-pong 128x128 tree: bias + GELU (tanh)", GeluTanh{}, PingpongBiasAct<Pp128x128>{}, pp128);
  bias_act("ping-pong 128x128 tree: bias + SiLU", Silu{}, PingpongBiasAct<Pp128x128>{}, pp128);
#if defined(TESSERA_TREE_TIMING_KERNELS)
  {  // the probes: no budget (not trees of the bar), their time over their own plain kernel
    using NoBias = PingpongWith<Pp128x128, EpilogueTree<GeluNoBias, EpilogueTmaStore>>;
    auto gelu_args = NoBias::arguments_of(plain_args);
    gelu_args.epilogue.tree = {{{1.0f}, {}}};
    add("ping-pong 128x128 probe: GELU (erf), no bias", std::type_identity<s9::GemmSm90<NoBias>>{}, gelu_args, false, 0, pp128);
    using NoAct = PingpongWith<Pp128x128, EpilogueTree<BiasNoActivation, EpilogueTmaStore>>;
    auto bias_args = NoAct::arguments_of(plain_args);
    bias_args.epilogue.tree = {{1.0f}, {}, {p.dbias, 0}};
    add("ping-pong 128x128 probe: bias, no activation", std::type_identity<s9::GemmSm90<NoAct>>{}, bias_args, false, 0, pp128);
    using NoMufu = PingpongWith<Pp128x128, EpilogueTree<BiasGeluWithoutMufu, EpilogueTmaStore>>;
    auto nomufu_args = NoMufu::arguments_of(plain_args);
    nomufu_args.epilogue.tree = {{{1.0f}, {}, {p.dbias, 0}}};
    add("ping-pong 128x128 probe: bias + GELU, no MUFU", std::type_identity<s9::GemmSm90<NoMufu>>{}, nomufu_args, false, 0, pp128);
  }
#endif
  auto example = [&](const char* name, auto kernel_tag, const char* own) {
    using Kernel = typename decltype(kernel_tag)::type;
    auto args = Kernel::arguments_of(plain_args);
    args.epilogue.tree = example_arguments({o.alpha}, dsm, dsn, n, dbias, daux, m, 0, dr, damax);
    add(name, std::type_identity<s9::GemmSm90<Kernel>>{}, args, false, 1.06, own);
  };
  example("cooperative 128x128 tree: 5-node example + amax (TMA)", std::type_identity<TmaKernel>{}, coop128);
  example("cooperative 128x128 tree: 5-node example + amax (regs)", std::type_identity<RegisterKernel>{}, coop128);
  example("ping-pong 64x128 tree: 5-node example + amax", std::type_identity<PingpongExampleKernel<Pp64x128>>{}, pp64);
  example("ping-pong 128x128 tree: 5-node example + amax", std::type_identity<PingpongExampleKernel<Pp128x128>>{}, pp128);
  if (!ok) return;

  cudaEvent_t start, stop;
  SM90_CUDA(cudaEventCreate(&start));
  SM90_CUDA(cudaEventCreate(&stop));
  for (auto& t : kernels)
    for (int i = 0; i < 3; ++i) t.launch();
  SM90_CUDA(cudaDeviceSynchronize());
  const int rounds = 15, burst = 5;
  for (int round = 0; round < rounds; ++round)
    for (auto& t : kernels) {
      SM90_CUDA(cudaEventRecord(start));
      for (int i = 0; i < burst; ++i) t.launch();
      SM90_CUDA(cudaEventRecord(stop));
      SM90_CUDA(cudaEventSynchronize(stop));
      float ms = 0;
      SM90_CUDA(cudaEventElapsedTime(&ms, start, stop));
      t.ms.push_back(ms / burst);
    }
  SM90_CUDA(cudaGetLastError());
  const double flop = 2.0 * double(m) * double(n) * double(k);
  auto median_ms = [](Timed& t) {
    std::sort(t.ms.begin(), t.ms.end());
    return double(t.ms[t.ms.size() / 2]);
  };
  const double plain_ms = median_ms(kernels.front());  // the cooperative 128 x 128 plain kernel
  double best_ms = plain_ms;
  const char* best = kernels.front().name;
  for (auto& t : kernels)
    if (t.plain && median_ms(t) < best_ms) {
      best_ms = median_ms(t);
      best = t.name;
    }
  double lt_ms = 0;
  for (auto& t : kernels)
    if (t.anchor) lt_ms = median_ms(t);
  auto ms_of = [&](const char* name) {
    for (auto& t : kernels)
      if (std::string(t.name) == name) return median_ms(t);
    return 0.0;
  };
  std::printf("%lld x %lld x %lld, tiles per CTA (cooperative) or per consumer (ping-pong), clusters of 2, median of %d rounds of "
              "%d launches; best plain: %s:\n",
              (long long)m, (long long)n, (long long)k, rounds, burst, best);
  int over = 0;
  for (auto& t : kernels) {
    const double ms = median_ms(t);
    std::printf("  %-56s %8.3f ms  %6.0f TFLOP/s  / coop 128x128 plain %.3f  / best plain %.3f", t.name, ms,
                flop / (ms * 1e-3) / 1e12, ms / plain_ms, ms / best_ms);
    if (lt_ms > 0) std::printf("  cuBLASLt GELU_BIAS / this %.3f", lt_ms / ms);
    if (t.own != nullptr && ms_of(t.own) > 0) std::printf("  / own plain %.3f", ms / ms_of(t.own));
    if (t.budget > 0) {
      const bool within = ms / best_ms <= t.budget;
      over += !within;
      std::printf("  (budget %.2f: %s)", t.budget, within ? "within" : "OVER");
    }
    std::printf("\n");
  }
  std::printf("trees over their budget: %d\n", over);
  cudaEventDestroy(start); cudaEventDestroy(stop);
  lt_gemm.reset();
  if (lt) cublasLtDestroy(lt);
  cudaFree(lt_d); cudaFree(lt_bias);
  cudaFree(dsm); cudaFree(dsn); cudaFree(dbias); cudaFree(daux); cudaFree(dr); cudaFree(damax);
}

}  // namespace

int main(int argc, char** argv) {
  const bool small_only = argc > 1 && std::string(argv[1]) == "--small";  // (compute-sanitizer)
  int fails = check_refusals<RegisterKernel>() + check_refusals<TmaKernel>() + check_refusals<PingpongExampleKernel<Pp64x128>>();
  int dev = 0, major = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess ||
      major != 9) {
    std::printf(fails ? "host refusal checks FAILED; skipped: no sm_90 GPU\n" : "host refusal checks pass; skipped: no sm_90 GPU\n");
    return fails ? 1 : 77;
  }
  if (argc == 5 && std::string(argv[1]) == "--time") {
    const int64_t m = std::atoll(argv[2]), n = std::atoll(argv[3]), k = std::atoll(argv[4]);
    time_all(m, n, k);
    return fails ? 1 : 0;
  }
  if (small_only) {  // residues in M and N under memcheck: the tree reads and writes nothing past them
    fails += check<TmaKernel>(72, 40, 64, 2, false, true);
    fails += check<PingpongExampleKernel<Pp64x128>>(72, 40, 64, 2, false, true);
    fails += check<RegisterKernel>(131, 130, 72, 1, true);
    fails += check<RegisterKernel>(72, 40, 64, 2, false);
    std::printf(fails ? "FAILED: %d\n" : "all passed\n", fails);
    return fails ? 1 : 0;
  }
  // TMA stores: D column-major, ld and batch stride whole 16 bytes
  fails += check<TmaKernel>(128, 128, 64, 1, false);     // one tile, one k-tile
  fails += check<TmaKernel>(1032, 2055, 200, 1, false);  // residues in M, N and K, many tiles
  fails += check<TmaKernel>(72, 40, 64, 2, false, true); // below one tile, two batches, alpha per batch in memory
  // stores from the registers: any D
  fails += check<RegisterKernel>(128, 128, 64, 1, false);
  fails += check<RegisterKernel>(1031, 2055, 200, 1, false);  // ld not 16-byte aligned
  fails += check<RegisterKernel>(1031, 2055, 200, 1, true);   // D row-major
  fails += check<RegisterKernel>(72, 40, 64, 2, false);
  fails += check<RegisterKernel>(384, 520, 136, 3, true, true);  // batches (alpha, s_n and r per batch, amax over all), N residue
  // act(alpha acc + bias[n]) as trees: whole tiles, residues, batches
  fails += check_bias_act<Activation::GELU>(1032, 2055, 200, 2);  // (the timing's kernel: GELU's fitted formula, residues)
  fails += check_bias_act<Activation::GELUTanh>(1024, 1024, 256, 1);
  fails += check_bias_act<Activation::GELUTanh>(1032, 2055, 200, 2);
  fails += check_bias_act<Activation::SiLU>(1024, 1024, 256, 1);
  fails += check_bias_act<Activation::SiLU>(72, 40, 64, 2);
  // ping-pong (a staging slot per consumer): the example on 64 x 128 tiles: one tile; residues
  // in M, N and K; below one tile with batches; and 2 x 297 tiles (about 4.5 per CTA, both
  // consumers busy, their tiles' partials meeting in r[n] and amax) with alpha per batch in
  // memory; on 128 x 128 tiles (two M repeats per consumer) likewise; the bias + activation
  // trees on 64 x 256 and 128 x 128
  using Pp64 = PingpongExampleKernel<Pp64x128>;
  using Pp128 = PingpongExampleKernel<Pp128x128>;
  fails += check<Pp64>(64, 128, 64, 1, false);
  fails += check<Pp64>(1032, 2055, 200, 1, false);
  fails += check<Pp64>(72, 40, 64, 2, false, true);
  fails += check<Pp64>(2056, 1032, 72, 2, false, true);
  fails += check<Pp128>(1032, 2055, 200, 1, false);
  fails += check<Pp128>(2056, 1032, 72, 2, false, true);
  fails += check_bias_act<Activation::GELU, Pp64x256>(1032, 2055, 200, 2);
  fails += check_bias_act<Activation::GELUTanh, Pp64x256>(2056, 1032, 72, 1);
  fails += check_bias_act<Activation::SiLU, Pp64x256>(72, 40, 64, 2);
  fails += check_bias_act<Activation::GELU, Pp128x128>(2056, 1032, 72, 2);
  fails += check_bias_act<Activation::GELUTanh, Pp128x128>(1032, 2055, 200, 1);
  fails += check_bias_act<Activation::SiLU, Pp128x128>(72, 40, 64, 2);
  std::printf(fails ? "FAILED: %d\n" : "all passed\n", fails);
  return fails ? 1 : 0;
}
