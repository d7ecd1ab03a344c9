// GEMM kernel, SM90: warp-specialized, persistent, cooperative.
//   warpgroup 0        producer: gives registers back (setmaxnreg), one thread issues the TMA
//                      copies of every tile's k-tiles into the mainloop's smem ring
//   warpgroups 1 .. W  consumers: take registers, run the mainloop's wgmmas on their rows of
//                      each tile (64, or two 64-row blocks 64 W apart where the TiledMma
//                      repeats along M: BM 256), then the epilogue's stores
// Work units come from the persistent scheduler (grid ~ SMs); producer and consumers walk
// the same unit sequence, each with its own pipeline state. A unit is a whole tile
// (WholeTileScheduler); under Stream-K (StreamKTileScheduler, a kernel of its own that the
// device layer runs only where the plan shares k-iterations) a step of the cluster's walk:
// a whole tile, or a k-range of one whose f32 accumulators meet the tile's other pieces
// through the workspace, reduced in a fixed order by the tile's last piece, which runs the
// epilogue (stream_k_fixup.cuh: the same bits in every run); under split-K of the last wave
// (SplitKTileScheduler, not shipped) one K slice of a tile, the last slice to arrive reducing.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "../arch/named_barrier.cuh"
#include "../arch/sm90_registers.cuh"
#include "../collective/sm90_epilogue.cuh"
#include "../collective/sm90_epilogue_tma.cuh"
#include "../collective/sm90_epilogue_tree.cuh"  // (the quantized-output tree of the FP8 list, and user trees)
#include "../collective/sm90_mainloop_tma_wgmma.cuh"
#include "sm90_epilogue_order.hpp"
#include "sm90_gemm_kernel_base.cuh"
#include "sm90_shared_storage.hpp"
#include "sm90_stream_k_tile_scheduler.hpp"
#include "sm90_tile_scheduler.cuh"
#include "stream_k_fixup.cuh"

namespace tessera::kernels::sm90 {

// EpilogueOrder (sm90_epilogue_order.hpp): EpilogueAfterTile, or EpilogueUnderNextTile<H>
// (consume_overlapped below).
template <class Mainloop_, class Epilogue_, class Scheduler_ = WholeTileScheduler, class EpilogueOrder_>
struct GemmTmaWarpSpecialized : GemmKernelSm90Base<Mainloop_, Epilogue_, Scheduler_> {
  using Base = GemmKernelSm90Base<Mainloop_, Epilogue_, Scheduler_>;
  using typename Base::Arguments;
  using typename Base::Epilogue;
  using typename Base::Mainloop;
  using typename Base::Scheduler;
  using Base::cluster_rank;
  using Base::cluster_sync;
  using Base::ClusterM;
  using Base::ClusterSize;
  using Base::finish;
  using Base::Splits;
  static constexpr int Threads = GMMA::warpgroup_threads * (1 + Mainloop::ConsumerWarpgroups);
  using SharedStorage = CooperativeSharedStorage<typename Mainloop::SharedStorage, typename Epilogue::SharedStorage>;
  static constexpr int smem_bytes = int(sizeof(SharedStorage));
  static constexpr bool StreamK = Scheduler::reduction == Reduction::StreamK;
  static constexpr int ConsumerThreads = GMMA::warpgroup_threads * Mainloop::ConsumerWarpgroups;
  // Stream-K: a CTA's partial is its consumer threads' accumulators (slot layout: stream_k_fixup.cuh).
  static constexpr int AccumulatorsPerThread = int(sizeof(typename Mainloop::Accumulators) / sizeof(float));
  using Fixup = StreamKFixup<ConsumerThreads, AccumulatorsPerThread>;
  static constexpr int64_t partial_elems = int64_t(Mainloop::BM) * Mainloop::BN;
  static_assert(ConsumerThreads * AccumulatorsPerThread == partial_elems, "a partial slot holds one CTA tile");
  using EpilogueOrder = EpilogueOrder_;
  // Whether the epilogue has pack/store_packed (the TMA-store ones of a 16-bit D: plain, fused,
  // tree); the direct epilogues have neither.
  static constexpr bool epilogue_packs = [] {
    if constexpr (requires { Epilogue_::Packable; }) return bool(Epilogue_::Packable);
    else return false;
  }();
  // Whether every problem the epilogue runs, it packs (a fused instance: beta == 0 and D through
  // TMA, its can_implement's own rules; a tree through TMA). The plain instance also runs
  // problems it cannot pack (C, a bias or an activation through its direct stores, a D that TMA
  // cannot store): under EpilogueUnderNextTile its kernel runs those after the tile, so that the
  // order never narrows what the kernel takes.
  static constexpr bool epilogue_packs_all = [] {
    if constexpr (requires { Epilogue_::PacksAll; }) return bool(Epilogue_::PacksAll);
    else return false;
  }();
  static constexpr bool Overlapped = !std::is_same_v<EpilogueOrder, EpilogueAfterTile>;
  // Such a kernel has a second entry (gemm_sm90_entry_after_tile: run<true>) for the problems
  // it does not pack, which GemmSm90 launches per problem (after_tile_launch). Two entries, not
  // a branch in one: in one entry ptxas allocated both consumer paths together, 208 bytes of
  // stack and 296 of spill stores against 0 and 40 for the paths alone (nvcc 13.0, sm_90a).
  static constexpr bool TwoEntries = Overlapped && !epilogue_packs_all;
  static constexpr int HeadKTiles = [] {
    if constexpr (Overlapped) return EpilogueOrder::head_k_tiles;
    else return 0;
  }();
  static_assert(!Overlapped || (std::is_same_v<Scheduler, WholeTileScheduler> && !Mainloop::BlockScaled &&
                                (Mainloop::Bits == 16 || Mainloop::Bits == 8) && epilogue_packs),
                "EpilogueUnderNextTile: whole tiles, 16-bit or FP8 inputs (FP8: per-tensor scales, applied before the pack; not "
                "block-scaled), a TMA-store epilogue (plain, fused or tree) of a 16-bit D");
  static_assert(HeadKTiles < Mainloop::Stages, "EpilogueUnderNextTile: the head k-tiles hold fewer stages than the ring has");

  struct Params {
    typename Mainloop::Params mainloop;
    typename Epilogue::Params epilogue;
    Scheduler scheduler;
    // Split-K workspace (null when nothing is split): float4 group j of consumer thread t of
    // slice q of split tile i (= split tile * ClusterM + rank) at partials[(i * split + q) *
    // groups * threads + j * threads + t] (a warp's store of one group is 512 contiguous
    // bytes), then one zeroed arrival counter per split tile and rank.
    float4* partials = nullptr;
    unsigned* arrivals = nullptr;
    // Stream-K workspace (null when nothing is shared): StreamKWorkspace's partial slots and
    // flags, and the launch's tag (set_launch_tag).
    Fixup fixup{nullptr, nullptr};
  };
  // Whether a launch of p runs the second entry (TwoEntries: its epilogue does not pack p).
  static bool after_tile_launch(Params const& p) {
    if constexpr (TwoEntries) return !Epilogue::packs(p.epilogue);
    else return false;
  }

  // ---- contract (host): the collectives' (GemmKernelSm90Base) and the Stream-K (or split-K) workspace.
  // The Stream-K kernels apply FP8's per-tensor scales only (their epilogue pass has no
  // rowwise loop: scale<false>). The FP8 kernels with the epilogue under the next tile take
  // rowwise scales through their second entry, after the tile (the packing entry applies
  // per-tensor scales only: Epilogue::packs).
  // A kernel whose epilogue packs all it runs (EpilogueUnderNextTile on a fused instance or a
  // tree) refuses what it does not pack, after the collectives' own reasons.
  static GemmResult can_implement(Arguments const& a) {
    if constexpr (StreamK)
      if (a.epilogue.scale_vectors)
        return {GemmStatus::Unsupported, "the Stream-K sm90 kernels apply per-tensor FP8 scales only (rowwise runs on whole tiles)"};
    if (auto r = Base::can_implement(a); !r) return r;
    if constexpr (Overlapped && epilogue_packs_all)
      if (!Epilogue::packs(a.problem, a.epilogue)) return {GemmStatus::Unsupported, Epilogue::packs_refusal()};
    return {};
  }
  // A plan's workspace: one f32 accumulator tile per slice of every split tile and CTA of its
  // cluster, then one arrival counter per split tile and CTA.
  static std::size_t partials_bytes(SplitPlan const& plan, int64_t tiles) {
    return std::size_t(tiles - plan.whole) * std::size_t(plan.split) * ClusterM * Mainloop::BM * Mainloop::BN * sizeof(float);
  }
  static std::size_t split_workspace_bytes(SplitPlan const& plan, int64_t tiles) {
    if (plan.split < 2) return 0;
    return partials_bytes(plan, tiles) + std::size_t(tiles - plan.whole) * ClusterM * sizeof(unsigned);
  }
  // The split plan of the last wave over the resident clusters (none for whole-tile schedulers).
  static SplitPlan split_plan(Scheduler const& sc, KernelHardwareInfo const& hw) {
    if constexpr (Scheduler::reduction == Reduction::SplitK) return Scheduler::plan_for(sc.tile_count(), sc.k_tiles, hw.resident_clusters);
    else return {sc.tile_count(), 1};
  }
  // The collectives' workspace and, where the plan splits, its partials and counters after it.
  static std::size_t get_workspace_size(Arguments const& a, KernelHardwareInfo const& hw) {
    const Scheduler sc = Base::scheduler_of(a);
    if constexpr (StreamK) return Base::collective_workspace_size(a) + stream_k_workspace_bytes(sc, hw);
    else return Base::collective_workspace_size(a) + split_workspace_bytes(split_plan(sc, hw), sc.tile_count());
  }
  // Stream-K: the partial slots and flags of the heuristic's plan on the resident clusters (0
  // when the plan shares nothing).
  static std::size_t stream_k_workspace_bytes(Scheduler const& sc, KernelHardwareInfo const& hw) {
    if constexpr (StreamK) {
      const Scheduler planned = sc.with_plan(hw.resident_clusters, true);
      return planned.schedule.valid() ? planned.workspace(partial_elems).bytes() : 0;
    } else {
      return 0;
    }
  }
  // Stream-K (or split-K) where the plan shares and the workspace holds it; whole tiles otherwise.
  static Params to_underlying_arguments(Arguments const& a, void* workspace, std::size_t workspace_bytes, KernelHardwareInfo const& hw,
                                        GemmResult& status) {
    Params p{};
    Base::to_collective_params(a, workspace, p, status);
    if constexpr (Overlapped && epilogue_packs_all)  // (no direct stores in this kernel: D's tensor map must exist)
      if (status && !Epilogue::packs(p.epilogue)) status = {GemmStatus::LaunchFailed, Epilogue::packs_refusal()};
    p.partials = nullptr;
    p.arrivals = nullptr;
    if constexpr (StreamK) {
      // The grid's clusters; the heuristic's plan where the workspace holds it, else whole tiles.
      p.scheduler = p.scheduler.with_plan(hw.resident_clusters, false);
      const std::size_t own = Base::collective_workspace_size(a);
      const Scheduler planned = p.scheduler.with_plan(hw.resident_clusters, true);
      if (workspace != nullptr && workspace_bytes > own && planned.shares() && planned.schedule.valid()) {
        const StreamKWorkspace ws = planned.workspace(partial_elems);
        if (ws.bytes() <= workspace_bytes - own) {
          unsigned char* base = static_cast<unsigned char*>(workspace) + own;
          p.scheduler = planned;
          p.fixup = Fixup{reinterpret_cast<float*>(base), reinterpret_cast<std::uint64_t*>(base + ws.flags_offset())};
        }
      }
      // The kernel walks the prepared divisors only (sm90_stream_k_tile_scheduler.hpp): whole
      // tiles lack them only past 2^31 tiles and clusters.
      if (status && !p.scheduler.divisors.narrow)
        status = {GemmStatus::InvalidSize, "the sm90 Stream-K kernel walks fewer than 2^31 - 1 tiles and clusters"};
    } else if constexpr (Splits) {
      const std::size_t own = Base::collective_workspace_size(a);
      if (workspace != nullptr && workspace_bytes > own) {
        const int64_t tiles = p.scheduler.tile_count();
        const SplitPlan plan = split_plan(p.scheduler, hw);
        const std::size_t need = split_workspace_bytes(plan, tiles);
        if (need > 0 && need <= workspace_bytes - own) {
          unsigned char* split = static_cast<unsigned char*>(workspace) + own;
          p.scheduler.plan = plan;
          p.partials = reinterpret_cast<float4*>(split);
          p.arrivals = reinterpret_cast<unsigned*>(split + partials_bytes(plan, tiles));
        }
      }
    }
    return p;
  }
  static bool splits(Params const& p) { return p.arrivals != nullptr || p.fixup.flags != nullptr; }
  // The split tiles' arrival counters start at zero in every launch (a caller's workspace may
  // hold anything). The Stream-K flags need no clearing: a flag counts as published only when
  // it holds this launch's tag (stream_k_fixup.cuh), which nothing left in the workspace does.
  static GemmResult initialize_workspace(Params const& p, cudaStream_t stream) {
    if (auto r = Epilogue::initialize(p.epilogue, stream); !r) return r;
    if constexpr (!StreamK && Splits) {
      if (p.arrivals == nullptr) return {};
      const std::size_t bytes = std::size_t(p.scheduler.split_tiles()) * ClusterM * sizeof(unsigned);
      if (cudaMemsetAsync(p.arrivals, 0, bytes, stream) != cudaSuccess)
        return {GemmStatus::LaunchFailed, std::string("sm90 split-K counters: ") + cudaGetErrorString(cudaGetLastError())};
    }
    return {};
  }
  // The launch's tag, which its Stream-K partials are published with (device/launch_tag.hpp).
  static void set_launch_tag(Params& p, std::uint64_t tag) { p.fixup.tag = tag; }

  // The scheduler's tiles are cluster tiles (ClusterM M-tiles of one N column, or ClusterN
  // N-tiles of one M row); cluster c takes c, c + clusters, ...; CTA `rank` of the cluster the
  // rank-th CTA tile of each (Mainloop::cta_tile_m / cta_tile_n).
  // AfterTile (the second entry of TwoEntries kernels): the consumers run every tile's
  // epilogue after its mainloop.
  template <bool AfterTile = false>
  __device__ __forceinline__ static void run(Params const& p, unsigned char* smem) {
    static_assert(!AfterTile || TwoEntries, "run<true>: the second entry of a plain kernel under EpilogueUnderNextTile");
    SharedStorage& shared = *reinterpret_cast<SharedStorage*>(smem);
    typename Mainloop::SharedStorage& s = shared.mainloop;
    const int wg = int(threadIdx.x / GMMA::warpgroup_threads);
    const int rank = cluster_rank();
    const int64_t first = blockIdx.x / ClusterSize, step = gridDim.x / ClusterSize;
    if (threadIdx.x == 0) {
      Epilogue::init(shared.epilogue);  // (C's barriers)
      Mainloop::init(s);
      Mainloop::prefetch_tensor_maps(p.mainloop);
    }
    cluster_sync();  // barriers initialised in every CTA before any copy or remote arrival
    const int64_t units = p.scheduler.work_count();
    if (wg == 0) {
      arch::warpgroup_reg_dealloc<Mainloop::Policy_ProducerRegisters>();
      if (threadIdx.x == 0) {
        if constexpr (StreamK) Mainloop::produce_walk(p.mainloop, s, p.scheduler, first, rank);
        else Mainloop::produce(p.mainloop, s, p.scheduler, first, step, rank);
      } else if constexpr (StreamK) {
        if (threadIdx.x / 32 == 1) publish_partials(p, first, rank);
      }
      finish();
    } else if constexpr (StreamK) {
      arch::warpgroup_reg_alloc<Mainloop::Policy_ConsumerRegisters>();
      consume_stream_k(p, shared, wg, first, rank);
      finish();
    } else if constexpr (Overlapped && !AfterTile) {
      arch::warpgroup_reg_alloc<Mainloop::Policy_ConsumerRegisters>();
      consume_overlapped(p, shared, wg, first, step, rank);
      finish();
    } else {
      arch::warpgroup_reg_alloc<Mainloop::Policy_ConsumerRegisters>();
      typename Mainloop::PipelineState st;
      typename Mainloop::TiledMma tiled;
      const int thread = int(threadIdx.x) - GMMA::warpgroup_threads;  // after the producer's warpgroup
      typename Mainloop::Accumulators acc;
      for (int64_t u = first; u < units; u += step) {
        // C (beta != 0) starts coming while the mainloop runs; a split tile's last slice loads it
        // in its epilogue.
        bool c_prefetched = false;
        // Whole tiles: the unit's tile kept across the mainloop in three 32-bit words (a tile
        // index fits: TMA's coordinates are 32-bit), not computed again after it.
        int32_t kept_m = 0, kept_n = 0, kept_l = 0;
        {
          const auto w = p.scheduler.work(u);
          c_prefetched = !Scheduler::Splits || w.split <= 1;
          if (c_prefetched) Epilogue::prefetch_c(p.epilogue, shared.epilogue, thread, Mainloop::cta_tile_m(w.m, rank), Mainloop::cta_tile_n(w.n, rank), w.l);
          if constexpr (!Scheduler::Splits) kept_m = int32_t(w.m), kept_n = int32_t(w.n), kept_l = int32_t(w.l);
          if constexpr (Mainloop::BlockScaled)  // (BM = 128: tile m is A's scale block; RowsOfA: tile n's first of B's)
            Mainloop::mma_block_scaled(p.mainloop, s, st, wg - 1, acc, w.k_end - w.k_begin,
                                       Mainloop::block_scale_tile(Mainloop::cta_tile_m(w.m, rank), Mainloop::cta_tile_n(w.n, rank)), w.k_begin);
          else
            Mainloop::mma(p.mainloop, s, st, wg - 1, acc, w.k_end - w.k_begin);
        }
        int64_t tile_m = kept_m, tile_n = kept_n, tile_l = kept_l;
        if constexpr (Scheduler::Splits) {
          // A split unit again after the mainloop (u laundered so that it is recomputed, not
          // kept live across the wgmmas beside the 128 accumulators: its six words spilled).
          int64_t again = u;
          asm volatile("" : "+l"(again));
          const auto w = p.scheduler.work(again);
          if (w.split > 1 && !meet(p, shared, acc, (w.split_tile * ClusterM + rank), w.slice, w.split, thread)) continue;
          tile_m = w.m, tile_n = w.n, tile_l = w.l;
        }
        if constexpr (Mainloop::Bits == 8)  // FP8's per-tensor or rowwise scales
          Epilogue::scale(p.epilogue, tiled, make_shape(C<Mainloop::BM>{}, C<Mainloop::BN>{}), thread, Mainloop::cta_tile_m(tile_m, rank), Mainloop::cta_tile_n(tile_n, rank), acc);
        Epilogue::store(p.epilogue, shared.epilogue, tiled, make_shape(C<Mainloop::BM>{}, C<Mainloop::BN>{}), thread,
                        Mainloop::cta_tile_m(tile_m, rank), Mainloop::cta_tile_n(tile_n, rank), tile_l, acc, 0, c_prefetched);
      }
      Epilogue::finish(p.epilogue, thread);
      finish();
    }
  }

  // The consumers under EpilogueUnderNextTile (whole tiles): tile u's mainloop, its values
  // packed (the accumulators free), the next tile's first HeadKTiles k-tiles issued, tile u
  // staged and stored while those wgmmas run, the next tile's other k-tiles; the CTA's last
  // tile stored after its mainloop (walk_epilogue_under_next_tile, sm90_epilogue_order.hpp).
  // Per tile and warpgroup the same wgmmas, values, staging offsets and TMA stores as the
  // kernel with EpilogueAfterTile; only their order differs.
  struct OverlapSteps {
    using InFlight = typename Mainloop::InFlight;
    Params const& p;
    SharedStorage& shared;
    typename Mainloop::PipelineState& st;
    typename Mainloop::Accumulators& acc;
    typename Epilogue::Packed& packed;
    typename Mainloop::TiledMma const& tiled;
    int wg, thread, rank;
    // The current tile in three 32-bit words (TMA's coordinates are 32-bit) and its k-tiles;
    // the packed one's.
    int32_t tm = 0, tn = 0, tl = 0, k_tiles = 0;
    int32_t pm = 0, pn = 0, pl = 0;
    __device__ __forceinline__ void take(int64_t unit) {
      const auto w = p.scheduler.work(unit);
      tm = int32_t(w.m), tn = int32_t(w.n), tl = int32_t(w.l), k_tiles = int32_t(w.k_end - w.k_begin);
    }
    __device__ __forceinline__ InFlight head(int n) { return Mainloop::mma_head(shared.mainloop, st, wg - 1, acc, k_tiles, n); }
    __device__ __forceinline__ void tail(InFlight const& f) { Mainloop::mma_tail(shared.mainloop, st, wg - 1, acc, k_tiles, f); }
    // The thread's index as pack and store see it: for an epilogue that packs all it runs (a
    // fused one, a tree) laundered, so that what they derive from it (the thread's places in
    // the C partition and the staging view, the bias's origin: 64-bit coordinates and
    // addresses) is computed in each tile's pack and store, not hoisted out of the walk and
    // kept live across every k-loop beside the 128 accumulators and the 64 packed registers.
    // Hoisted, ptxas spilled 16 bytes of it inside the k-loops' span (fused bf16 and f16,
    // nvcc 13.0, sm_90a); the plain instance's (fewer) fit, and keep their place.
    __device__ __forceinline__ int epilogue_thread() const {
      int t = thread;
      if constexpr (epilogue_packs_all) asm volatile("" : "+r"(t));
      return t;
    }
    __device__ __forceinline__ void pack() {
      if constexpr (Mainloop::Bits == 8)  // FP8's per-tensor scales, before the values are packed (rowwise: the second entry)
        Epilogue::template scale<false>(p.epilogue, tiled, make_shape(C<Mainloop::BM>{}, C<Mainloop::BN>{}), epilogue_thread(),
                                        Mainloop::cta_tile_m(tm, rank), Mainloop::cta_tile_n(tn, rank), acc);
      Epilogue::pack(p.epilogue, tiled, epilogue_thread(), Mainloop::cta_tile_m(tm, rank), Mainloop::cta_tile_n(tn, rank), tl, acc, packed);
      pm = tm, pn = tn, pl = tl;
    }
    __device__ __forceinline__ void store() {
      Epilogue::store_packed(p.epilogue, shared.epilogue, tiled, epilogue_thread(), Mainloop::cta_tile_m(pm, rank), Mainloop::cta_tile_n(pn, rank), pl, packed);
    }
    __device__ __forceinline__ void settle() { GMMA::warpgroup_wait<0>(); }
  };
  __device__ __forceinline__ static void consume_overlapped(Params const& p, SharedStorage& shared, int wg, int64_t first, int64_t step,
                                                            int rank) {
    typename Mainloop::PipelineState st;
    typename Mainloop::TiledMma tiled;
    typename Mainloop::Accumulators acc;
    typename Epilogue::Packed packed;
    const int thread = int(threadIdx.x) - GMMA::warpgroup_threads;  // after the producer's warpgroup
    OverlapSteps steps{p, shared, st, acc, packed, tiled, wg, thread, rank};
    walk_epilogue_under_next_tile(steps, first, step, p.scheduler.work_count(), HeadKTiles);
    Epilogue::finish(p.epilogue, thread);
  }

  __device__ __forceinline__ static void consumer_barrier() {
    arch::named_barrier_sync<arch::NamedBarrier::Consumers, ConsumerThreads>();
  }

  // The Stream-K partials' publication, off the consumers' path: a Partial's fence waits until
  // its 32 KiB of stores are acknowledged, microseconds while every SM streams the weight, and
  // the consumers (and, once the ring is full, the producer) stood still meanwhile. The
  // consumers now issue the stores and arrive at PartialStored; warp 1 of the producer
  // warpgroup (idle otherwise) walks cluster c's steps as they do and, at each Partial, waits
  // there, then one lane fences (cumulative: it covers every consumer thread's stores, which
  // the barrier ordered before it) and writes the tag. Before the next Partial the warp
  // arrives at PartialPublished, which the consumers wait on before they store it, so that
  // their arrivals never count towards a partial the warp has not taken. The stores, the
  // order of the owners' additions and so every bit of D are the same.
  static constexpr int PublisherThreads = ConsumerThreads + 32;
  __device__ __forceinline__ static void publish_partials(Params const& p, int64_t c, int rank) {
    const int64_t steps = p.scheduler.steps(c);
    bool later = false;
    for (int64_t i = 0; i < steps; ++i) {
      const StreamKWork w = p.scheduler.work(c, i);
      if (w.role != SegmentRole::Partial) continue;
      if (later) arch::named_barrier_arrive<arch::NamedBarrier::PartialPublished, PublisherThreads>();
      arch::named_barrier_sync<arch::NamedBarrier::PartialStored, PublisherThreads>();
      if (threadIdx.x % 32 == 0) p.fixup.publish(p.scheduler.slot(w.unit, rank));
      __syncwarp();
      later = true;
    }
  }

  // The consumers under Stream-K: cluster c's walk (the producer's, step for step), each step's
  // k-range into the accumulators, then by its role: the epilogue (Whole), the partial to its
  // slot and the flag raised (Partial), or the peers' partials added in the fixed order and the
  // epilogue (Owner; C is then loaded in the epilogue, not during a wait).
  __device__ __forceinline__ static void consume_stream_k(Params const& p, SharedStorage& shared, int wg, int64_t c, int rank) {
    typename Mainloop::SharedStorage& s = shared.mainloop;
    typename Mainloop::PipelineState st;
    typename Mainloop::TiledMma tiled;
    const int thread = int(threadIdx.x) - GMMA::warpgroup_threads;  // after the producer's warpgroup
    typename Mainloop::Accumulators acc;
    const int64_t steps = p.scheduler.steps(c);
    bool stored = false;  // a partial of this walk stored before (publish_partials)
    for (int64_t i = 0; i < steps; ++i) {
      bool whole = false;
      {
        const StreamKWork w = p.scheduler.work(c, i);
        whole = w.role == SegmentRole::Whole;
        if (whole) Epilogue::prefetch_c(p.epilogue, shared.epilogue, thread, Mainloop::cta_tile_m(w.m, rank), Mainloop::cta_tile_n(w.n, rank), w.l);
        if constexpr (Mainloop::BlockScaled)
          Mainloop::mma_block_scaled(p.mainloop, s, st, wg - 1, acc, int(w.k_end - w.k_begin),
                                     Mainloop::block_scale_tile(Mainloop::cta_tile_m(w.m, rank), Mainloop::cta_tile_n(w.n, rank)), w.k_begin);
        else
          Mainloop::mma(p.mainloop, s, st, wg - 1, acc, int(w.k_end - w.k_begin));
      }
      // The step again after the mainloop (i laundered so that it is recomputed, not kept live
      // across the wgmmas beside the accumulators).
      int64_t again = i;
      asm volatile("" : "+l"(again));
      const StreamKWork w = p.scheduler.work(c, again);
      if (w.role == SegmentRole::Partial) {
        if (stored) arch::named_barrier_sync<arch::NamedBarrier::PartialPublished, PublisherThreads>();
        p.fixup.store(p.scheduler.slot(w.unit, rank), acc, thread);
        arch::named_barrier_arrive<arch::NamedBarrier::PartialStored, PublisherThreads>();
        stored = true;
        continue;
      }
      if (w.role == SegmentRole::Owner) {
        const StreamKScheduler& sk = p.scheduler.schedule;
        if (thread == 0) p.fixup.await_peers(sk, w, rank, 0);
        consumer_barrier();
        p.fixup.add_peers(sk, w, rank, 0, acc, thread);
        consumer_barrier();  // every thread has read the partials before their flags go down
        if (thread == 0) p.fixup.release_peers(sk, w, rank, 0);
      }
      if constexpr (Mainloop::Bits == 8)  // (per-tensor only: can_implement refuses rowwise scales here)
        Epilogue::template scale<false>(p.epilogue, tiled, make_shape(C<Mainloop::BM>{}, C<Mainloop::BN>{}), thread, Mainloop::cta_tile_m(w.m, rank),
                                        Mainloop::cta_tile_n(w.n, rank), acc);
      Epilogue::store(p.epilogue, shared.epilogue, tiled, make_shape(C<Mainloop::BM>{}, C<Mainloop::BN>{}), thread,
                      Mainloop::cta_tile_m(w.m, rank), Mainloop::cta_tile_n(w.n, rank), w.l, acc, 0, whole);
    }
    Epilogue::finish(p.epilogue, thread);
  }

  // Split-K meeting point of one CTA's slice: store the accumulators in the slice's slot,
  // count the slice in the tile's counter; the slice that arrives last adds every slot in
  // slice order (its own read back, so the sum's order, hence the result, does not depend on
  // who came last) and returns true: it runs the epilogue. Nobody waits for anybody.
  template <class Acc>
  __device__ __forceinline__ static bool meet(Params const& p, SharedStorage& shared, Acc& acc, int64_t split_tile, int slice, int split,
                                              int thread) {
    constexpr int values = int(sizeof(Acc) / sizeof(float)), groups = values / 4;
    float4* slot = p.partials + (split_tile * split + slice) * int64_t(groups * ConsumerThreads) + thread;
#pragma unroll
    for (int j = 0; j < groups; ++j)
      __stcg(slot + j * ConsumerThreads, make_float4(acc[4 * j], acc[4 * j + 1], acc[4 * j + 2], acc[4 * j + 3]));
    __threadfence();  // this thread's slot is visible device-wide before the CTA counts itself
    consumer_barrier();
    if (thread == 0) shared.split_last = atomicAdd(&p.arrivals[split_tile], 1u) == unsigned(split - 1);
    consumer_barrier();
    if (!shared.split_last) return false;
    __threadfence();  // the other slices' slots, counted before us, are read after the count
    // Loads in chunks of 8 float4 per thread (32 registers beside the 128 accumulators): a
    // compiler barrier keeps the chunks apart, all 32 loads of a slot at once spilled.
    const float4* first_slot = p.partials + split_tile * split * int64_t(groups * ConsumerThreads) + thread;
    constexpr int chunk = 8;
    static_assert(groups % chunk == 0, "whole chunks of float4 groups");
    for (int q = 0; q < split; ++q) {
      const float4* from = first_slot + q * int64_t(groups * ConsumerThreads);
#pragma unroll
      for (int c = 0; c < groups / chunk; ++c) {
        float4 v[chunk];
#pragma unroll
        for (int i = 0; i < chunk; ++i) v[i] = __ldcg(from + (c * chunk + i) * ConsumerThreads);
#pragma unroll
        for (int i = 0; i < chunk; ++i) {
          const int j = c * chunk + i;
          if (q == 0) {
            acc[4 * j] = v[i].x, acc[4 * j + 1] = v[i].y, acc[4 * j + 2] = v[i].z, acc[4 * j + 3] = v[i].w;
          } else {
            acc[4 * j] += v[i].x, acc[4 * j + 1] += v[i].y, acc[4 * j + 2] += v[i].z, acc[4 * j + 3] += v[i].w;
          }
        }
        asm volatile("" ::: "memory");
      }
    }
    return true;
  }
};

}  // namespace tessera::kernels::sm90
