// The SM90 configurations `gemm_trace --sm90 --config NAME` traces (src/gemm_trace/
// sm90_trace_configs.hpp), on the host: the table's names and problem shapes, the inputs'
// exactness in their element type and the coordinate each accumulator then holds (products
// summed as the kernel sums them, over the nonzero columns), the pairing of the rows and
// columns runs, the maps over a whole problem
// against tile-local maps shifted by the tile's origin, the record counts, and the Stream-K
// plan the stream_k run gets (shared tiles beside whole ones; every (tile, k-iteration) once).
// The GPU runs themselves are the `gpu` tests gemm_trace_sm90_<name> (src/gemm_trace).
#include <catch2/catch.hpp>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "kernel/sm90_stream_k_tile_scheduler.hpp"
#include "kernel/stream_k_scheduler.hpp"
#include "sm90_trace_configs.hpp"
#include "tessera/atom/numeric.hpp"
#include "trace_maps.hpp"

using namespace tessera;
using namespace tessera::kernels;
using namespace tessera::kernels::trace;
namespace tv = tessera::verify;

namespace {

float round_trip(Sm90Input in, float x) {
  return in == Sm90Input::E4M3 ? float(float_e4m3_t(x)) : float(bfloat16_t(x));
}

// C(m, n) = sum_k A(m, k) B(n, k) in f32, k in increasing order (as each k-tile's wgmmas and
// the k-loop add them; the terms are exact integers, so any order gives the same), over the
// columns where A or B is nonzero; `skip_k_tile` drops one k-tile (a kernel that missed it).
std::vector<float> products(const Sm90TraceConfig& c, const Sm90TraceInputs& in, int skip_k_tile = -1) {
  std::vector<int> cols;
  for (int k = 0; k < c.k; ++k) {
    if (k / c.bk == skip_k_tile) continue;
    bool any = false;
    for (int m = 0; m < c.m && !any; ++m) any = in.a[std::size_t(m) * c.k + k] != 0.0f;
    if (any) cols.push_back(k);
  }
  std::vector<float> out(std::size_t(c.m) * c.n, 0.0f);
  for (int n = 0; n < c.n; ++n)
    for (int m = 0; m < c.m; ++m) {
      float s = 0.0f;
      for (int k : cols) s += in.a[std::size_t(m) * c.k + k] * in.b[std::size_t(n) * c.k + k];
      out[std::size_t(m) + std::size_t(c.m) * n] = s;
    }
  return out;
}

}  // namespace

TEST_CASE("the SM90 trace configurations: unique names, the lookup, the list in messages", "[sm90_trace_configs]") {
  std::set<std::string> names;
  for (const auto& c : sm90_trace_configs) {
    CHECK(names.insert(c.name).second);
    CHECK(find_sm90_trace_config(c.name) == &c);
    CHECK(&sm90_trace_config(c.id) == &c);
    CHECK(std::string(c.description).find('\n') == std::string::npos);
    CHECK(sm90_trace_config_names().find(c.name) != std::string::npos);
  }
  CHECK(names.size() == std::size_t(Sm90Config::count));
  CHECK(find_sm90_trace_config("fp8") == nullptr);
  CHECK(find_sm90_trace_config("") == nullptr);
  CHECK(find_sm90_trace_config("list") == nullptr);  // (--config list prints the table)
}

TEST_CASE("the SM90 trace configurations' problems: whole tiles, several per cluster, a code that fits", "[sm90_trace_configs]") {
  for (const auto& c : sm90_trace_configs) {
    INFO(c.name);
    // No residue: a padded accumulator holds 0, which would decode as (0, 0).
    CHECK(c.m % (c.bm * c.cluster_m) == 0);
    CHECK(c.n % c.bn == 0);
    CHECK(c.k % c.bk == 0);
    // The coordinates' digits: first, middle and last k-tiles apart.
    CHECK(k_tiles_of(c) >= 3);
    CHECK(c.m <= 4096);
    CHECK(c.n <= 4096);
    // Each cluster walks several tiles (the persistent loop, the epilogue under the next tile,
    // ping-pong's turns), or under Stream-K more tiles than clusters.
    const int cluster_tiles = tiles_of(c) / c.cluster_m;
    CHECK(cluster_tiles >= 2 * c.clusters);
    CHECK(c.consumer_threads * (c.bm * c.bn / c.consumer_threads) == c.bm * c.bn);
  }
  CHECK(mma_c_records(sm90_trace_config(Sm90Config::fp8_128x256)) == 256 * 512);
  CHECK(mma_c_records(sm90_trace_config(Sm90Config::bf16_128x128)) == 256 * 384);
  CHECK(mma_c_records(sm90_trace_config(Sm90Config::bf16_64x128_pingpong)) == 192 * 384);
  CHECK(mma_c_records(sm90_trace_config(Sm90Config::stream_k)) == 256 * 1792);
  CHECK(tile_k_records(sm90_trace_config(Sm90Config::stream_k)) == 14 * 24);
  CHECK(tile_k_records(sm90_trace_config(Sm90Config::fp8_128x256)) == 0);
}

TEST_CASE("the coordinate inputs: exact in their type, small, each accumulator its m or its n", "[sm90_trace_configs]") {
  for (const auto& c : sm90_trace_configs) {
    for (Sm90Coordinate which : {Sm90Coordinate::Rows, Sm90Coordinate::Cols}) {
      const bool rows = which == Sm90Coordinate::Rows;
      INFO(c.name << (rows ? " rows" : " columns"));
      const Sm90TraceInputs in = sm90_coordinate_inputs(c, which);
      REQUIRE(in.a.size() == std::size_t(c.m) * c.k);
      REQUIRE(in.b.size() == std::size_t(c.n) * c.k);
      for (float x : in.a) REQUIRE(round_trip(c.input, x) == x);
      for (float x : in.b) REQUIRE(round_trip(c.input, x) == x);
      const auto acc = products(c, in);
      std::int64_t right = 0;
      for (int n = 0; n < c.n; ++n)
        for (int m = 0; m < c.m; ++m) {
          const float v = acc[std::size_t(m) + std::size_t(c.m) * n];
          REQUIRE(v < 4096.0f);  // (exact under a 13-bit accumulation)
          right += int(v) == (rows ? m : n);
        }
      CHECK(right == mma_c_records(c));
    }
    // A kernel that misses the first, the middle or the last k-tile puts wrong coordinates in
    // the places whose digit there is nonzero (which the runs' digits make most of them).
    const Sm90TraceInputs rows_in = sm90_coordinate_inputs(c, Sm90Coordinate::Rows),
                          cols_in = sm90_coordinate_inputs(c, Sm90Coordinate::Cols);
    for (int skip : {0, (k_tiles_of(c) - 1) / 2, k_tiles_of(c) - 1}) {
      INFO(c.name << ": k-tile skipped: " << skip);
      const auto r = products(c, rows_in, skip), l = products(c, cols_in, skip);
      std::int64_t still = 0;
      for (int n = 0; n < c.n; ++n)
        for (int m = 0; m < c.m; ++m) {
          const std::size_t i = std::size_t(m) + std::size_t(c.m) * n;
          still += int(r[i]) == m && int(l[i]) == n;
        }
      CHECK(still <= mma_c_records(c) / 16);
    }
  }
  Sm90TraceConfig wide = sm90_trace_config(Sm90Config::bf16_128x128);
  wide.n = 8192;
  CHECK_THROWS_AS(sm90_coordinate_inputs(wide, Sm90Coordinate::Cols), std::invalid_argument);
}

TEST_CASE("the k-iteration inputs: each run's accumulators the mask of its 8 k-tiles", "[sm90_trace_configs]") {
  const Sm90TraceConfig& c = sm90_trace_config(Sm90Config::stream_k);
  REQUIRE(k_iteration_runs(c) == 3);
  for (int r = 0; r < k_iteration_runs(c); ++r) {
    const Sm90TraceInputs in = sm90_k_iteration_inputs(c, r);
    for (float x : in.a) REQUIRE(round_trip(c.input, x) == x);
    for (float x : in.b) REQUIRE(round_trip(c.input, x) == x);
    const auto acc = products(c, in);
    for (float v : acc) REQUIRE(v == 255.0f);
    const auto missed = products(c, in, r * kKTilesPerRun + 5);
    CHECK(missed[0] == float(255 & ~(1 << 5)));
  }
  CHECK_THROWS_AS(sm90_k_iteration_inputs(c, 3), std::invalid_argument);
}

TEST_CASE("the coordinate runs paired: each (thread, value) its row and column, what lacks a partner kept", "[sm90_trace_configs]") {
  const int mc = int(Map::mma_c);
  const std::vector<int> rows{mc, 0, 0, 5, -1, mc, 1, 0, 6, -1, mc, 0, 1, 7, -1, mc, 0, 1, 8, -1};
  const std::vector<int> cols{mc, 1, 0, -1, 60, mc, 0, 1, -1, 70, mc, 0, 0, -1, 50, mc, 2, 0, -1, 90};
  const std::vector<int> paired = pair_coordinate_runs(rows, cols);
  const std::vector<int> expected{mc, 0, 0, 5, 50, mc, 1, 0, 6, 60, mc, 0, 1, 7, 70,
                                  mc, 0, 1, 8, -1,    // (thread 0, value 1) twice in rows, once in columns
                                  mc, 2, 0, -1, 90};  // (thread 2, value 0) in columns only
  CHECK(paired == expected);
  CHECK(pair_coordinate_runs({}, {}).empty());
}

TEST_CASE("the maps over a problem: a tile's map shifted to each tile's origin", "[sm90_trace_configs]") {
  for (const auto& c : sm90_trace_configs) {
    INFO(c.name);
    const auto maps = sm90_config_maps(c.id);
    REQUIRE(maps.size() == (c.stream_k ? 2u : 1u));
    const tv::Map& mc = maps[0];
    CHECK(mc.name == "mma.C");
    CHECK(tv::num_threads(mc) == c.consumer_threads);
    CHECK(tv::num_threads(mc) * tv::num_values(mc) == mma_c_records(c));
    // The tile's own map (the TiledMma's C map over one tile) at each tile's origin.
    const std::int64_t values = tv::num_values(mc) / tiles_of(c);
    const auto tile_maps = [&] {
      switch (c.id) {
        case Sm90Config::fp8_128x256: return make_map<tuple<_128, _256>>(Map::mma_c, Sm90ConfigMma<Sm90Config::fp8_128x256>::type::get_layoutC_TV());
        case Sm90Config::bf16_128x128: return make_map<tuple<_128, _128>>(Map::mma_c, Sm90ConfigMma<Sm90Config::bf16_128x128>::type::get_layoutC_TV());
        case Sm90Config::bf16_64x128_pingpong:
          return make_map<tuple<_64, _128>>(Map::mma_c, Sm90ConfigMma<Sm90Config::bf16_64x128_pingpong>::type::get_layoutC_TV());
        default: return make_map<tuple<_128, _256>>(Map::mma_c, Sm90ConfigMma<Sm90Config::stream_k>::type::get_layoutC_TV());
      }
    }();
    REQUIRE(tv::num_values(tile_maps) == values);
    for (int j = 0; j < c.n / c.bn; ++j)
      for (int i = 0; i < tiles_m(c); ++i)
        for (std::int64_t t = 0; t < c.consumer_threads; t += 37)
          for (std::int64_t v = 0; v < values; v += 5) {
            const tv::Coord local = tv::expected_coord(tile_maps, t, v);
            const tv::Coord global = tv::expected_coord(mc, t, v + values * (i + tiles_m(c) * j));
            REQUIRE(global.row == local.row + std::int64_t(i) * c.bm);
            REQUIRE(global.col == local.col + std::int64_t(j) * c.bn);
          }
    if (c.stream_k) {
      CHECK(maps[1].name == "tile.k");
      CHECK(tv::num_threads(maps[1]) * tv::num_values(maps[1]) == tile_k_records(c));
    }
  }
}

TEST_CASE("the maps over a problem verify a correct run and catch a tile stored twice or in the wrong place", "[sm90_trace_configs]") {
  const Sm90TraceConfig& c = sm90_trace_config(Sm90Config::bf16_64x128_pingpong);
  tv::Trace t;
  t.maps = sm90_config_maps(c.id);
  // What a correct kernel records: each tile's accumulators, the data's (m, n).
  for (const auto& r : tv::expected_records(t.maps[0])) t.records.push_back(r);
  auto report = tv::verify(t);
  REQUIRE(report.ok);
  CHECK(report.maps[0].matched == mma_c_records(c));
  // Tile 1 stored with tile 0's data (the epilogue told the wrong tile): mismatches.
  const std::int64_t values = tv::num_values(t.maps[0]) / tiles_of(c);
  tv::Trace wrong = t;
  for (auto& r : wrong.records)
    if (r.value / values == 1) r.row -= c.bm;
  report = tv::verify(wrong);
  CHECK_FALSE(report.ok);
  CHECK(report.maps[0].findings == values * c.consumer_threads);
  // Tile 0 stored twice, tile 2 never: duplicates and missing.
  tv::Trace twice = t;
  for (auto& r : twice.records)
    if (r.value / values == 2) r.value -= 2 * values, r.row -= 2 * c.bm;
  report = tv::verify(twice);
  CHECK_FALSE(report.ok);
  CHECK(report.maps[0].findings == 2 * values * c.consumer_threads);
}

TEST_CASE("the stream_k run's plan shares tiles beside whole ones, each (tile, k-iteration) once", "[sm90_trace_configs]") {
  const Sm90TraceConfig& c = sm90_trace_config(Sm90Config::stream_k);
  const auto sc = sm90::StreamKTileScheduler::to_underlying_arguments<128, 256, 64, 2>(c.m, c.n, c.k, 1, {}).with_plan(c.clusters, true);
  REQUIRE(sc.shares());
  std::vector<int> seen(std::size_t(tiles_of(c) / c.cluster_m) * k_tiles_of(c), 0);
  std::set<SegmentRole> roles;
  for (int64_t cl = 0; cl < sc.work_count(); ++cl)
    for (int64_t i = 0; i < sc.steps(cl); ++i) {
      const StreamKWork w = sc.work(cl, i);
      roles.insert(w.role);
      for (int64_t k = w.k_begin; k < w.k_end; ++k) ++seen[std::size_t(w.tile) * k_tiles_of(c) + k];
    }
  for (int s : seen) REQUIRE(s == 1);
  CHECK(roles.count(SegmentRole::Whole) == 1);
  CHECK(roles.count(SegmentRole::Partial) == 1);
  CHECK(roles.count(SegmentRole::Owner) == 1);
  // Per CTA tile: cluster tiles times the cluster's CTAs, each k-iteration once (map tile.k).
  CHECK(std::int64_t(seen.size()) * c.cluster_m == tile_k_records(c));
}
