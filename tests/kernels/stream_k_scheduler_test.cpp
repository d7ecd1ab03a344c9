// The Stream-K scheduler (kernels/kernel/stream_k_scheduler.hpp) on the host, and the SM90
// kernel's walk of it (sm90_stream_k_tile_scheduler.hpp): for generated
// problems, grids and cluster shapes, every (tile, k-tile) is computed once and every tile
// stored once; the fix-up's order is a function of the problem (a whole grid emulated with a
// workspace and flags, its CTAs run in shuffled orders, gives the same bits); no CTA waits on
// a flag that a waiting CTA would raise (the emulation never stalls, whatever the order); the
// plan follows the stated heuristic; an emulated integer GEMM computes C exactly; and the SM90
// kernel's producer and consumers, walking the tile scheduler as the kernel does over its grid,
// load and multiply every (CTA tile, k-tile) of a problem once, in the same sequence.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "kernel/sm90_stream_k_tile_scheduler.hpp"
#include "kernel/stream_k_scheduler.hpp"

using namespace tessera::kernels;

namespace {

bool same_work(const StreamKWork& x, const StreamKWork& y) {
  return x.tile == y.tile && x.m == y.m && x.n == y.n && x.l == y.l && x.k_begin == y.k_begin && x.k_end == y.k_end &&
         x.role == y.role && x.unit == y.unit && x.first_peer == y.first_peer;
}

std::string describe(const StreamKScheduler& s) {
  std::ostringstream o;
  o << "cluster tiles " << s.raster.tiles_m << " x " << s.raster.tiles_n << " x " << s.raster.batch << ", k-tiles "
    << s.k_tiles << ", cluster " << s.cluster.m << "x" << s.cluster.n << ", clusters " << s.clusters << ": "
    << to_string(s.plan.kind) << ", dp tiles " << s.plan.dp_tiles << ", units " << s.plan.sk_units;
  return o.str();
}

// The schedule's static properties, from the work lists alone. Returns a string naming the
// first violated property (empty when all hold), so that Catch2 and rapidcheck both report it.
std::string schedule_violation(const StreamKScheduler& s) {
  if (!s.valid()) return "plan not valid";
  const std::int64_t tiles = s.tile_count(), K = s.k_tiles, U = s.plan.sk_units;
  std::vector<int> computed(std::size_t(tiles * K), 0), stored(std::size_t(tiles), 0);
  std::vector<int> consumed(std::size_t(U), 0);
  std::vector<std::int64_t> write_tile(std::size_t(U), -1), write_begin(std::size_t(U), -1), write_end(std::size_t(U), -1);
  std::vector<std::int64_t> write_step(std::size_t(U), -1);
  struct Wait {
    std::int64_t unit, tile, k_begin, first_peer, step;
  };
  std::vector<Wait> waits;
  for (std::int64_t c = 0; c < s.clusters; ++c) {
    if (c >= U && s.segments(c) != 0) return "a cluster without a unit has segments";
    int writes = 0, owners = 0;
    for (std::int64_t i = 0; i < s.steps(c); ++i) {
      const StreamKWork w = s.work(c, i);
      if (s.fits_32bit()) {  // the 32-bit maps the kernel takes are the 64-bit ones
        const StreamKWork x = s.work_in<std::uint32_t>(c, i), y = s.work_in<std::int64_t>(c, i);
        if (!same_work(x, y)) return "32-bit and 64-bit work differ";
      }
      if (w.tile < 0 || w.tile >= tiles) return "tile out of range";
      const auto t = s.raster.tile(w.tile);
      if (t.m != w.m || t.n != w.n || t.l != w.l) return "coordinates differ from the raster's";
      if (!(0 <= w.k_begin && w.k_begin < w.k_end && w.k_end <= K)) return "empty or out-of-range k-range";
      for (std::int64_t k = w.k_begin; k < w.k_end; ++k) ++computed[std::size_t(w.tile * K + k)];
      const bool sk = i >= s.dp_steps(c);
      if (!sk && (w.tile >= s.plan.dp_tiles || w.role != SegmentRole::Whole)) return "a data-parallel step is not a whole dp tile";
      if (sk && w.tile < s.plan.dp_tiles) return "a unit's segment in a data-parallel tile";
      if (sk && w.unit != c) return "a segment names another unit";
      switch (w.role) {
        case SegmentRole::Whole:
          if (w.k_begin != 0 || w.k_end != K) return "a whole step that is not the whole k-range";
          ++stored[std::size_t(w.tile)];
          break;
        case SegmentRole::Partial:
          if (w.k_end == K) return "a partial piece that ends the tile";
          if (i != s.dp_steps(c)) return "a unit's partial is not its first step";
          ++writes;
          write_tile[std::size_t(c)] = w.tile, write_begin[std::size_t(c)] = w.k_begin, write_end[std::size_t(c)] = w.k_end;
          write_step[std::size_t(c)] = i;
          break;
        case SegmentRole::Owner:
          if (w.k_end != K || w.k_begin == 0) return "an owner piece that does not end the tile or starts it";
          if (i != s.steps(c) - 1) return "a unit's owner piece is not its last step";
          if (!(0 <= w.first_peer && w.first_peer < c)) return "owner without peers before it";
          ++owners;
          ++stored[std::size_t(w.tile)];
          waits.push_back({c, w.tile, w.k_begin, w.first_peer, i});
          break;
      }
    }
    if (writes > 1 || owners > 1) return "a unit writes or waits more than once";
  }
  for (int n : computed)
    if (n != 1) return "a (tile, k-tile) computed " + std::to_string(n) + " times";
  for (int n : stored)
    if (n != 1) return "a tile stored " + std::to_string(n) + " times";
  // The owner's peers are exactly the units before it with a piece of the tile; their pieces
  // and the owner's tile the k-range in the order of the units (the fix-up's order).
  for (const Wait& w : waits) {
    std::int64_t k = 0;
    for (std::int64_t p = w.first_peer; p < w.unit; ++p) {
      if (write_tile[std::size_t(p)] != w.tile || write_begin[std::size_t(p)] != k) return "peers do not tile the k-range in order";
      k = write_end[std::size_t(p)];
      ++consumed[std::size_t(p)];
      // Deadlock-freedom: the flag is raised at the writer's first shared step, before any wait
      // of the writer (a unit waits only at its last step, and a single-step unit that writes
      // does not wait).
      const std::int64_t writer_wait = s.steps(p) - 1;
      const bool writer_waits = s.work(p, writer_wait).role == SegmentRole::Owner;
      if (writer_waits && write_step[std::size_t(p)] >= writer_wait) return "a writer waits before it writes";
    }
    if (k != w.k_begin) return "the owner's piece does not follow its peers'";
  }
  for (std::int64_t u = 0; u < U; ++u)
    if (consumed[std::size_t(u)] != (write_tile[std::size_t(u)] >= 0 ? 1 : 0)) return "a partial not consumed exactly once";
  return {};
}

// A whole grid run on the host: every CTA (cluster c, rank rm, rn) steps through its work; a
// Partial step stores its accumulators in its slot and raises the flag, an Owner step runs only
// when its peers' flags are up (then adds in the documented order, clears the flags, stores).
// The next CTA to step is drawn at random among those that can: any co-residency order.
// compute(cta m, n, l, k_begin, k_end) returns a CTA's accumulators for those k-tiles.
template <class T>
struct GridEmulation {
  const StreamKScheduler& s;
  std::int64_t cta_tiles_m, cta_tiles_n;  // the problem's CTA tiles (the cluster grid may pad them)
  std::int64_t elems;                     // accumulators per CTA tile

  std::vector<T> out;                 // per CTA tile (l, n, m) of the padded grid
  std::vector<int> stores;
  bool stalled = false;
  std::int64_t arrival_order_differs = 0;  // owners whose sum in arrival order would differ

  template <class Compute>
  void run(std::uint64_t seed, Compute&& compute) {
    const int cm = s.cluster.m, cn = s.cluster.n;
    const std::int64_t gm = s.raster.tiles_m * cm, gn = s.raster.tiles_n * cn;
    out.assign(std::size_t(gm * gn * s.raster.batch * elems), T{});
    stores.assign(std::size_t(gm * gn * s.raster.batch), 0);
    const StreamKWorkspace ws = stream_k_workspace(s, elems);
    std::vector<T> partials(std::size_t(ws.slots * elems));
    std::vector<std::uint32_t> flags(std::size_t(ws.slots), 0);
    std::vector<std::int64_t> arrival(std::size_t(ws.slots), -1);
    struct Cta {
      std::int64_t c;
      int rm, rn;
      std::int64_t pc = 0;
    };
    std::vector<Cta> live;
    for (std::int64_t c = 0; c < s.clusters; ++c)
      for (int rn = 0; rn < cn; ++rn)
        for (int rm = 0; rm < cm; ++rm)
          if (s.steps(c) > 0) live.push_back({c, rm, rn});
    std::mt19937_64 rng(seed);
    std::int64_t clock = 0;
    std::vector<std::size_t> ready;
    while (!live.empty()) {
      ready.clear();
      for (std::size_t i = 0; i < live.size(); ++i) {
        const Cta& a = live[i];
        const StreamKWork w = s.work(a.c, a.pc);
        bool can = true;
        const auto t = s.cta_tile(w, a.rm, a.rn);
        if (w.role == SegmentRole::Owner && t.m < cta_tiles_m && t.n < cta_tiles_n)
          for (std::int64_t p = w.first_peer; p < w.unit; ++p) can = can && flags[std::size_t(s.slot(p, a.rm, a.rn))] == 1;
        if (can) ready.push_back(i);
      }
      if (ready.empty()) {
        stalled = true;
        return;
      }
      const std::size_t pick = ready[std::size_t(rng() % ready.size())];
      Cta& a = live[pick];
      const StreamKWork w = s.work(a.c, a.pc);
      const auto t = s.cta_tile(w, a.rm, a.rn);
      // A CTA whose tile lies past the problem (a cluster that overhangs it) does nothing:
      // its writer and its owner are the same rank of clusters over the same tile.
      if (t.m < cta_tiles_m && t.n < cta_tiles_n) {
        std::vector<T> acc = compute(t.m, t.n, t.l, w.k_begin, w.k_end);
        const std::int64_t slot = w.role == SegmentRole::Whole ? -1 : s.slot(w.unit, a.rm, a.rn);
        if (w.role == SegmentRole::Partial) {
          for (std::int64_t e = 0; e < elems; ++e) partials[ws.partial_index(slot, e)] = acc[std::size_t(e)];
          flags[std::size_t(slot)] = 1;
          arrival[std::size_t(slot)] = clock;
        } else {
          if (w.role == SegmentRole::Owner) {
            // The documented order: own, then the peers from the nearest down to the first.
            std::vector<T> by_arrival = acc;
            std::vector<std::int64_t> peers;
            for (std::int64_t p = w.unit - 1; p >= w.first_peer; --p) {
              const std::int64_t ps = s.slot(p, a.rm, a.rn);
              for (std::int64_t e = 0; e < elems; ++e) acc[std::size_t(e)] = partials[ws.partial_index(ps, e)] + acc[std::size_t(e)];
              flags[std::size_t(ps)] = 0;
              peers.push_back(ps);
            }
            // What a reduction in arrival order would give (to show the values expose the order).
            std::sort(peers.begin(), peers.end(), [&](auto x, auto y) { return arrival[std::size_t(x)] < arrival[std::size_t(y)]; });
            for (std::int64_t ps : peers)
              for (std::int64_t e = 0; e < elems; ++e)
                by_arrival[std::size_t(e)] = partials[ws.partial_index(ps, e)] + by_arrival[std::size_t(e)];
            if (std::memcmp(by_arrival.data(), acc.data(), acc.size() * sizeof(T)) != 0) ++arrival_order_differs;
          }
          const std::int64_t cta = (t.l * gn + t.n) * gm + t.m;
          ++stores[std::size_t(cta)];
          for (std::int64_t e = 0; e < elems; ++e) out[std::size_t(cta * elems + e)] = acc[std::size_t(e)];
        }
      }
      ++clock;
      if (++a.pc == s.steps(a.c)) live.erase(live.begin() + std::ptrdiff_t(pick));
    }
    for (std::uint32_t f : flags)
      if (f != 0) stalled = true;  // every raised flag was consumed and cleared
  }

  // Every CTA tile of the problem stored once, none past it.
  bool stored_once() const {
    const std::int64_t gm = s.raster.tiles_m * s.cluster.m, gn = s.raster.tiles_n * s.cluster.n;
    for (std::int64_t l = 0; l < s.raster.batch; ++l)
      for (std::int64_t n = 0; n < gn; ++n)
        for (std::int64_t m = 0; m < gm; ++m)
          if (stores[std::size_t((l * gn + n) * gm + m)] != (m < cta_tiles_m && n < cta_tiles_n ? 1 : 0)) return false;
    return true;
  }
};

// Floats whose sums depend on the order of addition: magnitudes 2^-12 .. 2^12 with 11 random
// mantissa bits and random signs, a function of (CTA tile, k-tile, element).
float exposing_value(std::int64_t m, std::int64_t n, std::int64_t l, std::int64_t k, std::int64_t e) {
  std::uint64_t h = std::uint64_t(m) * 0x9E3779B97F4A7C15ull ^ std::uint64_t(n) * 0xC2B2AE3D27D4EB4Full ^
                    std::uint64_t(l) * 0x165667B19E3779F9ull ^ std::uint64_t(k) * 0xD6E8FEB86659FD93ull ^ std::uint64_t(e);
  h ^= h >> 31, h *= 0xBF58476D1CE4E5B9ull, h ^= h >> 29;
  const int exponent = int(h % 25) - 12;
  const float mantissa = 1.0f + float((h >> 8) & 0x7FF) / 2048.0f;
  return std::ldexp((h >> 40) & 1 ? -mantissa : mantissa, exponent);
}

struct FloatRun {
  std::vector<float> out;
  bool stalled, stored_once;
  std::int64_t arrival_order_differs;
};
FloatRun emulate_float(const StreamKScheduler& s, std::int64_t tm, std::int64_t tn, std::uint64_t seed) {
  constexpr std::int64_t elems = 3;
  GridEmulation<float> g{s, tm, tn, elems};
  g.run(seed, [](std::int64_t m, std::int64_t n, std::int64_t l, std::int64_t kb, std::int64_t ke) {
    std::vector<float> acc(elems, 0.0f);  // the mainloop: k-tiles in order from zero
    for (std::int64_t k = kb; k < ke; ++k)
      for (std::int64_t e = 0; e < elems; ++e) acc[std::size_t(e)] += exposing_value(m, n, l, k, e);
    return acc;
  });
  return {g.out, g.stalled, g.stored_once(), g.arrival_order_differs};
}

const std::array<ClusterShape, 3> kClusters = {{{1, 1}, {2, 1}, {1, 2}}};
ClusterShape any_cluster() { return kClusters[std::size_t(*rc::gen::inRange(0, 3))]; }

}  // namespace

TEST_CASE("stream-K schedule: each (tile, k-tile) once, each tile stored once, writes before waits", "[kernels]") {
  rc::prop("the heuristic's plans over generated problems, grids and clusters", [] {
    const std::int64_t tm = *rc::gen::inRange<std::int64_t>(1, 25), tn = *rc::gen::inRange<std::int64_t>(1, 25);
    const std::int64_t batch = *rc::gen::inRange<std::int64_t>(1, 3), k_tiles = *rc::gen::inRange<std::int64_t>(1, 49);
    const int sms = *rc::gen::inRange(1, 265);
    const ClusterShape cluster = any_cluster();
    const std::int64_t min_unit = *rc::gen::element<std::int64_t>(1, 2, 4, 8);
    const std::int64_t clusters = persistent_clusters(sms, cluster);
    RC_PRE(clusters >= 1);
    const auto s = StreamKScheduler::of(tm, tn, batch, k_tiles, cluster, clusters, min_unit);
    RC_ASSERT(s.clusters * cluster.size() <= sms);  // the whole grid is resident
    const std::string v = schedule_violation(s);
    RC_LOG() << describe(s);
    RC_ASSERT(v == "");
  });
  rc::prop("any valid plan (dp tiles and units chosen freely)", [] {
    const std::int64_t tm = *rc::gen::inRange<std::int64_t>(1, 20), tn = *rc::gen::inRange<std::int64_t>(1, 20);
    const std::int64_t k_tiles = *rc::gen::inRange<std::int64_t>(1, 40);
    const ClusterShape cluster = any_cluster();
    const std::int64_t clusters = *rc::gen::inRange<std::int64_t>(1, 133);
    auto s = StreamKScheduler::with_plan(tm, tn, 1, k_tiles, cluster, clusters, {});
    const std::int64_t dp = *rc::gen::inRange<std::int64_t>(0, s.tile_count() + 1);
    s.plan.dp_tiles = dp;
    const std::int64_t most = std::min(clusters, s.sk_iterations());
    s.plan.sk_units = most == 0 ? 0 : *rc::gen::inRange<std::int64_t>(1, most + 1);
    s.plan.kind = Decomposition::StreamK;
    RC_LOG() << describe(s);
    RC_ASSERT(schedule_violation(s) == "");
  });
  // Every SM count of a Hopper-sized part, on problems with quantized last waves.
  int stream_k = 0, split_k = 0;
  for (const ClusterShape cluster : kClusters)
    for (int sms = 1; sms <= 264; ++sms) {
      const std::int64_t clusters = persistent_clusters(sms, cluster);
      if (clusters == 0) continue;
      for (const auto [tm, tn, k] : {std::array<std::int64_t, 3>{24, 12, 48}, {8, 4, 16}, {4, 16, 56}, {9, 7, 13}}) {
        const auto s = StreamKScheduler::of(tm, tn, 1, k, cluster, clusters);
        INFO(describe(s));
        REQUIRE(schedule_violation(s) == "");
        stream_k += s.plan.kind == Decomposition::StreamK;
        split_k += s.plan.kind == Decomposition::SplitK;
      }
    }
  CHECK(stream_k > 300);  // the sweep exercises all three decompositions
  CHECK(split_k > 10);
}

// Large schedules (too large to walk): where every count fits 32 bits, the 32-bit maps give the
// 64-bit ones; the checks refuse what would overflow.
TEST_CASE("stream-K: 32-bit maps agree with the 64-bit ones; overflow is refused", "[kernels]") {
  rc::prop("sampled steps of large schedules", [] {
    // up to 2^24 tiles, the shared line as long as 32 bits allow (up to its limit)
    const std::int64_t tm = *rc::gen::inRange<std::int64_t>(1, 1 << 12), tn = *rc::gen::inRange<std::int64_t>(1, 1 << 12);
    const std::int64_t clusters = *rc::gen::inRange<std::int64_t>(1, 265);
    auto s = StreamKScheduler::with_plan(tm, tn, 1, 1, any_cluster(), clusters, {});
    const std::int64_t shared = *rc::gen::inRange<std::int64_t>(0, std::min<std::int64_t>(s.tile_count(), 300) + 1);
    const std::int64_t units = shared == 0 ? 0 : *rc::gen::inRange<std::int64_t>(1, clusters + 1);
    const std::int64_t most_k = shared == 0 ? 1 << 20 : INT32_MAX / (units + 1) / shared;
    RC_PRE(most_k >= 1);
    s.k_tiles = *rc::gen::element(most_k, *rc::gen::inRange<std::int64_t>(1, most_k + 1));
    s.plan = {Decomposition::StreamK, s.tile_count() - shared, std::min(units, s.k_tiles * shared)};
    RC_ASSERT(s.valid());
    RC_ASSERT(s.fits_32bit());
    const std::int64_t c = *rc::gen::inRange<std::int64_t>(0, clusters);
    for (std::int64_t i : {std::int64_t(0), s.dp_steps(c), s.steps(c) - 1}) {
      if (i < 0 || i >= s.steps(c)) continue;
      const StreamKWork x = s.work_in<std::uint32_t>(c, i), y = s.work_in<std::int64_t>(c, i);
      RC_ASSERT(same_work(x, y));
    }
    if (s.plan.sk_units > 0) {
      const std::int64_t x = *rc::gen::inRange<std::int64_t>(0, s.sk_iterations());
      RC_ASSERT(std::int64_t(s.unit_of_in<std::uint32_t>(std::uint32_t(x))) == s.unit_of_in<std::int64_t>(x));
      const std::int64_t u = s.unit_of(x);  // the unit holding x: x in [begin(u), begin(u + 1))
      RC_ASSERT((s.unit_begin(u) <= x && x < s.unit_begin(u + 1)));
    }
  });
  // The shared line times (U + 1) decides the width: 2^31 - 1 fits, one more does not.
  auto s = StreamKScheduler::with_plan(1, 1, 1, (std::int64_t(1) << 31) - 1, {1, 1}, 1, {Decomposition::StreamK, 0, 0});
  CHECK(!s.valid());  // a shared tile needs a unit
  s.plan.sk_units = 1;
  CHECK(s.valid());
  CHECK(!s.fits_32bit());  // 2 (2^31 - 1) > 2^31 - 1
  s.k_tiles = (std::int64_t(1) << 30) - 1;
  CHECK(s.fits_32bit());
  // Products past 64 bits are refused.
  CHECK(!StreamKScheduler::with_plan(std::int64_t(1) << 40, std::int64_t(1) << 40, 1, 8, {1, 1}, 132, {Decomposition::DataParallel, 0, 0}).valid());
  auto huge = StreamKScheduler::with_plan(std::int64_t(1) << 30, 1, 1, std::int64_t(1) << 40, {1, 1}, 132, {Decomposition::StreamK, 0, 132});
  CHECK(!huge.valid());  // the shared line, 2^70 iterations
  huge.plan.dp_tiles = huge.tile_count() - 1;  // one shared tile: 2^40 iterations x 133 fits
  CHECK(huge.valid());
  CHECK(!huge.fits_32bit());
}

TEST_CASE("stream-K fix-up: the same bits in every execution order, no stall", "[kernels]") {
  std::int64_t owners_exposed = 0, shared_plans = 0, cases = 0;
  rc::prop("a grid emulated in shuffled orders", [&] {
    const std::int64_t tm = *rc::gen::inRange<std::int64_t>(1, 13), tn = *rc::gen::inRange<std::int64_t>(1, 13);
    const std::int64_t batch = *rc::gen::inRange<std::int64_t>(1, 3), k_tiles = *rc::gen::inRange<std::int64_t>(1, 41);
    const ClusterShape cluster = any_cluster();
    const std::int64_t clusters = *rc::gen::inRange<std::int64_t>(1, 40);
    const std::int64_t min_unit = *rc::gen::element<std::int64_t>(1, 2, 8);
    const auto s = StreamKScheduler::of(tm, tn, batch, k_tiles, cluster, clusters, min_unit);
    RC_LOG() << describe(s);
    const std::uint64_t seed = *rc::gen::arbitrary<std::uint64_t>();
    const FloatRun a = emulate_float(s, tm, tn, seed), b = emulate_float(s, tm, tn, seed * 31 + 7);
    RC_ASSERT(!a.stalled);
    RC_ASSERT(!b.stalled);
    RC_ASSERT(a.stored_once);
    RC_ASSERT(b.stored_once);
    RC_ASSERT(std::memcmp(a.out.data(), b.out.data(), a.out.size() * sizeof(float)) == 0);
    owners_exposed += a.arrival_order_differs + b.arrival_order_differs;
    shared_plans += s.plan.sk_units > 0;
    ++cases;
  });
  // Most cases share k-iterations, and the values do expose the order: summing in arrival
  // order would have changed some bits.
  INFO(cases << " cases, " << shared_plans << " shared, " << owners_exposed << " owners exposed");
  CHECK(shared_plans * 8 > cases);
  CHECK(owners_exposed * 2 > shared_plans);
}

TEST_CASE("stream-K: an emulated integer GEMM computes C exactly", "[kernels]") {
  rc::prop("C = A B through the schedule, its workspace and its flags", [] {
    const std::int64_t bm = *rc::gen::element<std::int64_t>(1, 2, 4), bn = *rc::gen::element<std::int64_t>(1, 3, 4);
    const std::int64_t bk = *rc::gen::element<std::int64_t>(1, 2, 3);
    const std::int64_t M = *rc::gen::inRange<std::int64_t>(1, 30), N = *rc::gen::inRange<std::int64_t>(1, 30);
    const std::int64_t K = *rc::gen::inRange<std::int64_t>(1, 60), L = *rc::gen::inRange<std::int64_t>(1, 3);
    const ClusterShape cluster = any_cluster();
    const std::int64_t clusters = *rc::gen::inRange<std::int64_t>(1, 30);
    const std::int64_t min_unit = *rc::gen::element<std::int64_t>(1, 3, 8);
    const std::int64_t tm = (M + bm - 1) / bm, tn = (N + bn - 1) / bn, k_tiles = (K + bk - 1) / bk;
    const auto s = StreamKScheduler::of(tm, tn, L, k_tiles, cluster, clusters, min_unit);
    RC_LOG() << describe(s);
    std::mt19937 rng(*rc::gen::arbitrary<std::uint32_t>());
    std::vector<std::int64_t> A(std::size_t(L * M * K)), B(std::size_t(L * K * N));
    for (auto& x : A) x = std::int64_t(rng() % 17) - 8;
    for (auto& x : B) x = std::int64_t(rng() % 17) - 8;
    GridEmulation<std::int64_t> g{s, tm, tn, bm * bn};
    g.run(rng(), [&](std::int64_t m, std::int64_t n, std::int64_t l, std::int64_t kb, std::int64_t ke) {
      std::vector<std::int64_t> acc(std::size_t(bm * bn), 0);
      for (std::int64_t i = 0; i < bm; ++i)
        for (std::int64_t j = 0; j < bn; ++j) {
          const std::int64_t r = m * bm + i, c = n * bn + j;
          if (r >= M || c >= N) continue;
          for (std::int64_t k = kb * bk; k < std::min(ke * bk, K); ++k)
            acc[std::size_t(j * bm + i)] += A[std::size_t((l * M + r) * K + k)] * B[std::size_t((l * K + k) * N + c)];
        }
      return acc;
    });
    RC_ASSERT(!g.stalled);
    RC_ASSERT(g.stored_once());
    const std::int64_t gm = s.raster.tiles_m * cluster.m, gn = s.raster.tiles_n * cluster.n;
    for (std::int64_t l = 0; l < L; ++l)
      for (std::int64_t r = 0; r < M; ++r)
        for (std::int64_t c = 0; c < N; ++c) {
          std::int64_t want = 0;
          for (std::int64_t k = 0; k < K; ++k) want += A[std::size_t((l * M + r) * K + k)] * B[std::size_t((l * K + k) * N + c)];
          const std::int64_t cta = (l * gn + c / bn) * gm + r / bm;
          RC_ASSERT(g.out[std::size_t(cta * bm * bn + (c % bn) * bm + r % bm)] == want);
        }
  });
}

TEST_CASE("stream-K plan: the hybrid heuristic as stated", "[kernels]") {
  int shared = 0, shared_single_wave = 0;
  for (const bool memory_bound : {false, true})
  for (std::int64_t clusters : {1, 7, 33, 66, 114, 132, 264})
    for (std::int64_t tiles = 1; tiles <= 600; ++tiles)
      for (std::int64_t k_tiles : {1, 4, 8, 9, 16, 48, 128, 224}) {
        const StreamKPlan p = plan_stream_k(tiles, k_tiles, clusters, kStreamKMinUnitKTiles, memory_bound);
        INFO("tiles " << tiles << ", k-tiles " << k_tiles << ", clusters " << clusters << ", memory-bound " << memory_bound << ": "
                      << to_string(p.kind) << ", dp " << p.dp_tiles << ", units " << p.sk_units);
        const std::int64_t full = tiles / clusters, tail = tiles % clusters;
        // (rule 3 spares a memory-bound problem's single partial wave)
        const bool data_parallel =
            tail == 0 || k_tiles <= kStreamKMinUnitKTiles || ((full >= 1 || !memory_bound) && 2 * tail >= clusters);
        if (data_parallel) {
          REQUIRE(p.kind == Decomposition::DataParallel);
          REQUIRE((p.dp_tiles == tiles && p.sk_units == 0));
          continue;
        }
        // Whole waves data-parallel but the last full one; it and the tail shared.
        const std::int64_t dp_tiles = std::max<std::int64_t>(full - 1, 0) * clusters, sk_tiles = tiles - dp_tiles;
        const std::int64_t units = std::min(clusters, sk_tiles * k_tiles / kStreamKMinUnitKTiles);
        const std::int64_t longest_unit = (sk_tiles * k_tiles + units - 1) / units;
        if (longest_unit >= (sk_tiles + clusters - 1) / clusters * k_tiles) {  // sharing would not shorten it
          REQUIRE((p.kind == Decomposition::DataParallel && p.dp_tiles == tiles && p.sk_units == 0));
          continue;
        }
        REQUIRE(p.dp_tiles == dp_tiles);
        REQUIRE(sk_tiles < 2 * clusters);
        REQUIRE(sk_tiles >= tail);
        ++shared;
        if (full == 0 && 2 * tail >= clusters) ++shared_single_wave;
        REQUIRE(p.sk_units == units);
        REQUIRE(sk_tiles * k_tiles / p.sk_units >= kStreamKMinUnitKTiles);  // every unit deep enough
        REQUIRE(p.kind == (units > sk_tiles && units % sk_tiles == 0 ? Decomposition::SplitK : Decomposition::StreamK));
        // Sharing shortens the critical path: the longest unit ends before a whole extra wave.
        const std::int64_t dp_path = (tiles + clusters - 1) / clusters * k_tiles;
        REQUIRE(p.dp_tiles / clusters * k_tiles + longest_unit < dp_path);
        // Split-K plans cut every tile into equal slices: no unit crosses a tile boundary.
        if (p.kind == Decomposition::SplitK) {
          const auto s = StreamKScheduler::with_plan(tiles, 1, 1, k_tiles, {1, 1}, clusters, p);
          for (std::int64_t u = 0; u < p.sk_units; ++u) REQUIRE(s.segments(u) == 1);
        }
      }
  REQUIRE(shared > 1000);
  REQUIRE(shared_single_wave > 100);  // the memory-bound exception is exercised
  // Decode-like: 40 cluster tiles on 66 clusters, 128 k-tiles: whole tiles unless memory-bound.
  CHECK(plan_stream_k(40, 128, 66).kind == Decomposition::DataParallel);
  CHECK(plan_stream_k(40, 128, 66, kStreamKMinUnitKTiles, true).kind == Decomposition::StreamK);
  CHECK(memory_bound_problem(10240, 64));
  CHECK(memory_bound_problem(256, 8192));
  CHECK_FALSE(memory_bound_problem(6144, 512));
  // Worked examples (docs/scheduling.md), on 132 SMs in 2x1 clusters (66 clusters), 128x256 tiles:
  // 3072^3: 144 cluster tiles, 48 k-tiles: one data-parallel wave, 78 tiles shared by 66 units.
  const StreamKPlan cube = plan_stream_k(144, 48, 66);
  CHECK((cube.kind == Decomposition::StreamK && cube.dp_tiles == 66 && cube.sk_units == 66));
  // 1000^3: 16 cluster tiles, 16 k-tiles: 32 units, two slices per tile.
  const StreamKPlan small = plan_stream_k(16, 16, 66);
  CHECK((small.kind == Decomposition::SplitK && small.dp_tiles == 0 && small.sk_units == 32));
  // 4096^3: 256 cluster tiles, a 58-tile last wave (more than half full): data-parallel.
  CHECK(plan_stream_k(256, 64, 66).kind == Decomposition::DataParallel);
  // Counts whose products could overflow are planned data-parallel; nonsense is too.
  CHECK(plan_stream_k(3, std::int64_t(1) << 40, 7).kind == Decomposition::DataParallel);
  CHECK(plan_stream_k(3, 100, std::int64_t(1) << 40).kind == Decomposition::DataParallel);
  CHECK(plan_stream_k(3, (std::int64_t(1) << 31) - 1, 7).kind == Decomposition::StreamK);  // the largest shared
  CHECK(plan_stream_k(-1, 100, 7).kind == Decomposition::DataParallel);
  CHECK(plan_stream_k(3, 100, 0).kind == Decomposition::DataParallel);
}

TEST_CASE("stream-K workspace: partial slots then flags, sized by the plan", "[kernels]") {
  const auto s = StreamKScheduler::of(24, 12, 1, 48, {2, 1}, 66);  // 3072^3 in 128x256 tiles, 2x1 clusters
  REQUIRE(s.plan.sk_units == 66);
  const StreamKWorkspace ws = stream_k_workspace(s, 128 * 256);
  CHECK(ws.slots == 132);  // a slot per CTA of every unit
  CHECK(ws.partials_bytes() == std::size_t(132) * 128 * 256 * 4);
  CHECK(ws.flags_offset() % 128 == 0);
  CHECK(ws.bytes() == ws.partials_bytes() + 132 * 8);
  CHECK(ws.partial_index(1, 0) == std::size_t(128 * 256));
  // Slots of one unit's CTAs are adjacent; ranks along M first.
  const auto wide = StreamKScheduler::with_plan(4, 4, 1, 48, {1, 2}, 8, {Decomposition::StreamK, 0, 8});
  CHECK(wide.slot(3, 0, 1) == 7);
  CHECK(stream_k_workspace(StreamKScheduler::of(32, 16, 1, 64, {2, 1}, 66), 128 * 256).bytes() == 0);  // data-parallel
  const StreamKWorkspace odd{3, 5};  // 60 bytes of partials: the 64-bit flags start at 128
  CHECK((odd.flags_offset() == 128 && odd.bytes() == 128 + 24));
}

namespace {
// The SM90 kernel's walk (sm90_gemm_tma_warpspecialized.cuh over StreamKTileScheduler) of an
// M x N x K problem (batch L) in BM x BN x 64 CTA tiles, clusters of CM along M, on a GPU of
// `sms` SMs: the scheduler as the kernel's to_underlying_arguments sets it, the grid as
// grid_size launches it, and for every CTA (cluster c, rank r) the producer's loads and the
// consumers' steps as each role computes them. Returns the first violated property.
template <int BM, int BN, int CM>
std::string kernel_walk_violation(std::int64_t M, std::int64_t N, std::int64_t K, std::int64_t L, int sms, bool stream_k) {
  using sm90::StreamKTileScheduler;
  constexpr int BK = 64;
  const std::int64_t resident = sms / CM;
  if (resident < 1) return {};
  const StreamKTileScheduler sc =
      StreamKTileScheduler::to_underlying_arguments<BM, BN, BK, CM>(M, N, K, L, {}).with_plan(resident, stream_k);
  if (!sc.schedule.valid()) return "plan not valid";
  // GemmKernelSm90Base::grid_size: as many clusters as are resident, or fewer when there is less work.
  const std::int64_t grid = std::min(sc.work_count(), resident);
  if (sc.shares() && grid != sc.schedule.clusters) return "a shared plan without every unit's cluster in the grid";
  const std::int64_t tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN, k_tiles = (K + BK - 1) / BK;
  if (sc.schedule.k_tiles != k_tiles) return "k-tiles differ from the problem's";
  std::vector<int> computed(std::size_t(tiles_m * tiles_n * L * k_tiles), 0);
  const StreamKWorkspace ws = sc.workspace(std::int64_t(BM) * BN);
  for (std::int64_t c = 0; c < sc.schedule.clusters; ++c) {
    if (c >= grid && sc.steps(c) != 0) return "work for a cluster the grid does not launch";
    for (int rank = 0; rank < CM; ++rank) {
      struct Load {
        std::int64_t m, n, l;
        int k_begin, k_end;
        bool operator==(const Load&) const = default;
      };
      // The producer thread (CollectiveMainloopSm90TmaWgmma::produce_walk).
      std::vector<Load> produced;
      for (std::int64_t i = 0; i < sc.steps(c); ++i) {
        const StreamKWork w = sc.work(c, i);
        produced.push_back({w.m * CM + rank, w.n, w.l, int(w.k_begin), int(w.k_end)});
      }
      // The consumers (consume_stream_k): the step before the mainloop, and again after it.
      std::vector<Load> consumed;
      for (std::int64_t i = 0; i < sc.steps(c); ++i) {
        const StreamKWork before = sc.work(c, i);
        const int k_count = int(before.k_end - before.k_begin);
        const StreamKWork w = sc.work(c, i);
        if (w.m != before.m || w.n != before.n || w.l != before.l || w.role != before.role) return "a step changes across the mainloop";
        if (k_count < 1) return "a step without k-tiles (the mainloop would leave its accumulators unset)";
        consumed.push_back({w.m * CM + rank, w.n, w.l, int(w.k_end) - k_count, int(w.k_end)});
        if (w.role != SegmentRole::Whole) {
          const std::int64_t slot = sc.slot(w.unit, rank);
          if (slot < 0 || slot >= ws.slots) return "a slot outside the workspace";
          if (ws.flags_offset() + std::size_t(ws.slots) * 8 > ws.bytes()) return "flags past the workspace";
          if (ws.partial_index(slot, std::int64_t(BM) * BN - 1) * 4 >= ws.partials_bytes()) return "a partial past its part";
          if (w.role == SegmentRole::Owner)
            for (std::int64_t p = w.first_peer; p < w.unit; ++p)
              if (sc.slot(p, rank) >= ws.slots) return "a peer's slot outside the workspace";
        }
      }
      if (produced != consumed) return "the producer's and the consumers' sequences differ";
      for (const Load& x : produced) {
        if (x.m >= tiles_m) continue;  // a cluster overhanging M: TMA fills zeros, stores are clipped
        if (x.n >= tiles_n || x.l >= L || x.k_begin < 0 || x.k_end > k_tiles) return "a load outside the problem";
        for (int k = x.k_begin; k < x.k_end; ++k) ++computed[std::size_t(((x.l * tiles_n + x.n) * tiles_m + x.m) * k_tiles + k)];
      }
    }
  }
  for (int n : computed)
    if (n != 1) return "a (CTA tile, k-tile) computed " + std::to_string(n) + " times";
  return {};
}
}  // namespace

TEST_CASE("sm90 Stream-K kernel walk: producer and consumers in step, each (CTA tile, k-tile) once", "[kernels]") {
  rc::prop("generated problems (residues, batches), SM counts, both shipped tiles, clusters 1 and 2", [] {
    const std::int64_t M = *rc::gen::inRange<std::int64_t>(1, 3000), N = *rc::gen::inRange<std::int64_t>(1, 5000);
    const std::int64_t K = *rc::gen::inRange<std::int64_t>(1, 6000), L = *rc::gen::inRange<std::int64_t>(1, 4);
    const int sms = *rc::gen::inRange(1, 141);
    const bool stream_k = *rc::gen::arbitrary<bool>();
    const int which = *rc::gen::inRange(0, 5);
    RC_LOG() << M << " x " << N << " x " << K << " x " << L << " on " << sms << " SMs, config " << which;
    std::string v;
    if (which == 0) v = kernel_walk_violation<128, 256, 2>(M, N, K, L, sms, stream_k);
    if (which == 1) v = kernel_walk_violation<128, 128, 2>(M, N, K, L, sms, stream_k);
    if (which == 2) v = kernel_walk_violation<128, 256, 1>(M, N, K, L, sms, stream_k);
    if (which == 3) v = kernel_walk_violation<128, 128, 1>(M, N, K, L, sms, stream_k);
    if (which == 4) v = kernel_walk_violation<128, 64, 1>(M, N, K, L, sms, stream_k);  // the decode kernel's
    RC_ASSERT(v == "");
  });
  // The shapes on every SM count up to a full H100/H200 and past it, and residues with
  // batches; and the grid emulated in shuffled orders (writes before waits, no stall, the same
  // bits) for the shared plans of a few.
  int shared = 0;
  for (int sms = 1; sms <= 140; ++sms)
    for (const auto [m, n, k, l] : {std::array<std::int64_t, 4>{512, 4096, 14336, 1}, {3072, 3072, 3072, 1}, {128, 8192, 8192, 1},
                                   {1000, 1000, 1000, 1}, {4096, 4096, 4096, 1}, {1000, 1003, 1001, 3}}) {
      INFO(m << " x " << n << " x " << k << " x " << l << " on " << sms << " SMs");
      REQUIRE(kernel_walk_violation<128, 256, 2>(m, n, k, l, sms, true) == "");
      REQUIRE(kernel_walk_violation<128, 128, 2>(m, n, k, l, sms, true) == "");
      const auto sc =
          sm90::StreamKTileScheduler::to_underlying_arguments<128, 256, 64, 2>(m, n, k, l, {}).with_plan(sms / 2, true);
      shared += sc.shares();
      if (sc.shares() && sms % 16 == 4) {
        const std::int64_t tm = (m + 127) / 128, tn = (n + 255) / 256;
        const FloatRun a = emulate_float(sc.schedule, tm, tn, std::uint64_t(sms)), b = emulate_float(sc.schedule, tm, tn, 99);
        REQUIRE(!a.stalled);
        REQUIRE(a.stored_once);
        REQUIRE(std::memcmp(a.out.data(), b.out.data(), a.out.size() * sizeof(float)) == 0);
      }
    }
  CHECK(shared > 100);  // the sweep exercises shared plans
  // The decode kernel's tile (128 x 64, no cluster) at decode shapes (D^T: N the tokens): every
  // SM count shares the few weight tiles' k-loops, walked and emulated the same way.
  int decode_shared = 0;
  for (int sms = 1; sms <= 140; ++sms)
    for (const auto [m, n, k, l] : {std::array<std::int64_t, 4>{6144, 64, 4096, 1}, {4096, 128, 14336, 1}, {10240, 64, 8192, 1},
                                   {1000, 37, 1000, 3}}) {
      INFO("decode " << m << " x " << n << " x " << k << " x " << l << " on " << sms << " SMs");
      REQUIRE(kernel_walk_violation<128, 64, 1>(m, n, k, l, sms, true) == "");
      const auto sc = sm90::StreamKTileScheduler::to_underlying_arguments<128, 64, 64, 1>(m, n, k, l, {}).with_plan(sms, true);
      decode_shared += sc.shares();
      if (sc.shares() && sms % 16 == 4) {
        const std::int64_t tm = (m + 127) / 128, tn = (n + 63) / 64;
        const FloatRun a = emulate_float(sc.schedule, tm, tn, std::uint64_t(sms)), b = emulate_float(sc.schedule, tm, tn, 99);
        REQUIRE(!a.stalled);
        REQUIRE(a.stored_once);
        REQUIRE(std::memcmp(a.out.data(), b.out.data(), a.out.size() * sizeof(float)) == 0);
      }
    }
  CHECK(decode_shared > 200);
}
