// Stream-K tile scheduler: a persistent grid of `clusters` clusters shares the k-iterations of
// the output tiles equally instead of dealing out whole tiles, so a problem whose tile count
// is not a multiple of the grid leaves no SM idle in its last wave.
//
// Work is counted in (cluster tile, k-tile) iterations. The first plan.dp_tiles cluster tiles
// of the raster (sm90_tile_scheduler.cuh: grouped for L2, batch outermost) are data-parallel:
// whole tiles, cluster c takes tiles c, c + P, c + 2P, ... (P = clusters). The remaining
// sk_tiles tiles form one line of sk_tiles * k_tiles iterations, tile after tile, k-tiles in
// order; it is cut into plan.sk_units contiguous ranges of equal length (to one iteration:
// unit u takes [floor(u T / U), floor((u + 1) T / U))), or, with a margin m > 0, of equal length
// on a line without each tile's last m k-tiles (V = sk_tiles (k_tiles - m) virtual iterations,
// unit u takes [real(floor(u V / U)), real(floor((u + 1) V / U))), real(v) = (v div (k - m)) k +
// v mod (k - m)): no cut falls in a tile's last m k-tiles, so the unit holding a tile's end (its
// owner) takes them on top of its share, and a unit ending inside a tile is m shorter than the
// owners. Cluster u < U runs unit u after its
// data-parallel tiles. A unit's range meets a tile in a segment: whole (the unit stores the tile
// itself) or a piece of the tile's k-range. Split-K is the case where the units divide each
// tile evenly (U a multiple of sk_tiles): no range crosses a tile boundary.
//
// Fix-up, deterministic: the pieces of a tile are reduced by the unit holding the tile's LAST
// k-range (its owner), in a fixed order of k-ranges:
//   acc = own;  for peer = owner - 1 down to first: acc = partial[peer] + acc;
// so the bits of C are a function of the problem and the grid (M, N, K, tile, cluster, P),
// never of timing. Every other piece belongs to the LAST segment of its unit (all other
// segments end on a tile boundary), so a unit writes at most one partial: slot (unit, rank in
// cluster) of the workspace. The owner's piece is the FIRST segment of its unit (all other
// segments start on a tile boundary), so a unit waits at most once. A unit runs its segments
// in reverse order: it writes (and raises its flag) before it ever waits, hence every wait is
// for a flag raised by a unit that never waits before raising it: no deadlock, given every
// cluster of the grid is resident (grid <= SMs), whatever the order they run in.
//
// Workspace (StreamKWorkspace): partial slots, slot s = unit * cluster size + rank, each
// tile_elems f32 accumulators (their order inside a slot is the kernel's), then one 64-bit
// flag per slot. Every launch carries a tag, a 64-bit value distinct per launch and never 0
// (device/launch_tag.hpp); a writer stores its slot, fences, then writes the tag in its flag;
// the owner waits until its peers' flags hold exactly the tag, adds, and puts each flag back
// to 0. Nothing clears the flags before a launch, so the workspace may hold anything:
//   - bytes a caller or a pool left there equal the tag with probability 2^-64 per slot;
//   - an earlier launch's flags (same problem or another, whose slots lie elsewhere in the same
//     bytes) hold its own tag or 0, never this launch's;
//   - a CUDA graph replays its captured tag: the owners' clearing leaves every slot of a
//     finished launch without it (each written slot has exactly one owner, which clears it);
//   - a launch that does not finish (an owner that gave up after `patience` polls, a kernel
//     aborted by a fault) may leave its tag in slots: a later launch with a fresh tag is
//     unaffected, but a replay of the same captured tag could take such a slot as published
//     and read a stale partial. A device fault ends the CUDA context (and the workspace and
//     graph with it); after a `patience` failure, relaunch rather than replay, or clear the
//     workspace once (any bytes without the tag will do).
// Two launches in flight on one workspace at once (two streams, two graph executions) share
// slots and are not supported, with tags as with flags; separate workspaces never interact.
//
// Plain C++ with TESSERA_HOST_DEVICE and no heap: the host tests emulate whole grids with it.
#pragma once

#include <cstddef>
#include <cstdint>

#include <tessera/config.hpp>
#include <tessera/int_tuple.hpp>

#include "sm90_tile_scheduler.cuh"

namespace tessera::kernels {

// How a plan cuts the tiles: whole tiles only; tiles cut into equal k-slices; k-iterations
// shared equally across units that may span tiles.
enum class Decomposition { DataParallel, SplitK, StreamK };

inline const char* to_string(Decomposition d) {
  switch (d) {
    case Decomposition::DataParallel: return "data-parallel";
    case Decomposition::SplitK: return "split-k";
    case Decomposition::StreamK: return "stream-k";
  }
  return "?";
}

// CTAs per cluster along M and N (1x1, 2x1, 1x2 on Hopper with these kernels).
struct ClusterShape {
  int m = 1, n = 1;
  TESSERA_HOST_DEVICE constexpr int size() const { return m * n; }
};

// A CTA tile's coordinate (M, N) on the grid of CTA tiles.
struct CtaTileCoord {
  std::int64_t m = 0, n = 0;
  friend constexpr bool operator==(const CtaTileCoord&, const CtaTileCoord&) = default;
};

// The CTA tile of the CTA of cluster rank `rank` (0 <= rank < cluster.size()) on cluster tile
// (m, n). A cluster tile is cluster.m x cluster.n consecutive CTA tiles, and the cluster's CTAs
// are the layout (cluster.m, cluster.n):(1, cluster.m) over them, as CUDA ranks a cluster of dims
// (cluster.m, cluster.n, 1): the rank's coordinate is idx2crd(rank, (cluster.m, cluster.n)),
// (rank mod cluster.m, rank / cluster.m), and the CTA tile is the cluster tile's coordinate
// scaled by the cluster's shape plus it. The coordinate is written so that a cluster of one CTA
// along a mode gives 0 there and a cluster along one mode gives the rank itself: with a
// cluster shape known at compile time no division is left (the rank's bound is not known to
// the compiler, so a general `rank % cluster.m` would stay in the kernels).
TESSERA_HOST_DEVICE constexpr CtaTileCoord cta_tile_of(std::int64_t m, std::int64_t n, ClusterShape cluster, int rank) {
  const int rm = cluster.m == 1 ? 0 : cluster.n == 1 ? rank : rank % cluster.m;
  const int rn = cluster.n == 1 ? 0 : cluster.m == 1 ? rank : rank / cluster.m;
  return {m * cluster.m + rm, n * cluster.n + rn};
}

// Persistent clusters of `cluster` that a device of `sms` SMs holds at one CTA per SM. (A
// kernel can ask the driver instead: cudaOccupancyMaxActiveClusters; the plan takes a count.)
TESSERA_HOST_DEVICE constexpr std::int64_t persistent_clusters(int sms, ClusterShape cluster) {
  return cluster.size() > 0 && sms > 0 ? sms / cluster.size() : 0;
}

struct StreamKPlan {
  Decomposition kind = Decomposition::DataParallel;
  std::int64_t dp_tiles = 0;  // the first dp_tiles cluster tiles (raster order) are whole
  std::int64_t sk_units = 0;  // units sharing the rest's k-iterations (0 when nothing is shared)
  // Units of unequal length: each shared tile's last `margin` k-tiles go, on top of an equal
  // share, to the unit holding the tile's end (the tile's owner), so the units that end inside a
  // tile (and publish a partial there) are shorter than the owners by `margin` k-tiles and
  // publish while the owners still stream. 0: units of equal length. (0 <= margin < k_tiles.)
  std::int64_t margin = 0;
};

// The hybrid heuristic (the policy of CUTLASS's SM90 Stream-K scheduler, restated):
//   T tiles on P clusters: full = T / P whole waves, tail = T mod P tiles in the last one.
//   1. tail == 0: data-parallel (no wave is partial).
//   2. k_tiles <= min_unit: data-parallel (no tile has enough k-iterations to share).
//   3. 2 tail >= P: data-parallel (the last wave is at least half full: at most half a wave
//      idles), except for a memory-bound problem in a single partial wave (full == 0): its
//      idle SMs idle for the whole problem, and the busy ones read the operands with their
//      bandwidth alone (a few tokens through a weight, as D^T: N small); rule 5 and the
//      dispatch's wave model still weigh the fix-up.
//   4. otherwise the last full wave and the tail are shared (all of the tiles when full <= 1):
//      dp_tiles = max(full - 1, 0) P, and U = min(P, sk_tiles k_tiles / min_unit) units, so a
//      unit takes at least min_unit k-iterations. Sharing two waves' worth instead of the tail
//      alone gives each unit more than one tile's k-range, which hides the fix-up.
//   5. data-parallel after all when the longest unit is no shorter than the shared tiles' whole
//      waves (rounding: 9 tiles of 9 k-tiles in 10 units of 8.1), which includes U == sk_tiles.
//   6. U a multiple of sk_tiles (and larger): split-K, U / sk_tiles slices per tile; else Stream-K.
// (Past 2^31 clusters or k-tiles, data-parallel: no product of the plan can overflow.)
inline constexpr int kStreamKMinUnitKTiles = 8;

// Memory-bound for the plan: a problem whose smaller output extent is at most this many rows or
// columns does about that many MACs per operand element it reads (a few tokens through a
// weight), below what keeps Hopper's tensor cores busy from its bandwidth; sharing its single
// partial wave puts every SM's bandwidth on it (bench/notes/suite.md: 64 to 256 tokens through
// a 10240 x 8192 weight, 0.43-0.70 of cuBLAS before, 0.67-0.87 after).
inline constexpr std::int64_t kMemoryBoundExtent = 256;
TESSERA_HOST_DEVICE constexpr bool memory_bound_problem(std::int64_t m, std::int64_t n) {
  return (m < n ? m : n) <= kMemoryBoundExtent;
}

//   7. tail_k_tiles > 0 (the fix-up tail of a kernel, in its k-tiles: publish a partial, wait for
//      it): a shared plan takes margin = min(tail_k_tiles, its units' length / 2, k_tiles / 4),
//      the owners' extra k-tiles (StreamKPlan::margin); the bounds keep every unit at least half
//      an equal share long and the owners' pieces a small part of a tile.
TESSERA_HOST_DEVICE constexpr StreamKPlan plan_stream_k(std::int64_t tiles, std::int64_t k_tiles, std::int64_t clusters,
                                                        std::int64_t min_unit = kStreamKMinUnitKTiles, bool memory_bound = false,
                                                        std::int64_t tail_k_tiles = 0) {
  const StreamKPlan whole{Decomposition::DataParallel, tiles, 0};
  if (tiles <= 0 || clusters <= 0 || k_tiles <= 0 || min_unit <= 0) return whole;
  if (clusters > INT32_MAX || k_tiles > INT32_MAX) return whole;  // (keeps every product below 2^63)
  const std::int64_t full = tiles / clusters, tail = tiles % clusters;
  if (tail == 0 || k_tiles <= min_unit || ((full >= 1 || !memory_bound) && 2 * tail >= clusters)) return whole;
  const std::int64_t dp_tiles = (full > 1 ? full - 1 : 0) * clusters;
  const std::int64_t sk_tiles = tiles - dp_tiles;
  std::int64_t units = sk_tiles * k_tiles / min_unit;
  if (units > clusters) units = clusters;
  // (the shared tiles' critical path, their longest unit against their whole waves)
  if ((sk_tiles * k_tiles + units - 1) / units >= (sk_tiles + clusters - 1) / clusters * k_tiles) return whole;
  const bool split = units > sk_tiles && units % sk_tiles == 0;
  std::int64_t margin = tail_k_tiles > 0 ? tail_k_tiles : 0;
  if (margin > sk_tiles * k_tiles / units / 2) margin = sk_tiles * k_tiles / units / 2;
  if (margin > k_tiles / 4) margin = k_tiles / 4;
  return {split ? Decomposition::SplitK : Decomposition::StreamK, dp_tiles, units, margin};
}

// A step of a cluster's work: one segment of one cluster tile.
enum class SegmentRole {
  Whole,    // all k-tiles of the tile: the epilogue stores it, no fix-up
  Partial,  // a piece that is not the tile's last: store to slot(unit, rank), publish its flag
  Owner,    // the tile's last piece: wait for peers [first_peer, unit), add them, store the tile
};

struct StreamKWork {
  std::int64_t tile;              // cluster tile, linear in raster order
  std::int64_t m, n, l;           // its coordinates (cluster tiles)
  std::int64_t k_begin, k_end;    // k-tiles of the tile this step computes
  SegmentRole role;
  std::int64_t unit;              // the Stream-K unit (cluster) running it; -1 for a data-parallel tile
  std::int64_t first_peer;        // Owner: the first unit with a piece of the tile (<= unit)
};

struct StreamKScheduler {
  sm90::PersistentTileScheduler raster;  // over cluster tiles
  ClusterShape cluster;
  std::int64_t k_tiles = 0;   // per tile
  std::int64_t clusters = 0;  // P: persistent clusters in the grid
  StreamKPlan plan;

  // The scheduler of a problem of tiles_m x tiles_n CTA tiles (`batch` of them), k_tiles deep,
  // on `clusters` persistent clusters, with the heuristic's plan (or `plan` when given).
  TESSERA_HOST_DEVICE static constexpr StreamKScheduler of(std::int64_t tiles_m, std::int64_t tiles_n, std::int64_t batch,
                                                           std::int64_t k_tiles, ClusterShape cluster, std::int64_t clusters,
                                                           std::int64_t min_unit = kStreamKMinUnitKTiles,
                                                           std::int64_t tail_k_tiles = 0) {
    StreamKScheduler s = with_plan(tiles_m, tiles_n, batch, k_tiles, cluster, clusters, StreamKPlan{});
    s.plan = plan_stream_k(s.tile_count(), k_tiles, clusters, min_unit, false, tail_k_tiles);
    return s;
  }
  TESSERA_HOST_DEVICE static constexpr StreamKScheduler with_plan(std::int64_t tiles_m, std::int64_t tiles_n,
                                                                  std::int64_t batch, std::int64_t k_tiles,
                                                                  ClusterShape cluster, std::int64_t clusters,
                                                                  StreamKPlan plan) {
    const std::int64_t cm = ceil_div(tiles_m, std::int64_t(cluster.m)), cn = ceil_div(tiles_n, std::int64_t(cluster.n));
    return {sm90::PersistentTileScheduler{cm, cn, batch, sm90::raster_group(cluster.m)}, cluster, k_tiles, clusters, plan};
  }

  TESSERA_HOST_DEVICE constexpr std::int64_t tile_count() const { return raster.tile_count(); }
  TESSERA_HOST_DEVICE constexpr std::int64_t sk_tiles() const { return tile_count() - plan.dp_tiles; }
  TESSERA_HOST_DEVICE constexpr std::int64_t sk_iterations() const { return sk_tiles() * k_tiles; }
  TESSERA_HOST_DEVICE constexpr std::int64_t slots() const { return plan.sk_units * cluster.size(); }
  // The cut's line: V = sk_tiles (k_tiles - margin) iterations (T without the margins).
  TESSERA_HOST_DEVICE constexpr std::int64_t line_k_tiles() const { return k_tiles - plan.margin; }
  TESSERA_HOST_DEVICE constexpr std::int64_t line_iterations() const { return sk_tiles() * line_k_tiles(); }

  // Whether the plan is one this scheduler runs: the data-parallel tiles are tiles of the
  // problem, the units fit the grid (one per cluster: the deadlock argument needs it), every
  // unit has at least one iteration (U <= V: the margin leaves each a virtual one), the margin is
  // below a tile's k-tiles, and the schedule's products fit 64 bits (the tile count,
  // the shared line, (x + 1) U for every iteration x of it; and P more than the tile count).
  // (plan_stream_k's plans all are, for a tile grid whose count fits.)
  TESSERA_HOST_DEVICE constexpr bool valid() const {
    constexpr std::int64_t most = INT64_MAX;
    const auto& r = raster;
    if (r.tiles_m <= 0 || r.tiles_n <= 0 || r.batch <= 0 || r.tiles_m > most / r.tiles_n ||
        r.tiles_m * r.tiles_n > most / r.batch)
      return false;
    if (clusters <= 0 || k_tiles <= 0 || plan.dp_tiles < 0 || plan.dp_tiles > tile_count()) return false;
    if (tile_count() > most - clusters) return false;
    if (plan.margin < 0 || plan.margin >= k_tiles) return false;
    if (sk_tiles() == 0) return plan.sk_units == 0 && plan.margin == 0;
    if (sk_tiles() > most / k_tiles || plan.sk_units < 1 || sk_iterations() > most / (plan.sk_units + 1)) return false;
    return plan.sk_units <= clusters && plan.sk_units <= line_iterations();
  }

  // Whether every count of the schedule fits 32 bits: work() then divides in 32-bit words,
  // which a GPU does inline in a few instructions (a 64-bit division is a call to a software
  // routine, several per step otherwise). Assumes valid().
  TESSERA_HOST_DEVICE constexpr bool fits_32bit() const {
    return tile_count() + clusters <= INT32_MAX && k_tiles <= INT32_MAX &&
           sk_iterations() <= INT32_MAX / (plan.sk_units + 1);
  }

  // Unit u's iterations [unit_begin(u), unit_begin(u + 1)) of the shared line.
  TESSERA_HOST_DEVICE constexpr std::int64_t unit_begin(std::int64_t u) const {
    return fits_32bit() ? std::int64_t(unit_begin_in<std::uint32_t>(std::uint32_t(u))) : unit_begin_in<std::int64_t>(u);
  }
  // The unit whose range holds iteration x: the largest u with real(floor(u V / U)) <= x.
  TESSERA_HOST_DEVICE constexpr std::int64_t unit_of(std::int64_t x) const {
    return fits_32bit() ? std::int64_t(unit_of_in<std::uint32_t>(std::uint32_t(x))) : unit_of_in<std::int64_t>(x);
  }
  // Data-parallel tiles cluster c takes: c, c + P, ... below dp_tiles.
  TESSERA_HOST_DEVICE constexpr std::int64_t dp_steps(std::int64_t c) const {
    return fits_32bit() ? std::int64_t(dp_steps_in<std::uint32_t>(std::uint32_t(c))) : dp_steps_in<std::int64_t>(c);
  }
  // Segments of unit u: the shared tiles its range meets.
  TESSERA_HOST_DEVICE constexpr std::int64_t segments(std::int64_t u) const {
    if (u < 0 || u >= plan.sk_units) return 0;
    return fits_32bit() ? std::int64_t(segments_in<std::uint32_t>(std::uint32_t(u))) : segments_in<std::int64_t>(u);
  }
  // Steps of cluster c: its data-parallel tiles, then the segments of unit c.
  TESSERA_HOST_DEVICE constexpr std::int64_t steps(std::int64_t c) const { return dp_steps(c) + segments(c); }

  // Step i of cluster c (0 <= i < steps(c)). A unit's segments come last to first.
  TESSERA_HOST_DEVICE constexpr StreamKWork work(std::int64_t c, std::int64_t i) const {
    return fits_32bit() ? work_in<std::uint32_t>(c, i) : work_in<std::int64_t>(c, i);
  }

  // The same maps in words of type I (uint32_t where fits_32bit, else int64_t).
  // Between the line of the cut (virtual v < V) and the shared line (real x < T): the margins
  // of a tile (its real k-tiles k - m .. k - 1) map to the tile's last virtual iteration.
  template <class I>
  TESSERA_HOST_DEVICE constexpr I real_in(I v) const {
    const I vk = I(line_k_tiles());
    return I(v / vk * I(k_tiles) + v % vk);
  }
  template <class I>
  TESSERA_HOST_DEVICE constexpr I virtual_in(I x) const {
    const I k = I(k_tiles), vk = I(line_k_tiles()), r = I(x % k);
    return I(x / k * vk + (r < vk ? r : I(vk - 1)));
  }
  template <class I>
  TESSERA_HOST_DEVICE constexpr I unit_begin_in(I u) const {
    return real_in<I>(I(u * I(line_iterations()) / I(plan.sk_units)));
  }
  template <class I>
  TESSERA_HOST_DEVICE constexpr I unit_of_in(I x) const {
    return I(((virtual_in<I>(x) + 1) * I(plan.sk_units) - 1) / I(line_iterations()));
  }
  template <class I>
  TESSERA_HOST_DEVICE constexpr I dp_steps_in(I c) const {
    return c < I(plan.dp_tiles) ? I((I(plan.dp_tiles) - 1 - c) / I(clusters) + 1) : I(0);
  }
  template <class I>
  TESSERA_HOST_DEVICE constexpr I segments_in(I u) const {
    const I k = I(k_tiles);
    return I((unit_begin_in<I>(I(u + 1)) - 1) / k - unit_begin_in<I>(u) / k + 1);
  }
  template <class I>
  TESSERA_HOST_DEVICE constexpr StreamKWork work_in(std::int64_t c64, std::int64_t i64) const {
    const I c = I(c64), i = I(i64), k = I(k_tiles);
    const I dp = dp_steps_in<I>(c);
    if (i < dp) {
      const std::int64_t tile = std::int64_t(c + i * I(clusters));
      const auto t = raster.tile(tile);
      return {tile, t.m, t.n, t.l, 0, k_tiles, SegmentRole::Whole, -1, -1};
    }
    const I begin = unit_begin_in<I>(c), end = unit_begin_in<I>(I(c + 1));
    const I s = I((end - 1) / k - (i - dp));  // shared tile, counted from dp_tiles
    const I tile_begin = I(s * k), tile_end = I(tile_begin + k);
    const I kb = I((begin > tile_begin ? begin : tile_begin) - tile_begin);
    const I ke = I((end < tile_end ? end : tile_end) - tile_begin);
    const std::int64_t tile = plan.dp_tiles + std::int64_t(s);
    const auto t = raster.tile(tile);
    const SegmentRole role = kb == 0 && ke == k ? SegmentRole::Whole : ke == k ? SegmentRole::Owner : SegmentRole::Partial;
    const std::int64_t first = role == SegmentRole::Owner ? std::int64_t(unit_of_in<I>(tile_begin)) : -1;
    return {tile, t.m, t.n, t.l, std::int64_t(kb), std::int64_t(ke), role, c64, first};
  }

  // The CTA tile of rank (rm, rn) in its cluster for cluster tile (m, n) (cta_tile_of, the
  // rank rm + rn cluster.m): it may lie past the problem's tiles when the cluster does not
  // divide them (the CTA then has nothing to do).
  struct CtaTile {
    std::int64_t m, n, l;
  };
  TESSERA_HOST_DEVICE constexpr CtaTile cta_tile(const StreamKWork& w, int rm, int rn) const {
    const CtaTileCoord t = cta_tile_of(w.m, w.n, cluster, rm + rn * cluster.m);
    return {t.m, t.n, w.l};
  }
  // The workspace slot (and flag) of a unit's partial for the CTA of rank (rm, rn).
  TESSERA_HOST_DEVICE constexpr std::int64_t slot(std::int64_t unit, int rm, int rn) const {
    return unit * cluster.size() + rm + std::int64_t(rn) * cluster.m;
  }
};

// Where a Stream-K launch keeps its partials and flags, in one buffer: slots() tiles of
// tile_elems floats, then slots() 64-bit flags (the partials' size rounded up to 128 bytes,
// so each part starts aligned for vector and TMA access, and the flags for 64-bit atomics).
struct StreamKWorkspace {
  std::int64_t slots = 0, tile_elems = 0;

  TESSERA_HOST_DEVICE constexpr std::size_t partials_bytes() const {
    return (std::size_t(slots) * std::size_t(tile_elems) * sizeof(float) + 127) / 128 * 128;
  }
  TESSERA_HOST_DEVICE constexpr std::size_t flags_offset() const { return partials_bytes(); }
  TESSERA_HOST_DEVICE constexpr std::size_t bytes() const {
    return slots == 0 ? 0 : partials_bytes() + std::size_t(slots) * sizeof(std::uint64_t);
  }
  // Float index of element e of slot s.
  TESSERA_HOST_DEVICE constexpr std::size_t partial_index(std::int64_t s, std::int64_t e) const {
    return std::size_t(s) * std::size_t(tile_elems) + std::size_t(e);
  }
};

// The workspace a scheduler's plan needs for CTA tiles of tile_elems accumulators (0 when
// nothing is shared).
TESSERA_HOST_DEVICE constexpr StreamKWorkspace stream_k_workspace(const StreamKScheduler& s, std::int64_t tile_elems) {
  return {s.slots(), tile_elems};
}

}  // namespace tessera::kernels
