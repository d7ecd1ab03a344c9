// What bounds the block-scaled FP8 k-tile (DeepSeek-V3's scales, ScaleMode::Block): the SM90
// kernels that differ in one thing each, instantiated here through the device layer
// (GemmSm90<Kernel>: no library build, only these kernels), checked, and timed in one process.
//   sm90_fp8_block_probe [--reps N] [--variants 0,1,...] [--gap-us G] [M N K ...]
//     default shapes (the caller's view: tokens M, outputs N, K): 4096 x 7168 x 16384,
//     2048 x 7168 x 16384, and 1024 x 2048 x 16384 (one partial wave of every tile: the k-tile's
//     period at a light load); e4m3 X (M x K) and W (N x K), D = X W^T bf16 row-major, as
//     tessera::gemm runs it (the kernels compute D^T: M' = the weight's rows, N' = the tokens)
//   sm90_fp8_block_probe --ncu V [M N K]: one launch of variant V (for ncu), nothing else
// The variants (FP8_PROBE_VARIANTS below; the letters are bench/notes/fp8.md's):
//   a  block, 128x128 c2, consumers together (sm90::Fp8BlockScaledGemm<>: Fp8Block, shipped)
//   b  block, 128x192 c2, consumers in turns (sm90::Fp8BlockWideGemm<>: Fp8BlockWide, shipped)
//   c  block, 128x192 c2, consumers together (the same tile, the default block schedule)
//   d  per-tensor FP8, 128x192 c2 (sm90::Fp8Gemm<.., 192>): the tile without any promotion
//   d256  per-tensor FP8, 128x256 c2 (sm90::Fp8Gemm<>, shipped): the per-tensor ceiling
//   e  b's k-loop without the promotion: each k-tile's wgmmas accumulate straight into the
//      accumulators (scales ignored: the unscaled sum), still waited for (wait_group 0) and
//      released each k-tile, still in turns: what the promotion's instructions cost
//   e-sa  b's k-loop promoting by the block scale alone (acc += part * sa: the FFMAs and the
//      partial sums' registers kept, the column scales' 48 shared loads and 48 multiplies gone)
//   e-tog  e with the consumers together (wait_group 0 per k-tile, no promotion, no turns)
//   f  b with the column scales read as pairs (8-byte shared loads: 24 instead of 48)
//   g  a (128x128, together) with two fragments of partial sums: k-tile kt's wgmmas issued
//      before k-tile kt-1 is promoted (wait_group 1), so each warpgroup promotes under its own
//      next k-tile (64 + 2 x 64 registers: at 192 columns they would not fit)
//   a-t   a with the consumers in turns (the 128x192 kernel's issue at 128 columns)
//   d128  per-tensor FP8, 128x128 c2 (sm90::Fp8Gemm<.., 128>: Fp8Small, shipped): a's and g's
//      ceiling
//   r  block, 128x128 c2, the tokens along the tile's M (sm90::Fp8BlockRowsGemm with
//      BlockPromotion::AfterWait: Fp8BlockRows before the pipelined promotion, D row-major, no
//      transpose): 2 row scales and one block scale per consumer thread and k-tile, the stage
//      released right after the wgmmas' wait; its ceiling is d128 (the same tile per tensor) and
//      its model e-sa (a promotion by scalars only)
//   r2 r with BlockPromotion::UnderNextKTile (two sets of partial sums: k-tile k promoted while
//      k-tile k+1's wgmmas run, wait_group 1): its D must equal r's bit for bit (checked
//      against r, not a: the same products added in the same order)
//   r2-sk  r2 under Stream-K (sm90::StreamKTileScheduler, its workspace allocated here): steps
//      whose k-ranges start anywhere, each starting at set 0; checked against FP64 only (the
//      fix-up adds the partials in its own order)
// Per-tensor FP8 against cuBLASLt (d256's k-loop gap), each changing one thing against d256:
//   pp    the ping-pong kernel (sm90::Fp8PingpongGemm<.., 256, 2, 64>): each consumer warpgroup
//         owns whole 64x256 tiles in turn (wgmma m64n256k32, 128 accumulators per thread), its
//         epilogue under the other's mainloop; clusters of 2 along M as d256. Its ns/ktile is per
//         64x256 k-tile (twice as many units): x2 to compare with d256's
//   pp128 the same with 128x128 tiles per warpgroup (two m64n128k32 atoms along M), c2
//   c1    d256 without a cluster (B not shared: each CTA loads its whole B tile)
//   c4    d256 in clusters of 4 along M (B shared by 4: a quarter loaded per CTA). The cluster
//         along N ({1,2}: A multicast) is not built: the builder takes clusters along M only
//   s3    d256 with 3 stages (StageCount<3>) instead of the automatic 4
//   pp-c4 pp in clusters of 4 (B shared by 4: its L2 reads per MAC those of d256)
//   k64   d256's tile with BK = 64 (half-size k-tiles, 64-byte swizzle: 8 stages of 24 KiB, the
//         same bytes in flight in finer steps); its ns/ktile is per 128 of K, as the others'
//   eo2   d256 with its epilogue under the next tile's first 2 k-tiles (EpilogueUnderNextTile<2>,
//         the 16-bit kernels' shipped order): the epilogue hidden without ping-pong's traffic
//   c256  the cooperative kernel with 256x128x128 tiles (cuBLASLt's tile): two consumer warpgroups
//         of 128x128 each (two m64n128k32 atoms along M, rows 64 w and 128 + 64 w), 8 KiB of
//         shared memory per 2 x 64x128x32 MACs against d256's 10 KiB per 64x256x32; 4 stages of
//         48 KiB; clusters of 2 along M (B shared; cuBLASLt's clusters along N, sharing A, are
//         not built). Its D must equal d256's bit for bit (each element's k32 steps in the same
//         order): checked, as r2 against r
// The cluster's direction: cuBLASLt's kernel pairs its CTAs along the tokens, so that the pair
// shares the WEIGHT tile; d256 and c256 run D^T (M' the weight's rows), so their pairs along M'
// share the tokens' tile. These run the caller's problem untransposed (A = X, tokens along the
// tile's M; B = W; D row-major through the row-major TMA-store epilogue), so their pairs along M
// are two token tiles sharing the weight tile by multicast, as cuBLASLt's:
//   d256r  d256's tile (128 tokens x 256 weights x 128), clusters of 2 along the tokens
//   c256r  c256's tile (256 tokens x 128 weights x 128, two warpgroups of 128 x 128): cuBLASLt's
//          256 (weights) x 128 (tokens) tile turned around, both tile and cluster along the tokens
//   d128r  128 x 128 (the per-tensor twin of r), clusters of 2 along the tokens
// Each element's k32 steps run in the same order as d256's, so their D must equal d256's bit for
// bit (checked, as c256's).
// The few-hundred-token tile (seed 002's 320 x 32576 x 7168), both epilogue orders:
//   m160     per-tensor FP8, 128x160 c2 (sm90::Fp8Gemm<.., 160>: Fp8Mid, shipped), epilogue after
//            the tile
//   m160eo2  m160 with its epilogue under the next tile's first 2 k-tiles (EpilogueUnderNextTile<2>)
// The few-token tile (64 x 7168 x 16384, memory-bound: the weight streamed once):
//   dec      per-tensor FP8, 128x64 without a cluster under Stream-K (Fp8Decode, shipped)
//   dec256   256x64 tiles (two m64 atoms per consumer warpgroup): half the units, the tokens'
//            tile read from L2 once per 32 KiB of weight
//   dec-c2   dec in clusters of 2 along the weight rows (the tokens' tile multicast to the pair)
//   dec-k64  dec with BK = 64 (64-byte swizzle): the same bytes in flight as twice as many, half-size
//            requests; its ns/ktile is per 64 of K
// DeepGEMM's tile for many tokens (block-scaled, the tokens along M as r):
//   r256     256 x 128 x 128, two consumer warpgroups of two m64 atoms, each atom's k-tile waited
//            for and promoted before the next atom's is issued; clusters of 2 along M (the pair
//            shares the weight tile, as r; DeepGEMM's pair shares the tokens' tile, which the
//            block-scaled mainloop does not build). Its D must equal r's bit for bit (the same
//            products per accumulator in the same order)
// The per-tensor scales (0.75 and 1.5, not 1: a kernel that skipped
// them would be off by 1.125) are applied by the epilogue whatever D's major.
// e, e-sa and e-tog compute other numbers than the block mode (timing only; each is checked
// against its own FP64 definition so that a variant that skipped work shows up).
// Checks: D poisoned (NaN) before each checked launch; every element written; FP64 on
// sampled elements (||D - ref|| / ||ref|| over the samples < 1e-2); the block variants' D
// against a's bit for bit (count of differing elements and the relative norm); the per-tensor
// variants' against d256's where d256 ran first (printed; required equal for c256, d256r, c256r
// and d128r, the same k32 steps per element; for the others FP64 decides).
// Timing: warm-up, then rounds: a lead-in kernel, then every variant once in a rotated order
// (round r starts at variant r mod V), each between its own CUDA events; medians per variant
// and the ratio of b's median to each (> 1: faster than b; d256's where b is not run); ns per
// k-tile = median / (waves x k-tiles), waves = ceil(cluster tiles / resident clusters).
// --gap-us G: each timed launch behind a G us lead-in (torch_timing.py's ~2 ms sleep: 2000), so
// the GPU idles between launches; without it the rounds are a sustained load (lower clocks).
// Build (tools/device/run_sm90_fp8_block_probe.sh): each variant is its own object
// (-DTESSERA_FP8_PROBE_VARIANT=i: only that kernel), compiled side by side, and the main
// object (no kernel but the fills) links them.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <tessera/kernels/gemm_arguments.hpp>

// id, letter, what it is, how its D is checked, whether it takes the block mode's arguments
#define FP8_PROBE_VARIANTS(X)                                                                                          \
  X(0, "a", "block 128x128 c2 together (Fp8Block, shipped)", Check::Block, true)                                       \
  X(1, "b", "block 128x192 c2 turns (Fp8BlockWide, shipped)", Check::Block, true)                                      \
  X(2, "c", "block 128x192 c2 together", Check::Block, true)                                                           \
  X(3, "d", "per-tensor 128x192 c2 (no promotion at all)", Check::PerTensor, false)                                     \
  X(4, "d256", "per-tensor 128x256 c2 (Fp8, shipped)", Check::PerTensor, false)                                         \
  X(5, "e", "128x192 turns, NO promotion (unscaled sums, TIMING ONLY)", Check::Unscaled, true)                         \
  X(6, "e-sa", "128x192 turns, promoted by the block scale only (TIMING ONLY)", Check::BlockOnly, true)                \
  X(7, "e-tog", "128x192 together, NO promotion (unscaled sums, TIMING ONLY)", Check::Unscaled, true)                  \
  X(8, "f", "block 128x192 c2 turns, column scales as float2 pairs", Check::Block, true)                               \
  X(9, "g", "block 128x128 c2 together, 2 partial fragments (wait_group 1)", Check::Block, true)                       \
  X(10, "a-t", "block 128x128 c2 turns", Check::Block, true)                                                           \
  X(11, "d128", "per-tensor 128x128 c2 (Fp8Small, shipped)", Check::PerTensor, false)                                  \
  X(12, "r", "block 128x128 c2, tokens along M, D row-major, promoted after each wait", Check::Block, true)           \
  X(13, "r2", "block 128x128 c2, tokens along M, D row-major, promoted under the next k-tile", Check::Block, true)      \
  X(14, "r2-sk", "r2 under Stream-K (k-ranges starting anywhere; fix-up order: not bitwise r)", Check::Block, true)      \
  X(15, "pp", "per-tensor ping-pong 64x256 per warpgroup c2 (ns/ktile per 64x256)", Check::PerTensor, false)                \
  X(16, "pp128", "per-tensor ping-pong 128x128 per warpgroup c2 (ns/ktile per 128x128)", Check::PerTensor, false)          \
  X(17, "c1", "per-tensor 128x256 no cluster (d256, ClusterM 1)", Check::PerTensor, false)                                  \
  X(18, "c4", "per-tensor 128x256 clusters of 4 (d256, ClusterM 4)", Check::PerTensor, false)                               \
  X(19, "s3", "per-tensor 128x256 c2, 3 stages (d256, StageCount<3>)", Check::PerTensor, false)                           \
  X(20, "pp-c4", "per-tensor ping-pong 64x256 per warpgroup c4 (ns/ktile per 64x256)", Check::PerTensor, false)             \
  X(21, "k64", "per-tensor 128x256x64 c2 (d256 with BK 64; ns/ktile per 128 of K)", Check::PerTensor, false)              \
  X(22, "eo2", "per-tensor 128x256 c2, epilogue under the next tile's 2 k-tiles", Check::PerTensor, false)            \
  X(23, "c256", "per-tensor 256x128 c2 (along M), 128x128 per warpgroup (bitwise d256)", Check::PerTensor, false)        \
  X(24, "d256r", "per-tensor 128x256 c2, tokens along M (pair shares W), D row-major (bitwise d256)", Check::PerTensor, false) \
  X(25, "c256r", "per-tensor 256x128 c2, tokens along M (pair shares W), D row-major (bitwise d256)", Check::PerTensor, false) \
  X(26, "d128r", "per-tensor 128x128 c2, tokens along M (pair shares W), D row-major (bitwise d256)", Check::PerTensor, false) \
  X(27, "m160", "per-tensor 128x160 c2 (Fp8Mid, shipped), epilogue after the tile", Check::PerTensor, false)             \
  X(28, "m160eo2", "per-tensor 128x160 c2, epilogue under the next tile's 2 k-tiles", Check::PerTensor, false)      \
  X(29, "dec", "per-tensor 128x64 no cluster, Stream-K (Fp8Decode, shipped)", Check::PerTensor, false)                   \
  X(30, "dec256", "per-tensor 256x64 no cluster, Stream-K, 128x64 per warpgroup", Check::PerTensor, false)              \
  X(31, "dec-c2", "per-tensor 128x64 clusters of 2 (tokens shared), Stream-K", Check::PerTensor, false)              \
  X(32, "dec-k64", "per-tensor 128x64x64 no cluster, Stream-K (BK 64: twice the stages)", Check::PerTensor, false)   \
  X(33, "r256", "block 256x128 c2 (pair shares W), tokens along M, D row-major, promoted atom by atom", Check::Block, true)

namespace fp8_probe {
// What a variant's D is checked against: the block mode's definition, the unscaled sum (no
// promotion), the sum scaled by W's block scales alone, or the sum times the per-tensor scales.
enum class Check { Block, Unscaled, BlockOnly, PerTensor };
// A variant's kernel behind plain function pointers (each object instantiates one kernel).
struct Ops {
  bool (*initialize)(const tessera::kernels::GemmArguments& caller, std::string& why);  // the caller's view
  bool (*run)(std::string& why);
  int (*resident_clusters)();
  int bm, bn, cluster, stages;
  bool tokens_along_m = false;  // the kernel runs the caller's D row-major (its M the tokens), not D^T
};
// (weak: a binary links the variants that were built; the others are null)
#define FP8_PROBE_DECLARE(i, letter, what, check, block) __attribute__((weak)) Ops variant_##i();
FP8_PROBE_VARIANTS(FP8_PROBE_DECLARE)
#undef FP8_PROBE_DECLARE
}  // namespace fp8_probe

#ifdef TESSERA_FP8_PROBE_VARIANT
// ---------------------------------------------------------------- one variant's kernel
#include "../../kernels/device/sm90_gemm.cuh"
#include "../../kernels/device/sm90_kernel_list.hpp"

namespace fp8_probe {
using namespace tessera;
namespace s9 = tessera::kernels::sm90;
namespace karch = tessera::kernels::arch;

// The block-scaled mainloop with another consumer k-loop (its producer, stages, barriers and
// everything else inherited): the kernel calls Mainloop::mma_block_scaled, which this hides.
enum class Promotion { None, BlockScaleOnly, PairedLoads, Pipelined };
template <class Base, Promotion P>
struct ProbeMainloop : Base {
  using typename Base::Accumulators;
  using typename Base::Params;
  using typename Base::PipelineState;
  using typename Base::SharedStorage;
  using typename Base::TiledMma;
  using Element = typename Base::Element;
  using ElementB = typename Base::ElementB;
  __device__ __forceinline__ static void mma_block_scaled(Params const& p, SharedStorage& s, PipelineState& st, int wg,
                                                          Accumulators& acc, int k_tiles, int64_t block_m, int64_t k_begin = 0) {
    constexpr auto ring_a = Base::smem_a;
    constexpr auto ring_b = Base::smem_b;
    constexpr auto tile = make_shape(C<Base::BM>{}, C<Base::BN>{});
    constexpr int n = Base::AtomsM * Base::AtomValues;
    const int thread = wg * GMMA::warpgroup_threads + int(threadIdx.x) % GMMA::warpgroup_threads;
    const auto thr = TiledMma{}.get_slice(thread);
    const auto tCrA = thr.partition_fragment_A(make_tensor(reinterpret_cast<Element*>(s.a), ring_a));
    const auto tCrB = thr.partition_fragment_B(make_tensor(reinterpret_cast<ElementB*>(s.b), ring_b));
    const bool lane0 = (threadIdx.x % 32) == 0;
    constexpr bool alternating = Base::Issue == s9::ConsumerIssue::Alternating;
    using Turns = s9::block_scaled_turns<Base::ConsumerWarpgroups>;
    if constexpr (alternating)
      if (k_tiles > 0 && Turns::primes(wg)) karch::named_barrier_arrive<karch::NamedBarrier::ConsumerTurn, Turns::threads>(Turns::first());
    auto take_turn = [&] {
      if constexpr (alternating) karch::named_barrier_sync<karch::NamedBarrier::ConsumerTurn, Turns::threads>(Turns::waits_at(wg));
    };
    auto pass_turn = [&](int kt) {
      if constexpr (alternating)
        if (Turns::passes(wg, kt, k_tiles)) karch::named_barrier_arrive<karch::NamedBarrier::ConsumerTurn, Turns::threads>(Turns::passes_to(wg));
    };
    if constexpr (P == Promotion::Pipelined) {
      static_assert(!alternating, "the pipelined promotion overlaps a warpgroup's own k-tiles (consumers together)");
      // Two fragments of partial sums, the k-loop unrolled by 2 so that each has fixed
      // registers: k-tile kt (fragment kt % 2) is issued, then k-tile kt-1 (the other) is
      // waited for (wait_group 1: groups retire in order), promoted with its stage's scales and
      // its stage released, while kt's wgmmas run.
      Accumulators part0, part1;
      auto tP0 = make_tensor(&part0.v[0], partition_fragment_C(TiledMma{}, tile).layout());
      auto tP1 = make_tensor(&part1.v[0], partition_fragment_C(TiledMma{}, tile).layout());
      const auto tCc = thr.partition_C(make_identity_tensor(tile));
      const auto tCc0 = TiledMma{}.get_slice(0).partition_C(make_identity_tensor(tile));
      const int col0 = int(get<1>(tCc(0)));
      const float* blocks =
          p.scales.blocks + (block_m < p.scales.block_rows ? block_m : p.scales.block_rows - 1) * p.scales.blocks_ld + k_begin;
#pragma unroll
      for (int i = 0; i < n; ++i) acc[i] = 0.0f;
      // (the loop's state kept small beside the three fragments: a stage's index, not its
      // state, and each fragment's block scale, loaded when its k-tile is issued)
      auto issue = [&](auto& tP, Accumulators& part, int kt, float& sa) {
        while (!s.pipe.consumer_try_wait(st)) {}
        GMMA::warpgroup_fence_operand(part.v);
        GMMA::warpgroup_arrive();
        gemm(TiledMma{}, tCrA(_, _, _, st.index), tCrB(_, _, _, st.index), tP, GMMA::ScaleOut::Zero);
        GMMA::warpgroup_commit_batch();
        sa = __ldg(blocks + kt);
      };
      auto promote = [&](Accumulators& part, int index, float sa) {
        GMMA::warpgroup_fence_operand(part.v);
        const float* rows = reinterpret_cast<const float*>(s.scale + index * Base::stage_scale_bytes) + col0;
#pragma unroll
        for (int i = 0; i < n; ++i) acc[i] += part[i] * (sa * rows[int(get<1>(tCc0(i)))]);
        __syncwarp();
        if (lane0) {
          PipelineState at;
          at.index = index;
          Base::release(s, at);
        }
      };
      int prev = 0;
      float sa0 = 0.0f, sa1 = 0.0f;
      for (int kt = 0; kt < k_tiles; kt += 2) {
        issue(tP0, part0, kt, sa0);  // k-tile kt into part0
        const int at0 = st.index;
        ++st;
        if (kt > 0) {  // k-tile kt-1 (part1) under kt's wgmmas
          GMMA::warpgroup_wait<1>();
          promote(part1, prev, sa1);
        }
        prev = at0;
        if (kt + 1 < k_tiles) {
          issue(tP1, part1, kt + 1, sa1);  // k-tile kt+1 into part1
          const int at1 = st.index;
          ++st;
          GMMA::warpgroup_wait<1>();  // k-tile kt (part0) under kt+1's
          promote(part0, prev, sa0);
          prev = at1;
        } else {  // kt, in part0, is the last
          GMMA::warpgroup_wait<0>();
          promote(part0, prev, sa0);
        }
      }
      if (k_tiles > 0 && k_tiles % 2 == 0) {  // the last, in part1
        GMMA::warpgroup_wait<0>();
        promote(part1, prev, sa1);
      }
    } else if constexpr (P == Promotion::None) {
      // The wgmmas accumulate into acc over the whole K (as per-tensor FP8), each k-tile still
      // waited for and its stage released after it, as the block-scaled loop does.
      auto tCrC = make_tensor(&acc.v[0], partition_fragment_C(TiledMma{}, tile).layout());
#pragma unroll
      for (int i = 0; i < n; ++i) acc[i] = 0.0f;
      GMMA::warpgroup_fence_operand(acc.v);
      for (int kt = 0; kt < k_tiles; ++kt) {
        while (!s.pipe.consumer_try_wait(st)) {}
        take_turn();
        GMMA::warpgroup_fence_operand(acc.v);
        GMMA::warpgroup_arrive();
        gemm(TiledMma{}, tCrA(_, _, _, st.index), tCrB(_, _, _, st.index), tCrC, kt == 0 ? GMMA::ScaleOut::Zero : GMMA::ScaleOut::One);
        GMMA::warpgroup_commit_batch();
        pass_turn(kt);
        GMMA::warpgroup_wait<0>();
        GMMA::warpgroup_fence_operand(acc.v);
        __syncwarp();
        if (lane0) Base::release(s, st);
        ++st;
      }
    } else {
      Accumulators part;
      auto tCrP = make_tensor(&part.v[0], partition_fragment_C(TiledMma{}, tile).layout());
      const auto tCc = thr.partition_C(make_identity_tensor(tile));
      const auto tCc0 = TiledMma{}.get_slice(0).partition_C(make_identity_tensor(tile));
      const int col0 = int(get<1>(tCc(0)));
      const float* blocks =
          p.scales.blocks + (block_m < p.scales.block_rows ? block_m : p.scales.block_rows - 1) * p.scales.blocks_ld + k_begin;
#pragma unroll
      for (int i = 0; i < n; ++i) acc[i] = 0.0f;
      float block_next = k_tiles > 0 ? __ldg(blocks) : 0.0f;
      for (int kt = 0; kt < k_tiles; ++kt) {
        while (!s.pipe.consumer_try_wait(st)) {}
        take_turn();
        GMMA::warpgroup_fence_operand(part.v);
        GMMA::warpgroup_arrive();
        gemm(TiledMma{}, tCrA(_, _, _, st.index), tCrB(_, _, _, st.index), tCrP, GMMA::ScaleOut::Zero);
        GMMA::warpgroup_commit_batch();
        pass_turn(kt);
        const float sa = block_next;
        if (kt + 1 < k_tiles) block_next = __ldg(blocks + kt + 1);
        const float* rows = reinterpret_cast<const float*>(s.scale + st.index * Base::stage_scale_bytes) + col0;
        GMMA::warpgroup_wait<0>();
        GMMA::warpgroup_fence_operand(part.v);
        if constexpr (P == Promotion::BlockScaleOnly) {
          (void)rows;
#pragma unroll
          for (int i = 0; i < n; ++i) acc[i] += part[i] * sa;
        } else {
          // Column c's scale from the 8-byte pair (c & ~1, c | 1): col0 is even (the wgmma C
          // layout: a thread's columns come in adjacent pairs), so each pair is one aligned load.
#pragma unroll
          for (int i = 0; i < n; ++i) {
            const int c = int(get<1>(tCc0(i)));
            const float2 pair = *reinterpret_cast<const float2*>(rows + (c & ~1));
            acc[i] += part[i] * (sa * ((c & 1) ? pair.y : pair.x));
          }
        }
        __syncwarp();
        if (lane0) Base::release(s, st);
        ++st;
      }
    }
  }
};

// A block-scaled kernel type with its mainloop swapped for ProbeMainloop<.., P>.
template <class Kernel, Promotion P>
struct with_promotion;
template <class M, class E, class S, class O, Promotion P>
struct with_promotion<s9::GemmTmaWarpSpecialized<M, E, S, O>, P> {
  using type = s9::GemmTmaWarpSpecialized<ProbeMainloop<M, P>, E, S, O>;
};

using Fp8 = float_e4m3_t;
using BlockTogether192 = s9::Fp8BlockScaledGemm<bfloat16_t, 2, s9::WholeTileScheduler, 192>;
template <int V> struct Variant;
template <> struct Variant<0> { using type = s9::Fp8BlockScaledGemm<>; };
template <> struct Variant<1> { using type = s9::Fp8BlockWideGemm<>; };
template <> struct Variant<2> { using type = BlockTogether192; };
template <> struct Variant<3> { using type = s9::Fp8Gemm<Fp8, Fp8, bfloat16_t, 192>; };
template <> struct Variant<4> { using type = s9::Fp8Gemm<Fp8, Fp8, bfloat16_t>; };
template <> struct Variant<5> { using type = typename with_promotion<s9::Fp8BlockWideGemm<>, Promotion::None>::type; };
template <> struct Variant<6> { using type = typename with_promotion<s9::Fp8BlockWideGemm<>, Promotion::BlockScaleOnly>::type; };
template <> struct Variant<7> { using type = typename with_promotion<BlockTogether192, Promotion::None>::type; };
template <> struct Variant<8> { using type = typename with_promotion<s9::Fp8BlockWideGemm<>, Promotion::PairedLoads>::type; };
// (g: 48 bytes of spill stores at sm_90a, nvcc 13.0, where the others have none: three fragments
// of 64 registers beside the loop's state at the consumers' 232; the SASS line says whether any
// lies in the k-loop. With the producer at 24 and the consumers at 240: 64 bytes.)
template <> struct Variant<9> { using type = typename with_promotion<s9::Fp8BlockScaledGemm<>, Promotion::Pipelined>::type; };
template <> struct Variant<10> {
  using type = s9::Fp8BlockScaledGemm<bfloat16_t, 2, s9::WholeTileScheduler, 128, kernels::KernelTmaWarpSpecializedCooperativeFp8BlockScaledAlternating>;
};
template <> struct Variant<11> { using type = s9::Fp8Gemm<Fp8, Fp8, bfloat16_t, 128>; };
template <> struct Variant<12> {
  using type = s9::Fp8BlockRowsGemm<s9::WholeTileScheduler, 2, kernels::KernelTmaWarpSpecializedCooperativeFp8BlockScaledRowsOfA>;
};
template <> struct Variant<13> {
  using type = s9::Fp8BlockRowsGemm<s9::WholeTileScheduler, 2, kernels::KernelTmaWarpSpecializedCooperativeFp8BlockScaledRowsOfAUnderNextKTile>;
};
template <> struct Variant<14> {
  using type = s9::Fp8BlockRowsGemm<s9::StreamKTileScheduler, 2, kernels::KernelTmaWarpSpecializedCooperativeFp8BlockScaledRowsOfAUnderNextKTile>;
};

template <> struct Variant<15> { using type = s9::Fp8PingpongGemm<Fp8, Fp8, bfloat16_t, 256, 2, 64>; };
template <> struct Variant<16> { using type = s9::Fp8PingpongGemm<Fp8, Fp8, bfloat16_t, 128, 2, 128>; };
template <> struct Variant<17> { using type = s9::Fp8Gemm<Fp8, Fp8, bfloat16_t, 256, 1>; };
template <> struct Variant<18> { using type = s9::Fp8Gemm<Fp8, Fp8, bfloat16_t, 256, 4>; };
// (d256's builder with the stage count given: Fp8Mainloop's arguments but StageCount<3>)
template <> struct Variant<19> {
  using type = s9::Sm90Kernel<kernels::CollectiveBuilder<kernels::arch::Sm90, kernels::OpClassTensorOp, Fp8, kernels::KMajor, 16, Fp8,
                                                         kernels::KMajor, 16, float, tuple<_128, _256, _128>, tuple<_2, _1, _1>,
                                                         kernels::StageCount<3>, kernels::KernelTmaWarpSpecializedCooperative>,
                              bfloat16_t>;
};
template <> struct Variant<20> { using type = s9::Fp8PingpongGemm<Fp8, Fp8, bfloat16_t, 256, 4, 64>; };
template <> struct Variant<21> {
  using type = s9::Sm90Kernel<kernels::CollectiveBuilder<kernels::arch::Sm90, kernels::OpClassTensorOp, Fp8, kernels::KMajor, 16, Fp8,
                                                         kernels::KMajor, 16, float, tuple<_128, _256, _64>, tuple<_2, _1, _1>,
                                                         kernels::StageCountAuto, kernels::KernelTmaWarpSpecializedCooperative>,
                              bfloat16_t>;
};
template <> struct Variant<22> {
  using type = typename s9::with_epilogue_order<s9::Fp8Gemm<Fp8, Fp8, bfloat16_t>, s9::EpilogueUnderNextTile<2>>::type;
};

// (the builder's cooperative 256-row tile: ConsumerWarpgroups 2, the TiledMma's M repeat of 2)
template <> struct Variant<23> {
  using type = s9::Sm90Kernel<kernels::CollectiveBuilder<kernels::arch::Sm90, kernels::OpClassTensorOp, Fp8, kernels::KMajor, 16, Fp8,
                                                         kernels::KMajor, 16, float, tuple<_256, _128, _128>, tuple<_2, _1, _1>,
                                                         kernels::StageCountAuto, kernels::KernelTmaWarpSpecializedCooperative>,
                              bfloat16_t>;
  static_assert(type::Mainloop::ConsumerWarpgroups == 2 && type::Mainloop::AtomsM == 2 && type::Mainloop::Stages == 4,
                "c256: two consumer warpgroups of two m64 atoms each, 4 stages of 48 KiB");
};

// The tokens along the tile's M (the caller's problem untransposed: A = X, B = W, D row-major
// through the row-major TMA-store epilogue): clusters of 2 along M are two token tiles sharing
// the weight tile (B) by multicast, cuBLASLt's pairing. The per-tensor scales are applied by the
// epilogue's scale pass (the kernel's FP8 step before the store, whatever D's major).
template <class Tile>
using TokensAlongM = s9::Sm90Kernel<kernels::CollectiveBuilder<kernels::arch::Sm90, kernels::OpClassTensorOp, Fp8, kernels::KMajor, 16, Fp8,
                                                               kernels::KMajor, 16, float, Tile, tuple<_2, _1, _1>, kernels::StageCountAuto,
                                                               kernels::KernelTmaWarpSpecializedCooperative>,
                                    bfloat16_t, s9::WholeTileScheduler, kernels::Activation::Identity, kernels::Major::Row>;
template <> struct Variant<24> {
  using type = TokensAlongM<tuple<_128, _256, _128>>;
  static_assert(type::Mainloop::Stages == 4 && type::Mainloop::AtomsM == 1, "d256r: d256's mainloop (4 stages of 48 KiB)");
};
template <> struct Variant<25> {
  using type = TokensAlongM<tuple<_256, _128, _128>>;
  static_assert(type::Mainloop::ConsumerWarpgroups == 2 && type::Mainloop::AtomsM == 2 && type::Mainloop::Stages == 4,
                "c256r: c256's mainloop (two consumer warpgroups of two m64 atoms each, 4 stages of 48 KiB)");
};
template <> struct Variant<26> {
  using type = TokensAlongM<tuple<_128, _128, _128>>;
  static_assert(type::Mainloop::Stages == 6 && type::Mainloop::AtomsM == 1, "d128r: d128's mainloop (6 stages of 32 KiB)");
};

// The few-hundred-token tile (sm90::Fp8Gemm<.., 160>, the kernel list's Fp8Mid) in both epilogue
// orders: at 320 x 32576 x 7168 each CTA runs about four tiles, so an epilogue after each tile
// is exposed four times; under the next tile's first k-tiles it overlaps them.
template <> struct Variant<27> { using type = s9::Fp8Gemm<Fp8, Fp8, bfloat16_t, 160>; };
template <> struct Variant<28> {
  using type = typename s9::with_epilogue_order<s9::Fp8Gemm<Fp8, Fp8, bfloat16_t, 160>, s9::EpilogueUnderNextTile<2>>::type;
};

// The few-token tile (64 x 7168 x 16384: the weight streamed once, the tokens from L2), against
// two changes of it: 256 weight rows per tile (two m64 atoms per consumer warpgroup: the tokens'
// 8 KiB read from L2 once per 32 KiB of weight, not per 16 KiB, and half the Stream-K units), and
// clusters of 2 along the weight rows (the tokens' tile multicast to the pair).
// (a cooperative FP8 tile without a cluster under Stream-K, D^T as the decode kernel runs it)
template <class Tile>
using DecodeTile = s9::Sm90Kernel<kernels::CollectiveBuilder<kernels::arch::Sm90, kernels::OpClassTensorOp, Fp8, kernels::KMajor, 16, Fp8,
                                                             kernels::KMajor, 16, float, Tile, tuple<_1, _1, _1>, kernels::StageCountAuto,
                                                             kernels::KernelTmaWarpSpecializedCooperative>,
                                  bfloat16_t, s9::StreamKTileScheduler>;
template <> struct Variant<29> { using type = s9::Fp8Gemm<Fp8, Fp8, bfloat16_t, 64, 1, s9::StreamKTileScheduler>; };
template <> struct Variant<30> {
  using type = DecodeTile<tuple<_256, _64, _128>>;
  static_assert(type::Mainloop::ConsumerWarpgroups == 2 && type::Mainloop::AtomsM == 2, "dec256: two consumer warpgroups of two m64 atoms each");
};
template <> struct Variant<31> { using type = s9::Fp8Gemm<Fp8, Fp8, bfloat16_t, 64, 2, s9::StreamKTileScheduler>; };
// (BK = 64: 64-byte rows of K, half-size boxes, about twice dec's stages in the same shared memory)
template <> struct Variant<32> {
  using type = DecodeTile<tuple<_128, _64, _64>>;
};

// DeepGEMM's tile for many tokens (its configuration at 4096 x 7168 x 16384 on an H200: 256 x 128
// x 128, clusters of 2 sharing the tokens' tile, 3 stages): the tokens along M as r, two consumer
// warpgroups of 128 x 128 (two m64 atoms each), each atom's k-tile waited for and promoted before
// the next atom's (one partial fragment of 64 beside 128 accumulators), in clusters of 2 along M
// (the pair shares the weight tile, as r: the block-scaled mainloop takes no clusters along N,
// whose row scales would follow the shared tokens' tile).
template <class Cluster>
using BlockRows256 = s9::Sm90Kernel<kernels::CollectiveBuilder<kernels::arch::Sm90, kernels::OpClassTensorOp, Fp8, kernels::KMajor, 16, Fp8,
                                                               kernels::KMajor, 16, float, tuple<_256, _128, _128>, Cluster,
                                                               kernels::StageCountAuto,
                                                               kernels::KernelTmaWarpSpecializedCooperativeFp8BlockScaledRowsOfA>,
                                    bfloat16_t, s9::WholeTileScheduler, kernels::Activation::Identity, kernels::Major::Row>;
template <> struct Variant<33> {
  using type = BlockRows256<tuple<_2, _1, _1>>;
  static_assert(type::Mainloop::ConsumerWarpgroups == 2 && type::Mainloop::AtomsM == 2, "r256: two consumer warpgroups of two m64 atoms each");
};

using Kernel = typename Variant<TESSERA_FP8_PROBE_VARIANT>::type;
// Whether the kernel runs the caller's row-major D as it is (its M the tokens), not as D^T.
constexpr bool kRowMajorD = kernels::device::sm90_set::traits_of<Kernel>.d_major == kernels::Major::Row;
static_assert(!Kernel::Mainloop::RowsOfA || kRowMajorD, "the block rows kernels write a row-major D");
using Op = s9::GemmSm90<Kernel>;
namespace {
Op* op = nullptr;
bool initialize(const kernels::GemmArguments& caller, std::string& why) {
  if (op == nullptr) op = new Op();
  // (the kernel's view: D^T column-major, or the caller's row-major D for the tokens-along-M kernel)
  const kernels::GemmArguments view = kRowMajorD ? caller : s9::as_column_major_d(caller);
  if constexpr (Kernel::Mainloop::BlockScaled) {
    // Whichever the orientation, the row scales the kernel copies are the caller's scale_a (the
    // tokens') and its 128 x 128 blocks the caller's scale_b (the weight's): docs/gemm.md.
    const auto src = Kernel::Mainloop::scale_sources(s9::problem_shape_of(view), Kernel::Mainloop::arguments_of(view));
    if (caller.scale_mode == kernels::ScaleMode::Block && (src.rows != caller.scale_a || src.blocks != caller.scale_b)) {
      why = "the kernel would read the row scales from scale_b or the block scales from scale_a";
      return false;
    }
  }
  // (a Stream-K variant: its partials' and flags' workspace, kept for the process)
  kernels::GemmArguments with_ws = view;
  if (const std::size_t bytes = Op::get_workspace_size(view); bytes > 0) {
    static void* ws = nullptr;
    static std::size_t ws_bytes = 0;
    if (bytes > ws_bytes) {
      if (ws != nullptr) cudaFree(ws);
      if (cudaMalloc(&ws, bytes) != cudaSuccess) {
        why = "workspace: cudaMalloc failed";
        ws = nullptr, ws_bytes = 0;
        return false;
      }
      ws_bytes = bytes;
    }
    with_ws.workspace = ws;
    with_ws.workspace_bytes = ws_bytes;
  }
  if (auto r = op->initialize(with_ws); !r) {
    why = r.message;
    return false;
  }
  return true;
}
bool run(std::string& why) {
  if (auto r = op->run(); !r) {
    why = r.message;
    return false;
  }
  return true;
}
int resident_clusters() { return Op::hardware_info(&s9::gemm_sm90_entry<Kernel>).resident_clusters; }
}  // namespace

#define FP8_PROBE_CAT2(a, b) a##b
#define FP8_PROBE_CAT(a, b) FP8_PROBE_CAT2(a, b)
Ops FP8_PROBE_CAT(variant_, TESSERA_FP8_PROBE_VARIANT)() {
  return {&initialize, &run, &resident_clusters, int(Kernel::Mainloop::BM), int(Kernel::Mainloop::BN), int(Kernel::Mainloop::ClusterM),
          int(Kernel::Mainloop::Stages), kRowMajorD};
}
}  // namespace fp8_probe

#else
// ---------------------------------------------------------------- the driver
#include "../../bench/timing.hpp"
#include "../harness/harness.cuh"
#include "../harness/sm90_gemm_check.hpp"

namespace fp8_probe {
using tessera::bfloat16_t;
namespace kernels = tessera::kernels;

struct Variant {
  int id;
  const char* letter;
  const char* what;
  Check check;
  bool block;  // the block mode's arguments (else per-tensor scales: Problem::tensor_scale_*)
  Ops ops;
};
std::vector<Variant> all_variants() {
  std::vector<Variant> v;
#define FP8_PROBE_ENTRY(i, letter, what, check, block) \
  if (&variant_##i != nullptr) v.push_back({i, letter, what, check, block, variant_##i()});
  FP8_PROBE_VARIANTS(FP8_PROBE_ENTRY)
#undef FP8_PROBE_ENTRY
  return v;
}

// e4m3's value of a byte (sign, 4 exponent bits of bias 7, 3 mantissa bits; 0x7f / 0xff NaN).
double e4m3(uint8_t b) {
  const int s = b >> 7, e = (b >> 3) & 15, m = b & 7;
  if (e == 15 && m == 7) return NAN;
  const double v = e == 0 ? std::ldexp(double(m), -9) : std::ldexp(1.0 + m / 8.0, e - 7);
  return s ? -v : v;
}
double bf16_value(uint16_t h) {
  uint32_t u = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return double(f);
}
// A scale in [0.5, 2): element i of stream `seed` (host-side, so the reference knows it).
float host_scale(uint64_t i, uint64_t seed) {
  uint64_t z = i * 0x9E3779B97F4A7C15ull + seed;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return float(0.5 + 1.5 * double(z >> 11) * (1.0 / 9007199254740992.0));
}

__global__ void poison_bf16(uint16_t* p, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x) p[i] = 0x7fc0;
}

// One shape's data: X (M x K) and W (N x K) e4m3, K-major; the block mode's scales (X's per
// token and k-group, M-major with ld; W's per 128 x 128 block); D row-major bf16.
struct Problem {
  int64_t m, n, k, kb, ld_sa, nb;
  uint8_t *x = nullptr, *w = nullptr;
  float *sa = nullptr, *sb = nullptr;
  // The per-tensor scales (one f32 each in device memory, 256 bytes apart as torch's separate
  // tensors): not 1, so that a kernel that skipped them fails the FP64 check; their product is
  // exact in f32 and the same in either operand order (the D^T kernels swap the two).
  static constexpr float tensor_scale_a = 0.75f, tensor_scale_b = 1.5f;
  static constexpr int tensor_scale_b_at = 64;  // (floats: b's offset from a)
  float* tensor_scales = nullptr;
  uint16_t *d = nullptr, *d_ref = nullptr;
  std::vector<float> h_sa, h_sb;
  Problem(int64_t m_, int64_t n_, int64_t k_) : m(m_), n(n_), k(k_) {
    kb = (k + 127) / 128;
    ld_sa = (m + 3) / 4 * 4;
    nb = (n + 127) / 128;
    SM90_CUDA(cudaMalloc(&x, size_t(m * k)));
    SM90_CUDA(cudaMalloc(&w, size_t(n * k)));
    SM90_CUDA(cudaMalloc(&d, size_t(m * n) * 2));
    SM90_CUDA(cudaMalloc(&d_ref, size_t(m * n) * 2));
    kernels::harness::fill_random_fp8(x, nullptr, m * k, uint64_t(m * 31 + k), false);
    kernels::harness::fill_random_fp8(w, nullptr, n * k, uint64_t(n * 17 + k + 5), false);
    h_sa.resize(size_t(ld_sa * kb));
    h_sb.resize(size_t(nb * kb));
    for (size_t i = 0; i < h_sa.size(); ++i) h_sa[i] = host_scale(i, 11);
    for (size_t i = 0; i < h_sb.size(); ++i) h_sb[i] = host_scale(i, 23);
    SM90_CUDA(cudaMalloc(&sa, h_sa.size() * 4));
    SM90_CUDA(cudaMalloc(&sb, h_sb.size() * 4));
    SM90_CUDA(cudaMemcpy(sa, h_sa.data(), h_sa.size() * 4, cudaMemcpyHostToDevice));
    SM90_CUDA(cudaMemcpy(sb, h_sb.data(), h_sb.size() * 4, cudaMemcpyHostToDevice));
    float ts[2 * tensor_scale_b_at] = {};
    ts[0] = tensor_scale_a, ts[tensor_scale_b_at] = tensor_scale_b;
    SM90_CUDA(cudaMalloc(&tensor_scales, sizeof ts));
    SM90_CUDA(cudaMemcpy(tensor_scales, ts, sizeof ts, cudaMemcpyHostToDevice));
    SM90_CUDA(cudaDeviceSynchronize());
  }
  ~Problem() {
    for (void* p : {(void*)x, (void*)w, (void*)sa, (void*)sb, (void*)tensor_scales, (void*)d, (void*)d_ref}) cudaFree(p);
  }
  // tessera::gemm's arguments (the caller's view): block scales, or per-tensor scales.
  kernels::GemmArguments arguments(bool block) const {
    kernels::GemmArguments g;
    g.m = m, g.n = n, g.k = k;
    g.element = kernels::Element::E4M3;
    g.a = {x, kernels::Major::Row, k, 0};
    g.b = {w, kernels::Major::Col, k, 0};
    g.c = {nullptr, kernels::Major::Row, n, 0};
    g.d = d;
    g.ldd = n;
    g.epilogue.output = kernels::Element::BF16;
    if (block) {
      g.scale_mode = kernels::ScaleMode::Block;
      g.scale_a = sa;
      g.scale_b = sb;
      g.ld_scale_a = ld_sa;
    } else {
      g.scale_a = tensor_scales;
      g.scale_b = tensor_scales + tensor_scale_b_at;
    }
    return g;
  }
};

// FP64 on sampled elements: each sample's per-k-group sums, combined per check mode.
struct Samples {
  std::vector<int64_t> i, j;
  std::vector<double> group;  // [sample][kb]
  Samples(const Problem& p, int count) {
    std::vector<uint8_t> hx(size_t(p.m * p.k)), hw(size_t(p.n * p.k));
    SM90_CUDA(cudaMemcpy(hx.data(), p.x, hx.size(), cudaMemcpyDeviceToHost));
    SM90_CUDA(cudaMemcpy(hw.data(), p.w, hw.size(), cudaMemcpyDeviceToHost));
    double lut[256];
    for (int b = 0; b < 256; ++b) lut[b] = e4m3(uint8_t(b));
    uint64_t z = 12345;
    auto next = [&](int64_t bound) {
      z = z * 6364136223846793005ull + 1442695040888963407ull;
      return int64_t((z >> 33) % uint64_t(bound));
    };
    for (int s = 0; s < count; ++s) {
      // (the corners and tile edges too: the first and last rows and columns)
      const int64_t ii = s == 0 ? 0 : s == 1 ? p.m - 1 : next(p.m), jj = s == 0 ? 0 : s == 1 ? p.n - 1 : next(p.n);
      i.push_back(ii), j.push_back(jj);
      for (int64_t g = 0; g < p.kb; ++g) {
        double acc = 0;
        for (int64_t q = g * 128; q < std::min(p.k, (g + 1) * 128); ++q)
          acc += lut[hx[size_t(ii * p.k + q)]] * lut[hw[size_t(jj * p.k + q)]];
        group.push_back(acc);
      }
    }
  }
  double reference(const Problem& p, size_t s, Check c) const {
    if (c == Check::PerTensor) return double(Problem::tensor_scale_a) * Problem::tensor_scale_b * reference(p, s, Check::Unscaled);
    double r = 0;
    for (int64_t g = 0; g < p.kb; ++g) {
      const double v = group[s * size_t(p.kb) + size_t(g)];
      const double a = c == Check::Block ? p.h_sa[size_t(g * p.ld_sa + i[s])] : 1.0;
      const double b = c == Check::Unscaled ? 1.0 : p.h_sb[size_t((j[s] / 128) * p.kb + g)];
      r += a * b * v;
    }
    return r;
  }
};

struct Outcome {
  bool ok = false;
  double vs_fp64 = 0, vs_a = -1;
  int64_t nans = 0, differ_a = -1;
};

// One checked launch of v into a poisoned D.
Outcome check(const Problem& p, const Samples& smp, const Variant& v, const std::vector<uint16_t>* a_bits, std::vector<uint16_t>& bits) {
  Outcome o;
  const int64_t elems = p.m * p.n;
  poison_bf16<<<1024, 256>>>(p.d, elems);
  std::string why;
  if (!v.ops.run(why)) {
    std::printf("  %s: run: %s\n", v.letter, why.c_str());
    return o;
  }
  SM90_CUDA(cudaDeviceSynchronize());
  bits.resize(size_t(elems));
  SM90_CUDA(cudaMemcpy(bits.data(), p.d, size_t(elems) * 2, cudaMemcpyDeviceToHost));
  for (uint16_t h : bits) o.nans += (h & 0x7f80) == 0x7f80 && (h & 0x7f) != 0;
  double num = 0, den = 0;
  for (size_t s = 0; s < smp.i.size(); ++s) {
    const double r = smp.reference(p, s, v.check), x = bf16_value(bits[size_t(smp.i[s] * p.n + smp.j[s])]);
    num += (x - r) * (x - r), den += r * r;
  }
  o.vs_fp64 = std::sqrt(num / (den > 0 ? den : 1));
  o.ok = o.nans == 0 && o.vs_fp64 < 1e-2;
  if (a_bits != nullptr) {
    o.differ_a = 0;
    double dn = 0, rn = 0;
    for (size_t e = 0; e < bits.size(); ++e) {
      if (bits[e] == (*a_bits)[e]) continue;
      ++o.differ_a;
      const double x = bf16_value(bits[e]), r = bf16_value((*a_bits)[e]);
      dn += (x - r) * (x - r);
    }
    for (uint16_t h : *a_bits) rn += bf16_value(h) * bf16_value(h);
    o.vs_a = std::sqrt(dn / (rn > 0 ? rn : 1));
  }
  return o;
}

// Every variant once per round, in a rotated order, each between its own events.
// gap_ns > 0: every timed launch queued behind a lead-in of gap_ns (one spinning thread), as
// torch_timing.py queues each torch call behind a GPU sleep of ~2 ms: the GPU idles between
// launches and its clock recovers, where back-to-back rounds keep it under sustained load.
std::vector<std::vector<float>> time_rounds(const Problem& p, const std::vector<const Variant*>& vs, int reps, uint64_t gap_ns) {
  namespace timing = tessera::kernels::timing;
  const size_t V = vs.size();
  std::string why;
  auto launch = [&](size_t q) {
    if (!vs[q]->ops.run(why)) {
      std::printf("run %s: %s\n", vs[q]->letter, why.c_str());
      std::exit(1);
    }
  };
  const auto w0 = std::chrono::steady_clock::now();
  for (int r = 0; r < 3 || std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - w0).count() < timing::kWarmupMs; ++r) {
    for (size_t q = 0; q < V; ++q) launch(q);
    SM90_CUDA(cudaDeviceSynchronize());
  }
  std::vector<cudaEvent_t> ev(2 * V);
  for (auto& e : ev) SM90_CUDA(cudaEventCreate(&e));
  std::vector<std::vector<float>> t(V);
  for (int r = 0; r < reps; ++r) {
    tessera::kernels::device::lead_in_kernel<><<<1, 1>>>(sm90_check::kLeadInNs);
    for (size_t o = 0; o < V; ++o) {
      const size_t q = (size_t(r) + o) % V;
      if (gap_ns > 0) tessera::kernels::device::lead_in_kernel<><<<1, 1>>>(gap_ns);
      SM90_CUDA(cudaEventRecord(ev[2 * q]));
      launch(q);
      SM90_CUDA(cudaEventRecord(ev[2 * q + 1]));
    }
    SM90_CUDA(cudaDeviceSynchronize());
    for (size_t q = 0; q < V; ++q) {
      float ms = 0;
      SM90_CUDA(cudaEventElapsedTime(&ms, ev[2 * q], ev[2 * q + 1]));
      t[q].push_back(ms);
    }
  }
  for (auto& e : ev) cudaEventDestroy(e);
  (void)p;
  return t;
}

double percentile(std::vector<float> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, size_t(q * double(v.size() - 1) + 0.5))];
}

Variant* by_id(std::vector<Variant>& vs, int id) {
  for (Variant& v : vs)
    if (v.id == id) return &v;
  return nullptr;
}

bool probe_shape(int64_t m, int64_t n, int64_t k, std::vector<Variant>& variants, const std::vector<int>& chosen, int reps,
                 uint64_t gap_ns) {
  Problem p(m, n, k);
  const kernels::GemmArguments block = p.arguments(true), tensor = p.arguments(false);
  std::printf("== %lld x %lld x %lld (tokens x outputs x K; the kernels run D^T: M' %lld, N' %lld), e4m3 -> bf16 row-major\n",
              (long long)m, (long long)n, (long long)k, (long long)n, (long long)m);
  std::vector<const Variant*> ready;
  for (int id : chosen) {
    Variant& v = *by_id(variants, id);
    std::string why;
    if (!v.ops.initialize(v.block ? block : tensor, why)) {
      std::printf("  %-6s %s: initialize refused: %s\n", v.letter, v.what, why.c_str());
      continue;
    }
    ready.push_back(&v);
  }
  const Samples smp(p, 1024);
  bool all_ok = true;
  std::vector<uint16_t> a_bits, r_bits, d256_bits, bits;
  bool have_a = false, have_r = false, have_d256 = false;
  std::vector<Outcome> outcomes(ready.size());
  std::vector<const char*> twin(ready.size(), "a");
  for (size_t q = 0; q < ready.size(); ++q) {
    // (r2 against r: the same products added in the same order, so the same bits; the other block
    // variants against a; the per-tensor ones against d256 for information: the same k32 steps
    // in the same order per element, so the same bits are expected, but only FP64 decides)
    const Variant& v = *ready[q];
    // (c256, d256r, c256r, d128r against d256: each element's k32 steps in the same order, so the
    // same bits: checked)
    // (r2 and r256 against r: the same products per accumulator added in the same order)
    const bool twin_r = v.id == 13 || v.id == 33, twin_d256 = v.id == 23 || v.id == 24 || v.id == 25 || v.id == 26,
               per_tensor = !v.block && v.id != 4;
    const std::vector<uint16_t>* ref = twin_r ? (have_r ? &r_bits : nullptr)
                                       : v.check == Check::Block ? (have_a ? &a_bits : nullptr)
                                       : per_tensor && have_d256 ? &d256_bits
                                                                 : nullptr;
    twin[q] = twin_r ? "r" : per_tensor ? "d256" : "a";
    outcomes[q] = check(p, smp, v, ref, bits);
    if (v.id == 0 && outcomes[q].ok) a_bits = bits, have_a = true;
    if (v.id == 4 && outcomes[q].ok) d256_bits = bits, have_d256 = true;
    if (v.id == 12 && outcomes[q].ok) r_bits = bits, have_r = true;
    if (twin_r && outcomes[q].differ_a > 0) outcomes[q].ok = false;  // (must equal r bit for bit; -1: r not run)
    if (twin_d256 && outcomes[q].differ_a > 0) outcomes[q].ok = false;  // (must equal d256 bit for bit; -1: d256 not run)
    all_ok &= outcomes[q].ok;
  }
  std::vector<std::vector<float>> t;
  if (reps > 0) t = time_rounds(p, ready, reps, gap_ns);
  // (the ratio's reference: b, or d256 where b was not run: the per-tensor variants' baseline)
  double tb = 0;
  const char* ref = "vs_b";
  for (int want : {1, 4})
    for (size_t q = 0; q < ready.size() && tb == 0; ++q)
      if (ready[q]->id == want && !t.empty()) tb = sm90_check::median(t[q]), ref = want == 1 ? "vs_b" : "vs_d256";
  const double flops = 2.0 * double(m) * double(n) * double(k);
  std::printf("  %-6s %-84s %9s %8s %7s %7s %7s %9s %s\n", "var", "kernel (tile, stages)", "median_ms", "TFLOP/s", ref, "p10_ms", "p90_ms",
              "ns/ktile", "check");
  for (size_t q = 0; q < ready.size(); ++q) {
    const Variant& v = *ready[q];
    const double med = t.empty() ? 0 : sm90_check::median(t[q]);
    // The k-tile's time: tiles in clusters over the resident clusters, rounded up to whole waves.
    // (the kernel's M: the outputs for D^T, the tokens for the tokens-along-M kernel)
    const int64_t kernel_m = v.ops.tokens_along_m ? m : n, kernel_n = v.ops.tokens_along_m ? n : m;
    const int64_t tiles_m = (kernel_m + v.ops.bm - 1) / v.ops.bm, tiles_n = (kernel_n + v.ops.bn - 1) / v.ops.bn;
    const int64_t cluster_tiles = (tiles_m + v.ops.cluster - 1) / v.ops.cluster * tiles_n;
    const int64_t slots = std::max(1, v.ops.resident_clusters());
    const int64_t waves = (cluster_tiles + slots - 1) / slots;
    const double ns_ktile = med * 1e6 / double(waves * ((k + 127) / 128));
    char what[160];
    std::snprintf(what, sizeof what, "%s [%dx%d c%d, %d stages, %lld waves]", v.what, v.ops.bm, v.ops.bn, v.ops.cluster, v.ops.stages,
                  (long long)waves);
    const Outcome& o = outcomes[q];
    char chk[160];
    if (o.differ_a >= 0)
      std::snprintf(chk, sizeof chk, "fp64 %.1e nan %lld | vs %s: %lld differ (rel %.1e) %s", o.vs_fp64, (long long)o.nans,
                    twin[q], (long long)o.differ_a, o.vs_a, o.ok ? "ok" : "WRONG");
    else
      std::snprintf(chk, sizeof chk, "fp64 %.1e nan %lld %s", o.vs_fp64, (long long)o.nans, o.ok ? "ok" : "WRONG");
    std::printf("  %-6s %-84s %9.4f %8.1f %7.3f %7.4f %7.4f %9.1f %s\n", v.letter, what, med, med > 0 ? flops / med * 1e-9 : 0.0,
                med > 0 && tb > 0 ? tb / med : 0.0, t.empty() ? 0 : percentile(t[q], 0.1), t.empty() ? 0 : percentile(t[q], 0.9), ns_ktile,
                chk);
  }
  return all_ok;
}

}  // namespace fp8_probe

int main(int argc, char** argv) {
  using namespace fp8_probe;
  int reps = 30, ncu = -1;
  uint64_t gap_ns = 0;
  std::vector<int64_t> dims;
  std::vector<int> chosen;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--reps" && i + 1 < argc) reps = std::atoi(argv[++i]);
    else if (a == "--gap-us" && i + 1 < argc) gap_ns = uint64_t(std::atoll(argv[++i])) * 1000;
    else if (a == "--ncu" && i + 1 < argc) ncu = std::atoi(argv[++i]);
    else if (a == "--variants" && i + 1 < argc) {
      for (const char* s = argv[++i]; *s;) {
        chosen.push_back(std::atoi(s));
        while (*s && *s != ',') ++s;
        if (*s == ',') ++s;
      }
    } else dims.push_back(std::atoll(argv[i]));
  }
  std::vector<Variant> variants = all_variants();
  std::string built;
  for (const Variant& v : variants) built += " " + std::to_string(v.id) + "=" + v.letter;
  for (int id : chosen)
    if (by_id(variants, id) == nullptr) return std::printf("--variants: %d is not in this binary (built:%s)\n", id, built.c_str()), 2;
  if (ncu >= 0 && by_id(variants, ncu) == nullptr) return std::printf("--ncu: %d is not in this binary (built:%s)\n", ncu, built.c_str()), 2;
  if (ncu >= 0) {
    // One launch of one variant (ncu profiles it): no check, no timing.
    const int64_t m = dims.size() >= 3 ? dims[0] : 4096, n = dims.size() >= 3 ? dims[1] : 7168, k = dims.size() >= 3 ? dims[2] : 16384;
    Problem p(m, n, k);
    Variant& v = *by_id(variants, ncu);
    std::string why;
    if (!v.ops.initialize(p.arguments(v.block), why) || !v.ops.run(why))
      return std::printf("%s: %s\n", v.letter, why.c_str()), 1;
    SM90_CUDA(cudaDeviceSynchronize());
    std::printf("ncu launch: %s %s at %lld x %lld x %lld\n", v.letter, v.what, (long long)m, (long long)n, (long long)k);
    return 0;
  }
  if (chosen.empty())
    for (const Variant& v : variants) chosen.push_back(v.id);
  // (the third: one partial wave of every tile, its operands ~50 MB: the k-tile's period where
  // the operand stream is lightly loaded, against the same kernels at full load above)
  if (dims.empty()) dims = {4096, 7168, 16384, 2048, 7168, 16384, 1024, 2048, 16384};
  int dev = 0;
  cudaDeviceProp prop{};
  SM90_CUDA(cudaGetDevice(&dev));
  SM90_CUDA(cudaGetDeviceProperties(&prop, dev));
  std::printf("device: %s, %d SMs; %d rounds per shape%s\n", prop.name, prop.multiProcessorCount, reps,
              gap_ns > 0 ? (", each launch behind a " + std::to_string(gap_ns / 1000) + " us lead-in").c_str() : "");
  bool ok = true;
  for (size_t i = 0; i + 2 < dims.size(); i += 3) ok &= probe_shape(dims[i], dims[i + 1], dims[i + 2], variants, chosen, reps, gap_ns);
  std::printf("probe %s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
#endif
