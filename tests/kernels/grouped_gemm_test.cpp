// The grouped GEMM's host-side parts (kernels/kernel/sm90_grouped_tile_scheduler.hpp,
// include/tessera/kernels/gemm_grouped.hpp), without a GPU: the persistent clusters' walk over
// the concatenated groups computes every (group, CTA tile) exactly once for generated group
// sizes (empty groups, skew, residues, many small groups), SM counts and cluster shapes, puts
// every tile in the group a prefix sum puts it in, switches groups only where the next tile lies
// in another group, and reaches every consumer warp in order through the kernel's ring; each group runs as D_g^T = B_g^T A_g^T
// (sm90_grouped_problem.hpp): the kernel's operands address B_g, A_g, D_g and C_g element for
// element, and its tiles cover every element of D_g once; the contiguous form's lowering partitions the
// tokens; the argument checks refuse with the reason; the workspace's records keep their alignment;
// the epilogue's per-group TMA plans have the group's extents and strides, and the TMA stores of
// the kernel's tiles (the staging parts, clipped by the map's bounds) write every element of
// D_g once.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "collective/sm90_epilogue_staging.hpp"
#include "kernel/sm90_grouped_problem.hpp"
#include "kernel/sm90_grouped_tile_scheduler.hpp"
#include "tessera/atom/copy_sm90_tma.hpp"
#include "tessera/atom/tma_arguments.hpp"
#include "tessera/pipeline/handoff_ring.hpp"
#include "tessera/pipeline/mbarrier.hpp"

using namespace tessera::kernels;
using tessera::kernels::sm90::GroupedTileScheduler;

namespace {

// Group g's tile count and the first linear tile of every group, by a prefix sum over all
// groups: the reference the cursor's walk (which reads a few groups ahead at a time) must agree
// with.
std::vector<int64_t> group_starts(std::vector<GemmGroupShape> const& shapes, int64_t tile_m, int64_t tile_n) {
  std::vector<int64_t> starts{0};
  for (auto const& g : shapes)
    starts.push_back(starts.back() + ((g.m > 0 ? g.m : 0) + tile_m - 1) / tile_m * (((g.n > 0 ? g.n : 0) + tile_n - 1) / tile_n));
  return starts;
}

// Every cluster's walk (t = c, c + clusters, ...), as the kernel's producer thread runs it
// (GroupedTileScheduler::next, the words it hands to the consumers): returns how many times
// each CTA tile (group, m, n) was computed, and checks the walk's own properties on the way.
std::map<std::tuple<int64_t, int64_t, int64_t>, int> walk(std::vector<GemmGroupShape> const& shapes, int64_t bm, int64_t bn, int64_t bk,
                                                          int cluster_m, int64_t clusters, int64_t raster_group) {
  GroupedTileScheduler s{shapes.data(), int64_t(shapes.size()), bm * cluster_m, bn, bk, raster_group};
  std::map<std::tuple<int64_t, int64_t, int64_t>, int> seen;
  const std::vector<int64_t> starts = group_starts(shapes, bm * cluster_m, bn);
  const int64_t total_tiles = starts.back();
  int64_t walked = 0;
  for (int64_t c = 0; c < clusters; ++c) {
    GroupedTileScheduler::Cursor cur;
    int64_t last_group = -1, switches = 0, groups_seen = 0;
    std::set<int64_t> distinct;
    for (int64_t t = c;; t += clusters) {
      const sm90::GroupedTile w = s.next(cur, t);
      if (w.done()) {
        REQUIRE(t >= total_tiles);  // the walk ends past the last tile, not before
        REQUIRE(w.group == sm90::GroupedTile::end().group);
        break;
      }
      REQUIRE(t < total_tiles);
      // the group the prefix sums put t in (the last group whose first tile is at or before t
      // and that has tiles)
      const auto at = std::upper_bound(starts.begin(), starts.end(), t) - starts.begin() - 1;
      REQUIRE(w.group == at);
      REQUIRE(cur.first == starts[std::size_t(at)]);
      ++walked;
      REQUIRE(w.group >= last_group);  // the cursor only moves forward
      if (w.group != last_group) ++switches, distinct.insert(w.group);
      last_group = w.group;
      const GemmGroupShape g = shapes[std::size_t(w.group)];
      REQUIRE((g.m > 0 && g.n > 0));  // empty groups have no tiles
      REQUIRE(w.k_tiles == (g.k > 0 ? (g.k + bk - 1) / bk : 0));
      for (int r = 0; r < cluster_m; ++r) ++seen[{w.group, int64_t(w.m) * cluster_m + r, w.n}];
    }
    groups_seen = int64_t(distinct.size());
    REQUIRE(switches == groups_seen);  // one tensor-map switch per group a cluster visits
  }
  REQUIRE(walked == total_tiles);
  return seen;
}

void check_cover(std::vector<GemmGroupShape> const& shapes, int64_t bm, int64_t bn, int cluster_m, int64_t clusters, int64_t raster_group) {
  INFO("G " << shapes.size() << ", tile " << bm << "x" << bn << ", cluster " << cluster_m << ", clusters " << clusters << ", raster group "
            << raster_group);
  const auto seen = walk(shapes, bm, bn, 64, cluster_m, clusters, raster_group);
  std::size_t expected = 0;
  for (std::size_t g = 0; g < shapes.size(); ++g) {
    const int64_t m = shapes[g].m, n = shapes[g].n;
    if (m <= 0 || n <= 0) continue;
    const int64_t tm = (m + bm - 1) / bm, tn = (n + bn - 1) / bn;
    const int64_t cluster_rows = (tm + cluster_m - 1) / cluster_m * cluster_m;  // CTA tiles the clusters cover
    for (int64_t i = 0; i < cluster_rows; ++i)
      for (int64_t j = 0; j < tn; ++j) {
        const auto it = seen.find({int64_t(g), i, j});
        REQUIRE(it != seen.end());
        REQUIRE(it->second == 1);  // exactly once (rows past M_g: a cluster's clipped CTA tile)
        ++expected;
      }
  }
  REQUIRE(seen.size() == expected);  // nothing outside the groups' tiles
}

// The argument checks' storage (check_grouped_arguments reads pointers, sizes and alignments,
// never the arrays' data): a 128-byte-aligned workspace and one-element arrays.
struct CheckStorage {
  alignas(128) unsigned char ws[1 << 16];
  const GemmGroupShape shapes[1];
  const void* ptrs[1];
  void* dptrs[1];
  const int64_t lds[1];
};
CheckStorage check_storage{};
// check_grouped_arguments refuses a with status s, its message naming `words`.
void refused(GemmGroupedArguments const& a, GemmStatus s, std::string const& words) {
  const GemmResult r = check_grouped_arguments(a);
  INFO(r.message);
  REQUIRE(r.status == s);
  REQUIRE(r.message.find(words) != std::string::npos);
}

}  // namespace

TEST_CASE("grouped scheduler: fixed MoE-like cases", "[kernels][grouped]") {
  // The kernel's shapes (m' = features, n' = tokens, k): uniform, skewed (experts with no
  // tokens, one with most), all empty, a single group.
  const std::vector<std::vector<GemmGroupShape>> cases = {
      {{1536, 512, 2048}, {1536, 512, 2048}, {1536, 512, 2048}, {1536, 512, 2048}},
      {{1536, 0, 2048}, {1536, 3900, 2048}, {1536, 0, 2048}, {1536, 1, 2048}, {1536, 195, 2048}, {1536, 0, 2048}},
      {{256, 0, 64}, {256, 0, 64}},
      {{1000, 1000, 1000}},
      {{257, 129, 0}, {300, 7, 5}, {0, 300, 64}, {1, 1, 1}},
  };
  for (auto const& shapes : cases)
    for (int cluster_m : {1, 2})
      for (int64_t clusters : {1, 2, 3, 66, 132 / cluster_m})
        for (int64_t bn : {128, 256}) check_cover(shapes, 128, bn, cluster_m, clusters, 16 / cluster_m);
}

TEST_CASE("grouped scheduler: generated groups, SM counts and clusters", "[kernels][grouped]") {
  rc::prop("every (group, CTA tile) once", [] {
    const int groups = *rc::gen::inRange(1, 40);
    const auto sizes = *rc::gen::container<std::vector<int>>(std::size_t(groups * 3), rc::gen::inRange(0, 1300));
    std::vector<GemmGroupShape> shapes;
    for (int g = 0; g < groups; ++g) {
      // (m' = features, n' = tokens, k): a third of the groups without tokens, some without features
      const bool empty = sizes[std::size_t(3 * g)] % 3 == 0;
      shapes.push_back({sizes[std::size_t(3 * g + 1)] + (g % 7 == 6 ? 0 : 1), empty ? 0 : sizes[std::size_t(3 * g)], sizes[std::size_t(3 * g + 2)]});
    }
    const int cluster_m = *rc::gen::element(1, 2);
    const int64_t clusters = *rc::gen::inRange(1, 140);
    const int64_t raster = *rc::gen::element(1, 3, 8, 16);
    const int64_t bn = *rc::gen::element(128, 256);
    check_cover(shapes, 128, bn, cluster_m, clusters, raster);
  });
}

TEST_CASE("grouped scheduler: many small groups, a step crossing several of them", "[kernels][grouped]") {
  // 64 and 128 experts of 512 tokens (m' = 1536 features: 6 x 2 cluster tiles per group) on 66
  // clusters: every step of a cluster's walk crosses 5-6 groups, past the lookahead; runs of
  // empty groups longer than the lookahead; a last group that is empty.
  for (int experts : {64, 128}) {
    std::vector<GemmGroupShape> shapes(std::size_t(experts), GemmGroupShape{1536, 512, 2048});
    check_cover(shapes, 128, 256, 2, 66, 8);
    for (std::size_t g = 0; g < shapes.size(); ++g)
      if (g % 11 < 7 || g + 1 == shapes.size()) shapes[g].n = 0;
    check_cover(shapes, 128, 256, 2, 66, 8);
    check_cover(shapes, 128, 256, 2, 1, 8);
  }
}

// The walk handed through the kernel's ring (HandoffRing of GroupedTile words, the host
// barrier's state machine): the producer publishes its cluster's tiles and the end word, each
// consumer warp waits, reads and releases them in rapidcheck's order; every warp sees the
// producer's sequence, ending with the end word, and nothing after it.
TEST_CASE("grouped scheduler: the consumers receive the producer's walk through the ring", "[kernels][grouped]") {
  rc::prop("every consumer warp reads the walk in order", [] {
    const int groups = *rc::gen::inRange(1, 30);
    std::vector<GemmGroupShape> shapes;
    for (int g = 0; g < groups; ++g)
      shapes.push_back({*rc::gen::inRange(0, 900), *rc::gen::element(0, 1, 200, 513), *rc::gen::element(0, 64, 300)});
    GroupedTileScheduler s{shapes.data(), int64_t(groups), 256, 256, 64, 8};
    const int64_t clusters = *rc::gen::inRange(1, 20), c = *rc::gen::inRange<int64_t>(0, clusters);
    std::vector<sm90::GroupedTile> expected;
    {
      GroupedTileScheduler::Cursor cur;
      for (int64_t t = c;; t += clusters) {
        expected.push_back(s.next(cur, t));
        if (expected.back().done()) break;
      }
    }
    constexpr int slots = 4, warps = 8;
    tessera::pipeline::HandoffRing<slots, tessera::pipeline::HostMbarrier, sm90::GroupedTile> ring;
    ring.init(warps);
    tessera::pipeline::PipelineState<slots> prod;
    std::vector<tessera::pipeline::PipelineState<slots>> cons(warps);
    std::vector<std::vector<sm90::GroupedTile>> got(warps);
    GroupedTileScheduler::Cursor cur;
    int64_t t = c;
    bool ended = false;
    for (int steps = 0; steps < 100000; ++steps) {
      std::vector<int> movable;
      if (!ended) movable.push_back(-1);
      for (int w = 0; w < warps; ++w)
        if (got[std::size_t(w)].empty() || !got[std::size_t(w)].back().done()) movable.push_back(w);
      if (movable.empty()) break;
      const int who = *rc::gen::elementOf(movable);
      if (who < 0) {
        if (!ring.producer_try_acquire(prod)) continue;
        const sm90::GroupedTile w = s.next(cur, t);
        t += clusters;
        ring.publish(prod, w);
        ++prod;
        ended = w.done();
        continue;
      }
      auto& st = cons[std::size_t(who)];
      if (!ring.consumer_try_wait(st)) continue;
      got[std::size_t(who)].push_back(ring.read(st));
      ring.consumer_release(st);
      ++st;
    }
    RC_ASSERT(ended);
    for (auto const& g : got) {
      RC_ASSERT(g.size() == expected.size());
      for (std::size_t i = 0; i < g.size(); ++i)
        RC_ASSERT((g[i].group == expected[i].group && g[i].m == expected[i].m && g[i].n == expected[i].n && g[i].k_tiles == expected[i].k_tiles));
    }
  });
}

TEST_CASE("grouped scheduler: a group's tiles follow the single-problem raster", "[kernels][grouped]") {
  const std::vector<GemmGroupShape> shapes = {{300, 700, 64}, {0, 5, 5}, {1000, 513, 64}};
  GroupedTileScheduler s{shapes.data(), 3, 256, 256, 64, 8};
  GroupedTileScheduler::Cursor cur;
  int64_t t = 0;
  for (std::size_t g : {std::size_t(0), std::size_t(2)}) {
    const int64_t tm = (shapes[g].m + 255) / 256, tn = (shapes[g].n + 255) / 256;
    for (int64_t i = 0; i < tm * tn; ++i, ++t) {
      REQUIRE(s.advance(cur, t));
      const auto w = s.work(cur, t);
      const auto r = grouped_raster(i, tm, tn, int64_t(8));
      REQUIRE((w.group == int64_t(g) && w.m == r.m && w.n == r.n));
    }
  }
  REQUIRE_FALSE(s.advance(cur, t));
}

TEST_CASE("grouped GEMM: each group runs as D^T = B^T A^T, D^T column-major", "[kernels][grouped]") {
  rc::prop("the kernel's operands are B_g, A_g, D_g^T and C_g^T, element for element", [] {
    GroupedProblem p;
    p.m = *rc::gen::inRange(1, 5000), p.n = *rc::gen::inRange(1, 5000), p.k = *rc::gen::inRange(1, 5000);
    const Major b_major = *rc::gen::element(Major::Col, Major::Row);
    p.lda = p.k + *rc::gen::inRange(0, 100);
    p.ldb = (b_major == Major::Col ? p.k : p.n) + *rc::gen::inRange(0, 100);
    p.ldc = p.n + *rc::gen::inRange(0, 100);
    p.ldd = p.n + *rc::gen::inRange(0, 100);
    alignas(16) static unsigned char a[16], b[16];
    p.a = a, p.b = b;
    const sm90::GroupedKernelProblem t = sm90::grouped_as_column_major_d(p, b_major);
    RC_ASSERT((t.m == p.n && t.n == p.m && t.k == p.k));
    RC_ASSERT((t.a == p.b && t.b == p.a));
    RC_ASSERT((t.a_extent[0] == t.m && t.a_extent[1] == t.k && t.b_extent[0] == t.n && t.b_extent[1] == t.k));
    for (int s = 0; s < 16; ++s) {
      const int64_t i = *rc::gen::inRange<int64_t>(0, t.m), j = *rc::gen::inRange<int64_t>(0, t.n), kk = *rc::gen::inRange<int64_t>(0, t.k);
      // A'(i, kk) is B_g(kk, i): column-major n * ldb + k, or row-major k * ldb + n
      const int64_t b_at = b_major == Major::Col ? i * p.ldb + kk : kk * p.ldb + i;
      RC_ASSERT(t.a_stride[0] * i + t.a_stride[1] * kk == b_at);
      // B'(j, kk) is A_g(j, kk), row-major; D'(i, j) is D_g(j, i), row-major (C the same)
      RC_ASSERT(t.b_stride[0] * j + t.b_stride[1] * kk == j * p.lda + kk);
      RC_ASSERT(t.d_stride_m * i + t.d_stride_n * j == j * p.ldd + i);
      RC_ASSERT(t.c_stride_m * i + t.c_stride_n * j == j * p.ldc + i);
    }
    // The rows the mainloop reads along K are contiguous for a K-major A' (weight (N, K)) and
    // always for B' (the tokens); the epilogue's column-major stores are contiguous along m'.
    RC_ASSERT((t.b_stride[1] == 1 && t.d_stride_m == 1 && t.c_stride_m == 1));
    RC_ASSERT(t.a_stride[b_major == Major::Col ? 1 : 0] == 1);
  });
  rc::prop("the kernel's tiles cover every element of every D_g once", [] {
    const int groups = *rc::gen::inRange(1, 6);
    const int64_t bm = 128, bn = *rc::gen::element(int64_t(128), int64_t(256));
    const int cluster_m = *rc::gen::element(1, 2);
    std::vector<GroupedProblem> problems;
    std::vector<GemmGroupShape> shapes;
    for (int g = 0; g < groups; ++g) {
      GroupedProblem p;
      p.m = *rc::gen::inRange(0, 700), p.n = *rc::gen::inRange(1, 700), p.k = 64;
      p.lda = p.k, p.ldb = p.k, p.ldd = p.n;
      const sm90::GroupedKernelProblem t = sm90::grouped_as_column_major_d(p, Major::Col);
      problems.push_back(p);
      shapes.push_back({int32_t(t.m), int32_t(t.n), int32_t(t.k)});
    }
    const auto seen = walk(shapes, bm, bn, 64, cluster_m, *rc::gen::inRange(1, 140), 16 / cluster_m);
    std::vector<std::vector<int>> covered(static_cast<std::size_t>(groups));
    for (int g = 0; g < groups; ++g) covered[std::size_t(g)].assign(std::size_t(problems[std::size_t(g)].m * problems[std::size_t(g)].n), 0);
    for (auto const& [tile, count] : seen) {
      const auto [g, i, j] = tile;  // CTA tile (i, j) of D_g^T: D_g's rows j bn.., columns i bm..
      const GroupedProblem& p = problems[std::size_t(g)];
      for (int64_t r = j * bn; r < std::min(p.m, (j + 1) * bn); ++r)
        for (int64_t c = i * bm; c < std::min(p.n, (i + 1) * bm); ++c) covered[std::size_t(g)][std::size_t(r * p.n + c)] += count;
    }
    for (auto const& v : covered)
      for (int c : v) RC_ASSERT(c == 1);
  });
}

TEST_CASE("grouped GEMM: the contiguous form's lowering partitions the tokens", "[kernels][grouped]") {
  rc::prop("groups are the offsets' row ranges", [] {
    const int groups = *rc::gen::inRange(1, 130);
    auto counts = *rc::gen::container<std::vector<int>>(std::size_t(groups), rc::gen::inRange(0, 600));
    for (auto& c : counts)
      if (c % 4 == 0) c = 0;  // experts without tokens
    std::vector<int32_t> offs;
    int32_t sum = 0;
    for (int c : counts) offs.push_back(sum += c);
    const int64_t n = 8 * *rc::gen::inRange(1, 300), k = 8 * *rc::gen::inRange(1, 300);
    const Major b_major = *rc::gen::element(Major::Col, Major::Row);
    alignas(16) static unsigned char base[16];
    GemmGroupedContiguous f;
    f.tokens = sum;
    f.n = n;
    f.k = k;
    f.offs = offs.data();
    f.a = base, f.b = base + 0, f.c = base, f.d = base;
    std::vector<int> covered(std::size_t(sum), 0);
    for (int g = 0; g < groups; ++g) {
      const int64_t begin = g == 0 ? 0 : offs[std::size_t(g - 1)], end = offs[std::size_t(g)];
      const GroupedProblem p = lower_contiguous_group(f, b_major, 2, g, begin, end);
      RC_ASSERT(p.m == counts[std::size_t(g)]);
      RC_ASSERT((p.n == n && p.k == k && p.lda == k && p.ldd == n && p.ldc == n && p.ldb == (b_major == Major::Col ? k : n)));
      RC_ASSERT(static_cast<const unsigned char*>(p.a) == base + 2 * begin * k);
      RC_ASSERT(static_cast<const unsigned char*>(p.b) == base + 2 * int64_t(g) * n * k);
      RC_ASSERT(static_cast<unsigned char*>(p.d) == base + 2 * begin * n);
      for (int64_t r = begin; r < end; ++r) ++covered[std::size_t(r)];
      RC_ASSERT(grouped_group_admissible(p, b_major, 2, true));
    }
    for (int c : covered) RC_ASSERT(c == 1);
  });
  // rows outside A, or running backwards: an empty group
  alignas(16) static unsigned char base[16];
  GemmGroupedContiguous f;
  f.tokens = 100, f.n = 64, f.k = 64, f.a = base, f.b = base, f.d = base;
  REQUIRE(lower_contiguous_group(f, Major::Col, 2, 1, 50, 40).m == 0);
  REQUIRE(lower_contiguous_group(f, Major::Col, 2, 1, 50, 101).m == 0);
  REQUIRE(lower_contiguous_group(f, Major::Col, 2, 1, -1, 10).m == 0);
  REQUIRE(lower_contiguous_group(f, Major::Col, 2, 1, 100, 100).m == 0);
}

TEST_CASE("grouped GEMM: which groups the device takes", "[kernels][grouped]") {
  alignas(16) static unsigned char buf[64];
  GroupedProblem p;
  p.m = 100, p.n = 64, p.k = 32, p.a = buf, p.b = buf, p.d = buf, p.lda = 32, p.ldb = 32, p.ldd = 64;
  REQUIRE(grouped_group_admissible(p, Major::Col, 2, false));
  REQUIRE_FALSE(grouped_group_admissible(p, Major::Col, 2, true));  // beta without C
  GroupedProblem q = p;
  q.lda = 36;  // 72 bytes: not whole 16 bytes
  REQUIRE_FALSE(grouped_group_admissible(q, Major::Col, 2, false));
  q = p, q.a = buf + 2;
  REQUIRE_FALSE(grouped_group_admissible(q, Major::Col, 2, false));
  q = p, q.ldb = 16;  // shorter than K
  REQUIRE_FALSE(grouped_group_admissible(q, Major::Col, 2, false));
  REQUIRE(grouped_group_admissible(q, Major::Row, 2, false) == false);  // (K x N row-major: ldb >= N = 64)
  q.ldb = 64;
  REQUIRE(grouped_group_admissible(q, Major::Row, 2, false));
  q = p, q.n = 60, q.ldb = 64;  // N = 60: 120 bytes, a TMA store of a row would write 8 past it
  REQUIRE_FALSE(grouped_group_admissible(q, Major::Col, 2, false));
  q.n = 56;
  REQUIRE(grouped_group_admissible(q, Major::Col, 2, false));
  q = p, q.k = 0, q.a = nullptr, q.b = nullptr;  // K = 0: A and B not read
  REQUIRE(grouped_group_admissible(q, Major::Col, 2, false));
  q = p, q.m = 0, q.d = nullptr;  // empty: nothing read or written
  REQUIRE(grouped_group_admissible(q, Major::Col, 2, false));
}

TEST_CASE("grouped GEMM: argument checks and workspace", "[kernels][grouped]") {
  auto& [ws, shapes, ptrs, dptrs, lds] = check_storage;
  GemmGroupedArguments g;
  g.groups = 4;
  g.ptr_array = {shapes, ptrs, ptrs, nullptr, dptrs, lds, lds, nullptr, lds};
  g.workspace = ws;
  g.workspace_bytes = gemm_grouped_workspace_size(g);
  REQUIRE(check_grouped_arguments(g));
  GemmGroupedArguments b = g;
  b.groups = 0;
  refused(b, GemmStatus::InvalidSize, "groups = 0");
  b.groups = gemm_grouped_max_groups + 1;
  refused(b, GemmStatus::InvalidSize, "groups = 65537");
  b = g, b.element = Element::F32;
  refused(b, GemmStatus::Unsupported, "f32");
  b = g, b.ptr_array.b = nullptr;
  refused(b, GemmStatus::NullPointer, "the array b is null");
  b = g, b.beta = 0.5f;
  refused(b, GemmStatus::NullPointer, "c (beta != 0)");
  b = g, b.workspace_bytes -= 1;
  refused(b, GemmStatus::InvalidSize, "needs");
  b = g, b.workspace = ws + 16;
  refused(b, GemmStatus::Misaligned, "128-byte");

  GemmGroupedArguments c;
  c.groups = 8;
  c.form = GroupedForm::Contiguous;
  static const int32_t offs[8] = {};
  c.contiguous.tokens = 4096, c.contiguous.n = 1536, c.contiguous.k = 2048;
  c.contiguous.offs = offs, c.contiguous.a = ws, c.contiguous.b = ws, c.contiguous.d = ws;
  c.workspace = ws, c.workspace_bytes = gemm_grouped_workspace_size(c);
  REQUIRE(check_grouped_arguments(c));
  b = c, b.contiguous.offs = nullptr;
  refused(b, GemmStatus::NullPointer, "offs is null");
  b = c, b.contiguous.lda = 2052;  // 4104 bytes
  refused(b, GemmStatus::Misaligned, "lda = 2052");
  b = c, b.contiguous.ldd = 1000;
  refused(b, GemmStatus::InvalidLeadingDim, "ldd = 1000");
  b = c, b.contiguous.k = 2044;  // the weights' rows
  refused(b, GemmStatus::Misaligned, "multiple of 16 bytes");
  b = c, b.contiguous.d = ws + 8;
  refused(b, GemmStatus::Misaligned, "16-byte aligned");
  b = c, b.contiguous.n = 1532, b.contiguous.ldd = 1536;  // D's rows of 3064 bytes in a padded D
  refused(b, GemmStatus::Misaligned, "n = 1532 is not a multiple of 16 bytes");
  b = c, b.contiguous.tokens = -1;
  refused(b, GemmStatus::InvalidSize, "tokens = -1");
  b = c, b.contiguous.k = 0, b.contiguous.a = nullptr, b.contiguous.b = nullptr;  // K = 0: D = beta C, A and B not read
  REQUIRE(check_grouped_arguments(b));

  // The workspace: the sizes, then 128-byte aligned records, one per group.
  for (int64_t groups : {1, 7, 8, 11, 128, 4096}) {
    INFO("G " << groups);
    REQUIRE(grouped_records_offset(groups) % 128 == 0);
    REQUIRE(grouped_records_offset(groups) >= std::size_t(groups) * sizeof(GemmGroupShape));
    REQUIRE(grouped_workspace_bytes(groups) == grouped_records_offset(groups) + std::size_t(groups) * sizeof(GemmGroupRecord));
  }
  REQUIRE(offsetof(GemmGroupRecord, map_a) % 64 == 0);
  REQUIRE(offsetof(GemmGroupRecord, map_b) % 64 == 0);
  REQUIRE(offsetof(GemmGroupRecord, map_d) % 64 == 0);
  REQUIRE(offsetof(GemmGroupRecord, map_c) % 64 == 0);
  REQUIRE(sizeof(GemmGroupRecord) >= 4 * 128 + sizeof(void*));  // the mainloop's two maps, the epilogue's D and C, bias_g
  REQUIRE(offsetof(GemmGroupRecord, bias) >= 4 * 128);
  REQUIRE(sizeof(GemmGroupRecord) % 128 == 0);
}

TEST_CASE("grouped GEMM: every missing array and out-of-range size is named", "[kernels][grouped]") {
  auto& [ws, shapes, ptrs, dptrs, lds] = check_storage;
  // The ptr-array form: each array, by name (c and ldc only where beta != 0).
  GemmGroupedArguments g;
  g.groups = 3, g.beta = 0.5f;
  g.ptr_array = {shapes, ptrs, ptrs, ptrs, dptrs, lds, lds, lds, lds};
  g.workspace = ws, g.workspace_bytes = gemm_grouped_workspace_size(g);
  REQUIRE(check_grouped_arguments(g));
  const std::pair<const char*, void (*)(GemmGroupedPtrArray&)> arrays[] = {
      {"shapes", [](GemmGroupedPtrArray& p) { p.shapes = nullptr; }}, {"a", [](GemmGroupedPtrArray& p) { p.a = nullptr; }},
      {"b", [](GemmGroupedPtrArray& p) { p.b = nullptr; }},           {"d", [](GemmGroupedPtrArray& p) { p.d = nullptr; }},
      {"lda", [](GemmGroupedPtrArray& p) { p.lda = nullptr; }},       {"ldb", [](GemmGroupedPtrArray& p) { p.ldb = nullptr; }},
      {"ldd", [](GemmGroupedPtrArray& p) { p.ldd = nullptr; }},       {"c (beta != 0)", [](GemmGroupedPtrArray& p) { p.c = nullptr; }},
      {"ldc (beta != 0)", [](GemmGroupedPtrArray& p) { p.ldc = nullptr; }}};
  for (auto const& [name, clear] : arrays) {
    GemmGroupedArguments b = g;
    clear(b.ptr_array);
    INFO("array " << name);
    refused(b, GemmStatus::NullPointer, std::string("gemm_grouped (ptr-array form): the array ") + name + " is null");
  }
  GemmGroupedArguments b = g;
  b.beta = 0.0f, b.ptr_array.c = nullptr, b.ptr_array.ldc = nullptr;  // beta = 0: C is not read
  REQUIRE(check_grouped_arguments(b));
  b = g, b.workspace = nullptr;
  refused(b, GemmStatus::NullPointer, "the workspace holds 0 bytes");
  b = g, b.groups = -1;
  refused(b, GemmStatus::InvalidSize, "groups = -1");
  b = g, b.element = Element::E4M3;
  refused(b, GemmStatus::Unsupported, "expected bf16 or f16");

  // The contiguous form: sizes, pointers, leading dimensions, the offsets' reach.
  static const int32_t offs[4] = {};
  GemmGroupedArguments c;
  c.groups = 4, c.form = GroupedForm::Contiguous, c.beta = 1.0f;
  c.contiguous.tokens = 512, c.contiguous.n = 256, c.contiguous.k = 128;
  c.contiguous.offs = offs, c.contiguous.a = ws, c.contiguous.b = ws, c.contiguous.c = ws, c.contiguous.d = ws;
  c.workspace = ws, c.workspace_bytes = gemm_grouped_workspace_size(c);
  REQUIRE(check_grouped_arguments(c));
  for (int64_t GemmGroupedContiguous::*size : {&GemmGroupedContiguous::tokens, &GemmGroupedContiguous::n, &GemmGroupedContiguous::k})
    for (int64_t bad : {int64_t(-1), int64_t(1) << 31}) {
      b = c, b.contiguous.*size = bad;
      INFO("size " << bad);
      refused(b, GemmStatus::InvalidSize, "each in 0 .. 2^31 - 1");
    }
  b = c, b.contiguous.d = nullptr;
  refused(b, GemmStatus::NullPointer, "gemm_grouped (contiguous form): d is null");
  b = c, b.contiguous.a = nullptr;
  refused(b, GemmStatus::NullPointer, "gemm_grouped (contiguous form): a is null");
  b = c, b.contiguous.b = nullptr;
  refused(b, GemmStatus::NullPointer, "gemm_grouped (contiguous form): b is null");
  b = c, b.contiguous.c = nullptr;
  refused(b, GemmStatus::NullPointer, "gemm_grouped (contiguous form): c (beta != 0) is null");
  b = c, b.contiguous.lda = 64;  // shorter than K = 128
  refused(b, GemmStatus::InvalidLeadingDim, "lda = 64 is shorter than a row (128)");
  b = c, b.contiguous.ldc = 255;
  refused(b, GemmStatus::InvalidLeadingDim, "ldc = 255 is shorter than a row (256)");
  b = c, b.contiguous.ldc = 260;  // 520 bytes
  refused(b, GemmStatus::Misaligned, "ldc = 260 elements is not a multiple of 16 bytes");
  // (G, K, N) weights of rows of 504 bytes: D's rows are too, which is said first
  b = c, b.contiguous.n = 252, b.contiguous.ldc = b.contiguous.ldd = 256, b.b_major = Major::Row;
  refused(b, GemmStatus::Misaligned, "n = 252 is not a multiple of 16 bytes");
  b = c, b.contiguous.b = ws + 4;
  refused(b, GemmStatus::Misaligned, "must be 16-byte aligned");
  b = c, b.groups = 65536, b.contiguous.n = b.contiguous.k = (int64_t(1) << 31) - 8;  // G N K beyond 2^62
  b.workspace_bytes = sizeof(ws);
  refused(b, GemmStatus::Overflow, "G * N * K overflows 64-bit offsets");
}

// The TMA-store epilogue's template plan, as CollectiveEpilogueSm90TmaStore::make_proto derives
// it for a 16-bit D of the 128x256 tile with two consumer warpgroups (the grouped kernel's):
// its staging tile over a representative column-major 1024 x 1024 tensor.
namespace {
using GroupedStaging = sm90::EpilogueStaging<16, 256, 2, 1>;
tessera::tma::Arguments epilogue_template() {
  using namespace tessera;
  tma::Arguments a;
  (void)make_tma_copy<SM90_TMA_STORE, 1, 16>(a, make_layout(make_shape(int64_t(1024), int64_t(1024)), make_stride(int64_t(1), int64_t(1024))),
                                            GroupedStaging::staging);
  return a;
}
}  // namespace

TEST_CASE("grouped GEMM: the epilogue's per-group maps of D_g^T", "[kernels][grouped]") {
  const tessera::tma::Arguments tmpl = epilogue_template();
  REQUIRE(tmpl.rule == tessera::tma::Rule::ok);
  REQUIRE(tessera::tma::make_tile_boxes<1>(tmpl, GroupedStaging::staging).ok());
  rc::prop("extents and strides are the group's D^T (and C^T); misaligned rows are refused", [&] {
    GroupedProblem p;
    p.m = *rc::gen::inRange(1, 5000), p.n = *rc::gen::inRange(1, 5000), p.k = *rc::gen::inRange(0, 5000);
    p.ldd = (p.n + 7) / 8 * 8 + 8 * *rc::gen::inRange(0, 20);  // whole 16 bytes of bf16
    p.ldc = (p.n + 7) / 8 * 8 + 8 * *rc::gen::inRange(0, 20);
    p.lda = p.k, p.ldb = p.k;
    const sm90::GroupedKernelProblem t = sm90::grouped_as_column_major_d(p, Major::Col);
    RC_ASSERT((t.d_extent[0] == p.n && t.d_extent[1] == p.m));
    for (bool c : {false, true}) {
      const tessera::tma::Arguments a = sm90::grouped_output_arguments(tmpl, t, c);
      RC_ASSERT(a.rule == tessera::tma::Rule::ok);
      RC_ASSERT(a.rank == 2);
      // dim 0 runs along D_g's row (n: contiguous), dim 1 down its rows (m), ld elements apart
      RC_ASSERT((a.global_dim[0] == p.n && a.global_dim[1] == p.m));
      RC_ASSERT(a.global_stride_bytes[1] == 2 * (c ? p.ldc : p.ldd));
      RC_ASSERT((a.box_dim[0] == tmpl.box_dim[0] && a.box_dim[1] == tmpl.box_dim[1]));  // the staging part, whatever the group
    }
    // a leading dimension of D not on 16 bytes: no map (grouped_group_admissible refuses it too)
    GroupedProblem q = p;
    q.ldd = p.ldd + 1;
    const tessera::tma::Arguments bad = sm90::grouped_output_arguments(tmpl, sm90::grouped_as_column_major_d(q, Major::Col), false);
    RC_ASSERT(bad.rule != tessera::tma::Rule::ok);
    RC_ASSERT_FALSE(grouped_group_admissible(q, Major::Col, 2, false));
  });
  rc::prop("the TMA stores of the kernel's tiles write every element of every D_g once", [&] {
    // Groups with residues along both M_g (tokens) and N_g (features), some without tokens.
    const int groups = *rc::gen::inRange(1, 5);
    const int cluster_m = 2;
    std::vector<GroupedProblem> problems;
    std::vector<GemmGroupShape> shapes;
    for (int g = 0; g < groups; ++g) {
      GroupedProblem p;
      p.m = *rc::gen::element(0, 1, 7, 128, 255, 256, 257, 600);
      p.n = *rc::gen::element(8, 120, 128, 136, 256, 264, 520);
      p.k = 64, p.lda = 64, p.ldb = 64;
      p.ldd = p.n + 8 * *rc::gen::inRange(0, 3);
      problems.push_back(p);
      const sm90::GroupedKernelProblem t = sm90::grouped_as_column_major_d(p, Major::Col);
      shapes.push_back({int32_t(t.m), int32_t(t.n), int32_t(t.k)});
    }
    const auto seen = walk(shapes, 128, 256, 64, cluster_m, *rc::gen::inRange(1, 140), 16 / cluster_m);
    std::vector<std::vector<int>> covered(static_cast<std::size_t>(groups));
    std::vector<int64_t> outside(static_cast<std::size_t>(groups), 0);
    for (int g = 0; g < groups; ++g) covered[std::size_t(g)].assign(std::size_t(problems[std::size_t(g)].m * problems[std::size_t(g)].ldd), 0);
    for (auto const& [tile, count] : seen) {
      const auto [g, i, j] = tile;
      const GroupedProblem& p = problems[std::size_t(g)];
      const sm90::GroupedKernelProblem t = sm90::grouped_as_column_major_d(p, Major::Col);
      const tessera::tma::Arguments a = sm90::grouped_output_arguments(tmpl, t, false);
      RC_ASSERT(a.rule == tessera::tma::Rule::ok);
      // Each consumer warpgroup's parts, as the epilogue stores them: the box at the part's
      // origin, clipped by the map's bounds; element (m', n') lands at n' * stride + m'.
      for (int wg = 0; wg < 2; ++wg)
        for (int h = 0; h < GroupedStaging::Parts; ++h) {
          const auto o = GroupedStaging::part_origin(int64_t(i), int64_t(j), int64_t(0), wg, h);
          const int64_t m0 = int64_t(tessera::get<0>(o)), n0 = int64_t(tessera::get<1>(o));
          for (int64_t x = m0; x < m0 + a.box_dim[0]; ++x)
            for (int64_t y = n0; y < n0 + a.box_dim[1]; ++y) {
              if (x >= a.global_dim[0] || y >= a.global_dim[1]) continue;  // TMA clips it
              const int64_t at = y * (a.global_stride_bytes[1] / 2) + x;
              if (x >= p.n || y >= p.m) ++outside[std::size_t(g)];
              else covered[std::size_t(g)][std::size_t(at)] += count;
            }
        }
    }
    for (int g = 0; g < groups; ++g) {
      const GroupedProblem& p = problems[std::size_t(g)];
      RC_ASSERT(outside[std::size_t(g)] == 0);
      for (int64_t r = 0; r < p.m; ++r)
        for (int64_t c = 0; c < p.ldd; ++c)  // D_g's elements once, the padding of its rows never
          RC_ASSERT(covered[std::size_t(g)][std::size_t(r * p.ldd + c)] == (c < p.n ? 1 : 0));
    }
  });
}

// The fused epilogue's arguments (activation, per-column bias): what the fused kernels take, each
// refusal with its reason, and the bias's lowering per group.
TEST_CASE("grouped GEMM: the fused epilogue's argument checks", "[kernels][grouped]") {
  auto& [ws, shapes, ptrs, dptrs, lds] = check_storage;
  GemmGroupedArguments g;
  g.groups = 3;
  g.ptr_array = {shapes, ptrs, ptrs, nullptr, dptrs, lds, lds, nullptr, lds, ptrs};
  g.activation = Activation::GELU;
  g.bias = Bias::PerColumn;
  g.workspace = ws, g.workspace_bytes = gemm_grouped_workspace_size(g);
  REQUIRE(grouped_fused(g));
  REQUIRE(check_grouped_arguments(g));
  for (Activation a : {Activation::Identity, Activation::ReLU, Activation::GELU, Activation::GELUTanh, Activation::SiLU}) {
    GemmGroupedArguments b = g;
    b.activation = a;
    INFO(to_string(a));
    REQUIRE(check_grouped_arguments(b));  // with the bias
    b.bias = Bias::None, b.ptr_array.bias = nullptr;
    REQUIRE(check_grouped_arguments(b));  // without it
    REQUIRE(grouped_fused(b) == (a != Activation::Identity));  // identity without bias: the plain epilogue
  }
  GemmGroupedArguments b = g;
  b.activation = static_cast<Activation>(9);
  refused(b, GemmStatus::Unsupported, "activation = 9 is not an Activation");
  b = g, b.bias = static_cast<Bias>(7);
  refused(b, GemmStatus::Unsupported, "bias = 7 is not a Bias mode");
  b = g, b.bias = Bias::PerRow;
  refused(b, GemmStatus::Unsupported, "bias = per-row is not offered");
  b = g, b.ptr_array.bias = nullptr;
  refused(b, GemmStatus::NullPointer, "ptr_array.bias is null while bias = per-column");
  b = g, b.bias = Bias::None;  // the array given without the mode
  refused(b, GemmStatus::Unsupported, "ptr_array.bias is set while bias = none");
  b = g, b.element = Element::F16;
  refused(b, GemmStatus::Unsupported, "runs bf16 only, not f16");
  b = g, b.b_major = Major::Row;
  refused(b, GemmStatus::Unsupported, "needs weights (G, N, K)");
  b = g, b.beta = 0.5f, b.ptr_array.c = ptrs, b.ptr_array.ldc = lds;
  refused(b, GemmStatus::Unsupported, "takes beta = 0");
  // the same refusals without a bias: the activation alone makes the epilogue fused
  b = g, b.bias = Bias::None, b.ptr_array.bias = nullptr, b.element = Element::F16;
  refused(b, GemmStatus::Unsupported, "(activation gelu, bias none) runs bf16 only");
  b = g, b.bias = Bias::None, b.ptr_array.bias = nullptr, b.b_major = Major::Row;
  refused(b, GemmStatus::Unsupported, "needs weights (G, N, K)");
  // the plain epilogue is untouched: f16, (G, K, N) and beta run without activation and bias
  b = g, b.activation = Activation::Identity, b.bias = Bias::None, b.ptr_array.bias = nullptr, b.element = Element::F16;
  REQUIRE(check_grouped_arguments(b));
  b.element = Element::BF16, b.b_major = Major::Row;
  REQUIRE(check_grouped_arguments(b));
  // ... but f16 with (G, K, N) weights has no kernel, fused or not: refused on the host, whatever
  // the device
  b.element = Element::F16;
  refused(b, GemmStatus::Unsupported, "no kernel for f16 with weights (G, K, N)");
  b.activation = Activation::ReLU;
  refused(b, GemmStatus::Unsupported, "no kernel for f16 with weights (G, K, N)");

  // The contiguous form: (G, N) with its stride, aligned to its element.
  static const int32_t offs[4] = {};
  GemmGroupedArguments c;
  c.groups = 4, c.form = GroupedForm::Contiguous;
  c.contiguous.tokens = 512, c.contiguous.n = 256, c.contiguous.k = 128;
  c.contiguous.offs = offs, c.contiguous.a = ws, c.contiguous.b = ws, c.contiguous.d = ws, c.contiguous.bias = ws;
  c.activation = Activation::SiLU, c.bias = Bias::PerColumn;
  c.workspace = ws, c.workspace_bytes = gemm_grouped_workspace_size(c);
  REQUIRE(check_grouped_arguments(c));
  b = c, b.contiguous.bias_stride = 256;
  REQUIRE(check_grouped_arguments(b));
  b = c, b.contiguous.bias_stride = 300;  // any stride >= N (the bias is read element by element)
  REQUIRE(check_grouped_arguments(b));
  b = c, b.contiguous.bias_stride = 255;
  refused(b, GemmStatus::InvalidLeadingDim, "bias_stride = 255 is shorter than a group's bias (N = 256");
  b = c, b.contiguous.bias_stride = -1;
  refused(b, GemmStatus::InvalidLeadingDim, "bias_stride = -1");
  b = c, b.contiguous.bias = ws + 1;
  refused(b, GemmStatus::Misaligned, "bias is not aligned to its element");
  b = c, b.contiguous.bias = ws + 2;  // 2 bytes suffice
  REQUIRE(check_grouped_arguments(b));
  b = c, b.contiguous.bias = nullptr;
  refused(b, GemmStatus::NullPointer, "contiguous.bias is null while bias = per-column ((G, N)");
  b = c, b.bias = Bias::None;
  refused(b, GemmStatus::Unsupported, "contiguous.bias is set while bias = none");
  b = c, b.groups = 65536, b.contiguous.bias_stride = int64_t(1) << 50, b.workspace_bytes = sizeof(ws);
  refused(b, GemmStatus::Overflow, "G * bias_stride overflows");
}

TEST_CASE("grouped GEMM: the fused epilogue's bias per group", "[kernels][grouped]") {
  alignas(16) static unsigned char base[16];
  alignas(16) static unsigned char bias[16];
  GemmGroupedContiguous f;
  f.tokens = 1000, f.n = 200, f.k = 64, f.a = base, f.b = base, f.d = base, f.bias = bias;
  // row g of (G, N): g N elements in (dense), or g bias_stride
  for (int64_t g : {0, 1, 5}) {
    REQUIRE(static_cast<const unsigned char*>(lower_contiguous_group(f, Major::Col, 2, g, 10, 20).bias) == bias + 2 * g * 200);
    GemmGroupedContiguous s = f;
    s.bias_stride = 264;
    REQUIRE(static_cast<const unsigned char*>(lower_contiguous_group(s, Major::Col, 2, g, 10, 20).bias) == bias + 2 * g * 264);
    s.bias = nullptr;  // no bias: none for every group
    REQUIRE(lower_contiguous_group(s, Major::Col, 2, g, 10, 20).bias == nullptr);
  }
  // The kernel runs D_g^T: the bias's index is the kernel's row (M' = N_g), its length t.m.
  GroupedProblem p = lower_contiguous_group(f, Major::Col, 2, 3, 10, 20);
  const sm90::GroupedKernelProblem t = sm90::grouped_as_column_major_d(p, Major::Col);
  REQUIRE(t.m == f.n);
  REQUIRE(t.n == 10);
  // The device takes a bias on its element's 2 bytes, null or not, and refuses an odd address.
  REQUIRE(grouped_group_admissible(p, Major::Col, 2, false));
  p.bias = nullptr;
  REQUIRE(grouped_group_admissible(p, Major::Col, 2, false));
  p.bias = bias + 2;
  REQUIRE(grouped_group_admissible(p, Major::Col, 2, false));
  p.bias = bias + 1;
  REQUIRE_FALSE(grouped_group_admissible(p, Major::Col, 2, false));
}
