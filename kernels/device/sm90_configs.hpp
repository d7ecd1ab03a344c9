// The SM90 kernel configurations the library builds, as types (plain C++: the builders
// (collective/collective_builder.hpp) and gemm_kernel_t name them without compiling them, so
// the kernel list (sm90_kernel_list.hpp) and the dispatch's rule are host code CI tests).
#pragma once

#include <type_traits>

#include "../collective/collective_builder.hpp"
#include "../collective/sm90_epilogue_tree_fields.hpp"
#include "../kernel/gemm_kernel.hpp"

namespace tessera::kernels::sm90 {

// The kernels below are what the collective builders (collective/collective_builder.hpp) make
// of a tile, a cluster and the operands' element type and majors (TMA: 16-byte alignment, 8
// elements of 16 bits or 4 of f32), composed by gemm_kernel_t with a persistent tile
// scheduler (whole tiles, or split-K of the last wave).  Stages: the builder's automatic count (the smem left after the epilogue's staging).
template <GMMA::Major M>
using major_tag = std::conditional_t<M == GMMA::Major::K, KMajor, MNMajor>;
template <class Element, GMMA::Major MajorA, GMMA::Major MajorB, class Tile, int ClusterM,
          class Schedule = KernelTmaWarpSpecializedCooperative>
using Sm90Mainloop = CollectiveBuilder<arch::Sm90, OpClassTensorOp, Element, major_tag<MajorA>, 16 / sizeof(Element), Element,
                                       major_tag<MajorB>, 16 / sizeof(Element), float, Tile, tuple<C<ClusterM>, _1, _1>,
                                       StageCountAuto, Schedule>;
// A cooperative tile in clusters of ClusterN CTAs along N (consecutive N-tiles of one M row
// sharing A's tile by multicast, each CTA copying 1/ClusterN of it): whole tiles only. Not in
// the library's kernel list (its traits name clusters along M); the GPU test and the device
// probe build it (bench/notes/sm90_tiles.md: cuBLAS's arrangement at 1000^3, measured).
template <class Element, GMMA::Major MajorA, GMMA::Major MajorB, class Tile, int ClusterN>
using Sm90MainloopAlongN =
    CollectiveBuilder<arch::Sm90, OpClassTensorOp, Element, major_tag<MajorA>, 16 / sizeof(Element), Element, major_tag<MajorB>,
                      16 / sizeof(Element), float, Tile, tuple<_1, C<ClusterN>, _1>, StageCountAuto, KernelTmaWarpSpecializedCooperative>;
// Scheduler: WholeTileScheduler (whole tiles at compile time: no split-K meeting in the
// kernel) or SplitKTileScheduler (a kernel of its own, run only when the plan splits).
// FusedAct: the activation the TMA-store epilogue applies (Identity: plain; fused problems
// without a kernel of their activation take the direct stores). DMajor: the kernel's D major
// (Row: the row-major TMA-store epilogue, plain only; D of the other major takes the direct
// stores).
template <class MainloopBuilder, class ElementD, class Scheduler = WholeTileScheduler, Activation FusedAct = Activation::Identity,
          kernels::Major DMajor = kernels::Major::Col>
using Sm90Kernel = gemm_kernel_t<
    GemmProblemShape, typename MainloopBuilder::CollectiveOp,
    typename CollectiveEpilogueBuilder<
        MainloopBuilder, ElementD, 16 / sizeof(ElementD),
        std::conditional_t<DMajor == kernels::Major::Row, EpilogueTmaStoreRowMajor,
                           std::conditional_t<FusedAct == Activation::Identity, EpilogueScheduleAuto, EpilogueTmaStoreFused<FusedAct>>>>::
        CollectiveOp,
    Scheduler>;

// The default configuration: 128x256x64 CTA tile, two consumer warpgroups of 64x256
// (wgmma m64n256k16), 4 stages of 48 KiB, 128B-swizzled operands, the epilogue through
// 2 x 16 KiB of shared memory and TMA stores (227 KiB in all).
// Clusters of 2 CTAs along M share each B tile through TMA multicast.
// ElementD: D's (and C's, and the bias's) element type, the inputs' or float.
template <class Element, GMMA::Major MajorA = GMMA::Major::K, GMMA::Major MajorB = GMMA::Major::K, int ClusterM = 2,
          class ElementD = Element, class Scheduler = WholeTileScheduler, Activation FusedAct = Activation::Identity>
using DefaultGemm = Sm90Kernel<Sm90Mainloop<Element, MajorA, MajorB, tuple<_128, _256, _64>, ClusterM>, ElementD, Scheduler, FusedAct>;

// A cooperative kernel with another epilogue order (sm90_epilogue_order.hpp): its mainloop,
// epilogue and scheduler unchanged.
template <class Kernel, class Order>
struct with_epilogue_order;
template <class M, class E, class S, class O, class Order>
struct with_epilogue_order<GemmTmaWarpSpecialized<M, E, S, O>, Order> {
  using type = GemmTmaWarpSpecialized<M, E, S, Order>;
};

// The epilogue order the library ships on its 16-bit whole-tile cooperative 128x256 kernels
// (the kernel list's Whole with a 16-bit D, and Fused; and the 256x128 kernel, Tall): the tile's epilogue staged and stored
// under the next tile's first 2 k-tiles. Measured on an H200 against the epilogue after the
// tile (bench/notes/sm90_gemm.md): plain bf16 TN +0.4 to +2.5 % (8192x8192x1024 the most),
// GELU-tanh + bias and SiLU + bias at 8192^3 +2.7 % and +1.9 %, the results bit-identical;
// H = 1 noisier, H = 3 no gain. An f32 D stays after the tile: its 128 accumulators cannot be
// packed into half as many registers (the kernel's static_assert), nor can Stream-K's or
// split-K's partial tiles.
using ShippedEpilogueOrder = EpilogueUnderNextTile<2>;

// The default configuration with the epilogue after the tile (EpilogueAfterTile), D 16-bit of
// either major: the A/B twin of the shipped order (the GPU tests and the probes build both).
template <class Element, kernels::Major DMajor = kernels::Major::Col>
using SerialEpilogueGemm = typename with_epilogue_order<
    Sm90Kernel<Sm90Mainloop<Element, GMMA::Major::K, GMMA::Major::K, tuple<_128, _256, _64>, 2>, Element, WholeTileScheduler,
               Activation::Identity, DMajor>,
    EpilogueAfterTile>::type;
// The same with its epilogue staged under the next tile's first HeadKTiles k-tiles (H = 2:
// the shipped order; 1 and 3 for the probes). Problems the plain epilogue does not pack (beta
// != 0, a bias or an activation, a D that TMA cannot store) run after the tile, through the
// kernel's second entry (TwoEntries).
template <class Element, int HeadKTiles = 2, kernels::Major DMajor = kernels::Major::Col>
using OverlappedEpilogueGemm = typename with_epilogue_order<SerialEpilogueGemm<Element, DMajor>, EpilogueUnderNextTile<HeadKTiles>>::type;
// The cooperative 128 x 64 tile in clusters of 2 along N (Sm90MainloopAlongN), D in the inputs' type, whole tiles.
template <class Element, GMMA::Major MajorA = GMMA::Major::K, GMMA::Major MajorB = GMMA::Major::K>
using AlongNGemm = Sm90Kernel<Sm90MainloopAlongN<Element, MajorA, MajorB, tuple<_128, _64, _64>, 2>, Element>;

// The library's whole-tile 128x256 kernel of these types (the kernel list's Whole):
// DefaultGemm in the shipped epilogue order where D is 16-bit, after the tile where D is f32.
template <class Element, GMMA::Major MajorA = GMMA::Major::K, GMMA::Major MajorB = GMMA::Major::K, int ClusterM = 2,
          class ElementD = Element>
using WholeTileGemm = std::conditional_t<sizeof(ElementD) == 2,
                                         typename with_epilogue_order<DefaultGemm<Element, MajorA, MajorB, ClusterM, ElementD>,
                                                                      ShippedEpilogueOrder>::type,
                                         DefaultGemm<Element, MajorA, MajorB, ClusterM, ElementD>>;

// D = act(alpha A B + bias) through the TMA-store epilogue, one kernel per activation
// (16-bit TN, D in the inputs' type; kernels/device/sm90_kernel_list.hpp says which are built),
// the epilogue after the tile: the A/B twin of FusedTmaGemm.
template <class Element, Activation Act>
using FusedTmaGemmAfterTile = DefaultGemm<Element, GMMA::Major::K, GMMA::Major::K, 2, Element, WholeTileScheduler, Act>;
// FusedTmaGemmAfterTile (act(alpha A B + bias)) with its epilogue under the next tile's first
// HeadKTiles k-tiles: the f32 math and the bias's loads before the pack, only the packed
// 16-bit values across the head.
template <class Element, Activation Act, int HeadKTiles = 2>
using OverlappedFusedGemm = typename with_epilogue_order<FusedTmaGemmAfterTile<Element, Act>, EpilogueUnderNextTile<HeadKTiles>>::type;
// The library's fused kernels (the kernel list's Fused): the shipped epilogue order.
template <class Element, Activation Act>
using FusedTmaGemm = typename with_epilogue_order<FusedTmaGemmAfterTile<Element, Act>, ShippedEpilogueOrder>::type;

// An epilogue tree through the TMA-store staging on the default tile (16-bit TN, 128x256x64,
// clusters of 2, whole tiles, D in the inputs' type), epilogue after the tile
// (EpilogueAfterTile, the default: with the 5-node tree silu(acc sa sb + bias) + amax the
// order under the next tile measured no gain) or under the next tile (Order =
// EpilogueUnderNextTile<H>: the tree's visits, reductions and auxiliary stores in the pack,
// before the head). Not in the library's kernel set.
template <class Element, class Tree, class Order = EpilogueAfterTile>
using TreeTmaGemm = typename with_epilogue_order<
    gemm_kernel_t<GemmProblemShape, typename Sm90Mainloop<Element, GMMA::Major::K, GMMA::Major::K, tuple<_128, _256, _64>, 2>::CollectiveOp,
                  typename CollectiveEpilogueBuilder<Sm90Mainloop<Element, GMMA::Major::K, GMMA::Major::K, tuple<_128, _256, _64>, 2>,
                                                     Element, 8, EpilogueTree<Tree, EpilogueTmaStore>>::CollectiveOp,
                  WholeTileScheduler>,
    Order>::type;

// For problems whose 128x256 tiles would leave most SMs idle (1000^3: 32 CTAs on 132 SMs):
// 128x128x64 tiles (two consumer warpgroups of 64x128, wgmma m64n128k16), twice the CTAs,
// each with half the MMA work per k-tile; 6 stages of 32 KiB, staging 2 x 16 KiB.
// ClusterM = 1 (16-bit TN): one to a few waves of these tiles, where a CTA that waits for no
// cluster peer at each k-tile beats the pair that shares B (bench/notes/sm90_tiles.md).
template <class Element, GMMA::Major MajorA = GMMA::Major::K, GMMA::Major MajorB = GMMA::Major::K, int ClusterM = 2,
          class Scheduler = WholeTileScheduler>
using SmallTileGemm = Sm90Kernel<Sm90Mainloop<Element, MajorA, MajorB, tuple<_128, _128, _64>, ClusterM>, Element, Scheduler>;

// Between the two: 128x192x64 tiles (two consumer warpgroups of 64x192, wgmma m64n192k16, 96
// accumulators per consumer thread), 4 stages of 40 KiB, the staging in two parts of 96
// columns per warpgroup (sm90_epilogue_staging.hpp); clusters of 2 along M share B (96 rows
// each by multicast). A tile count between the 128x256 and 128x128 ones: where neither fills
// its last wave (3072^3: 384 tiles of 128x192 are 2.9 waves of 132 SMs, 288 of 128x256 2.2),
// at 0.9 of 128x256's operand bytes per MAC (320 / (128 x 192) against 384 / (128 x 256)).
// 16-bit TN, D in the inputs' type; whole tiles or Stream-K. DMajor = Row: D row-major, staged
// in three parts of 64 columns per warpgroup (the tile the dispatch runs a column-major D's
// problem transposed on, its 192 columns along the caller's M: sm90_schedule.hpp).
template <class Element, GMMA::Major MajorA = GMMA::Major::K, GMMA::Major MajorB = GMMA::Major::K, int ClusterM = 2,
          class Scheduler = WholeTileScheduler, kernels::Major DMajor = kernels::Major::Col>
using MidTileGemm =
    Sm90Kernel<Sm90Mainloop<Element, MajorA, MajorB, tuple<_128, C<192>, _64>, ClusterM>, Element, Scheduler, Activation::Identity, DMajor>;

// The 128x256 tile turned: 256x128x64 (two consumer warpgroups of 128x128, each two wgmma
// m64n128k16 along M: 128 accumulators per consumer thread, as 128x256's 64x256), 4 stages of
// 48 KiB, clusters of 2 along M sharing B (64 rows each by multicast). The same operand bytes per
// MAC as 128x256 ((256 + 128) / (256 x 128)), so the wave model gives it the same rate; its grid
// is 128x256's with M's and N's tile extents exchanged, so it pads and quantizes otherwise
// wherever M / 256 and N / 128 round differently from M / 128 and N / 256 (N = 2112: 17 columns
// of 128 pad 3 %, 9 columns of 256 pad 9 %). cuBLAS's own 16-bit kernels run 256-row tiles
// (bench/notes/sm90_tiles.md). 16-bit TN, D in the inputs' type, whole tiles, the shipped
// epilogue order.
template <class Element, int ClusterM = 2>
using TallTileGemm =
    typename with_epilogue_order<Sm90Kernel<Sm90Mainloop<Element, GMMA::Major::K, GMMA::Major::K, tuple<_256, _128, _64>, ClusterM>, Element>,
                                 ShippedEpilogueOrder>::type;

// For decode (Y = X W^T with a few tokens, run as D^T: M the weight's rows, N the tokens,
// 16-bit TN): 128x64x64 tiles (two consumer warpgroups of 64x64, wgmma m64n64k16), no cluster,
// under Stream-K. At 64 tokens a 128-column tile is half padding; a 64-column one computes
// only tokens, halves each Stream-K partial (32 KiB of f32, not 64) and the accumulators (32
// registers per consumer thread), and its 24 KiB stages (A 16 KiB of weight, B 8 KiB of
// tokens) leave room for 8 of them beside the two 8 KiB staging slots (208 KiB): 128 KiB of
// weight in flight per SM to hide DRAM latency. Stream-K shares the k-loops of the few weight
// tiles (48 for 6144 rows) over every SM. No cluster: B is the tokens, which stay in L2, so
// multicast saves nothing while the pair would wait on each other at every k-tile.
template <class Element, GMMA::Major MajorA = GMMA::Major::K, GMMA::Major MajorB = GMMA::Major::K, class Scheduler = StreamKTileScheduler>
using DecodeGemm = Sm90Kernel<Sm90Mainloop<Element, MajorA, MajorB, tuple<_128, _64, _64>, 1>, Element, Scheduler>;

// Ping-pong (kernel/sm90_gemm_tma_warpspecialized_pingpong.cuh): two consumer warpgroups,
// each with whole BM x BN tiles in turn, one's epilogue under the other's mainloop: the
// builders' KernelTmaWarpSpecializedPingpong. 64x128x64 (wgmma m64n128k16): 8 stages of
// 24 KiB and two staging slots of 16 KiB (224 KiB); 64x256x64: 4 stages of 40 KiB (the
// automatic count); 128x128x64 (the TiledMma's M repeat of 2: two m64n128k16 per k16 step
// and 128 accumulators per consumer thread): 6 stages of 32 KiB. No cluster by default: the
// dispatch takes ping-pong for small problems (about one tile per CTA), where B multicast saves
// little bandwidth and pairing CTAs adds latency (bench/notes/sm90_gemm.md). Whole tiles only
// (WholeTileScheduler). MajorA/MajorB: K-major by default (MN-major through the same plans).
template <class Element, int BN = 128, int ClusterM = 1, int BM = 64, GMMA::Major MajorA = GMMA::Major::K,
          GMMA::Major MajorB = GMMA::Major::K>
using PingpongGemm =
    Sm90Kernel<Sm90Mainloop<Element, MajorA, MajorB, tuple<C<BM>, C<BN>, _64>, ClusterM, KernelTmaWarpSpecializedPingpong>, Element>;

// f32 inputs with TF32 math: the same kernel on f32 words, wgmma m64nNk8 (A and B K-major
// only: the ISA transposes 16-bit types alone), BK = 32 (one 128-byte swizzle row of f32, so
// the 4 stages are 48 KiB each again), f32 output through the direct epilogue (the builder's
// default epilogue for tf32).
template <int ClusterM = 2>
using DefaultGemmTf32 = Sm90Kernel<Sm90Mainloop<float, GMMA::Major::K, GMMA::Major::K, tuple<_128, _256, _32>, ClusterM>, float>;

// FP8: A and B 8-bit floats (e4m3 or e5m2, each its own), K-major (the ISA reads 8-bit
// operands K-major only), 128x256x128 CTA tile: BK = 128 is one 128-byte swizzle row of
// 8-bit elements, so a stage is 48 KiB as the 16-bit default's (4 stages), each k-tile four
// wgmma m64n256k32 per consumer warpgroup; clusters of 2 along M share B by multicast. D in
// bf16, f16 or f32 through the TMA-store epilogue, which multiplies the accumulators by the
// per-tensor scales before its stores. Accumulation stays in the wgmma's f32 registers over
// the whole K.
// BN = 128: the tile for problems whose 128x256 tiles would leave most SMs idle (as
// SmallTileGemm: 6 stages of 32 KiB, wgmma m64n128k32).
// Scheduler: whole tiles, or Stream-K (the k-iterations of the last waves shared, as the 16-bit
// "split" kernels): small-M, long-K problems have fewer tiles than SMs.
// Few tokens (Y = X W^T run as D^T: M the weight's rows, N the tokens), no cluster, Stream-K:
// BN = 64, the FP8 decode tile (8 stages of 24 KiB: A 16 KiB of weight, B 8 KiB of tokens; 32
// accumulators per consumer thread), DecodeGemm's reasoning with K-tiles of 128: at 64 tokens a
// 128-column tile is half padding, and without a cluster no CTA waits for a peer at each
// k-tile while the tokens (B) stay in L2, so multicast would save nothing. (BN = 128 without a
// cluster for 65-128 tokens measured no faster than the clustered Stream-K kernel on an H200, so
// the library builds none: bench/notes/fp8.md.)
// BN = 160 in clusters of 2 (wgmma m64n160k32, 80 accumulators per consumer thread, 5 stages of
// 36 KiB, the epilogue staged in two parts of 80 columns): a few hundred tokens, where 256- or
// 128-column tiles pad the tokens (320: two tiles of 160 pad nothing, of 256 pad to 512, of 128
// to 384); its clusters share B (80 rows each by multicast) as the 128x256 tile's do.
template <class ElementA, class ElementB = ElementA, int BN = 256, int ClusterM = 2>
using Fp8Mainloop = CollectiveBuilder<arch::Sm90, OpClassTensorOp, ElementA, KMajor, 16, ElementB, KMajor, 16, float, tuple<_128, C<BN>, _128>,
                                      tuple<C<ClusterM>, _1, _1>, StageCountAuto, KernelTmaWarpSpecializedCooperative>;
template <class ElementA, class ElementB = ElementA, class ElementD = bfloat16_t, int BN = 256, int ClusterM = 2,
          class Scheduler = WholeTileScheduler>
using Fp8Gemm = Sm90Kernel<Fp8Mainloop<ElementA, ElementB, BN, ClusterM>, ElementD, Scheduler>;
// The library's whole-tile FP8 128x256 kernel (the kernel list's Fp8): Fp8Gemm in the shipped
// epilogue order where D is 16-bit (the per-tensor scales applied, the values packed, stored
// under the next tile's first 2 k-tiles; rowwise scales, C, a bias or a D that TMA cannot store
// through the kernel's second entry, after the tile), after the tile where D is f32. Measured
// on an H200 against the epilogue after the tile in one process (bench/notes/fp8.md, variant
// eo2): +0.2 to +1.9 % at 4096x7168x16384 and 8192^3, D bit-identical.
template <class ElementA, class ElementB = ElementA, class ElementD = bfloat16_t>
using Fp8WholeTileGemm =
    std::conditional_t<sizeof(ElementD) == 2,
                       typename with_epilogue_order<Fp8Gemm<ElementA, ElementB, ElementD>, ShippedEpilogueOrder>::type,
                       Fp8Gemm<ElementA, ElementB, ElementD>>;

// FP8 on the ping-pong kernel (kernel/sm90_gemm_tma_warpspecialized_pingpong.cuh): each consumer
// warpgroup owns whole BM x BN tiles in turn, its epilogue (the per-tensor or rowwise scales,
// then the TMA stores through its own staging slot) under the other's mainloop. BM = 64: wgmma
// m64nBNk32, BN accumulators per consumer thread (BN = 256: 4 stages of 40 KiB, 8 KiB of A and 32
// KiB of B); BM = 128: two atoms along M (BN = 128: 6 stages of 32 KiB). K-major operands, BK =
// 128, clusters along M sharing B (ClusterM = 2: half of B per CTA, as Fp8Gemm's). Whole tiles
// only. Not in the library's kernel set (the probes build it: tools/device/sm90_fp8_block_probe.cu).
template <class ElementA, class ElementB = ElementA, class ElementD = bfloat16_t, int BN = 256, int ClusterM = 2, int BM = 64>
using Fp8PingpongGemm =
    Sm90Kernel<CollectiveBuilder<arch::Sm90, OpClassTensorOp, ElementA, KMajor, 16, ElementB, KMajor, 16, float, tuple<C<BM>, C<BN>, _128>,
                                 tuple<C<ClusterM>, _1, _1>, StageCountAuto, KernelTmaWarpSpecializedPingpong>,
               ElementD>;

// FP8 inputs to an e4m3 D with D's scale and amax (GemmArguments::scale_d, amax_d): Fp8Gemm's
// mainloop (so its accumulators are bit for bit those of the bf16/f16/f32-D kernels of the same
// tile) and the prebuilt quantized-output tree (tree::QuantizedOutputAmax, filled from the GEMM's
// fields by QuantizedOutputFields), stored from the registers (direct stores, any D major and
// alignment: the TMA staging holds 16- and 32-bit D only). C, where beta != 0, in e4m3 too.
template <class ElementA, class ElementB = ElementA, int BN = 256, int ClusterM = 2>
using Fp8QuantizedGemm =
    gemm_kernel_t<GemmProblemShape, typename Fp8Mainloop<ElementA, ElementB, BN, ClusterM>::CollectiveOp,
                  typename CollectiveEpilogueBuilder<Fp8Mainloop<ElementA, ElementB, BN, ClusterM>, float_e4m3_t, 16,
                                                     EpilogueTree<tree::QuantizedOutputAmax<float_e4m3_t>, EpilogueDirect,
                                                                  QuantizedOutputFields<float_e4m3_t>>>::CollectiveOp,
                  WholeTileScheduler>;

// FP8 with DeepSeek-V3's block scales (ScaleMode::Block; e4m3 x e4m3, D bf16): 128x128x128
// tiles (a tile's 128 rows and a k-tile lie in one 128 x 128 scale block of A; per consumer
// thread 64 accumulators and the k-tile's 64 partial sums: 128x256 would need 256 registers),
// the block-scaled mainloop (each k-tile's sum promoted into the accumulators times its scales),
// clusters of 2 along M sharing B, the TMA-store epilogue; whole tiles or Stream-K (decode's
// shapes: few tiles, long K).
// BN = 64 without a cluster under Stream-K: the block-scaled decode kernel, for a few tokens.
// A row-major D (torch's Y = X W^T, tokens x outputs) runs as D^T, so the kernel's M is the
// weight's rows (A' = W with its 128 x 128 blocks) and its N the tokens (B' = X with a scale per
// token and k-group): at 64 tokens a 128-column tile is half padding, in every wgmma and in every
// promotion, while a 64-column one computes only tokens (wgmma m64n64k32, 32 accumulators and 32
// partial sums per consumer thread) and its 24.25 KiB stages (16 KiB of weight, 8 KiB of tokens,
// 256 B of the tokens' scales) leave room for 7 beside the staging (the scales' 256 B per stage
// cost the eighth that sm90::DecodeGemm's 24 KiB stages have): 112 KiB of weight in flight per SM,
// against the 128 x 128 kernel's 5 x 16 KiB. No cluster: B' is the tokens, which stay in L2, as
// sm90::DecodeGemm's.
// BN = 192 with Schedule = KernelTmaWarpSpecializedCooperativeFp8BlockScaledAlternating, clusters
// of 2: the block-scaled tile for many tokens (sm90::Fp8BlockWideGemm below).
template <class ElementD = bfloat16_t, int ClusterM = 2, class Scheduler = WholeTileScheduler, int BN = 128,
          class Schedule = KernelTmaWarpSpecializedCooperativeFp8BlockScaled>
using Fp8BlockScaledGemm = Sm90Kernel<CollectiveBuilder<arch::Sm90, OpClassTensorOp, float_e4m3_t, KMajor, 16, float_e4m3_t, KMajor, 16,
                                                        float, tuple<_128, C<BN>, _128>, tuple<C<ClusterM>, _1, _1>, StageCountAuto,
                                                        Schedule>,
                                      ElementD, Scheduler>;

// Block-scaled FP8 for many tokens (DeepSeek-V3's projections at thousands of tokens): 128x192x128
// tiles in clusters of 2, the two consumer warpgroups issuing their k-tiles in turns
// (ConsumerIssue::Alternating). The 128 x 128 kernel issues both warpgroups' k-tiles together:
// they retire together and both promote (64 multiply-adds, 32 multiplies and the column scales'
// loads per thread) while the tensor cores idle, every k-tile. Here one warpgroup's k-tile runs
// while the other promotes, and a warpgroup's k-tile of wgmmas (four m64n192k32, ~384 cycles at
// the SM's FP8 rate) outlasts its promotion (96 multiply-adds, 48 multiplies, the loads: ~200
// issue cycles of its warp on each SM sub-partition) with room for the wgmmas' drain. 192
// columns: the widest tile whose partial sums and accumulators (96 + 96 per consumer thread) fit
// the consumers' 232 registers (128x256 would need 256); its operand bytes per MAC are 0.83 of
// the 128 x 128 tile's ((128 + 96) / (128 x 192) with B shared by the pair, against (128 + 64) /
// (128 x 128)). 40.75 KiB stages (16 KiB of weight, 24 KiB of tokens, 768 B of their scales).
// The library builds it over whole tiles (sm90_kernel_list.hpp: under Stream-K it spills).
template <class Scheduler = WholeTileScheduler>
using Fp8BlockWideGemm = Fp8BlockScaledGemm<bfloat16_t, 2, Scheduler, 192, KernelTmaWarpSpecializedCooperativeFp8BlockScaledAlternating>;

// Block-scaled FP8 with the tokens along the tile's M (DeepSeek-V3's own orientation): A the
// activations (M tokens x K, K-major) with their 1 x 128 row scales, B the weight (N x K,
// K-major) with its 128 x 128 block scales, D row-major through the row-major TMA-store
// epilogue, no transpose. The D^T kernels above scale every accumulator column by its own
// token's scale (BN/4 shared loads, BN/4 multiplies and BN/2 FFMAs per consumer thread and
// k-tile); here a thread's 64 accumulators of a 128 x 128 tile lie in 2 rows and one 128-column
// block of B: 2 shared loads, 2 multiplies, 64 FFMAs, and the stage goes back right after the
// wgmmas' wait (its row scales already in registers). 128 x 128 x 128 tiles in clusters of 2
// (B, the weight, shared by multicast); 128 x 256 would hold 128 partial sums beside 128
// accumulators, more than the consumers' 232 registers. Whole tiles or Stream-K.
// Schedule: KernelTmaWarpSpecializedCooperativeFp8BlockScaledRowsOfA (each k-tile waited for and
// promoted before the next is issued) or ...RowsOfAUnderNextKTile (two sets of partial sums: a
// k-tile promoted while the next one's wgmmas run; 64 + 2 x 64 registers of sums per thread).
// The library's default is UnderNextKTile: on an H200 it gave D bit for bit AfterWait's and ran
// 902 TFLOP/s against 871 at 4096 x 7168 x 16384 (bench/notes/fp8.md).
template <class Scheduler = WholeTileScheduler, int ClusterM = 2, class Schedule = KernelTmaWarpSpecializedCooperativeFp8BlockScaledRowsOfAUnderNextKTile>
using Fp8BlockRowsGemm = Sm90Kernel<CollectiveBuilder<arch::Sm90, OpClassTensorOp, float_e4m3_t, KMajor, 16, float_e4m3_t, KMajor, 16,
                                                      float, tuple<_128, _128, _128>, tuple<C<ClusterM>, _1, _1>, StageCountAuto,
                                                      Schedule>,
                                    bfloat16_t, Scheduler, Activation::Identity, kernels::Major::Row>;

// Whether the dispatch takes SmallTileGemm or PingpongGemm: sm90::choose_schedule (sm90_schedule.hpp),
// the same rule as select_configuration (gemm_configuration.hpp).

}  // namespace tessera::kernels::sm90
