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
#include <initializer_list>

#include <tessera/config.hpp>

#include "index_divisor.hpp"
#include "sm90_tile_scheduler.cuh"
#include "stream_k_scheduler.hpp"

namespace tessera::kernels::sm90 {

// The walk's divisions prepared on the host (StreamKWalkDivisors::of): the plan's counts as
// IndexDivisors, so that the kernel's work(c, i) and steps(c) divide with a multiplication and a
// shift each. The maps are StreamKScheduler's (unit_begin, unit_of, dp_steps, segments, work_in)
// and the raster's (PersistentTileScheduler::tile: idx2crd over (tiles per batch, batch), then
// grouped_raster), restated over these divisors; the host tests check that they give the same
// steps. `narrow` is false where a count or a dividend of the walk reaches 2^31 (or the plan is
// not valid): the kernel then walks StreamKScheduler's own maps.
struct StreamKWalkDivisors {
  bool narrow = false;
  IndexDivisor units, k_tiles, clusters, line;           // U, k-tiles per tile, P, the cut's line V (T when the margin is 0)
  IndexDivisor line_k_tiles;                             // k-tiles per tile on the cut's line: k - margin
  IndexDivisor batch_tiles, group, tiles_n, rest_rows;   // the raster: tiles per batch, its group, N tiles, the partial group's rows
  std::uint32_t line_iterations = 0, dp_tiles = 0;       // V (0 when nothing is shared), the data-parallel tiles
  std::uint32_t whole_rows = 0, whole_tiles = 0;         // M-tiles in whole groups, and their tiles (whole_rows N tiles)

  static constexpr StreamKWalkDivisors of(StreamKScheduler const& s) {
    StreamKWalkDivisors v;
    const PersistentTileScheduler& r = s.raster;
    if (!s.valid() || !s.fits_32bit() || !r.fits_32bit() || s.tile_count() + s.clusters > IndexDivisor::most) return v;
    const std::int64_t batch_tiles = r.tiles_m * r.tiles_n, whole_rows = r.tiles_m / r.group * r.group;
    v.units = IndexDivisor::of(s.plan.sk_units > 0 ? s.plan.sk_units : 1);
    v.k_tiles = IndexDivisor::of(s.k_tiles);
    v.clusters = IndexDivisor::of(s.clusters);
    v.line = IndexDivisor::of(s.line_iterations() > 0 ? s.line_iterations() : 1);
    v.line_k_tiles = IndexDivisor::of(s.line_k_tiles());
    v.batch_tiles = IndexDivisor::of(batch_tiles);
    v.group = IndexDivisor::of(r.group);
    v.tiles_n = IndexDivisor::of(r.tiles_n);
    v.rest_rows = IndexDivisor::of(r.tiles_m > whole_rows ? r.tiles_m - whole_rows : 1);
    for (const IndexDivisor& d : {v.units, v.k_tiles, v.clusters, v.line, v.line_k_tiles, v.batch_tiles, v.group, v.tiles_n, v.rest_rows})
      if (!d.ok()) return v;
    v.line_iterations = std::uint32_t(s.line_iterations());
    v.dp_tiles = std::uint32_t(s.plan.dp_tiles);
    v.whole_rows = std::uint32_t(whole_rows);
    v.whole_tiles = std::uint32_t(whole_rows * r.tiles_n);
    v.narrow = true;
    return v;
  }

  // StreamKScheduler's maps over the divisors (narrow only; u <= U, x < T, c < P, s < sk_tiles).
  TESSERA_HOST_DEVICE constexpr std::uint32_t real(std::uint32_t v) const {
    const std::uint32_t q = line_k_tiles.div(v);
    return q * k_tiles.d + (v - q * line_k_tiles.d);
  }
  TESSERA_HOST_DEVICE constexpr std::uint32_t unit_begin(std::uint32_t u) const { return real(units.div(u * line_iterations)); }
  TESSERA_HOST_DEVICE constexpr std::uint32_t unit_of(std::uint32_t x) const {
    const std::uint32_t q = k_tiles.div(x), r = x - q * k_tiles.d, vk = line_k_tiles.d;
    return line.div((q * vk + (r < vk ? r : vk - 1) + 1) * units.d - 1);
  }
  // The first unit of shared tile s (the unit holding its k-tile 0): unit_of(s k).
  TESSERA_HOST_DEVICE constexpr std::uint32_t first_unit(std::uint32_t s) const {
    return line.div((s * line_k_tiles.d + 1) * units.d - 1);
  }
  TESSERA_HOST_DEVICE constexpr std::uint32_t dp_steps(std::uint32_t c) const {
    return c < dp_tiles ? clusters.div(dp_tiles - 1 - c) + 1 : 0;
  }
  TESSERA_HOST_DEVICE constexpr std::uint32_t segments(std::uint32_t u, std::int64_t sk_units) const {
    if (std::int64_t(u) >= sk_units) return 0;
    return k_tiles.div(unit_begin(u + 1) - 1) - k_tiles.div(unit_begin(u)) + 1;
  }
  // The raster's tile `linear` (< the tile count).
  TESSERA_HOST_DEVICE constexpr PersistentTileScheduler::Tile tile(std::uint32_t linear) const {
    const std::uint32_t l = batch_tiles.div(linear), t = linear - l * batch_tiles.d;
    if (t < whole_tiles) {  // (row in group, n, group) over the whole groups
      const std::uint32_t q = group.div(t), g = tiles_n.div(q);
      return {std::int64_t(g * group.d + (t - q * group.d)), std::int64_t(q - g * tiles_n.d), std::int64_t(l)};
    }
    const std::uint32_t x = t - whole_tiles, n = rest_rows.div(x);  // (row, n) over the partial group
    return {std::int64_t(whole_rows + (x - n * rest_rows.d)), std::int64_t(n), std::int64_t(l)};
  }
  // Step i of cluster c (StreamKScheduler::work_in).
  TESSERA_HOST_DEVICE constexpr StreamKWork work(std::int64_t c64, std::int64_t i64, std::int64_t k64) const {
    const std::uint32_t c = std::uint32_t(c64), i = std::uint32_t(i64), k = k_tiles.d;
    const std::uint32_t dp = dp_steps(c);
    if (i < dp) {
      const std::uint32_t linear = c + i * clusters.d;
      const auto t = tile(linear);
      return {std::int64_t(linear), t.m, t.n, t.l, 0, k64, SegmentRole::Whole, -1, -1};
    }
    const std::uint32_t begin = unit_begin(c), end = unit_begin(c + 1);
    const std::uint32_t s = k_tiles.div(end - 1) - (i - dp);  // shared tile, counted from dp_tiles
    const std::uint32_t tile_begin = s * k, tile_end = tile_begin + k;
    const std::uint32_t kb = (begin > tile_begin ? begin : tile_begin) - tile_begin;
    const std::uint32_t ke = (end < tile_end ? end : tile_end) - tile_begin;
    const auto t = tile(dp_tiles + s);
    const SegmentRole role = kb == 0 && ke == k ? SegmentRole::Whole : ke == k ? SegmentRole::Owner : SegmentRole::Partial;
    const std::int64_t first = role == SegmentRole::Owner ? std::int64_t(first_unit(s)) : -1;
    return {std::int64_t(dp_tiles + s), t.m, t.n, t.l, std::int64_t(kb), std::int64_t(ke), role, c64, first};
  }
};

// The fix-up tail of a kernel in its k-tiles, for plan_stream_k's margin (units of unequal
// length), by CTA tile and cluster; 0 (units of equal length) but for the decode kernel
// (sm90::DecodeGemm: 128x64x64, no cluster) on a memory-bound problem. There every unit streams
// the weight at the same rate, ~0.65 us per k-tile and SM (the timeline: a 14.85 us k-loop of
// 23 k-tiles at 6144 x 64 x 4096), and a unit that ends inside a tile publishes its partial
// 1.5-1.9 us after its last k-tile, which its owner waits for with DRAM idle: 2.3-2.9 k-tiles,
// so 3. Other kernels have not had their tails measured (their units are longer and their
// k-tiles compute-bound where the problem is not memory-bound): 0 until a timeline says.
inline constexpr std::int64_t kDecodeTailKTiles = 3;
template <int BM, int BN, int BK, int ClusterM>
constexpr std::int64_t stream_k_tail_k_tiles(bool memory_bound) {
  return BM == 128 && BN == 64 && BK == 64 && ClusterM == 1 && memory_bound ? kDecodeTailKTiles : 0;
}

struct StreamKTileScheduler {
  static constexpr bool Splits = true;  // the kernel carries a fix-up
  static constexpr Reduction reduction = Reduction::StreamK;

  StreamKScheduler schedule;  // over cluster tiles; cluster ClusterM x 1
  bool memory_bound = false;  // the problem's (memory_bound_problem): the plan shares a single partial wave
  std::int64_t tail_k_tiles = 0;  // the kernel's fix-up tail (stream_k_tail_k_tiles): the shared plan's margin
  // schedule's divisions, prepared where schedule is set (to_underlying_arguments, with_plan;
  // code that changes schedule afterwards calls prepare()).
  StreamKWalkDivisors divisors;

  void prepare() { divisors = StreamKWalkDivisors::of(schedule); }

  using Arguments = Sm90SchedulerArguments;
  // Whole tiles, one cluster per tile (the kernel sets the grid and the plan: with_plan).
  template <int BM, int BN, int BK, int ClusterM, int ClusterN = 1>
  static StreamKTileScheduler to_underlying_arguments(int64_t m, int64_t n, int64_t k, int64_t l, Arguments const& args) {
    static_assert(ClusterN == 1,
                  "Stream-K: clusters along M only (the kernel's slots and its walk count a tile's CTAs along M)");
    StreamKTileScheduler s;
    s.schedule.raster = raster_of<BM, BN, ClusterM>(m, n, l, args);
    s.schedule.cluster = ClusterShape{ClusterM, 1};
    s.schedule.k_tiles = k_tile_count<BK>(k);
    s.schedule.clusters = s.schedule.tile_count();
    s.schedule.plan = StreamKPlan{Decomposition::DataParallel, s.schedule.tile_count(), 0};
    s.memory_bound = memory_bound_problem(m, n);
    s.tail_k_tiles = stream_k_tail_k_tiles<BM, BN, BK, ClusterM>(s.memory_bound);
    s.prepare();
    return s;
  }

  // The same raster on `clusters` persistent clusters: the heuristic's plan (stream_k true) or
  // whole tiles; whole tiles too where the shared plan's walk does not fit the prepared divisors
  // (a shared line T with T (U + 1) >= 2^31: K in the millions), which the kernel walks alone.
  StreamKTileScheduler with_plan(int64_t clusters, bool stream_k) const {
    StreamKTileScheduler s = *this;
    s.schedule.clusters = clusters;
    s.schedule.plan = stream_k ? plan_stream_k(s.schedule.tile_count(), s.schedule.k_tiles, clusters, kStreamKMinUnitKTiles, memory_bound,
                                                       tail_k_tiles)
                               : StreamKPlan{Decomposition::DataParallel, s.schedule.tile_count(), 0};
    s.prepare();
    if (!s.divisors.narrow && s.schedule.plan.sk_units > 0) {
      s.schedule.plan = StreamKPlan{Decomposition::DataParallel, s.schedule.tile_count(), 0};
      s.prepare();
    }
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

  // The walk of cluster c (0 <= c < clusters): steps(c) steps, step i is work(c, i), over the
  // prepared divisors. The kernel walks only these (no 64-bit maps beside the accumulators: their
  // code cost registers): its to_underlying_arguments refuses a scheduler without them, and on
  // the device a walk without them has no step. The host walks the scheduler's own maps there.
  TESSERA_HOST_DEVICE constexpr int64_t steps(int64_t c) const {
    if (divisors.narrow && c >= 0 && c < schedule.clusters)
      return int64_t(divisors.dp_steps(uint32_t(c))) + int64_t(divisors.segments(uint32_t(c), schedule.plan.sk_units));
#if defined(__CUDA_ARCH__)
    return 0;
#else
    return schedule.steps(c);
#endif
  }
  TESSERA_HOST_DEVICE constexpr StreamKWork work(int64_t c, int64_t i) const {
#if defined(__CUDA_ARCH__)
    return divisors.work(c, i, schedule.k_tiles);
#else
    if (divisors.narrow && c >= 0 && c < schedule.clusters && i >= 0 && i <= IndexDivisor::most) return divisors.work(c, i, schedule.k_tiles);
    return schedule.work(c, i);
#endif
  }

  // Where the CTA of rank `rank` keeps its partial of unit `unit` (slot and flag).
  TESSERA_HOST_DEVICE constexpr int64_t slot(int64_t unit, int rank) const { return schedule.slot(unit, rank, 0); }
  // The workspace of the plan for CTA tiles of tile_elems f32 accumulators.
  TESSERA_HOST_DEVICE constexpr StreamKWorkspace workspace(int64_t tile_elems) const {
    return stream_k_workspace(schedule, tile_elems);
  }
};

}  // namespace tessera::kernels::sm90
