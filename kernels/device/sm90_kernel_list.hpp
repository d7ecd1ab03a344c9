// The SM90 kernels the library ships: one list of types that drives the translation units
// that compile them (sm90_instances_*.cu, TESSERA_SM90_INSTANCES) and the dispatch that picks
// one for a problem (sm90_instances.cu, sm90_schedule.hpp). A new kernel is its type and one
// line in `Kernels`, naming the unit that compiles it; the dispatch finds it by what its type
// says (KernelTraits: input and D types, operand majors, tile, schedule, split-K, fused
// activation, cluster). Plain C++: the kernel types are named, not compiled, here.
//
//   Whole<T, MA, MB, D>   128x256 tiles, whole tiles only (no split-K code): 16-bit inputs, 4
//                         majors, D in T or f32 (16 kernels). D in T: the epilogue under the
//                         next tile's first 2 k-tiles (ShippedEpilogueOrder, sm90_configs.hpp;
//                         beta != 0, a bias or an activation on the direct stores, a D that TMA
//                         cannot store run after the tile: the kernel's second entry); D in f32 after
//                         the tile (128 f32 values per thread do not pack)
//   Small<T, MA, MB>      128x128 tiles in clusters of 2 for problems that would leave most SMs
//                         idle, NT, NN, TT (6; small TN problems run Pingpong or Solo)
//   Solo<T>               128x128 tiles without a cluster, TN, D in T (2): one to a few waves
//                         of 128x128 tiles (3072^3, 512 tokens through a 14336-deep weight),
//                         where a CTA that waits for no peer at each k-tile beats both the
//                         clustered 128x128 tile and Stream-K 128x256 (bench/notes/sm90_tiles.md;
//                         compiled with the ping-pong kernels, whose K-major B tiles it shares).
//                         Ping-pong 128x128 in clusters of 2, best at one shape of the tiles'
//                         table (10240 x 1024 x 8192: 0.881), is not built: Stream-K 128x256
//                         runs that shape at 0.89
//   Split<T, MA, MB>      Whole under the Stream-K scheduler (the last waves' k-iterations
//                         shared, split-K as its special case), D in T, TN and NT only (4)
//   SmallSplit<T, MA, MB> Small under Stream-K, TN and NT (4): TN for decode-like problems (a
//                         few tokens, as D^T: N small), whose few tiles must share their k-loops
//                         to keep every SM reading the weights (compiled with the ping-pong
//                         kernels, whose B tiles (128 x 64, K-major) and TMA plans they share)
//   Decode<T>             128x64 tiles without a cluster under Stream-K, TN, D in T (2): decode
//                         (at most 64 tokens as the kernel's N: sm90_schedule.hpp), where a
//                         128-column tile is half padding at 64 tokens and the few weight tiles
//                         share their k-loops over every SM (compiled with the ping-pong
//                         kernels: K-major 64-row tiles of the same types)
//   Mid<T>, MidSplit<T>   128x192 tiles in clusters of 2, TN, D in T, whole tiles and under
//                         Stream-K (4): a tile count between 128x256's and 128x128's, for the
//                         shapes where neither fills its last wave (3072^3); a unit of their own
//                         (the 192-row B tile's stage layouts and TMA plans are theirs alone)
//   MidRow<T>, MidRowSplit<T>  the same with a row-major D (the row-major TMA-store epilogue),
//                         whole tiles and Stream-K (4): the dispatch runs a column-major D's
//                         problem transposed on them (D^T row-major, the 192 columns along the
//                         caller's M: the weight's rows of Y = X W^T) where the wave model
//                         predicts that orientation faster (sm90_schedule.hpp); a unit of its own
//   Tall<T>               256x128 tiles in clusters of 2, TN, D in T, whole tiles, the
//                         epilogue under the next tile: 128x256's grid with the tile's extents
//                         exchanged, for shapes whose N divides by 128 but not by 256 (bf16 only:
//                         1; a unit of its own, the 256-row A tiles' stage layouts and TMA plans
//                         are its own)
//   Fused<T, A>           Whole TN, D in T, activation A (+ optional bias) in the TMA-store
//                         epilogue, under the next tile's first 2 k-tiles: GELU tanh, ReLU,
//                         SiLU (6)
//   Tf32                  f32 inputs as tf32, TN (1)
//   Pingpong<T>           ping-pong, 64x128 tiles, TN, D in T, no cluster: small problems (2)
//   Fp8<A, B, D>          FP8 inputs (A, B: e4m3 or e5m2), 128x256x128 tiles, TN, D in bf16,
//                         f16 or f32, per-tensor or rowwise scales: e4m3 x e4m3 to bf16, f16
//                         and f32; e4m3 x e5m2 and e5m2 x e4m3 to bf16 (5); a 16-bit D's
//                         epilogue under the next tile's first 2 k-tiles (rowwise scales after
//                         the tile, through the kernel's second entry)
//   Fp8Small<A, B, D>     the same with 128x128x128 tiles for small problems: e4m3 x e4m3 to
//                         bf16 (1)
//   Fp8StreamK<A, B, D, BN>  Fp8 (BN = 256) and Fp8Small (BN = 128) under Stream-K: e4m3 x e4m3
//                         to bf16 (2)
//   Fp8Decode<A, B, D>    per-tensor FP8 for few tokens (the kernel's N, Y = X W^T run as D^T),
//                         128x64x128 tiles, no cluster, Stream-K: at most 64 tokens, e4m3 x e4m3
//                         to bf16 (1; a unit of its own, Fp8Few)
//   Fp8Mid<A, B, D>       per-tensor FP8, 128x160x128 tiles in clusters of 2, whole tiles: a few
//                         hundred tokens (320 = two tiles of 160, no padding), e4m3 x e4m3 to
//                         bf16 (1; a unit of its own, Fp8Mid)
//   Fp8Quantized<A, B>    FP8 inputs to an e4m3 D (scale_d, amax_d): Fp8's mainloop with the
//                         quantized-output tree epilogue (direct stores): e4m3 x e4m3 (1)
//   Fp8Block, Fp8BlockStreamK  FP8 with DeepSeek-V3's block scales (ScaleMode::Block): e4m3 x
//                         e4m3 to bf16, 128x128x128 tiles, the block-scaled mainloop, whole
//                         tiles and under Stream-K (2)
//   Fp8BlockDecode        the same mainloop with 128x64x128 tiles without a cluster under
//                         Stream-K (the decode tile: at most 64 tokens as the kernel's N,
//                         sm90_schedule.hpp), e4m3 x e4m3 to bf16 (1; a unit of its own, which a
//                         parallel build compiles beside the 128-column one)
//   Fp8BlockWide          the block-scaled mainloop with 128x192x128 tiles in clusters of 2,
//                         its two consumer warpgroups issuing their k-tiles in turns (one
//                         promotes while the other's wgmmas run), whole tiles (1; a unit of its
//                         own): measured no faster than Fp8Block, so the dispatch runs it only
//                         when forced (past 256 tokens it runs Fp8BlockRows). Not under
//                         Stream-K: there the 96 partial sums, the 96 accumulators and the walk's
//                         state spill 32 bytes (ptxas, sm_90a)
//   Fp8BlockRows          block scales with the tokens along the tile's M (D row-major, no
//                         transpose: A the activations with their row scales, B the weight with
//                         its blocks; 2 row scales and one block scale per consumer thread and
//                         k-tile; each promoted under the next k-tile's wgmmas), 128x128x128
//                         tiles in clusters of 2, whole tiles: many tokens
//                         (1; a unit of its own)
// The grouped GEMM's kernels (tessera::gemm_grouped: kernel/sm90_gemm_grouped.cuh), in a list
// of their own since tessera::gemm never dispatches to them; one unit compiles them
// (sm90_instances_grouped.cu):
//   Grouped<T, MW>        DefaultGemm's mainloop (128x256x64, clusters of 2 along M) over each
//                         group's D_g^T = B_g^T A_g^T (D_g^T column-major): A' the weight read
//                         N x K, K-major (weight (G, N, K), MW = K) or MN-major (weight
//                         (G, K, N), MW = MN), B' the tokens A_g (K-major), D_g in T through
//                         the TMA-store epilogue (per-group maps): bf16 TN, bf16 with (G, K, N)
//                         weights, f16 TN (3)
//   FusedGrouped<T, MW, Act>  the same kernel with the fused epilogue act(alpha acc + bias_g),
//                         bias per column of D_g; bf16 TN, one per activation (5; a unit of their
//                         own: sm90_instances_grouped_fused.cu)
// Units: the split of the kernels over translation units is tuned for CI's build time (each
// unit groups kernels that share constexpr work: an operand's stage tiles and TMA plans).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include <tessera/kernels/gemm_arguments.hpp>

#include "../collective/sm90_contract.hpp"
#include "sm90_configs.hpp"

namespace tessera::kernels::device::sm90_set {

using Major = GMMA::Major;
inline constexpr Major K = Major::K, MN = Major::MN;
template <class T, Major MA, Major MB, class D>
using Whole = sm90::WholeTileGemm<T, MA, MB, 2, D>;
template <class T, Major MA, Major MB>
using Small = sm90::SmallTileGemm<T, MA, MB>;
template <class T>
using Solo = sm90::SmallTileGemm<T, K, K, 1>;
template <class T, Major MA, Major MB>
using Split = sm90::DefaultGemm<T, MA, MB, 2, T, sm90::StreamKTileScheduler>;
template <class T, Major MA, Major MB>
using SmallSplit = sm90::SmallTileGemm<T, MA, MB, 2, sm90::StreamKTileScheduler>;
template <class T>
using Decode = sm90::DecodeGemm<T>;
template <class T>
using Mid = sm90::MidTileGemm<T>;
template <class T>
using MidSplit = sm90::MidTileGemm<T, K, K, 2, sm90::StreamKTileScheduler>;
template <class T>
using MidRow = sm90::MidTileGemm<T, K, K, 2, sm90::WholeTileScheduler, kernels::Major::Row>;
template <class T>
using MidRowSplit = sm90::MidTileGemm<T, K, K, 2, sm90::StreamKTileScheduler, kernels::Major::Row>;
template <class T>
using Tall = sm90::TallTileGemm<T>;
template <class T, Activation A>
using Fused = sm90::FusedTmaGemm<T, A>;
using Tf32 = sm90::DefaultGemmTf32<>;
template <class T>
using Pingpong = sm90::PingpongGemm<T>;
template <class A, class B, class D>
using Fp8 = sm90::Fp8WholeTileGemm<A, B, D>;
template <class A, class B, class D>
using Fp8Small = sm90::Fp8Gemm<A, B, D, 128>;
template <class A, class B, class D, int BN>
using Fp8StreamK = sm90::Fp8Gemm<A, B, D, BN, 2, sm90::StreamKTileScheduler>;
template <class A, class B, class D>
using Fp8Decode = sm90::Fp8Gemm<A, B, D, 64, 1, sm90::StreamKTileScheduler>;
template <class A, class B, class D>
using Fp8Mid = sm90::Fp8Gemm<A, B, D, 160>;
template <class A, class B>
using Fp8Quantized = sm90::Fp8QuantizedGemm<A, B>;
using Fp8Block = sm90::Fp8BlockScaledGemm<>;
using Fp8BlockStreamK = sm90::Fp8BlockScaledGemm<bfloat16_t, 2, sm90::StreamKTileScheduler>;
using Fp8BlockDecode = sm90::Fp8BlockScaledGemm<bfloat16_t, 1, sm90::StreamKTileScheduler, 64>;
using Fp8BlockWide = sm90::Fp8BlockWideGemm<>;
using Fp8BlockRows = sm90::Fp8BlockRowsGemm<>;

// The translation units (kernels/device/sm90_instances_<unit>.cu).
enum class Unit { Bf16, F16, Small, Split, Pingpong, Mid, MidRow, Tall, Fp8, Fp8Few, Fp8Mid, Fp8Block, Fp8BlockDecode, Fp8BlockWide, Fp8BlockRows };

template <class Kernel_, Unit U>
struct Shipped {
  using Kernel = Kernel_;
  static constexpr Unit unit = U;
};

using bf16 = bfloat16_t;
using f16 = half_t;
using e4m3 = float_e4m3_t;
using e5m2 = float_e5m2_t;
using Act = Activation;
// clang-format off
using Kernels = std::tuple<
    Shipped<Whole<bf16, K, K, bf16>, Unit::Bf16>,    Shipped<Whole<bf16, K, MN, bf16>, Unit::Bf16>,
    Shipped<Whole<bf16, MN, K, bf16>, Unit::Bf16>,   Shipped<Whole<bf16, MN, MN, bf16>, Unit::Bf16>,
    Shipped<Whole<bf16, K, K, float>, Unit::Bf16>,   Shipped<Whole<bf16, K, MN, float>, Unit::Bf16>,
    Shipped<Whole<bf16, MN, K, float>, Unit::Bf16>,  Shipped<Whole<bf16, MN, MN, float>, Unit::Bf16>,
    Shipped<Fused<bf16, Act::GELUTanh>, Unit::Bf16>, Shipped<Fused<bf16, Act::ReLU>, Unit::Bf16>,
    Shipped<Fused<bf16, Act::SiLU>, Unit::Bf16>,
    Shipped<Whole<f16, K, K, f16>, Unit::F16>,       Shipped<Whole<f16, K, MN, f16>, Unit::F16>,
    Shipped<Whole<f16, MN, K, f16>, Unit::F16>,      Shipped<Whole<f16, MN, MN, f16>, Unit::F16>,
    Shipped<Whole<f16, K, K, float>, Unit::F16>,     Shipped<Whole<f16, K, MN, float>, Unit::F16>,
    Shipped<Whole<f16, MN, K, float>, Unit::F16>,    Shipped<Whole<f16, MN, MN, float>, Unit::F16>,
    Shipped<Fused<f16, Act::GELUTanh>, Unit::F16>,   Shipped<Fused<f16, Act::ReLU>, Unit::F16>,
    Shipped<Fused<f16, Act::SiLU>, Unit::F16>,
    Shipped<Small<bf16, K, MN>, Unit::Small>,        Shipped<Small<bf16, MN, K>, Unit::Small>,
    Shipped<Small<bf16, MN, MN>, Unit::Small>,       Shipped<Small<f16, K, MN>, Unit::Small>,
    Shipped<Small<f16, MN, K>, Unit::Small>,         Shipped<Small<f16, MN, MN>, Unit::Small>,
    Shipped<Tf32, Unit::Small>,
    Shipped<Split<bf16, K, K>, Unit::Split>,         Shipped<Split<bf16, MN, MN>, Unit::Split>,
    Shipped<Split<f16, K, K>, Unit::Split>,          Shipped<Split<f16, MN, MN>, Unit::Split>,
    Shipped<SmallSplit<bf16, MN, MN>, Unit::Split>,  Shipped<SmallSplit<f16, MN, MN>, Unit::Split>,
    Shipped<SmallSplit<bf16, K, K>, Unit::Pingpong>, Shipped<SmallSplit<f16, K, K>, Unit::Pingpong>,
    Shipped<Pingpong<bf16>, Unit::Pingpong>,         Shipped<Pingpong<f16>, Unit::Pingpong>,
    Shipped<Solo<bf16>, Unit::Pingpong>,             Shipped<Solo<f16>, Unit::Pingpong>,
    Shipped<Decode<bf16>, Unit::Pingpong>,           Shipped<Decode<f16>, Unit::Pingpong>,
    Shipped<Mid<bf16>, Unit::Mid>,                   Shipped<Mid<f16>, Unit::Mid>,
    Shipped<MidSplit<bf16>, Unit::Mid>,              Shipped<MidSplit<f16>, Unit::Mid>,
    Shipped<MidRow<bf16>, Unit::MidRow>,             Shipped<MidRow<f16>, Unit::MidRow>,
    Shipped<MidRowSplit<bf16>, Unit::MidRow>,        Shipped<MidRowSplit<f16>, Unit::MidRow>,
    Shipped<Tall<bf16>, Unit::Tall>,
    Shipped<Fp8<e4m3, e4m3, bf16>, Unit::Fp8>,       Shipped<Fp8<e4m3, e4m3, f16>, Unit::Fp8>,
    Shipped<Fp8<e4m3, e4m3, float>, Unit::Fp8>,      Shipped<Fp8<e4m3, e5m2, bf16>, Unit::Fp8>,
    Shipped<Fp8<e5m2, e4m3, bf16>, Unit::Fp8>,       Shipped<Fp8Small<e4m3, e4m3, bf16>, Unit::Fp8>,
    Shipped<Fp8StreamK<e4m3, e4m3, bf16, 256>, Unit::Fp8>,  Shipped<Fp8StreamK<e4m3, e4m3, bf16, 128>, Unit::Fp8>,
    Shipped<Fp8Quantized<e4m3, e4m3>, Unit::Fp8>,
    Shipped<Fp8Decode<e4m3, e4m3, bf16>, Unit::Fp8Few>,
    Shipped<Fp8Mid<e4m3, e4m3, bf16>, Unit::Fp8Mid>,
    Shipped<Fp8Block, Unit::Fp8Block>,                Shipped<Fp8BlockStreamK, Unit::Fp8Block>,
    Shipped<Fp8BlockDecode, Unit::Fp8BlockDecode>,
    Shipped<Fp8BlockWide, Unit::Fp8BlockWide>,
    Shipped<Fp8BlockRows, Unit::Fp8BlockRows>>;
// clang-format on

template <class T, Major MW>
struct Grouped {
  using Element = T;
  static constexpr Major major_weight = MW;  // the mainloop's A' (the weight read N x K)
};
using GroupedKernels = std::tuple<Grouped<bf16, K>, Grouped<bf16, MN>, Grouped<f16, K>>;
// The fused epilogue's grouped kernels: Grouped<bf16, K>'s mainloop, act(alpha acc + bias_g)
// staged for TMA stores, one kernel per activation (Identity: the bias alone).
template <class T, Major MW, Activation Act>
struct FusedGrouped {
  using Element = T;
  static constexpr Major major_weight = MW;
  static constexpr Activation activation = Act;
};
using GroupedFusedKernels =
    std::tuple<FusedGrouped<bf16, K, Activation::Identity>, FusedGrouped<bf16, K, Activation::ReLU>, FusedGrouped<bf16, K, Activation::GELU>,
               FusedGrouped<bf16, K, Activation::GELUTanh>, FusedGrouped<bf16, K, Activation::SiLU>>;

// What the dispatch matches a kernel by, read off its type: the mainloop's elements, majors,
// tile, cluster and schedule, the epilogue's D type and fused activation, whether the scheduler
// shares tiles' k-iterations (Stream-K); and what select_configuration reports of it (its
// k-tile and pipeline depth). (Clusters lie along M only: the builders' rule.)
struct KernelTraits {
  Element element = Element::F32, output = Element::F32;
  bool a_k_major = true, b_k_major = true;  // A row-major, B column-major
  int bm = 0, bn = 0;
  bool pingpong = false, stream_k = false;
  Activation fused = Activation::Identity;  // a fused TMA-store instance's activation
  Element element_b = Element::F32;         // B's (A's but for FP8 pairs)
  bool block_scaled = false;                // applies FP8 block scales (ScaleMode::Block) in its mainloop
  int cluster_m = 1;                        // CTAs per cluster along M (they share B by multicast)
  kernels::Major d_major = kernels::Major::Col;  // the D (and C) its TMA-store epilogue stages
  int bk = 0;                               // the k-tile (elements)
  int stages = 0;                           // shared-memory stages of A and B k-tiles
};

namespace list_detail {
template <class Epilogue>
struct EpilogueTraits;
template <class D, int BM, int BN, int W, Activation A, int Slots, kernels::Major DM>
struct EpilogueTraits<sm90::CollectiveEpilogueSm90TmaStore<D, BM, BN, W, A, Slots, DM>> {
  using ElementD = D;
  static constexpr Activation fused = A;
  static constexpr kernels::Major d_major = DM;
};
template <class D, class Tree, class Fields>
struct EpilogueTraits<sm90::CollectiveEpilogueSm90Tree<D, Tree, Fields>> {
  using ElementD = D;
  static constexpr Activation fused = Activation::Identity;
  static constexpr kernels::Major d_major = kernels::Major::Col;
};
template <class D>
struct EpilogueTraits<sm90::CollectiveEpilogueSm90Direct<D>> {
  using ElementD = D;
  static constexpr Activation fused = Activation::Identity;
  // (the direct stores take either major; the dispatch runs them in the column-major orientation)
  static constexpr kernels::Major d_major = kernels::Major::Col;
};
template <class Mainloop, class Epilogue, class Scheduler, bool Pingpong>
struct CollectiveTraits;
template <class Policy, class Tile, class T, Major MA, Major MB, int Sw, class TB, class Epilogue, class Scheduler, bool Pingpong>
struct CollectiveTraits<sm90::CollectiveMainloopSm90TmaWgmma<Policy, Tile, T, MA, MB, Sw, TB>, Epilogue, Scheduler, Pingpong> {
  static_assert(Policy::ClusterN == 1, "the kernel list's traits name clusters along M (cluster_m): list a cluster along N with a field of its own");
  static constexpr KernelTraits value{sm90::element_enum_of<T>(),
                                      sm90::element_enum_of<typename EpilogueTraits<Epilogue>::ElementD>(),
                                      MA == Major::K,
                                      MB == Major::K,
                                      int(get<0>(Tile{})),
                                      int(get<1>(Tile{})),
                                      Pingpong,
                                      std::is_same_v<Scheduler, sm90::StreamKTileScheduler>,
                                      EpilogueTraits<Epilogue>::fused,
                                      sm90::element_enum_of<TB>(),
                                      Policy::BlockScaled,
                                      Policy::ClusterM,
                                      EpilogueTraits<Epilogue>::d_major,
                                      int(get<2>(Tile{})),
                                      Policy::Stages};
};
template <class Kernel>
struct TraitsOf;
template <class M, class E, class S, class O>
struct TraitsOf<sm90::GemmTmaWarpSpecialized<M, E, S, O>> : CollectiveTraits<M, E, S, false> {};
template <class M, class E, class S>
struct TraitsOf<sm90::GemmTmaWarpSpecializedPingpong<M, E, S>> : CollectiveTraits<M, E, S, true> {};
}  // namespace list_detail

template <class Kernel>
inline constexpr KernelTraits traits_of = list_detail::TraitsOf<Kernel>::value;

// f(Shipped<...>{}) for each kernel of the list, in order; stops at the first f that returns true.
template <class F>
constexpr bool find_kernel(F&& f) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return (f(std::tuple_element_t<I, Kernels>{}) || ...);
  }(std::make_index_sequence<std::tuple_size_v<Kernels>>{});
}

// The traits of the first listed kernel whose traits satisfy `wanted`, none if no kernel does.
template <class Wanted>
constexpr std::optional<KernelTraits> find_traits(Wanted const& wanted) {
  std::optional<KernelTraits> found;
  find_kernel([&](auto shipped) {
    constexpr KernelTraits t = traits_of<typename decltype(shipped)::Kernel>;
    if (!wanted(t)) return false;
    found = t;
    return true;
  });
  return found;
}

// Whether the list has a fused TMA-store kernel of activation a.
constexpr bool has_fused_tma(Activation a) {
  return a != Activation::Identity &&
         find_kernel([a](auto shipped) { return traits_of<typename decltype(shipped)::Kernel>.fused == a; });
}

// Whether a kernel of these traits reads g's inputs and majors, writes its D type and major and
// applies g's kind of scales (block scales in the mainloop, or any other in the epilogue; g in
// the kernel's orientation: as_column_major_d, or as_row_major_d for a row-major kernel D). A
// Stream-K kernel's epilogue applies FP8's per-tensor scales only: it never takes rowwise ones
// (its can_implement refuses them), so nothing chooses it for them.
inline bool takes_types(const KernelTraits& t, const GemmArguments& g) {
  return t.d_major == g.c.major && t.block_scaled == (g.scale_mode == ScaleMode::Block) && t.element == g.element && t.element_b == element_b(g) && t.output == output_element(g) && t.a_k_major == (g.a.major == kernels::Major::Row) &&
         t.b_k_major == (g.b.major == kernels::Major::Col) && !(t.stream_k && g.scale_mode == ScaleMode::Rowwise);
}

namespace list_detail {
inline const char* major_name(bool k_major, bool a) {
  return k_major ? (a ? "row-major (K-major)" : "column-major (K-major)") : (a ? "column-major (M-major)" : "row-major (N-major)");
}
}  // namespace list_detail

// Why no listed kernel takes g's types (g with D column-major, as_column_major_d): what the list
// has for its input types, D types and majors.
inline GemmResult list_refusal(const GemmArguments& g) {
  using list_detail::major_name;
  std::string outputs, majors;
  bool any_input = false;
  find_kernel([&](auto shipped) {
    constexpr KernelTraits t = traits_of<typename decltype(shipped)::Kernel>;
    if (t.element != g.element || t.element_b != element_b(g)) return false;
    any_input = true;
    const std::string out = to_string(t.output);
    if (outputs.find(out) == std::string::npos) outputs += (outputs.empty() ? "" : " or ") + out;
    if (t.output == output_element(g)) {
      const std::string pair = std::string("A ") + major_name(t.a_k_major, true) + " with B " + major_name(t.b_k_major, false);
      if (majors.find(pair) == std::string::npos) majors += (majors.empty() ? "" : "; ") + pair;
    }
    return false;
  });
  const std::string inputs = element_b(g) == g.element ? std::string(to_string(g.element))
                                                       : std::string(to_string(g.element)) + " x " + to_string(element_b(g));
  if (!any_input) return {GemmStatus::Unsupported, "no sm90 kernel takes " + inputs + " inputs"};
  if (majors.empty())
    return {GemmStatus::Unsupported, std::string("the sm90 kernels for ") + inputs + " inputs write D in " + outputs +
                                         ", not " + to_string(output_element(g))};
  return {GemmStatus::Unsupported, std::string("the sm90 kernels for ") + inputs + " inputs with D in " +
                                       to_string(output_element(g)) + " read " + majors + " (here A is " +
                                       major_name(g.a.major == kernels::Major::Row, true) + ", B " +
                                       major_name(g.b.major == kernels::Major::Col, false) + "); the SIMT and SM80 kernels run the others"};
}

}  // namespace tessera::kernels::device::sm90_set
