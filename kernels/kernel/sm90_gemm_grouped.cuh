// Grouped GEMM kernel, SM90 (tessera::gemm_grouped): the cooperative warp-specialized
// persistent skeleton (sm90_gemm_tma_warpspecialized.cuh) over G problems whose sizes,
// pointers and leading dimensions live in device memory. Every group runs as D_g^T = B_g^T A_g^T
// with D_g^T column-major (sm90_grouped_problem.hpp), as the single-problem kernels run a
// row-major D: the mainloop's A' is the weight (N_g x K), its B' the tokens A_g (M_g x K,
// K-major), and clusters of 2 CTAs along M' (features) share the tokens' tile by multicast.
//
// Two launches in stream order, no host synchronisation:
//  1. prepare (one thread per group): the group's operands from the caller's form (the
//     ptr-array's arrays, or the contiguous form lowered: lower_contiguous_group), checked
//     (grouped_group_admissible), then its record in the workspace: the host's template tensor
//     maps of A' and B' copied and rewritten with the group's address, dims and strides
//     (tensormap.replace: arch/sm90_tensormap.cuh; the dims and strides are the template
//     plan's rebound to the group's tensors by tma::rebind_gmem, the host's own rule), the
//     epilogue's maps of D_g^T and C_g^T made the same way from the TMA-store epilogue's
//     template (grouped_output_arguments: the group's extents, so TMA clips residue tiles),
//     and the group's sizes for the scheduler, (N_g, M_g, K_g) (a group the device refuses is
//     written as empty: no tiles, its D untouched); published by tensormap_release.
//  2. the GEMM: clusters walk the groups' concatenated tiles (GroupedTileScheduler). The
//     producer thread walks them, hands each tile to the consumer warps through a
//     shared-memory ring (HandoffRing of GroupedTile words, tile_ring_slots ahead; an end word
//     closes the walk), switches to a group's maps (tensormap_acquire, prefetch) only when its
//     next tile lies in another group, and loads through them with the mainloop collective's
//     boxes (load_through). The consumers read the sizes of no group and divide nothing
//     between their tiles (with 64 experts of 12 tiles each on 66 clusters a step of the walk
//     crosses about 5 groups, each a dependent read of the sizes and its divisions: in the
//     consumers that would sit between every tile's epilogue and its next mainloop): they run the
//     mainloop collective's wgmmas and the TMA-store epilogue collective (stmatrix into the
//     128B-swizzled staging tile, one TMA store per part; C by TMA into the same buffer where
//     beta != 0) through the group's maps, which each warpgroup's storing thread acquires and
//     prefetches when its tile's group is not its previous tile's.
//     K_g = 0: no loads, acc = 0, D = beta C.
// Fusion: GroupedPlain (D = alpha acc + beta C) or GroupedFused<Act> (D = act(alpha acc +
// bias_g), bias_g per column of D_g: per row of the kernel's D_g^T), a kernel per activation.
// The fused kernels read a tile's bias vector after its mainloop (the group's record, where
// prepare wrote the address it resolved from the caller's form, and N_g from the workspace's
// sizes), so nothing of the bias is live across the k-loop; the epilogue loads its two rows per
// thread into registers (store_through_biased).
// The mainloop's and epilogue's contracts are the collectives' own (to_underlying_arguments
// over a representative problem gives the template maps and the arrangement; per-mode boxes,
// which any group's extents admit).
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include <tessera/kernels/gemm_grouped.hpp>
#include <tessera/pipeline/handoff_ring.hpp>

#include "../arch/named_barrier.cuh"
#include "../arch/sm90_registers.cuh"
#include "../arch/sm90_tensormap.cuh"
#include "../collective/sm90_epilogue_tma.cuh"
#include "../collective/sm90_mainloop_tma_wgmma.cuh"
#include "sm90_gemm_kernel_base.cuh"
#include "sm90_grouped_problem.hpp"
#include "sm90_grouped_tile_scheduler.hpp"
#include "sm90_shared_storage.hpp"

namespace tessera::kernels::sm90 {

// The grouped kernel's epilogues: the plain one, alpha acc + beta C_g ...
struct GroupedPlain {
  static constexpr bool fused = false;
  static constexpr Activation activation = Activation::Identity;
};
// ... and the fused one of an activation, act(alpha acc + bias_g) (Identity: the bias alone).
template <Activation Act>
struct GroupedFused {
  static constexpr bool fused = true;
  static constexpr Activation activation = Act;
};

template <class Mainloop_, class ElementD, class Fusion = GroupedPlain>
struct GemmGroupedTmaWarpSpecialized {
  using Mainloop = Mainloop_;
  // The single-problem kernels' TMA-store epilogue through each group's maps: the plain
  // instance, or the instance of the fused activation.
  using Epilogue = CollectiveEpilogueSm90TmaStore<ElementD, Mainloop::BM, Mainloop::BN, Mainloop::ConsumerWarpgroups, Fusion::activation>;
  static constexpr bool Fused = Fusion::fused;
  static constexpr Activation FusedAct = Fusion::activation;
  static_assert(!Fused || sizeof(ElementD) == 2, "the fused grouped epilogue stages a 16-bit D");
  using Element = typename Mainloop::Element;
  static constexpr int Bits = Mainloop::Bits;
  static_assert(Mainloop::Bits == 16, "the grouped kernel takes 16-bit inputs (bf16, f16)");
  static_assert(Mainloop::MajorB == GMMA::Major::K, "B' is A_g (tokens x K, row-major): K-major");
  static constexpr int ClusterM = Mainloop::ClusterM;
  static_assert(Mainloop::ClusterN == 1, "the grouped kernel's clusters run along M");
  static constexpr int ClusterSize = ClusterM;
  static constexpr int Threads = GMMA::warpgroup_threads * (1 + Mainloop::ConsumerWarpgroups);
  // The producer hands tiles to the consumers up to this many ahead of them (it runs ahead by
  // at most the mainloop's stages of k-tiles, and past any K_g = 0 tiles, which load nothing).
  static constexpr int tile_ring_slots = 4;
  static constexpr int ConsumerWarps = Mainloop::ConsumerWarpgroups * GMMA::warpgroup_threads / 32;
  using TileRing = pipeline::HandoffRing<tile_ring_slots, pipeline::DeviceMbarrier, GroupedTile>;
  using SharedStorage = GroupedSharedStorage<typename Mainloop::SharedStorage, typename Epilogue::SharedStorage, TileRing>;
  static constexpr int smem_bytes = int(sizeof(SharedStorage));
  static_assert(smem_bytes <= 227 * 1024, "the mainloop's stages and the epilogue's staging fit a CTA's shared memory");
  // A group's record holds the collectives' maps: the mainloop's two, the epilogue's D and C.
  static_assert(sizeof(GemmGroupRecord) >= 2 * sizeof(CUtensorMap) + Epilogue::group_map_bytes &&
                    alignof(GemmGroupRecord) >= 64 && offsetof(GemmGroupRecord, map_d) % 64 == 0 && offsetof(GemmGroupRecord, map_c) % 64 == 0,
                "GemmGroupRecord (the published workspace layout) holds the collectives' tensor maps, 64-byte aligned");
  // B_g's major, the caller's: A' (the weight read N x K) is K-major for a weight (N, K).
  static constexpr Major b_major = Mainloop::KMajorA ? Major::Col : Major::Row;
  using Arguments = GemmGroupedArguments;  // (the device adapter's hardware queries name it)

  struct Params {
    typename Mainloop::Params mainloop;  // the arrangements and B parts (its maps: prepare's templates)
    typename Epilogue::Params epilogue;  // alpha, beta, the staging's boxes (its maps: the records')
    GroupedTileScheduler scheduler;      // over the workspace's sizes
    const GemmGroupRecord* records = nullptr;
  };
  struct PrepareParams {
    CUtensorMap map_a, map_b;  // the templates
    tma::Arguments args_a, args_b;  // their plans' arguments (per-mode, two gmem modes)
    typename Epilogue::GroupedTemplate epilogue;  // D's and C's template and plan
    GroupedForm form = GroupedForm::PtrArray;
    GemmGroupedPtrArray ptr_array;
    GemmGroupedContiguous contiguous;
    int64_t groups = 0;
    bool beta = false;
    bool bias = false;  // the ptr-array form's bias array is read
    GemmGroupShape* shapes = nullptr;
    GemmGroupRecord* records = nullptr;
  };

  // ---- host: the workspace (the sizes, then a record of the collectives' maps per group) and
  // the contract over it.
  static std::size_t get_workspace_size(GemmGroupedArguments const& g) {
    return g.groups < 1 ? 0 : grouped_records_offset(g.groups) + std::size_t(g.groups) * sizeof(GemmGroupRecord);
  }
  static GemmResult can_implement(GemmGroupedArguments const& g) {
    if (auto r = check_grouped_arguments(g); !r) return r;
    // (the dispatch sends each call to the kernel of its epilogue; these are the kernel's own terms)
    if (grouped_fused(g) != Fused || g.activation != FusedAct)
      return {GemmStatus::Unsupported, std::string("gemm_grouped: this kernel runs the ") +
                                           (Fused ? std::string("fused epilogue of ") + to_string(FusedAct) : std::string("plain epilogue")) +
                                           ", not activation " + to_string(g.activation) + " with bias " + to_string(g.bias)};
    if (Fused && (element_enum_of<ElementD>() != kernels::Element::BF16 || b_major != Major::Col))
      return {GemmStatus::Unsupported, "gemm_grouped: the fused epilogue runs bf16 with weights (G, N, K) only"};
    if (g.workspace_bytes < get_workspace_size(g))
      return {GemmStatus::InvalidSize, "gemm_grouped: the workspace holds " + std::to_string(g.workspace_bytes) + " bytes, the kernel needs " +
                                           std::to_string(get_workspace_size(g))};
    return {};
  }
  // Both launches' parameters from the caller's arguments (can_implement). The template maps
  // come from the collectives' own host code: the mainloop's to_underlying_arguments over a
  // representative 256^3 problem on the workspace, the epilogue's grouped_params.
  static GemmResult to_underlying_arguments(GemmGroupedArguments const& g, KernelHardwareInfo const& hw, Params& p, PrepareParams& q) {
    if (auto r = can_implement(g); !r) return r;
    const GemmProblemShape rep{int64_t(256), int64_t(256), int64_t(256), int64_t(1)};
    typename Mainloop::Arguments ml;
    ml.element = element_enum_of<Element>();
    ml.element_b = element_enum_of<typename Mainloop::ElementB>();
    ml.a = Operand{g.workspace, Mainloop::a_major, 256, 0};  // A' = a weight
    ml.b = Operand{g.workspace, Mainloop::b_major, 256, 0};  // B' = the tokens
    if (auto r = Mainloop::can_implement(rep, ml); !r) return r;
    GemmResult status;
    p.mainloop = Mainloop::template to_underlying_arguments<TmaBoxesPerMode>(rep, ml, nullptr, status);
    if (!status) return status;
    unsigned char* ws = static_cast<unsigned char*>(g.workspace);
    q.shapes = reinterpret_cast<GemmGroupShape*>(ws);
    q.records = reinterpret_cast<GemmGroupRecord*>(ws + grouped_records_offset(g.groups));
    q.map_a = p.mainloop.map_a;
    q.map_b = p.mainloop.map_b;
    q.args_a = Mainloop::plan(0, p.mainloop.arrangement_a).args;
    q.args_b = Mainloop::plan(1, p.mainloop.arrangement_b).args;
    if (auto r = Epilogue::grouped_params(g.alpha, g.beta, g.workspace, p.epilogue, q.epilogue); !r) return r;
    q.form = g.form;
    q.ptr_array = g.ptr_array;
    q.contiguous = g.contiguous;
    q.groups = g.groups;
    q.beta = g.beta != 0.0f;
    q.bias = g.bias == Bias::PerColumn && g.form == GroupedForm::PtrArray;
    p.scheduler = GroupedTileScheduler{q.shapes, g.groups, int64_t(Mainloop::BM) * ClusterM, Mainloop::BN, Mainloop::BK,
                                       raster_group(ClusterM)};
    p.records = q.records;
    (void)hw;
    return {};
  }

  // ---- device: prepare (one thread per group).
  __device__ static void prepare(PrepareParams const& q) {
    const int64_t g = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (g >= q.groups) return;
    constexpr int eb = Bits / 8;
    GroupedProblem pr;
    if (q.form == GroupedForm::PtrArray) {
      const GemmGroupShape s = q.ptr_array.shapes[g];
      pr.m = s.m, pr.n = s.n, pr.k = s.k;
      pr.a = q.ptr_array.a[g];
      pr.b = q.ptr_array.b[g];
      pr.c = q.beta ? q.ptr_array.c[g] : nullptr;
      pr.d = q.ptr_array.d[g];
      pr.lda = q.ptr_array.lda[g];
      pr.ldb = q.ptr_array.ldb[g];
      pr.ldc = q.beta ? q.ptr_array.ldc[g] : 0;
      pr.ldd = q.ptr_array.ldd[g];
      pr.bias = q.bias ? q.ptr_array.bias[g] : nullptr;
    } else {
      const int64_t begin = g == 0 ? 0 : q.contiguous.offs[g - 1], end = q.contiguous.offs[g];
      pr = lower_contiguous_group(q.contiguous, b_major, eb, g, begin, end);
    }
    bool ok = grouped_group_admissible(pr, b_major, eb, q.beta);
    GemmGroupRecord& r = q.records[g];
    // The group as the kernel runs it: A' = B_g (N_g, K), B' = A_g (M_g, K), D' = D_g^T.
    const GroupedKernelProblem t = grouped_as_column_major_d(pr, b_major);
    if (ok && t.m > 0 && t.n > 0) {
      // Every plan first, then the maps: a refused group is written as empty, no map touched.
      const tma::Arguments d = grouped_output_arguments(q.epilogue.args, t, false);
      const tma::Arguments c = q.beta ? grouped_output_arguments(q.epilogue.args, t, true) : d;
      const bool loads = t.k > 0;
      const tma::Arguments a = loads ? tma::rebind_gmem(q.args_a, 2, t.a_extent, t.a_stride) : q.args_a;
      const tma::Arguments b = loads ? tma::rebind_gmem(q.args_b, 2, t.b_extent, t.b_stride) : q.args_b;
      if (a.rule != tma::Rule::ok || b.rule != tma::Rule::ok || d.rule != tma::Rule::ok || c.rule != tma::Rule::ok) {
        ok = false;
      } else {
        if (loads) {
          arch::tensormap_copy(r.map_a, &q.map_a);
          arch::tensormap_copy(r.map_b, &q.map_b);
          arch::tensormap_replace_global_address(r.map_a, t.a);
          arch::tensormap_replace_dims_strides(r.map_a, a.rank, a.global_dim, a.global_stride_bytes);
          arch::tensormap_replace_global_address(r.map_b, t.b);
          arch::tensormap_replace_dims_strides(r.map_b, b.rank, b.global_dim, b.global_stride_bytes);
        }
        Epilogue::bind_group_map(q.epilogue, r.map_d, pr.d, d);
        if (q.beta) Epilogue::bind_group_map(q.epilogue, r.map_c, pr.c, c);
      }
    }
    r.bias = ok ? pr.bias : nullptr;
    q.shapes[g] = GemmGroupShape{ok ? int32_t(t.m > 0 ? t.m : 0) : 0, int32_t(t.n > 0 ? t.n : 0), int32_t(t.k > 0 ? t.k : 0)};
    arch::tensormap_release();
  }

  __device__ __forceinline__ static void cluster_sync() { GemmKernelSm90Base<Mainloop, Epilogue, WholeTileScheduler>::cluster_sync(); }
  __device__ __forceinline__ static int cluster_rank() { return GemmKernelSm90Base<Mainloop, Epilogue, WholeTileScheduler>::cluster_rank(); }
  __device__ __forceinline__ static void finish() { GemmKernelSm90Base<Mainloop, Epilogue, WholeTileScheduler>::finish(); }

  __device__ __forceinline__ static void run(Params const& p, unsigned char* smem) {
    SharedStorage& shared = *reinterpret_cast<SharedStorage*>(smem);
    typename Mainloop::SharedStorage& s = shared.mainloop;
    const int wg = int(threadIdx.x / GMMA::warpgroup_threads);
    const int rank = cluster_rank();
    const int64_t first = blockIdx.x / ClusterM, step = gridDim.x / ClusterM;
    if (threadIdx.x == 0) {
      shared.tiles.init(ConsumerWarps);  // (before the mainloop's fence.mbarrier_init)
      Epilogue::init(shared.epilogue);   // (C's barriers)
      Mainloop::init(s);
    }
    cluster_sync();
    if (wg == 0) {
      arch::warpgroup_reg_dealloc<Mainloop::Policy_ProducerRegisters>();
      if (threadIdx.x == 0) produce(p, s, shared.tiles, first, step, rank);
      finish();
    } else {
      arch::warpgroup_reg_alloc<Mainloop::Policy_ConsumerRegisters>();
      typename Mainloop::PipelineState st;
      typename Mainloop::TiledMma tiled;
      const int thread = int(threadIdx.x) - GMMA::warpgroup_threads;
      typename Mainloop::Accumulators acc;
      pipeline::PipelineState<tile_ring_slots> ring;
      int32_t group = -1;  // the previous tile's group: its maps are this warpgroup's acquired ones
      for (;; ++ring) {
        // (lane 0 alone waits on, reads and releases the slot, and hands the tile to its warp
        // by shuffles: its read and release are in one thread's program order, so the
        // producer's next write to the slot comes after every use of it)
        GroupedTile w;
        if (threadIdx.x % 32 == 0) {
          while (!shared.tiles.consumer_try_wait(ring)) {}
          w = shared.tiles.read(ring);
          shared.tiles.consumer_release(ring);
        }
        w.group = __shfl_sync(0xffffffffu, w.group, 0);
        if (w.done()) break;
        w.m = __shfl_sync(0xffffffffu, w.m, 0);
        w.n = __shfl_sync(0xffffffffu, w.n, 0);
        w.k_tiles = __shfl_sync(0xffffffffu, w.k_tiles, 0);
        if (w.group != group) {
          const GemmGroupRecord& r = p.records[w.group];
          // A group's maps acquired and prefetched while the wgmmas run (each warpgroup's
          // storing thread, once per group it enters). C's first part is not requested here
          // as the single-problem kernels do (prefetch_c): that cost 8 more bytes of spills,
          // and MoE layers run with beta = 0.
          Epilogue::acquire(p.epilogue, typename Epilogue::Maps{r.map_d, r.map_c}, thread);
          group = w.group;
        }
        // K_g = 0: D = beta C from zero accumulators (zeroed here, then the mainloop runs no
        // k-tile: with the zeroing in an else branch of the mainloop ptxas spilled 440 bytes).
        if (w.k_tiles == 0) {
#pragma unroll
          for (int i = 0; i < int(sizeof(acc.v) / sizeof(float)); ++i) acc.v[i] = 0.0f;
        }
        Mainloop::mma(p.mainloop, s, st, wg - 1, acc, w.k_tiles);
        const GemmGroupRecord& r = p.records[group];
        if constexpr (Fused) {
          // bias_g's length: N_g, the kernel's M' (a refused group has no tiles)
          Epilogue::template store_through_biased<FusedAct>(p.epilogue, typename Epilogue::Maps{r.map_d, r.map_c}, shared.epilogue, tiled,
                                                            make_shape(C<Mainloop::BM>{}, C<Mainloop::BN>{}), thread,
                                                            Mainloop::cta_tile_m(int64_t(w.m), rank), Mainloop::cta_tile_n(int64_t(w.n), rank), acc,
                                                            static_cast<const ElementD*>(r.bias), int64_t(p.scheduler.shapes[group].m));
        } else {
          Epilogue::store_through(p.epilogue, typename Epilogue::Maps{r.map_d, r.map_c}, shared.epilogue, tiled,
                                  make_shape(C<Mainloop::BM>{}, C<Mainloop::BN>{}), thread, Mainloop::cta_tile_m(int64_t(w.m), rank), Mainloop::cta_tile_n(int64_t(w.n), rank), 0,
                                  acc, 0, false);
        }
      }
      Epilogue::finish(p.epilogue, thread);
      finish();
    }
  }

  // The producer thread: walks the groups' tiles (the kernel's only walk), hands each to the
  // consumers, then loads its k-tiles through its group's maps, switched (acquired and
  // prefetched) when the tile's group is not the previous loaded tile's. The end word last.
  __device__ __forceinline__ static void produce(Params const& p, typename Mainloop::SharedStorage& s, TileRing& tiles, int64_t first,
                                                 int64_t step, int rank) {
    const GroupedTileScheduler& sched = p.scheduler;  // (read from the parameters, not copied to registers)
    typename Mainloop::PipelineState st;
    pipeline::PipelineState<tile_ring_slots> ring;
    GroupedTileScheduler::Cursor cur;
    int32_t mapped = -1;
    for (int64_t t = first;; t += step) {
      const GroupedTile w = sched.next(cur, t);
      while (!tiles.producer_try_acquire(ring)) {}
      tiles.publish(ring, w);
      ++ring;
      if (w.done()) break;
      if (w.k_tiles == 0) continue;
      const GemmGroupRecord& r = p.records[w.group];
      if (w.group != mapped) {
        arch::tensormap_acquire(r.map_a);
        arch::tensormap_acquire(r.map_b);
        arch::tensormap_prefetch(r.map_a);
        arch::tensormap_prefetch(r.map_b);
        mapped = w.group;
      }
      const auto tAgA = Mainloop::copy_coordinates_a(int64_t(w.m), int64_t(0), rank);
      const auto tBgB = Mainloop::copy_coordinates_b(int64_t(w.n), int64_t(0), rank);
      Mainloop::load_through(p.mainloop, r.map_a, r.map_b, s, st, tAgA, tBgB, rank, 0, w.k_tiles);
    }
  }
};

template <class Kernel>
__global__ void __launch_bounds__(128) gemm_grouped_prepare_entry(const __grid_constant__ typename Kernel::PrepareParams params) {
  Kernel::prepare(params);
}

}  // namespace tessera::kernels::sm90
