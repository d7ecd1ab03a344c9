// The Stream-K scheduler as a tile scheduler of the SM90 warp-specialized kernel
// (sm90_gemm_tma_warpspecialized.cuh): the persistent raster of cluster tiles (ClusterM CTA
// tiles along M, as the kernel's other schedulers), dealt out by the Stream-K plan of
// stream_k_scheduler.hpp. Split-K of the last wave is the plan's case where the units divide
// the shared tiles evenly, so this scheduler replaces split-K in the kernels the library ships.
//
// The walk: cluster c (blockIdx.x / ClusterM) runs steps(c) steps, step i being work(c, i): its
// data-parallel tiles, then its unit's segments last to first (the partial first, the owner's
// wait last: the order the scheduler's no-deadlock argument needs). The producer thread and the
// consumer warpgroups of every CTA of the cluster walk this same sequence (the producer loads
// k-tiles [k_begin, k_end) of CTA tile (m ClusterM + rank, n, l), the consumers multiply them
// and then, by role, store the tile (Whole), store their partial to slot(unit, rank) and raise
// its flag (Partial), or wait for their peers' flags, add their partials in the fixed order and
// store the tile (Owner): stream_k_fixup.cuh).
//
// The plan is made where the grid is known: to_underlying_arguments gives whole tiles on one
// cluster per tile; the kernel's to_underlying_arguments sets the grid's resident clusters and,
// where its workspace holds the partials and flags, the heuristic's plan (with_plan).
// Plain C++ (TESSERA_HOST_DEVICE): the host tests walk it as the kernel does.
#pragma once

#include <cstdint>

#include <tessera/config.hpp>

#include "sm90_tile_scheduler.cuh"
#include "stream_k_scheduler.hpp"

namespace tessera::kernels::sm90 {

struct StreamKTileScheduler {
  static constexpr bool Splits = true;  // the kernel carries a fix-up
  static constexpr Reduction reduction = Reduction::StreamK;

  StreamKScheduler schedule;  // over cluster tiles; cluster ClusterM x 1
  bool memory_bound = false;  // the problem's (memory_bound_problem): the plan shares a single partial wave

  using Arguments = Sm90SchedulerArguments;
  // Whole tiles, one cluster per tile (the kernel sets the grid and the plan: with_plan).
  template <int BM, int BN, int BK, int ClusterM>
  static StreamKTileScheduler to_underlying_arguments(int64_t m, int64_t n, int64_t k, int64_t l, Arguments const& args) {
    StreamKTileScheduler s;
    s.schedule.raster = raster_of<BM, BN, ClusterM>(m, n, l, args);
    s.schedule.cluster = ClusterShape{ClusterM, 1};
    s.schedule.k_tiles = k_tile_count<BK>(k);
    s.schedule.clusters = s.schedule.tile_count();
    s.schedule.plan = StreamKPlan{Decomposition::DataParallel, s.schedule.tile_count(), 0};
    s.memory_bound = memory_bound_problem(m, n);
    return s;
  }

  // The same raster on `clusters` persistent clusters: the heuristic's plan (stream_k true) or
  // whole tiles.
  StreamKTileScheduler with_plan(int64_t clusters, bool stream_k) const {
    StreamKTileScheduler s = *this;
    s.schedule.clusters = clusters;
    s.schedule.plan = stream_k ? plan_stream_k(s.schedule.tile_count(), s.schedule.k_tiles, clusters, kStreamKMinUnitKTiles, memory_bound)
                               : StreamKPlan{Decomposition::DataParallel, s.schedule.tile_count(), 0};
    return s;
  }

  TESSERA_HOST_DEVICE constexpr int64_t tile_count() const { return schedule.tile_count(); }
  // Clusters of the grid: all of them when units share tiles (each unit is one cluster's, and
  // the fix-up needs them resident together), else no more than there are tiles.
  TESSERA_HOST_DEVICE constexpr int64_t work_count() const {
    if (schedule.plan.sk_units > 0) return schedule.clusters;
    return tile_count() < schedule.clusters ? tile_count() : schedule.clusters;
  }
  TESSERA_HOST_DEVICE constexpr bool shares() const { return schedule.plan.sk_units > 0; }

  // The walk of cluster c: steps(c) steps, step i is work(c, i).
  TESSERA_HOST_DEVICE constexpr int64_t steps(int64_t c) const { return schedule.steps(c); }
  TESSERA_HOST_DEVICE constexpr StreamKWork work(int64_t c, int64_t i) const { return schedule.work(c, i); }

  // Where the CTA of rank `rank` keeps its partial of unit `unit` (slot and flag).
  TESSERA_HOST_DEVICE constexpr int64_t slot(int64_t unit, int rank) const { return schedule.slot(unit, rank, 0); }
  // The workspace of the plan for CTA tiles of tile_elems f32 accumulators.
  TESSERA_HOST_DEVICE constexpr StreamKWorkspace workspace(int64_t tile_elems) const {
    return stream_k_workspace(schedule, tile_elems);
  }
};

}  // namespace tessera::kernels::sm90
