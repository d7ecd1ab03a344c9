// The Stream-K scheduler (kernels/kernel/stream_k_scheduler.hpp) on the host, and the SM90
// kernel's walk of it (sm90_stream_k_tile_scheduler.hpp): for generated
// problems, grids and cluster shapes, every (tile, k-tile) is computed once and every tile
// stored once; the fix-up's order is a function of the problem (a whole grid emulated with a
// workspace and flags, its CTAs run in shuffled orders, gives the same bits); no CTA waits on
// a flag that a waiting CTA would raise (the emulation never stalls, whatever the order); the
// plan follows the stated heuristic; an emulated integer GEMM computes C exactly; the flags,
// which hold the launch's tag and are never cleared before a launch, work on workspaces of
// random bytes, after another problem's launch and in replays of a tag, while planted bugs
// (owners that do not clear, flags of 1 without a memset) let an owner through early; launch
// tags are distinct and never 0; and the SM90
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
#include <thread>
#include <tuple>
#include <vector>

#include <tessera/int_tuple.hpp>

#include "device/launch_tag.hpp"
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
    << to_string(s.plan.kind) << ", dp tiles " << s.plan.dp_tiles << ", units " << s.plan.sk_units << ", margin "
    << s.plan.margin;
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
    // The cut: an equal share of the line without the margins (floor or ceil of V / U), plus
    // the margin for each tile end the unit holds; so a unit that ends inside a tile is shorter
    // than one holding a tile end by at least margin - 1, and no cut falls in a tile's margin.
    if (c < U) {
      std::int64_t length = 0, ends = 0;
      for (std::int64_t i = s.dp_steps(c); i < s.steps(c); ++i) {
        const StreamKWork w = s.work(c, i);
        length += w.k_end - w.k_begin;
        ends += w.k_end == K;
        if (w.k_begin > 0 && w.k_begin > K - 1 - s.plan.margin) return "a cut inside a tile's margin";
      }
      const std::int64_t V = s.sk_tiles() * (K - s.plan.margin), share = length - s.plan.margin * ends;
      if (share != V / U && share != (V + U - 1) / U) return "a unit's share of the cut is not V / U";
    }
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

// What an emulated fix-up gets wrong on purpose: the tests plant each and check it is caught.
enum class PlantedBug {
  None,
  OwnerKeepsFlags,  // the owner does not clear its peers' flags (a replay's tag then finds them set)
  FlagOfOne,        // the protocol before tags: a writer writes 1, any nonzero flag counts, no memset
};

// A workspace as the device sees it, bytes: partial slots of T from 0, then the 64-bit flags from
// flags_offset (the partials' bytes rounded up to 128: StreamKWorkspace's layout, whose
// flags_offset is this one for T = float). Whatever it holds stays for the next launch.
struct EmulatedWorkspace {
  std::vector<unsigned char> bytes;

  template <class T>
  static std::size_t flags_offset(const StreamKWorkspace& ws) {
    return (std::size_t(ws.slots) * std::size_t(ws.tile_elems) * sizeof(T) + 127) / 128 * 128;
  }
  // Room for ws's layout; bytes past the old end are drawn from rng (garbage).
  template <class T>
  void fit(const StreamKWorkspace& ws, std::mt19937_64& rng) {
    const std::size_t need = flags_offset<T>(ws) + std::size_t(ws.slots) * sizeof(std::uint64_t);
    while (bytes.size() < need) bytes.push_back(static_cast<unsigned char>(rng()));
  }
  std::uint64_t flag(std::size_t off, std::int64_t slot) const {
    std::uint64_t f;
    std::memcpy(&f, bytes.data() + off + std::size_t(slot) * sizeof f, sizeof f);
    return f;
  }
  void set_flag(std::size_t off, std::int64_t slot, std::uint64_t f) {
    std::memcpy(bytes.data() + off + std::size_t(slot) * sizeof f, &f, sizeof f);
  }
  template <class T>
  T partial(const StreamKWorkspace& ws, std::int64_t slot, std::int64_t e) const {
    T x;
    std::memcpy(&x, bytes.data() + ws.partial_index(slot, e) * sizeof(T), sizeof x);
    return x;
  }
  template <class T>
  void set_partial(const StreamKWorkspace& ws, std::int64_t slot, std::int64_t e, T x) {
    std::memcpy(bytes.data() + ws.partial_index(slot, e) * sizeof(T), &x, sizeof x);
  }
};

// A whole grid run on the host, one launch with `tag` on a workspace that holds whatever it
// holds: every CTA (cluster c, rank rm, rn) steps through its work; a Partial step stores its
// accumulators in its slot and writes the tag in its flag, an Owner step runs only when its
// peers' flags hold the tag (then adds in the documented order, clears the flags, stores), as
// stream_k_fixup.cuh does. The next CTA to step is drawn at random among those that can: any
// co-residency order; `delay_writes` draws a CTA about to publish only when no other can step
// (owners then wait as long as possible: the order that exposes a flag taken for published
// too early). Beside the protocol, the emulation knows which slots this launch wrote: an owner
// that the protocol lets run before all of its peers wrote counts as `premature`.
// compute(cta m, n, l, k_begin, k_end) returns a CTA's accumulators for those k-tiles.
template <class T>
struct GridEmulation {
  const StreamKScheduler& s;
  std::int64_t cta_tiles_m, cta_tiles_n;  // the problem's CTA tiles (the cluster grid may pad them)
  std::int64_t elems;                     // accumulators per CTA tile

  std::vector<T> out;                 // per CTA tile (l, n, m) of the padded grid
  std::vector<int> stores;
  bool stalled = false;
  std::int64_t premature = 0;              // owners let through before a peer wrote its partial
  std::int64_t tags_left = 0;              // flags that still read as published after the launch
  std::int64_t arrival_order_differs = 0;  // owners whose sum in arrival order would differ

  template <class Compute>
  void run(std::uint64_t seed, Compute&& compute) {
    EmulatedWorkspace ws;
    std::mt19937_64 garbage(seed ^ 0x5bd1e995u);
    run(seed, compute, ws, garbage(), garbage);
  }

  template <class Compute>
  void run(std::uint64_t seed, Compute&& compute, EmulatedWorkspace& buf, std::uint64_t tag, std::mt19937_64& garbage,
           PlantedBug bug = PlantedBug::None, bool delay_writes = false) {
    const int cm = s.cluster.m, cn = s.cluster.n;
    const std::int64_t gm = s.raster.tiles_m * cm, gn = s.raster.tiles_n * cn;
    out.assign(std::size_t(gm * gn * s.raster.batch * elems), T{});
    stores.assign(std::size_t(gm * gn * s.raster.batch), 0);
    const StreamKWorkspace ws = stream_k_workspace(s, elems);
    buf.fit<T>(ws, garbage);
    const std::size_t foff = EmulatedWorkspace::flags_offset<T>(ws);
    const std::uint64_t publish = bug == PlantedBug::FlagOfOne ? 1 : tag;
    auto published = [&](std::int64_t slot) {
      const std::uint64_t f = buf.flag(foff, slot);
      return bug == PlantedBug::FlagOfOne ? f != 0 : f == tag;
    };
    std::vector<char> written(std::size_t(ws.slots), 0);  // (the emulation's knowledge, not the protocol's)
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
    std::vector<std::size_t> ready, quiet;
    while (!live.empty()) {
      ready.clear();
      quiet.clear();
      for (std::size_t i = 0; i < live.size(); ++i) {
        const Cta& a = live[i];
        const StreamKWork w = s.work(a.c, a.pc);
        bool can = true;
        const auto t = s.cta_tile(w, a.rm, a.rn);
        const bool inside = t.m < cta_tiles_m && t.n < cta_tiles_n;
        if (w.role == SegmentRole::Owner && inside)
          for (std::int64_t p = w.first_peer; p < w.unit; ++p) can = can && published(s.slot(p, a.rm, a.rn));
        if (!can) continue;
        ready.push_back(i);
        if (!(w.role == SegmentRole::Partial && inside)) quiet.push_back(i);
      }
      if (ready.empty()) {
        stalled = true;
        return;
      }
      const std::vector<std::size_t>& pool = delay_writes && !quiet.empty() ? quiet : ready;
      const std::size_t pick = pool[std::size_t(rng() % pool.size())];
      Cta& a = live[pick];
      const StreamKWork w = s.work(a.c, a.pc);
      const auto t = s.cta_tile(w, a.rm, a.rn);
      // A CTA whose tile lies past the problem (a cluster that overhangs it) does nothing:
      // its writer and its owner are the same rank of clusters over the same tile.
      if (t.m < cta_tiles_m && t.n < cta_tiles_n) {
        std::vector<T> acc = compute(t.m, t.n, t.l, w.k_begin, w.k_end);
        const std::int64_t slot = w.role == SegmentRole::Whole ? -1 : s.slot(w.unit, a.rm, a.rn);
        if (w.role == SegmentRole::Partial) {
          for (std::int64_t e = 0; e < elems; ++e) buf.set_partial<T>(ws, slot, e, acc[std::size_t(e)]);
          buf.set_flag(foff, slot, publish);  // (after the partial: the device fences in between)
          written[std::size_t(slot)] = 1;
          arrival[std::size_t(slot)] = clock;
        } else {
          if (w.role == SegmentRole::Owner) {
            // The documented order: own, then the peers from the nearest down to the first.
            std::vector<T> by_arrival = acc;
            std::vector<std::int64_t> peers;
            bool early = false;
            for (std::int64_t p = w.unit - 1; p >= w.first_peer; --p) {
              const std::int64_t ps = s.slot(p, a.rm, a.rn);
              early = early || !written[std::size_t(ps)];
              for (std::int64_t e = 0; e < elems; ++e) acc[std::size_t(e)] = buf.partial<T>(ws, ps, e) + acc[std::size_t(e)];
              peers.push_back(ps);
            }
            if (bug != PlantedBug::OwnerKeepsFlags)
              for (std::int64_t ps : peers) buf.set_flag(foff, ps, 0);
            premature += early;
            // What a reduction in arrival order would give (to show the values expose the order).
            std::sort(peers.begin(), peers.end(), [&](auto x, auto y) { return arrival[std::size_t(x)] < arrival[std::size_t(y)]; });
            for (std::int64_t ps : peers)
              for (std::int64_t e = 0; e < elems; ++e)
                by_arrival[std::size_t(e)] = buf.partial<T>(ws, ps, e) + by_arrival[std::size_t(e)];
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
    // Every slot this launch published was consumed and cleared: none still reads as published
    // for this launch (a slot nobody wrote keeps its garbage, which never holds the tag).
    for (std::int64_t slot = 0; slot < ws.slots; ++slot) tags_left += written[std::size_t(slot)] && published(slot);
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
  std::int64_t arrival_order_differs, premature, tags_left;
};
// One launch on a workspace: `ws` (nullptr: a fresh one of random bytes) with `tag` (0: a
// random one), a planted bug, the write-delaying order, and `data` picking the inputs (a graph
// replayed on new inputs changes data, not the tag).
struct EmulatedLaunch {
  EmulatedWorkspace* ws = nullptr;
  std::uint64_t tag = 0;
  PlantedBug bug = PlantedBug::None;
  bool delay_writes = false;
  std::int64_t data = 0;
};
FloatRun emulate_float(const StreamKScheduler& s, std::int64_t tm, std::int64_t tn, std::uint64_t seed, EmulatedLaunch launch = {}) {
  constexpr std::int64_t elems = 3;
  GridEmulation<float> g{s, tm, tn, elems};
  EmulatedWorkspace fresh;
  std::mt19937_64 garbage(seed * 0x9E3779B97F4A7C15ull + 1);
  const std::uint64_t tag = launch.tag != 0 ? launch.tag : (garbage() | 1);
  const std::int64_t shift = launch.data << 20;  // (other inputs: tiles of a far-away problem)
  g.run(seed, [shift](std::int64_t m, std::int64_t n, std::int64_t l, std::int64_t kb, std::int64_t ke) {
    std::vector<float> acc(elems, 0.0f);  // the mainloop: k-tiles in order from zero
    for (std::int64_t k = kb; k < ke; ++k)
      for (std::int64_t e = 0; e < elems; ++e) acc[std::size_t(e)] += exposing_value(m + shift, n, l, k, e);
    return acc;
  }, launch.ws != nullptr ? *launch.ws : fresh, tag, garbage, launch.bug, launch.delay_writes);
  return {g.out, g.stalled, g.stored_once(), g.arrival_order_differs, g.premature, g.tags_left};
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
    // The same plan with a margin (units of unequal length), any the line leaves a unit for.
    s.plan.margin = *rc::gen::inRange<std::int64_t>(0, k_tiles);
    const bool leaves_units = s.plan.sk_units == 0 ? s.plan.margin == 0 : s.plan.sk_units <= s.line_iterations();
    RC_PRE(leaves_units);
    RC_LOG() << describe(s);
    RC_ASSERT(schedule_violation(s) == "");
  });
  rc::prop("the heuristic's plans with a fix-up tail (margins)", [] {
    const std::int64_t tm = *rc::gen::inRange<std::int64_t>(1, 25), tn = *rc::gen::inRange<std::int64_t>(1, 25);
    const std::int64_t k_tiles = *rc::gen::inRange<std::int64_t>(1, 97), tail = *rc::gen::inRange<std::int64_t>(0, 9);
    const ClusterShape cluster = any_cluster();
    const std::int64_t clusters = persistent_clusters(*rc::gen::inRange(1, 265), cluster);
    RC_PRE(clusters >= 1);
    const auto s = StreamKScheduler::of(tm, tn, 1, k_tiles, cluster, clusters, kStreamKMinUnitKTiles, tail);
    RC_LOG() << describe(s);
    RC_ASSERT(s.plan.margin <= tail);
    RC_ASSERT(s.plan.margin <= k_tiles / 4);
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

TEST_CASE("IndexDivisor: x / d and x % d by multiplication and shift, every d and x below 2^31", "[kernels]") {
  // Small divisors and dividends exhaustively, where a wrong multiplier or shift shows first.
  for (std::int64_t d = 1; d <= 300; ++d) {
    const IndexDivisor v = IndexDivisor::of(d);
    REQUIRE(v.ok());
    for (std::uint32_t x = 0; x < 5000; ++x) REQUIRE((v.div(x) == x / std::uint32_t(d) && v.mod(x) == x % std::uint32_t(d)));
  }
  // The edges: powers of two and their neighbours as divisors, dividends at multiples of d
  // (and one below), at the top of the range.
  std::vector<std::uint32_t> edges{1, 2, 3, IndexDivisor::most - 1, IndexDivisor::most};
  for (int b = 1; b < 31; ++b)
    for (std::int64_t e : {-1, 0, 1}) edges.push_back(std::uint32_t((std::int64_t(1) << b) + e));
  for (std::uint32_t d : edges) {
    const IndexDivisor v = IndexDivisor::of(d);
    REQUIRE(v.ok());
    for (std::uint32_t x : edges) REQUIRE(v.div(x) == x / d);
    for (std::uint32_t q : {1u, 2u, 7u, IndexDivisor::most / d})
      if (std::uint64_t(q) * d <= IndexDivisor::most) {
        const std::uint32_t x = q * d;
        REQUIRE((v.div(x) == q && v.div(x - 1) == q - 1 && v.mod(x) == 0 && v.mod(x - 1) == d - 1));
      }
  }
  rc::prop("random d and x below 2^31", [] {
    const std::uint32_t d = *rc::gen::inRange<std::uint32_t>(1, IndexDivisor::most + 1);
    const std::uint32_t x = *rc::gen::inRange<std::uint32_t>(0, IndexDivisor::most + 1);
    const IndexDivisor v = IndexDivisor::of(d);
    RC_ASSERT(v.div(x) == x / d);
    RC_ASSERT(v.mod(x) == x % d);
  });
  // Outside the domain: no divisor.
  for (std::int64_t d : {std::int64_t(0), std::int64_t(-1), std::int64_t(IndexDivisor::most) + 1, std::int64_t(1) << 40})
    CHECK(!IndexDivisor::of(d).ok());
}

namespace {
// The prepared walk (StreamKWalkDivisors) against the scheduler's own maps: every step of every
// cluster (or, past `most_steps` steps in all, sampled steps).
std::string divisors_violation(const sm90::StreamKTileScheduler& sc, std::int64_t most_steps = 1 << 16) {
  const StreamKScheduler& s = sc.schedule;
  if (sc.divisors.narrow != (s.valid() && s.fits_32bit() && s.raster.fits_32bit())) return "narrow where the counts do not fit, or not where they do";
  std::int64_t walked = 0;
  const auto check = [&](std::int64_t c, std::int64_t i) {
    ++walked;
    return same_work(sc.work(c, i), s.work(c, i));
  };
  for (std::int64_t c = 0; c < s.clusters; ++c) {
    if (sc.steps(c) != s.steps(c)) return "steps(" + std::to_string(c) + ") differs";
    const std::int64_t n = s.steps(c), dp = s.dp_steps(c);
    const std::string where = "work(" + std::to_string(c) + ", ";
    if (walked + n <= most_steps) {
      for (std::int64_t i = 0; i < n; ++i)
        if (!check(c, i)) return where + std::to_string(i) + ") differs";
    } else {  // the first and last data-parallel steps, every shared step, a few between
      for (std::int64_t i : {std::int64_t(0), dp / 3, dp / 2, dp - 1})
        if (i >= 0 && i < dp && !check(c, i)) return where + std::to_string(i) + ") differs";
      for (std::int64_t i = dp; i < n; ++i)
        if (!check(c, i)) return where + std::to_string(i) + ") differs";
    }
  }
  return {};
}
}  // namespace

TEST_CASE("sm90 Stream-K: the prepared divisors walk the scheduler's steps", "[kernels]") {
  rc::prop("generated rasters (groups, batches, residues), k-tiles, grids, plans", [] {
    const std::int64_t M = *rc::gen::inRange<std::int64_t>(1, 40000), N = *rc::gen::inRange<std::int64_t>(1, 3000);
    const std::int64_t K = *rc::gen::inRange<std::int64_t>(1, 40000), L = *rc::gen::inRange<std::int64_t>(1, 5);
    const std::int64_t group = *rc::gen::element<std::int64_t>(0, 1, 3, 8, 16, 1000);
    const std::int64_t clusters = *rc::gen::inRange<std::int64_t>(1, 300);
    const bool stream_k = *rc::gen::arbitrary<bool>();
    sm90::Sm90SchedulerArguments args;
    args.raster_group = group;
    const auto sc = sm90::StreamKTileScheduler::to_underlying_arguments<128, 64, 64, 1>(M, N, K, L, args).with_plan(clusters, stream_k);
    RC_LOG() << describe(sc.schedule);
    RC_ASSERT(sc.divisors.narrow);
    RC_ASSERT(divisors_violation(sc, 4096) == "");
  });
  rc::prop("hand-made plans of large schedules: every unit count, up to 32 bits", [] {
    const std::int64_t tm = *rc::gen::inRange<std::int64_t>(1, 1 << 12), tn = *rc::gen::inRange<std::int64_t>(1, 1 << 12);
    const std::int64_t clusters = *rc::gen::inRange<std::int64_t>(1, 265);
    sm90::StreamKTileScheduler sc;
    sc.schedule = StreamKScheduler::with_plan(tm, tn, 1, 1, any_cluster(), clusters, {});
    sc.schedule.raster.group = *rc::gen::inRange<std::int64_t>(1, 40);
    const std::int64_t shared = *rc::gen::inRange<std::int64_t>(0, std::min<std::int64_t>(sc.schedule.tile_count(), 300) + 1);
    const std::int64_t units = shared == 0 ? 0 : *rc::gen::inRange<std::int64_t>(1, clusters + 1);
    const std::int64_t most_k = shared == 0 ? 1 << 20 : INT32_MAX / (units + 1) / shared;
    RC_PRE(most_k >= 1);
    sc.schedule.k_tiles = *rc::gen::element(most_k, *rc::gen::inRange<std::int64_t>(1, most_k + 1));
    sc.schedule.plan = {Decomposition::StreamK, sc.schedule.tile_count() - shared, std::min(units, sc.schedule.k_tiles * shared)};
    if (shared > 0 && *rc::gen::arbitrary<bool>()) {  // a margin the line leaves a unit for
      sc.schedule.plan.margin = *rc::gen::inRange<std::int64_t>(0, sc.schedule.k_tiles);
      const bool leaves_units = sc.schedule.plan.sk_units <= sc.schedule.line_iterations();
      RC_PRE(leaves_units);
    }
    sc.prepare();
    RC_ASSERT(sc.divisors.narrow);
    RC_ASSERT(divisors_violation(sc, 2000) == "");
  });
  // Past 32 bits the walk is the scheduler's own (narrow false), and the same.
  sm90::StreamKTileScheduler wide;
  wide.schedule = StreamKScheduler::with_plan(1, 1, 1, (std::int64_t(1) << 31) - 1, {1, 1}, 1, {Decomposition::StreamK, 0, 1});
  wide.prepare();
  CHECK(!wide.divisors.narrow);
  CHECK(divisors_violation(wide) == "");
  wide.schedule.k_tiles = (std::int64_t(1) << 30) - 1;  // 2 (2^30 - 1) < 2^31: narrow
  wide.prepare();
  CHECK(wide.divisors.narrow);
  CHECK(divisors_violation(wide) == "");
  // An invalid plan is never narrow.
  wide.schedule.plan.sk_units = 0;
  wide.prepare();
  CHECK(!wide.divisors.narrow);
  // The kernel walks the divisors only: a shared plan whose line does not fit them (K = 2^30 at
  // the decode shape: 48 tiles of 2^24 k-tiles on 132 units) becomes whole tiles, which fit;
  // the same shape at K = 4096 keeps its shared plan.
  const auto decode = sm90::StreamKTileScheduler::to_underlying_arguments<128, 64, 64, 1>(6144, 64, std::int64_t(1) << 30, 1, {});
  CHECK(plan_stream_k(decode.schedule.tile_count(), decode.schedule.k_tiles, 132, kStreamKMinUnitKTiles, true).sk_units == 132);
  const auto huge_k = decode.with_plan(132, true);
  CHECK((!huge_k.shares() && huge_k.divisors.narrow && huge_k.schedule.plan.dp_tiles == huge_k.tile_count()));
  CHECK(divisors_violation(huge_k) == "");
  const auto usual = sm90::StreamKTileScheduler::to_underlying_arguments<128, 64, 64, 1>(6144, 64, 4096, 1, {}).with_plan(132, true);
  CHECK((usual.shares() && usual.schedule.plan.sk_units == 132 && usual.divisors.narrow));
  // The decode kernel's margin (kDecodeTailKTiles) at its shape, and none for other tiles or a
  // problem that is not memory-bound.
  CHECK(usual.schedule.plan.margin == sm90::kDecodeTailKTiles);
  CHECK(divisors_violation(usual) == "");
  CHECK(schedule_violation(usual.schedule) == "");
  CHECK(sm90::StreamKTileScheduler::to_underlying_arguments<128, 256, 64, 2>(6144, 64, 4096, 1, {}).with_plan(66, true).schedule.plan.margin == 0);
  CHECK(sm90::StreamKTileScheduler::to_underlying_arguments<128, 64, 64, 1>(6144, 1024, 4096, 1, {}).with_plan(132, true).schedule.plan.margin == 0);
  // What the margin does there: the 84 units that end inside a tile are shorter than the
  // owners by the margin's 3 k-tiles (22 against 25: equal units were 23-24 for all).
  std::int64_t shortest_owner = 1 << 30, longest_partial = 0;
  for (std::int64_t c = 0; c < 132; ++c) {
    std::int64_t length = 0;
    for (std::int64_t i = 0; i < usual.steps(c); ++i) length += usual.work(c, i).k_end - usual.work(c, i).k_begin;
    const bool ends_inside = usual.work(c, 0).role == SegmentRole::Partial && usual.steps(c) == 1;
    (ends_inside ? longest_partial : shortest_owner) = ends_inside ? std::max(longest_partial, length) : std::min(shortest_owner, length);
  }
  INFO("longest single-partial unit " << longest_partial << ", shortest other " << shortest_owner);
  CHECK(shortest_owner - longest_partial >= sm90::kDecodeTailKTiles - 1);
}

TEST_CASE("stream-K fix-up: the same bits in every execution order, no stall", "[kernels]") {
  std::int64_t owners_exposed = 0, shared_plans = 0, cases = 0;
  rc::prop("a grid emulated in shuffled orders", [&] {
    const std::int64_t tm = *rc::gen::inRange<std::int64_t>(1, 13), tn = *rc::gen::inRange<std::int64_t>(1, 13);
    const std::int64_t batch = *rc::gen::inRange<std::int64_t>(1, 3), k_tiles = *rc::gen::inRange<std::int64_t>(1, 41);
    const ClusterShape cluster = any_cluster();
    const std::int64_t clusters = *rc::gen::inRange<std::int64_t>(1, 40);
    const std::int64_t min_unit = *rc::gen::element<std::int64_t>(1, 2, 8);
    const std::int64_t tail = *rc::gen::element<std::int64_t>(0, 0, 1, 3, 5);  // (margins: units of unequal length)
    const auto s = StreamKScheduler::of(tm, tn, batch, k_tiles, cluster, clusters, min_unit, tail);
    RC_LOG() << describe(s);
    const std::uint64_t seed = *rc::gen::arbitrary<std::uint64_t>();
    const FloatRun a = emulate_float(s, tm, tn, seed), b = emulate_float(s, tm, tn, seed * 31 + 7);
    RC_ASSERT(!a.stalled);
    RC_ASSERT(!b.stalled);
    RC_ASSERT(a.stored_once);
    RC_ASSERT(b.stored_once);
    RC_ASSERT(a.premature == 0 && b.premature == 0);  // (workspaces of random bytes, never cleared)
    RC_ASSERT(a.tags_left == 0 && b.tags_left == 0);
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

namespace {
// Whether the schedule has an owner that writes no partial before its owner step (its unit's
// range ends on a tile boundary, as the last unit's does): in the write-delaying order it waits
// while no peer has written, so a flag that reads as published too early lets it through.
bool has_owner_without_write(const StreamKScheduler& s) {
  for (std::int64_t u = 0; u < s.plan.sk_units; ++u) {
    bool writes = false, owns = false;
    for (std::int64_t i = 0; i < s.steps(u); ++i) {
      const StreamKWork w = s.work(u, i);
      writes = writes || w.role == SegmentRole::Partial;
      owns = owns || w.role == SegmentRole::Owner;
    }
    if (owns && !writes) return true;
  }
  return false;
}
bool same_bits(const FloatRun& a, const FloatRun& b) {
  return a.out.size() == b.out.size() && std::memcmp(a.out.data(), b.out.data(), a.out.size() * sizeof(float)) == 0;
}
}  // namespace

TEST_CASE("stream-K fix-up: tagged flags need no clearing before a launch", "[kernels]") {
  std::int64_t shared = 0, exposed = 0, caught_keep = 0, caught_one = 0, wrong_keep = 0;
  rc::prop("launches and replays on one never-cleared workspace", [&] {
    auto schedule = [] {
      const std::int64_t tm = *rc::gen::inRange<std::int64_t>(1, 10), tn = *rc::gen::inRange<std::int64_t>(1, 10);
      const std::int64_t batch = *rc::gen::inRange<std::int64_t>(1, 3), k_tiles = *rc::gen::inRange<std::int64_t>(1, 33);
      const ClusterShape cluster = any_cluster();
      const std::int64_t clusters = *rc::gen::inRange<std::int64_t>(1, 30);
      const std::int64_t min_unit = *rc::gen::element<std::int64_t>(1, 2, 8);
      return std::make_tuple(tm, tn, StreamKScheduler::of(tm, tn, batch, k_tiles, cluster, clusters, min_unit));
    };
    const auto [tm, tn, s] = schedule();
    const auto [tm2, tn2, s2] = schedule();  // another problem on the same workspace: another slot layout
    RC_LOG() << describe(s) << "; then " << describe(s2);
    const std::uint64_t seed = *rc::gen::arbitrary<std::uint64_t>();
    // The references: each problem on a fresh workspace of random bytes, with a random tag.
    const FloatRun ref = emulate_float(s, tm, tn, seed), ref2 = emulate_float(s2, tm2, tn2, seed + 1);
    const FloatRun ref_new = emulate_float(s, tm, tn, seed + 2, {nullptr, 0, PlantedBug::None, false, 1});  // other inputs
    RC_ASSERT(!ref.stalled && ref.premature == 0 && ref.tags_left == 0);
    // One workspace, never cleared: random bytes, then each launch's leftovers.
    EmulatedWorkspace ws;
    std::mt19937_64 tags(seed ^ 0xA5A5A5A5u);
    const std::uint64_t t1 = tags() | 1, t2 = t1 + 2, t3 = t1 + 4, t4 = t1 + 6;  // distinct, never 0
    auto launch = [&](const StreamKScheduler& sc, std::int64_t a, std::int64_t b, std::uint64_t order, EmulatedLaunch l) {
      l.ws = &ws;
      return emulate_float(sc, a, b, order, l);
    };
    auto clean = [](const FloatRun& r) { return !r.stalled && r.stored_once && r.premature == 0 && r.tags_left == 0; };
    // a launch on garbage, in both orders; its replay (the same tag) after the owners cleared
    const FloatRun l1 = launch(s, tm, tn, seed * 3, {nullptr, t1, PlantedBug::None, true, 0});
    RC_ASSERT(clean(l1) && same_bits(l1, ref));
    const FloatRun r1 = launch(s, tm, tn, seed * 5, {nullptr, t1, PlantedBug::None, false, 1});
    RC_ASSERT(clean(r1) && same_bits(r1, ref_new));
    // another problem (another slot layout over the same bytes), then the first one replayed
    const FloatRun l2 = launch(s2, tm2, tn2, seed * 7, {nullptr, t2, PlantedBug::None, true, 0});
    RC_ASSERT(clean(l2) && same_bits(l2, ref2));
    const FloatRun r2 = launch(s, tm, tn, seed * 11, {nullptr, t1, PlantedBug::None, true, 0});
    RC_ASSERT(clean(r2) && same_bits(r2, ref));
    // Planted: owners that do not clear, then a replay of their tag on new inputs (a graph's):
    // an owner goes ahead before its peers write, on the old partials.
    const FloatRun left = launch(s, tm, tn, seed * 13, {nullptr, t3, PlantedBug::OwnerKeepsFlags, false, 0});
    RC_ASSERT(same_bits(left, ref));
    const bool applicable = has_owner_without_write(s);
    if (applicable) RC_ASSERT(left.tags_left > 0);  // (the check that sees the planted bug at once)
    const FloatRun keep = launch(s, tm, tn, seed * 19, {nullptr, t3, PlantedBug::None, true, 1});
    if (applicable) RC_ASSERT(keep.premature > 0);
    caught_keep += keep.premature > 0;
    wrong_keep += !same_bits(keep, ref_new);
    // Leftover tags (an aborted launch's, or those of the broken replay above) are another
    // launch's: a launch with a fresh tag is right.
    const FloatRun fresh = launch(s, tm, tn, seed * 17, {nullptr, t4, PlantedBug::None, true, 1});
    RC_ASSERT(clean(fresh) && same_bits(fresh, ref_new));
    // Planted: flags of 1 without a memset, on a workspace of random bytes (the old protocol
    // minus its memset): a garbage flag reads as published.
    const FloatRun one = emulate_float(s, tm, tn, seed * 23, {nullptr, 0, PlantedBug::FlagOfOne, true, 0});
    if (applicable) RC_ASSERT(one.premature > 0);
    caught_one += one.premature > 0;
    shared += s.plan.sk_units > 0 && s.slots() > 0;
    exposed += applicable;
  });
  // Most cases share k-iterations and expose the planted bugs; caught there, the stale
  // partials also changed the bits of C in some.
  INFO(shared << " shared, " << exposed << " exposing, caught " << caught_keep << " / " << caught_one << ", C wrong " << wrong_keep);
  CHECK(exposed * 4 > shared);
  CHECK(caught_keep >= exposed);
  CHECK(caught_one >= exposed);
  CHECK(wrong_keep > 0);
}

TEST_CASE("stream-K launch tags: distinct per launch, never 0, from any thread", "[kernels]") {
  using tessera::kernels::device::launch_tag_of;
  using tessera::kernels::device::next_launch_tag;
  // launch_tag_of is a bijection of the launch count: no two of a long run agree, for any nonce.
  for (const std::uint64_t nonce : {std::uint64_t(0), std::uint64_t(1), ~std::uint64_t(0), std::uint64_t(0x0123456789ABCDEFull)}) {
    std::vector<std::uint64_t> t;
    for (std::uint64_t n = 0; n < 200000; ++n) t.push_back(launch_tag_of(nonce, n));
    std::sort(t.begin(), t.end());
    CHECK(std::adjacent_find(t.begin(), t.end()) == t.end());
  }
  // The process's tags from four threads at once: all distinct, none 0.
  std::vector<std::vector<std::uint64_t>> drawn(4);
  std::vector<std::thread> threads;
  for (auto& d : drawn)
    threads.emplace_back([&d] {
      for (int i = 0; i < 50000; ++i) d.push_back(next_launch_tag());
    });
  for (auto& th : threads) th.join();
  std::vector<std::uint64_t> all;
  for (const auto& d : drawn) all.insert(all.end(), d.begin(), d.end());
  std::sort(all.begin(), all.end());
  CHECK(std::adjacent_find(all.begin(), all.end()) == all.end());
  CHECK(std::count(all.begin(), all.end(), std::uint64_t(0)) == 0);
  // Not a small counter: the tags spread over the 64 bits (the top byte takes many values).
  std::vector<int> top(256, 0);
  for (std::uint64_t t : all) top[std::size_t(t >> 56)] = 1;
  CHECK(std::count(top.begin(), top.end(), 1) > 200);
}

TEST_CASE("stream-K: an emulated integer GEMM computes C exactly", "[kernels]") {
  rc::prop("C = A B through the schedule, its workspace and its flags", [] {
    const std::int64_t bm = *rc::gen::element<std::int64_t>(1, 2, 4), bn = *rc::gen::element<std::int64_t>(1, 3, 4);
    const std::int64_t bk = *rc::gen::element<std::int64_t>(1, 2, 3);
    const std::int64_t M = *rc::gen::inRange<std::int64_t>(1, 30), N = *rc::gen::inRange<std::int64_t>(1, 30);
    const std::int64_t K = *rc::gen::inRange<std::int64_t>(1, 60), L = *rc::gen::inRange<std::int64_t>(1, 3);
    const ClusterShape cluster = any_cluster();
    const std::int64_t clusters = *rc::gen::inRange<std::int64_t>(1, 30);
    const std::int64_t min_unit = *rc::gen::element<std::int64_t>(1, 3, 8), tail = *rc::gen::element<std::int64_t>(0, 2, 4);
    const std::int64_t tm = (M + bm - 1) / bm, tn = (N + bn - 1) / bn, k_tiles = (K + bk - 1) / bk;
    const auto s = StreamKScheduler::of(tm, tn, L, k_tiles, cluster, clusters, min_unit, tail);
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
    RC_ASSERT(g.premature == 0 && g.tags_left == 0);
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

// cta_tile_of against its definition: the cluster's CTAs as the layout (cm, cn):(1, cm) over the
// cluster tile's CTA tiles (idx2crd of the rank, colexicographic), and the map over every
// cluster tile and rank a bijection onto the CTA tiles of a grid of whole clusters.
TEST_CASE("cta_tile_of: a cluster tile's CTA tiles, rank along M first", "[kernels]") {
  for (const ClusterShape c : {ClusterShape{1, 1}, {2, 1}, {1, 2}, {2, 2}, {4, 1}, {1, 4}, {2, 4}, {3, 2}}) {
    CAPTURE(c.m, c.n);
    const std::int64_t tiles_m = 3, tiles_n = 5;  // cluster tiles
    std::vector<int> hits(std::size_t(tiles_m * c.m * tiles_n * c.n), 0);
    for (std::int64_t m = 0; m < tiles_m; ++m)
      for (std::int64_t n = 0; n < tiles_n; ++n)
        for (int rank = 0; rank < c.size(); ++rank) {
          const auto crd = tessera::idx2crd(rank, tessera::make_shape(c.m, c.n));
          const CtaTileCoord t = cta_tile_of(m, n, c, rank);
          CHECK(t == CtaTileCoord{m * c.m + tessera::get<0>(crd), n * c.n + tessera::get<1>(crd)});
          REQUIRE((t.m >= 0 && t.m < tiles_m * c.m && t.n >= 0 && t.n < tiles_n * c.n));
          ++hits[std::size_t(t.m + t.n * tiles_m * c.m)];
          // (the scheduler's map of the same rank as (rm, rn))
          const auto s = StreamKScheduler::with_plan(tiles_m, tiles_n, 1, 4, c, 1, {});
          const auto w = StreamKWork{0, m, n, 0, 0, 4, SegmentRole::Whole, -1, -1};
          const auto st = s.cta_tile(w, int(tessera::get<0>(crd)), int(tessera::get<1>(crd)));
          CHECK((st.m == t.m && st.n == t.n));
        }
    for (const int h : hits) CHECK(h == 1);
  }
  // Known at compile time, a cluster along one mode is the rank itself there and 0 across.
  static_assert(cta_tile_of(5, 7, {2, 1}, 1) == CtaTileCoord{11, 7});
  static_assert(cta_tile_of(5, 7, {1, 2}, 1) == CtaTileCoord{5, 15});
  static_assert(cta_tile_of(5, 7, {2, 2}, 3) == CtaTileCoord{11, 15});
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
  if (!sc.divisors.narrow) return "the kernel's walk without its prepared divisors";
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
      if (sc.steps(c) != sc.schedule.steps(c)) return "the kernel's steps differ from the scheduler's";
      for (std::int64_t i = 0; i < sc.steps(c); ++i) {
        const StreamKWork w = sc.work(c, i);
        if (!same_work(w, sc.schedule.work(c, i))) return "the kernel's step differs from the scheduler's";
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
        REQUIRE((a.premature == 0 && a.tags_left == 0));
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
        REQUIRE((a.premature == 0 && a.tags_left == 0));
        REQUIRE(std::memcmp(a.out.data(), b.out.data(), a.out.size() * sizeof(float)) == 0);
      }
    }
  CHECK(decode_shared > 200);
}
