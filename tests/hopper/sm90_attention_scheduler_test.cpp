// The attention grid's order (kernels/kernel/sm90_attention_scheduler.hpp), on the host: the map
// is a bijection onto (Q tile, head, batch) in both orders, longest_first takes each section's
// Q tiles heaviest first, a wave of CTAs reads the K and V of at most two sections, varlen tiles
// past their sequence's end still map to a CTA that exits; and a model of the grid (list
// scheduling of the blocks in index order on 132 SMs, each CTA costing its key tiles plus a
// constant) comparing the two orders' makespans at the bench's causal shapes. The persistent
// grid: strided, every tile once; with the counter, every tile once at random CTA speeds and the
// counter zero after each launch; one CTA's pipelines and work-tile ring across tiles in random
// interleavings; the model's table of persistent schedules under a causal mask and for varlen
// batches (strided, boustrophedon, an LPT table, the counter) against the per-tile grid, and
// the rule by which AttentionGrid picks one.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <queue>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "collective/sm90_attention_config.hpp"
#include "collective/sm90_attention_problem.hpp"
#include "kernel/sm90_attention_scheduler.hpp"
#include "tessera/pipeline/handoff_ring.hpp"
#include "tessera/pipeline/tma_pipeline.hpp"

using namespace tessera;
using namespace tessera::kernels::sm90::attention;
using tessera::kernels::AttentionGrid;

namespace {

constexpr int kH200Sms = 132;

// Every block maps into the grid, no (m, h, b) twice: with blocks() blocks, a bijection.
void check_bijection(AttentionTileScheduler const& s) {
  INFO("tiles " << s.tiles << ", heads " << s.heads << ", batch " << s.batch << ", section " << s.section << ", order "
                << int(s.order));
  REQUIRE(s.valid());
  std::vector<char> seen(std::size_t(s.blocks()), 0);
  for (int l = 0; l < int(s.blocks()); ++l) {
    const AttentionTile t = s.tile(l);
    REQUIRE((0 <= t.m && t.m < s.tiles && 0 <= t.h && t.h < s.heads && 0 <= t.b && t.b < s.batch));
    char& c = seen[std::size_t((std::int64_t(t.b) * s.heads + t.h) * s.tiles + t.m)];
    REQUIRE(c == 0);
    c = 1;
  }
}

// The head-batch pair's section of a longest_first block.
int section_of(AttentionTileScheduler const& s, AttentionTile t) { return (t.b * s.heads + t.h) / s.section; }

// longest_first: within a section the Q tiles go from the last to the first, each Q tile for all
// of the section's pairs before the next; the sections in order.
void check_heaviest_first(AttentionTileScheduler const& s) {
  REQUIRE(s.order == TileOrder::longest_first);
  for (int l = 1; l < int(s.blocks()); ++l) {
    const AttentionTile a = s.tile(l - 1), b = s.tile(l);
    const int sa = section_of(s, a), sb = section_of(s, b);
    REQUIRE(sa <= sb);
    if (sa == sb) REQUIRE(b.m <= a.m);
    else REQUIRE((a.m == 0 && b.m == s.tiles - 1));
  }
}

// Any `wave` consecutive blocks read the K and V of at most two sections' KV heads, where a
// section holds at least a wave of blocks (else a wave spans more sections by construction).
void check_wave_kv_heads(AttentionTileScheduler const& s, int kv_heads, int wave) {
  if (std::int64_t(s.section) * s.tiles < wave) return;
  const int group = s.heads / kv_heads, kv_per_section = (s.section + group - 1) / group;
  for (int l0 = 0; l0 + wave <= int(s.blocks()); l0 += wave / 3) {
    std::set<std::pair<int, int>> kv;
    for (int l = l0; l < l0 + wave; ++l) {
      const AttentionTile t = s.tile(l);
      kv.insert({t.b, t.h / group});
    }
    REQUIRE(int(kv.size()) <= 2 * kv_per_section);
  }
}

// The makespan of a grid whose blocks start in index order, each on the SM that frees first (the
// hardware's block dispatch with one CTA per SM), block l costing cost(l).
double makespan(std::int64_t blocks, std::function<double(int)> const& cost, int sms) {
  std::priority_queue<double, std::vector<double>, std::greater<>> free_at;
  for (int i = 0; i < sms; ++i) free_at.push(0.0);
  double end = 0.0;
  for (int l = 0; l < int(blocks); ++l) {
    const double t = free_at.top() + cost(l);
    free_at.pop();
    free_at.push(t);
    end = std::max(end, t);
  }
  return end;
}
// A persistent grid of `sms` CTAs with a static assignment (CTA i takes blocks i, i + sms, ...):
// the slowest CTA's sum.
double makespan_static_persistent(std::int64_t blocks, std::function<double(int)> const& cost, int sms) {
  double end = 0.0;
  for (int i = 0; i < sms; ++i) {
    double t = 0.0;
    for (std::int64_t l = i; l < blocks; l += sms) t += cost(int(l));
    end = std::max(end, t);
  }
  return end;
}

// The schedule the adapter (kernels/device/sm90_attention.cuh) builds for these arguments.
AttentionTileScheduler schedule_for(int batch, int heads, int kv_heads, int seqlen_q, int seqlen_k, int head_dim, int bM, bool causal,
                                    bool varlen) {
  return {(seqlen_q + bM - 1) / bM, heads, batch, kv_section(heads, kv_heads, batch, seqlen_k, head_dim, 2), tile_order_for(causal, varlen)};
}

// A CTA's cost in key tiles: its key tiles plus `fixed` (the prologue and epilogue), 0 when its
// Q tile lies past its sequence's end (it exits at once).
std::function<double(int)> cta_cost(Problem const& p, AttentionTileScheduler const& s, int bM, int bN, double fixed) {
  return [=](int l) {
    const AttentionTile t = s.tile(l);
    const WorkItem w = work_item(p, t.m, t.h, t.b, bM, bN);
    return w.empty_rows(bM) ? 0.0 : w.key_tiles + fixed;
  };
}

struct Modelled {
  double old_order, new_order, static_persistent, bound;
};
Modelled model(Problem const& p, AttentionTileScheduler s, int bM, int bN, double fixed) {
  double total = 0.0, longest = 0.0;
  auto cost = cta_cost(p, s, bM, bN, fixed);
  for (int l = 0; l < int(s.blocks()); ++l) total += cost(l), longest = std::max(longest, cost(l));
  Modelled r{};
  r.new_order = makespan(s.blocks(), cost, kH200Sms);
  r.static_persistent = makespan_static_persistent(s.blocks(), cost, kH200Sms);
  r.bound = std::max(total / kH200Sms, longest);  // no schedule on 132 SMs ends sooner
  s.order = TileOrder::tile_major;
  r.old_order = makespan(s.blocks(), cta_cost(p, s, bM, bN, fixed), kH200Sms);
  return r;
}

template <int D>
void model_bench_shape(int S) {
  using Cfg = DefaultConfig<bfloat16_t, D>;
  const int B = 4, H = 16;
  const Problem p{B, H, H, S, S, S, nullptr, nullptr, 1.f, true};
  const AttentionTileScheduler s = schedule_for(B, H, H, S, S, D, Cfg::bM, true, false);
  REQUIRE(s.order == TileOrder::longest_first);
  check_bijection(s);
  for (double fixed : {0.0, 1.0, 2.0}) {
    const Modelled m = model(p, s, Cfg::bM, Cfg::bN, fixed);
    INFO("D " << D << ", S " << S << ", fixed " << fixed);
    REQUIRE(m.new_order <= m.old_order);
    REQUIRE(m.new_order >= m.bound);
    // longest_first lands within 2 % of the bound: a persistent scheduler taking the same
    // order would gain at most that much from its choice of blocks.
    REQUIRE(m.new_order <= 1.02 * m.bound);
    if (fixed == 1.0)
      std::printf("D %3d S %5d (bM %3d, bN %3d, %4d CTAs, section %2d): tile_major %6.0f  longest_first %6.0f  gain %.3f  "
                  "(bound %7.1f; tile_major / bound %.3f; static persistent %6.0f)\n",
                  D, S, Cfg::bM, Cfg::bN, int(s.blocks()), s.section, m.old_order, m.new_order, m.old_order / m.new_order, m.bound,
                  m.old_order / m.bound, m.static_persistent);
  }
}

}  // namespace

TEST_CASE("sm90 attention schedule: a bijection onto (Q tile, head, batch) in both orders") {
  for (auto order : {TileOrder::tile_major, TileOrder::longest_first}) {
    check_bijection({1, 1, 1, 1, order});
    check_bijection({22, 16, 4, 32, order});   // 64 pairs: two sections
    check_bijection({22, 16, 4, 64, order});   // (section = all pairs)
    check_bijection({7, 5, 3, 4, order});      // 15 pairs: sections 4, 4, 4, 3
    check_bijection({7, 5, 3, 100, order});    // a section taller than the pairs
    check_bijection({128, 16, 4, 4, order});
  }
  rc::prop("any grid and section", [] {
    const AttentionTileScheduler s{*rc::gen::inRange(1, 40), *rc::gen::inRange(1, 20), *rc::gen::inRange(1, 6), *rc::gen::inRange(1, 50),
                                   *rc::gen::element(TileOrder::tile_major, TileOrder::longest_first)};
    check_bijection(s);
  });
}

TEST_CASE("sm90 attention schedule: tile_major takes m fastest, then h, then b") {
  const AttentionTileScheduler s{7, 5, 3, 4, TileOrder::tile_major};
  int l = 0;
  for (int b = 0; b < 3; ++b)
    for (int h = 0; h < 5; ++h)
      for (int m = 0; m < 7; ++m, ++l) {
        const AttentionTile t = s.tile(l);
        REQUIRE((t.m == m && t.h == h && t.b == b));
      }
}

TEST_CASE("sm90 attention schedule: longest_first goes heaviest first in sections, a wave within two sections' K and V") {
  check_heaviest_first({7, 5, 3, 4, TileOrder::longest_first});
  check_heaviest_first({22, 16, 4, 32, TileOrder::longest_first});
  check_heaviest_first({128, 16, 4, 4, TileOrder::longest_first});
  check_wave_kv_heads({128, 16, 4, 4, TileOrder::longest_first}, 16, kH200Sms);
  check_wave_kv_heads({43, 16, 4, 16, TileOrder::longest_first}, 16, kH200Sms);
  check_wave_kv_heads({64, 32, 2, 8, TileOrder::longest_first}, 4, kH200Sms);  // (GQA: 8 query heads a KV head)
  rc::prop("any grid and section", [] {
    const int kv = *rc::gen::inRange(1, 5), heads = kv * *rc::gen::inRange(1, 5), batch = *rc::gen::inRange(1, 5);
    const int group = heads / kv;
    const AttentionTileScheduler s{*rc::gen::inRange(1, 60), heads, batch, group * *rc::gen::inRange(1, 6), TileOrder::longest_first};
    check_bijection(s);
    check_heaviest_first(s);
    check_wave_kv_heads(s, kv, *rc::gen::inRange(8, 64));
  });
}

TEST_CASE("sm90 attention schedule: the section's K and V fit the L2 budget, in whole KV-head groups") {
  auto check = [](int heads, int kv_heads, int batch, std::int64_t sk, int d) {
    INFO(heads << " heads, " << kv_heads << " KV heads, batch " << batch << ", seqlen_k " << sk << ", D " << d);
    const int s = kv_section(heads, kv_heads, batch, sk, d, 2), group = heads / kv_heads;
    const std::int64_t per_kv = 2 * sk * d * 2;
    REQUIRE(s >= group);
    REQUIRE(s <= heads * batch);
    REQUIRE((s % group == 0 || s == heads * batch));
    if (s > group) REQUIRE(std::int64_t(s / group) * per_kv <= kv_l2_budget);  // more than one KV head: within the budget
    if (s < heads * batch) REQUIRE(std::int64_t(s / group + 1) * per_kv > kv_l2_budget);  // and as many as fit
  };
  check(16, 16, 4, 4096, 64);    // 1 MiB a head: 32 heads
  check(16, 16, 4, 16384, 128);  // 8 MiB: 4
  check(16, 16, 4, 1 << 20, 256);  // 1 GiB a head: one
  check(32, 4, 2, 8192, 128);    // GQA: 8 query heads a KV head
  check(8, 8, 1, 0, 64);         // no keys: one section
  check(16, 16, 4, 1024, 64);    // everything fits: one section
  REQUIRE(kv_section(16, 16, 4, 4096, 64, 2) == 32);
  REQUIRE(kv_section(16, 16, 4, 16384, 128, 2) == 4);
}

TEST_CASE("sm90 attention schedule: varlen tiles past a sequence's end exit, every row once") {
  const std::vector<int> lengths{700, 5, 1, 300, 64, 65, 1000};
  std::vector<int> cu{0};
  for (int n : lengths) cu.push_back(cu.back() + n);
  const int bM = 128, bN = 128, heads = 3, batch = int(lengths.size());
  const int longest = *std::max_element(lengths.begin(), lengths.end());
  for (bool causal : {false, true}) {
    const Problem p{batch, heads, heads, longest, longest, cu.back(), cu.data(), cu.data(), 1.f, causal};
    AttentionTileScheduler s = schedule_for(batch, heads, heads, longest, longest, 64, bM, causal, true);
    REQUIRE(s.order == TileOrder::longest_first);
    for (auto order : {TileOrder::longest_first, TileOrder::tile_major}) {
      s.order = order;
      check_bijection(s);
      std::vector<int> covered(std::size_t(cu.back()) * heads, 0);
      int exits = 0;
      for (int l = 0; l < int(s.blocks()); ++l) {
        const AttentionTile t = s.tile(l);
        const WorkItem w = work_item(p, t.m, t.h, t.b, bM, bN);
        REQUIRE(w.sq == lengths[std::size_t(t.b)]);
        if (w.empty_rows(bM)) {
          REQUIRE(t.m * bM >= lengths[std::size_t(t.b)]);
          ++exits;
          continue;
        }
        for (int r = t.m * bM; r < std::min(w.sq, (t.m + 1) * bM); ++r) ++covered[std::size_t(w.q_begin + r) * heads + std::size_t(t.h)];
      }
      REQUIRE(std::all_of(covered.begin(), covered.end(), [](int c) { return c == 1; }));
      int expected_exits = 0;
      for (int n : lengths) expected_exits += heads * (s.tiles - (n + bM - 1) / bM);
      REQUIRE(exits == expected_exits);
    }
  }
}

TEST_CASE("sm90 attention schedule: the model of the grid at the bench's causal shapes (B4 H16, 132 SMs)") {
  for (int S : {4096, 8192, 16384}) model_bench_shape<64>(S);
  for (int S : {4096, 8192, 16384}) model_bench_shape<128>(S);
  // Full attention: every Q tile costs the same, so the order cannot matter to the model.
  using Cfg = DefaultConfig<bfloat16_t, 128>;
  const Problem full{4, 16, 16, 4096, 4096, 4096, nullptr, nullptr, 1.f, false};
  AttentionTileScheduler s = schedule_for(4, 16, 16, 4096, 4096, 128, Cfg::bM, false, false);
  REQUIRE(s.order == TileOrder::tile_major);
  s.order = TileOrder::longest_first;
  const Modelled m = model(full, s, Cfg::bM, Cfg::bN, 1.0);
  REQUIRE(m.new_order == m.old_order);
}

TEST_CASE("sm90 attention schedule: the model of a varlen batch, long and short sequences mixed") {
  // Eight sequences, one of 16384: tile_major takes the batches in order, longest_first the Q
  // tiles from the last, which only the longer sequences have.
  const std::vector<int> lengths{1024, 512, 16384, 2048, 256, 4096, 768, 3000};
  std::vector<int> cu{0};
  for (int n : lengths) cu.push_back(cu.back() + n);
  using Cfg = DefaultConfig<bfloat16_t, 128>;
  const int heads = 16, batch = int(lengths.size()), longest = 16384;
  for (bool causal : {false, true}) {
    const Problem p{batch, heads, heads, longest, longest, cu.back(), cu.data(), cu.data(), 1.f, causal};
    const AttentionTileScheduler s = schedule_for(batch, heads, heads, longest, longest, 128, Cfg::bM, causal, true);
    const Modelled m = model(p, s, Cfg::bM, Cfg::bN, 1.0);
    INFO((causal ? "causal" : "full"));
    REQUIRE(m.new_order <= m.old_order);
    std::printf("varlen %s (8 sequences 256..16384, H16, D 128): tile_major %6.0f  longest_first %6.0f  gain %.3f  (bound %7.1f)\n",
                causal ? "causal" : "full  ", m.old_order, m.new_order, m.old_order / m.new_order, m.bound);
  }
}

namespace {

// The persistent grid over a schedule: min(blocks, resident) CTAs; CTA c's loop (the kernel's:
// block = c, c + ctas, ... while below blocks, in 32-bit unsigned words) visits
// PersistentGrid::block(c, n) for n < blocks_of(c), increasing; together the CTAs take every
// (m, h, b) exactly once, and their counts differ by at most one. Under longest_first a CTA's
// tiles within a section go heaviest first, as the schedule's.
void check_persistent(AttentionTileScheduler const& s, std::int64_t resident) {
  INFO("tiles " << s.tiles << ", heads " << s.heads << ", batch " << s.batch << ", section " << s.section << ", order " << int(s.order)
                << ", resident " << resident);
  REQUIRE(s.valid());
  const PersistentGrid g = PersistentGrid::over(s.blocks(), resident);
  REQUIRE(g.ctas == std::min(s.blocks(), resident));
  std::vector<char> seen(std::size_t(s.blocks()), 0);
  std::int64_t least = s.blocks(), most = 0, total = 0;
  for (int cta = 0; cta < g.ctas; ++cta) {
    std::vector<std::int64_t> loop;
    for (std::uint32_t block = std::uint32_t(cta); block < std::uint32_t(s.blocks()); block += std::uint32_t(g.ctas)) loop.push_back(block);
    REQUIRE(std::int64_t(loop.size()) == g.blocks_of(cta, s.blocks()));
    least = std::min<std::int64_t>(least, std::int64_t(loop.size())), most = std::max<std::int64_t>(most, std::int64_t(loop.size()));
    total += std::int64_t(loop.size());
    for (std::size_t n = 0; n < loop.size(); ++n) {
      REQUIRE(loop[n] == g.block(cta, std::int64_t(n)));
      const AttentionTile t = s.tile(int(loop[n]));
      REQUIRE((0 <= t.m && t.m < s.tiles && 0 <= t.h && t.h < s.heads && 0 <= t.b && t.b < s.batch));
      char& c = seen[std::size_t((std::int64_t(t.b) * s.heads + t.h) * s.tiles + t.m)];
      REQUIRE(c == 0);
      c = 1;
      if (n > 0) {
        REQUIRE(loop[n] > loop[n - 1]);
        const AttentionTile prev = s.tile(int(loop[n - 1]));
        if (s.order == TileOrder::longest_first && section_of(s, prev) == section_of(s, t)) REQUIRE(t.m <= prev.m);
      }
    }
  }
  REQUIRE(total == s.blocks());
  REQUIRE(most - least <= 1);
  REQUIRE(std::all_of(seen.begin(), seen.end(), [](char c) { return c == 1; }));
}

}  // namespace

TEST_CASE("sm90 attention persistent grid: every work tile once, each CTA's in the schedule's order") {
  for (auto order : {TileOrder::tile_major, TileOrder::longest_first})
    for (std::int64_t resident : {1, 2, 7, 132, 264, 100000}) {
      check_persistent({1, 1, 1, 1, order}, resident);
      check_persistent({22, 16, 4, 32, order}, resident);
      check_persistent({7, 5, 3, 4, order}, resident);
      check_persistent({32, 16, 4, 16, order}, resident);  // B4 H16 S 4096 at D 128: 2048 tiles
    }
  rc::prop("any grid, section, order and resident CTAs", [] {
    const AttentionTileScheduler s{*rc::gen::inRange(1, 40), *rc::gen::inRange(1, 20), *rc::gen::inRange(1, 6), *rc::gen::inRange(1, 50),
                                   *rc::gen::element(TileOrder::tile_major, TileOrder::longest_first)};
    check_persistent(s, *rc::gen::inRange(1, 300));
  });
  // The largest grid: the kernel's unsigned loop never wraps (block + ctas < 2^32), the counts add up.
  const PersistentGrid g = PersistentGrid::over(INT32_MAX, 132);
  REQUIRE(g.ctas == 132);
  REQUIRE(std::uint64_t(INT32_MAX - 1) + std::uint64_t(g.ctas) <= UINT32_MAX);
  std::int64_t total = 0;
  for (int c = 0; c < g.ctas; ++c) total += g.blocks_of(c, INT32_MAX);
  REQUIRE(total == INT32_MAX);
  REQUIRE(PersistentGrid::over(5, 132).ctas == 5);
  REQUIRE(PersistentGrid::over(1, 0).ctas == 1);
}

namespace {

// A model of one persistent CTA's pipelines on the host: the producer thread and Consumers
// consumer warpgroups as actors running the kernel's order of barrier operations
// (sm90_attention_kernel.cuh's tile loop, produce() and consume() in sm90_attention_mainloop.cuh)
// over HostMbarrier, with the real PipelineState and QBufferPhase, TMA copies landing at random
// later times. What each buffer holds is tracked as (work tile, key tile) and checked where a
// wgmma reads it (and again when it is released: the read is asynchronous until then). The
// scheduler thread names each work tile to the consumers through the tile ring and hands it to
// the producer through a one-slot HandoffRing (`next`, freed once the tile's loads are issued,
// before the scheduler goes on), then an end word to each; each checks it gets the tile
// expected.
struct PipelineModel {
  static constexpr int Stages = 2;
  using Pipe = tessera::pipeline::TmaPipeline<Stages, tessera::pipeline::HostMbarrier>;
  using State = tessera::pipeline::PipelineState<Stages>;
  struct Held {
    int tile = -1, j = -1;
    bool operator==(Held const&) const = default;
  };
  struct Copy {
    tessera::pipeline::HostMbarrier* bar;
    Held* dst;
    Held value;
  };
  Pipe k, v;
  tessera::pipeline::HostMbarrier q_full, q_empty;
  tessera::pipeline::HandoffRing<tile_ring_slots, tessera::pipeline::HostMbarrier> ring;
  tessera::pipeline::HandoffRing<1, tessera::pipeline::HostMbarrier> next;
  using RingState = tessera::pipeline::PipelineState<tile_ring_slots>;
  using NextState = tessera::pipeline::PipelineState<1>;
  static constexpr std::uint32_t end_word = 1u << 30;
  Held q, ks[Stages], vs[Stages];
  std::vector<Copy> in_flight;
  bool wrong_data = false;
  static constexpr std::uint32_t bytes = 1024;

  using Op = std::function<bool()>;  // false: blocked (try again later)
  std::vector<std::vector<Op>> actors;

  // key_tiles: the CTA's work tiles in its order (0: a tile that reads no key). release_q_at:
  // the key tile after whose S the consumers release Q (the kernel's: the last, -1 here).
  PipelineModel(std::vector<int> const& key_tiles, int consumers, int release_q_at = -1) {
    k.init(consumers, bytes), v.init(consumers, bytes);
    q_full.init(1), q_empty.init(consumers);
    ring.init(consumers);
    next.init(1);
    // The scheduler thread: the CTA's tiles 0, 1, ..., then the end, each named to the consumers
    // and handed to the producer; the next one after the producer frees the slot.
    {
      std::vector<Op> ops;
      auto ns = std::make_shared<NextState>();
      auto rs = std::make_shared<RingState>();
      auto acquire_next = [=, this] { return next.producer_try_acquire(*ns); };
      ops.push_back(acquire_next);
      for (int t = 0; t <= int(key_tiles.size()); ++t) {
        const std::uint32_t word = t < int(key_tiles.size()) ? std::uint32_t(t) : end_word;
        ops.push_back([=, this] {
          if (!ring.producer_try_acquire(*rs)) return false;
          ring.publish(*rs, word);
          ++*rs;
          return true;
        });
        ops.push_back([=, this] {
          next.publish(*ns, word);
          ++*ns;
          return true;
        });
        if (t < int(key_tiles.size())) ops.push_back(acquire_next);
      }
      actors.push_back(std::move(ops));
    }
    auto issue = [this](tessera::pipeline::HostMbarrier& bar, Held& dst, Held value) { in_flight.push_back({&bar, &dst, value}); };
    // The producer thread.
    {
      std::vector<Op> ops;
      auto st = std::make_shared<State>();
      auto ns = std::make_shared<NextState>();
      // The scheduler's next word: read once its phase completes (the slot freed later).
      auto receive = [&ops, ns, this](std::uint32_t want) {
        ops.push_back([=, this] {
          if (!next.consumer_try_wait(*ns)) return false;
          if (next.read(*ns) != want) wrong_data = true;
          return true;
        });
      };
      auto free_next = [&ops, ns, this] {
        ops.push_back([=, this] {
          next.consumer_release(*ns);
          ++*ns;
          return true;
        });
      };
      int q_load = 0;
      for (int t = 0; t < int(key_tiles.size()); ++t) {
        receive(std::uint32_t(t));
        if (key_tiles[std::size_t(t)] == 0) {
          free_next();
          continue;
        }
        const int load = q_load++;
        for (int j = 0; j < key_tiles[std::size_t(t)]; ++j) {
          ops.push_back([=, this] {
            if (!k.producer_try_acquire(*st)) return false;
            k.producer_commit(*st);
            issue(k.full_barrier(*st), ks[st->index], {t, j});
            return true;
          });
          if (j == 0) {
            if (QBufferPhase::waits_empty(load)) ops.push_back([=, this] { return q_empty.try_wait(QBufferPhase::empty_parity(load)); });
            ops.push_back([=, this] {
              q_full.arrive_expect_tx(bytes);
              issue(q_full, q, {t, -1});
              return true;
            });
          }
          ops.push_back([=, this] {
            if (!v.producer_try_acquire(*st)) return false;
            v.producer_commit(*st);
            issue(v.full_barrier(*st), vs[st->index], {t, j});
            ++*st;
            return true;
          });
        }
        free_next();  // (the tile's loads issued: the scheduler may draw the next)
      }
      receive(end_word);
      actors.push_back(std::move(ops));
    }
    // The consumer warpgroups (each one arrival on every release, as its warps together).
    for (int c = 0; c < consumers; ++c) {
      std::vector<Op> ops;
      auto st = std::make_shared<State>();
      auto rs = std::make_shared<RingState>();
      // The next word from the ring: read once its phase completes, the slot released at once.
      auto take = [&ops, rs, this](std::uint32_t want) {
        ops.push_back([=, this] {
          if (!ring.consumer_try_wait(*rs)) return false;
          if (ring.read(*rs) != want) wrong_data = true;
          ring.consumer_release(*rs);
          ++*rs;
          return true;
        });
      };
      int q_use = 0;
      for (int t = 0; t < int(key_tiles.size()); ++t) {
        take(std::uint32_t(t));
        const int n = key_tiles[std::size_t(t)];
        if (n == 0) continue;  // (O = 0: the epilogue only)
        const int use = q_use++, last = release_q_at >= 0 && release_q_at < n ? release_q_at : n - 1;
        auto expect = [this](Held const& h, Held want) {
          if (!(h == want)) wrong_data = true;
        };
        ops.push_back([=, this] { return q_full.try_wait(QBufferPhase::full_parity(use)); });
        for (int j = 0; j < n; ++j) {
          // S_j = Q K_j^T (and, for j >= 1, O += P_{j-1} V_{j-1}), then K_j released, Q after
          // the last S, V_{j-1} released.
          ops.push_back([=, this] {
            State next = *st;
            if (j > 0) ++next;
            if (!k.consumer_try_wait(next)) return false;
            expect(ks[next.index], {t, j}), expect(q, {t, -1});
            return true;
          });
          if (j > 0)
            ops.push_back([=, this] {
              if (!v.consumer_try_wait(*st)) return false;
              expect(vs[st->index], {t, j - 1});
              return true;
            });
          ops.push_back([=, this] {
            State next = *st;
            if (j > 0) ++next;
            expect(ks[next.index], {t, j}), expect(q, {t, -1});
            k.consumer_release(next);
            return true;
          });
          if (j == last)
            ops.push_back([=, this] {
              expect(q, {t, -1});
              q_empty.arrive();
              return true;
            });
          if (j > 0)
            ops.push_back([=, this] {
              expect(vs[st->index], {t, j - 1});
              v.consumer_release(*st);
              ++*st;
              return true;
            });
        }
        ops.push_back([=, this] {
          if (!v.consumer_try_wait(*st)) return false;
          expect(vs[st->index], {t, n - 1});
          v.consumer_release(*st);
          ++*st;
          return true;
        });
      }
      take(end_word);
      actors.push_back(std::move(ops));
    }
  }

  // Runs to the end in a random interleaving (copies land at random steps). Returns false on a
  // deadlock: no actor can move and no copy is in flight.
  bool run(std::mt19937& rng) {
    std::vector<std::size_t> pc(actors.size(), 0);
    for (;;) {
      std::vector<int> movable;
      for (std::size_t a = 0; a < actors.size(); ++a)
        if (pc[a] < actors[a].size()) movable.push_back(int(a));
      if (movable.empty() && in_flight.empty()) return true;
      // Try the actors and the landings in a random order; the first that moves, moves.
      std::vector<int> choices = movable;
      for (std::size_t i = 0; i < in_flight.size(); ++i) choices.push_back(-1 - int(i));
      std::shuffle(choices.begin(), choices.end(), rng);
      bool moved = false;
      for (int c : choices) {
        if (c < 0) {
          const Copy cp = in_flight[std::size_t(-1 - c)];
          in_flight.erase(in_flight.begin() + (-1 - c));
          *cp.dst = cp.value;
          cp.bar->complete_tx(bytes);
          moved = true;
          break;
        }
        if (actors[std::size_t(c)][pc[std::size_t(c)]]()) {
          ++pc[std::size_t(c)];
          moved = true;
          break;
        }
      }
      if (!moved) return false;
    }
  }
};

// One CTA's key tiles per work tile, as the kernel's loop meets them: a persistent grid of
// `ctas` over the schedule of `p`, CTA `cta`'s blocks, empty rows skipped.
std::vector<int> cta_key_tiles(Problem const& p, AttentionTileScheduler const& s, int ctas, int cta, int bM, int bN) {
  std::vector<int> out;
  const PersistentGrid g = PersistentGrid::over(s.blocks(), ctas);
  for (std::int64_t n = 0; n < g.blocks_of(cta, s.blocks()); ++n) {
    const AttentionTile t = s.tile(int(g.block(cta, n)));
    const WorkItem w = work_item(p, t.m, t.h, t.b, bM, bN);
    if (!w.empty_rows(bM)) out.push_back(w.key_tiles);
  }
  return out;
}

}  // namespace

TEST_CASE("sm90 attention persistent CTA: the K/V rings and Q's buffer across work tiles, in random interleavings") {
  std::mt19937 rng(7);
  auto check = [&](std::vector<int> const& tiles, int consumers) {
    INFO("key tiles per work tile: " << [&] {
      std::string s;
      for (int n : tiles) s += std::to_string(n) + " ";
      return s;
    }() << ", consumers " << consumers);
    for (int run = 0; run < 40; ++run) {
      PipelineModel m(tiles, consumers);
      REQUIRE(m.run(rng));
      REQUIRE(!m.wrong_data);
    }
  };
  check({1}, 2);
  check({1, 1, 1, 1}, 3);
  check({3, 1, 2, 5, 1}, 2);
  check({4, 0, 2, 0, 0, 3}, 3);  // (tiles that read no key: no Q load, no turn)
  check({2, 2, 2, 2, 2, 2, 2}, 2);
  // The CTAs of real grids: causal, varlen (empty rows and tiles with no key), few CTAs.
  const std::vector<int> lengths{700, 5, 1, 300, 64, 65, 1000};
  std::vector<int> cu{0};
  for (int n : lengths) cu.push_back(cu.back() + n);
  const int longest = *std::max_element(lengths.begin(), lengths.end());
  for (bool causal : {false, true}) {
    const Problem p{int(lengths.size()), 2, 2, longest, longest + 0, cu.back(), cu.data(), cu.data(), 1.f, causal};
    const AttentionTileScheduler s = schedule_for(int(lengths.size()), 2, 2, longest, longest, 64, 128, causal, true);
    for (int cta = 0; cta < 3; ++cta) check(cta_key_tiles(p, s, 3, cta, 128, 128), 2);
  }
  // The model sees a Q released too early: after the first S of tiles with more key tiles, the
  // producer's next Q may land while a consumer still reads this one.
  int caught = 0;
  for (int run = 0; run < 200; ++run) {
    PipelineModel m({3, 3, 3}, 2, 0);
    const bool ended = m.run(rng);
    caught += (!ended || m.wrong_data) ? 1 : 0;
  }
  REQUIRE(caught > 0);
}

TEST_CASE("sm90 attention schedule: the model of persistent CTAs at the bench's shapes (B4 H16, 132 SMs)") {
  // The per-tile grid: list scheduling with a CTA's prologue and epilogue costing `fixed` key
  // tiles; a persistent grid: static striding (PersistentGrid) with the prologue hidden, a
  // constant of `hidden_fixed`. Full attention's tiles cost the same, so striding is the list
  // schedule and only the constant differs; causal tiles do not, and striding loses balance.
  auto run = [](auto cfg, int S, bool causal) {
    using Cfg = decltype(cfg);
    constexpr int D = Cfg::head_dim;
    const double fixed = 1.0, hidden_fixed = 0.3;
    const Problem p{4, 16, 16, S, S, S, nullptr, nullptr, 1.f, causal};
    const AttentionTileScheduler s = schedule_for(4, 16, 16, S, S, D, Cfg::bM, causal, false);
    const double per_tile = makespan(s.blocks(), cta_cost(p, s, Cfg::bM, Cfg::bN, fixed), kH200Sms);
    const double persistent = makespan_static_persistent(s.blocks(), cta_cost(p, s, Cfg::bM, Cfg::bN, hidden_fixed), kH200Sms);
    if (!causal) {
      // (equal costs: the same makespan with the same constant, so the gain is the constant's)
      REQUIRE(makespan_static_persistent(s.blocks(), cta_cost(p, s, Cfg::bM, Cfg::bN, fixed), kH200Sms) == per_tile);
      REQUIRE(persistent < per_tile);
    }
    std::printf("persistent model D %3d S %5d %-6s: per tile (constant %.1f) %7.1f  static persistent (constant %.1f) %7.1f  gain %.3f\n",
                D, S, causal ? "causal" : "full", fixed, per_tile, hidden_fixed, persistent, per_tile / persistent);
  };
  for (bool causal : {false, true})
    for (int S : {4096, 8192, 16384}) {
      run(DefaultConfig<bfloat16_t, 64>{}, S, causal);
      run(DefaultConfig<bfloat16_t, 128>{}, S, causal);
    }
}

namespace {

// The persistent schedules under a causal mask, modelled. Costs in key tiles per block of the
// schedule's order: its key tiles plus a constant, the per-tile grid's prologue and epilogue
// (1, section 8's) or a persistent CTA's, whose prologue hides under the previous tile (0.3,
// section 9's); a Q tile past its sequence's end costs nothing (-1 here: it is skipped).
constexpr double per_tile_fixed = 1.0, persistent_fixed = 0.3;
// The counter: a CTA's producer thread draws its next ticket once it has issued the tile's last
// V, about Stages - 1/2 key tiles before its consumers finish the tile (at most the tile's own
// key tiles), so the CTAs claim tiles in about the order they free, as the hardware's dispatch.
// A drawn tile past its sequence's end costs the producer a ticket's round trip (about 0.5 us,
// 0.3 key tile) before it draws again.
constexpr double claim_lead = 1.5, ticket_round_trip = 0.3;

std::vector<double> block_costs(Problem const& p, AttentionTileScheduler const& s, int bM, int bN) {
  std::vector<double> c(std::size_t(s.blocks()));
  for (int l = 0; l < int(s.blocks()); ++l) {
    const AttentionTile t = s.tile(l);
    const WorkItem w = work_item(p, t.m, t.h, t.b, bM, bN);
    c[std::size_t(l)] = w.empty_rows(bM) ? -1.0 : double(w.key_tiles);
  }
  return c;
}

// The time a tile really takes against its modelled cost: 1 + u, u uniform in [-amplitude,
// amplitude] per tile (L2 hits and misses, clocks); all 1 with amplitude 0.
std::vector<double> tile_noise(std::size_t n, double amplitude, unsigned seed) {
  std::vector<double> f(n, 1.0);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(1.0 - amplitude, 1.0 + amplitude);
  if (amplitude > 0)
    for (double& x : f) x = u(rng);
  return f;
}

// A list schedule on `ctas` workers in the blocks' order: the worker that claims first takes
// the next block. The per-tile grid: claims when its SM frees (lead 0), empty blocks free
// (fetch 0). The counter: claims `lead` key tiles before the tile ends, an empty block costing
// `fetch` of the producer's time.
double makespan_claims(std::vector<double> const& cost, std::vector<double> const& noise, int ctas, double fixed, double lead,
                       double fetch) {
  using Claim = std::pair<double, int>;  // (when, worker)
  std::priority_queue<Claim, std::vector<Claim>, std::greater<>> claims;
  std::vector<double> free_at(std::size_t(ctas), 0.0);
  for (int i = 0; i < ctas; ++i) claims.push({0.0, i});
  double end = 0.0;
  for (std::size_t l = 0; l < cost.size(); ++l) {
    const auto [when, i] = claims.top();
    claims.pop();
    if (cost[l] < 0) {
      claims.push({when + fetch, i});
      continue;
    }
    double& f = free_at[std::size_t(i)];
    const double start = std::max(f, when + fetch), keys = cost[l] * noise[l];
    f = start + (cost[l] + fixed) * noise[l];
    end = std::max(end, f);
    claims.push({std::max(start, f - std::min(lead, keys)), i});
  }
  return end;
}

// A static assignment (block l to CTA cta_of(l)): the slowest CTA's sum.
double makespan_assigned(std::vector<double> const& cost, std::vector<double> const& noise, int ctas, double fixed,
                         std::function<int(std::size_t)> const& cta_of) {
  std::vector<double> load(std::size_t(ctas), 0.0);
  for (std::size_t l = 0; l < cost.size(); ++l)
    if (cost[l] >= 0) load[std::size_t(cta_of(l))] += (cost[l] + fixed) * noise[l];
  return *std::max_element(load.begin(), load.end());
}

// Longest-processing-time list scheduling from the modelled costs, computed ahead: what a
// static assignment could at best be (it needs a table of every block's CTA, per launch).
std::vector<int> lpt_table(std::vector<double> const& cost, int ctas, double fixed) {
  using Load = std::pair<double, int>;
  std::priority_queue<Load, std::vector<Load>, std::greater<>> loads;
  for (int i = 0; i < ctas; ++i) loads.push({0.0, i});
  std::vector<int> cta(cost.size(), 0);
  for (std::size_t l = 0; l < cost.size(); ++l) {
    if (cost[l] < 0) continue;
    const auto [t, i] = loads.top();
    loads.pop();
    cta[l] = i;
    loads.push({t + cost[l] + fixed, i});
  }
  return cta;
}

// Each persistent schedule's speed against the per-tile grid (its makespan over theirs, so
// above 1 is faster), averaged over `seeds` draws of the noise.
struct ScheduleRow {
  double strided = 0, snake = 0, table = 0, counter = 0;
};
ScheduleRow model_schedules(std::vector<double> const& cost, double amplitude, int seeds) {
  const int ctas = int(std::min<std::size_t>(cost.size(), kH200Sms));
  const std::vector<int> table = lpt_table(cost, ctas, persistent_fixed);
  ScheduleRow r;
  for (int seed = 0; seed < seeds; ++seed) {
    const std::vector<double> noise = tile_noise(cost.size(), amplitude, unsigned(seed) + 1);
    const double per_tile = makespan_claims(cost, noise, kH200Sms, per_tile_fixed, 0.0, 0.0);
    const auto g = std::size_t(ctas);
    r.strided += per_tile / makespan_assigned(cost, noise, ctas, persistent_fixed, [&](std::size_t l) { return int(l % g); });
    // (boustrophedon: the rounds of ctas blocks alternate direction, CTA c taking c, 2 ctas - 1 - c, ...)
    r.snake += per_tile / makespan_assigned(cost, noise, ctas, persistent_fixed,
                                            [&](std::size_t l) { return int((l / g) % 2 ? g - 1 - l % g : l % g); });
    r.table += per_tile / makespan_assigned(cost, noise, ctas, persistent_fixed, [&](std::size_t l) { return table[l]; });
    r.counter += per_tile / makespan_claims(cost, noise, ctas, persistent_fixed, claim_lead, ticket_round_trip);
  }
  r.strided /= seeds, r.snake /= seeds, r.table /= seeds, r.counter /= seeds;
  return r;
}

void print_row(const char* name, std::int64_t blocks, ScheduleRow const& exact, ScheduleRow const& noisy) {
  std::printf("%-26s %6lld tiles | strided %.3f  snake %.3f  LPT table %.3f  counter %.3f | +-5%%: strided %.3f  snake %.3f  "
              "LPT table %.3f  counter %.3f\n",
              name, (long long)blocks, exact.strided, exact.snake, exact.table, exact.counter, noisy.strided, noisy.snake, noisy.table,
              noisy.counter);
}

template <int D>
ScheduleRow causal_row(int S, ScheduleRow& noisy) {
  using Cfg = DefaultConfig<bfloat16_t, D>;
  const Problem p{4, 16, 16, S, S, S, nullptr, nullptr, 1.f, true};
  const AttentionTileScheduler s = schedule_for(4, 16, 16, S, S, D, Cfg::bM, true, false);
  const std::vector<double> cost = block_costs(p, s, Cfg::bM, Cfg::bN);
  const ScheduleRow exact = model_schedules(cost, 0.0, 1);
  noisy = model_schedules(cost, 0.05, 10);
  char name[64];
  std::snprintf(name, sizeof name, "causal D %3d S %5d", D, S);
  print_row(name, s.blocks(), exact, noisy);
  return exact;
}

}  // namespace

TEST_CASE("sm90 attention persistent schedules under a causal mask: the model's table (B4 H16, 132 SMs)") {
  // Against the per-tile grid (the hardware's dispatch of longest_first): static striding
  // (PersistentGrid's), boustrophedon striding, an LPT table computed from the modelled costs
  // (the best a static assignment could do, with a per-launch table), the counter. Exact costs,
  // then each tile's time off by up to 5 % (10 draws): a static assignment cannot follow.
  double worst_strided = 10, worst_snake = 10, best_strided = 0, best_snake = 0;
  auto check = [&](ScheduleRow const& exact, ScheduleRow const& noisy) {
    // The counter beats the per-tile grid (its constant) and every static assignment.
    REQUIRE(exact.counter >= 1.005);
    REQUIRE(noisy.counter >= 1.005);
    REQUIRE(exact.counter >= exact.strided);
    REQUIRE(exact.counter >= exact.snake);
    REQUIRE(exact.counter >= exact.table - 0.002);  // (the table is the counter's list schedule, computed ahead)
    REQUIRE(noisy.counter > noisy.table);            // which the noise undoes
    worst_strided = std::min(worst_strided, exact.strided), worst_snake = std::min(worst_snake, exact.snake);
    best_strided = std::max(best_strided, exact.counter - exact.strided), best_snake = std::max(best_snake, exact.counter - exact.snake);
  };
  for (int S : {4096, 8192, 16384}) {
    ScheduleRow noisy;
    ScheduleRow exact = causal_row<64>(S, noisy);
    check(exact, noisy);
    exact = causal_row<128>(S, noisy);
    check(exact, noisy);
    exact = causal_row<256>(S, noisy);
    check(exact, noisy);
  }
  // Why the counter and not a static order: striding and the boustrophedon lose to the per-tile
  // grid somewhere, and neither comes within 1 % of the counter everywhere.
  REQUIRE(worst_strided < 1.0);
  REQUIRE(worst_snake < 1.0);
  REQUIRE(best_strided > 0.01);
  REQUIRE(best_snake > 0.01);
  // What Auto runs there with a workspace: the counter.
  REQUIRE(tile_assignment(AttentionGrid::Auto, true, false, true) == TileAssignment::counter);
  REQUIRE(tile_assignment(AttentionGrid::Auto, true, false, false) == TileAssignment::per_tile);
}

TEST_CASE("sm90 attention persistent schedules of varlen batches: the model's table") {
  // Eight sequences 256..16384 (H16); 24 of random lengths 1..8192 (H8); one of 32768 among 15
  // of 512..2047 (H8). The Q tiles past a sequence's end (most of the longest_first list's
  // first ranks when one sequence is far the longest) cost the counter a ticket each.
  std::vector<std::vector<int>> batches{{1024, 512, 16384, 2048, 256, 4096, 768, 3000}, {}, {}};
  std::mt19937 rng(5);
  for (int b = 0; b < 24; ++b) batches[1].push_back(1 + int(rng() % 8192));
  for (int b = 0; b < 16; ++b) batches[2].push_back(b == 0 ? 32768 : 512 + int(rng() % 1536));
  double worst_counter = 10, best_counter = 0;
  for (std::size_t k = 0; k < batches.size(); ++k) {
    const std::vector<int>& lengths = batches[k];
    std::vector<int> cu{0};
    for (int n : lengths) cu.push_back(cu.back() + n);
    const int heads = k == 0 ? 16 : 8, batch = int(lengths.size()), longest = *std::max_element(lengths.begin(), lengths.end());
    auto run = [&](auto cfg, bool causal) {
      using Cfg = decltype(cfg);
      const Problem p{batch, heads, heads, longest, longest, cu.back(), cu.data(), cu.data(), 1.f, causal};
      const AttentionTileScheduler s = schedule_for(batch, heads, heads, longest, longest, Cfg::head_dim, Cfg::bM, causal, true);
      const std::vector<double> cost = block_costs(p, s, Cfg::bM, Cfg::bN);
      const ScheduleRow exact = model_schedules(cost, 0.0, 1), noisy = model_schedules(cost, 0.05, 10);
      char name[64];
      std::snprintf(name, sizeof name, "varlen %zu %-6s D %3d", k, causal ? "causal" : "full", Cfg::head_dim);
      print_row(name, s.blocks(), exact, noisy);
      // Forced persistent (AttentionGrid::Persistent): the counter balances better than striding.
      REQUIRE(exact.counter > exact.strided);
      REQUIRE(noisy.counter > noisy.strided);
      worst_counter = std::min(worst_counter, exact.counter), best_counter = std::max(best_counter, exact.counter);
    };
    for (bool causal : {true, false}) {
      run(DefaultConfig<bfloat16_t, 64>{}, causal);
      run(DefaultConfig<bfloat16_t, 128>{}, causal);
      run(DefaultConfig<bfloat16_t, 256>{}, causal);
    }
  }
  // The counter gains on some batches and loses on others (those with a sequence far the
  // longest), and the host does not see the lengths (cu_seqlens lives on the device): Auto keeps
  // varlen per tile.
  REQUIRE(worst_counter < 1.0);
  REQUIRE(best_counter > 1.01);
  REQUIRE(tile_assignment(AttentionGrid::Auto, true, true, true) == TileAssignment::per_tile);
  REQUIRE(tile_assignment(AttentionGrid::Auto, false, true, true) == TileAssignment::per_tile);
  REQUIRE(tile_assignment(AttentionGrid::Persistent, false, true, true) == TileAssignment::counter);
}

namespace {

// Launches of a persistent grid with the counter, emulated on the host: each CTA's producer runs
// the kernel's loop (its first block its index; then PersistentGrid::block_of_ticket of a ticket
// drawn from TileCounter::next; at the first block past the end it counts itself on `done`, and
// the CTA for which `last` holds zeroes both words), the CTAs' steps (draw, compute, count)
// interleaved in time at random speeds: each CTA has a speed of its own (0.1-10x), each step a
// random length. Returns how often each (m, h, b) was computed.
using LastRule = std::function<bool(PersistentGrid const&, std::uint32_t)>;
std::vector<int> emulate_counter(AttentionTileScheduler const& s, std::vector<double> const& cost, int resident, TileCounter& counter,
                                 std::mt19937& rng, LastRule const& last) {
  const PersistentGrid g = PersistentGrid::over(s.blocks(), resident);
  const std::uint32_t blocks = std::uint32_t(s.blocks());
  enum class Step { compute, draw, count, exited };
  struct Cta {
    double at = 0, speed = 1;
    Step step = Step::compute;
    std::uint32_t block = 0;
  };
  std::vector<Cta> ctas(std::size_t(g.ctas));
  std::uniform_real_distribution<double> log_speed(std::log(0.1), std::log(10.0)), jitter(0.0, 1.0);
  for (int c = 0; c < g.ctas; ++c) {
    Cta& x = ctas[std::size_t(c)];
    x.speed = std::exp(log_speed(rng)), x.at = jitter(rng) * x.speed, x.block = std::uint32_t(c);
    x.step = x.block < blocks ? Step::compute : Step::count;
  }
  std::vector<int> computed(std::size_t(s.blocks()), 0);
  for (;;) {
    // The CTA whose next step comes first takes it: one atomic operation at a time.
    Cta* next = nullptr;
    for (Cta& x : ctas)
      if (x.step != Step::exited && (!next || x.at < next->at)) next = &x;
    if (!next) break;
    Cta& x = *next;
    switch (x.step) {
      case Step::compute: {
        const AttentionTile t = s.tile(int(x.block));
        ++computed[std::size_t((std::int64_t(t.b) * s.heads + t.h) * s.tiles + t.m)];
        x.at += (std::max(cost[x.block], 0.0) + 0.3) * x.speed * (0.5 + jitter(rng));
        x.step = Step::draw;
        break;
      }
      case Step::draw:
        x.block = g.block_of_ticket(counter.next++);
        x.step = x.block < blocks ? Step::compute : Step::count;
        x.at += 0.3 * x.speed * jitter(rng);
        break;
      case Step::count:
        if (last(g, counter.done++)) counter = TileCounter{};
        x.step = Step::exited;
        break;
      case Step::exited: break;
    }
  }
  return computed;
}

}  // namespace

TEST_CASE("sm90 attention persistent grid with the counter: every work tile once at random CTA speeds, the counter zero after") {
  std::mt19937 rng(11);
  const LastRule rule = [](PersistentGrid const& g, std::uint32_t done) { return g.last_to_finish(done); };
  auto check = [&](AttentionTileScheduler const& s, Problem const& p, int bM, int bN, int resident, int launches) {
    INFO("tiles " << s.tiles << ", heads " << s.heads << ", batch " << s.batch << ", order " << int(s.order) << ", resident "
                  << resident);
    const std::vector<double> cost = block_costs(p, s, bM, bN);
    TileCounter counter;  // (one workspace for all the launches, as a caller's)
    for (int launch = 0; launch < launches; ++launch) {
      const std::vector<int> computed = emulate_counter(s, cost, resident, counter, rng, rule);
      REQUIRE(std::all_of(computed.begin(), computed.end(), [](int n) { return n == 1; }));
      REQUIRE(counter.next == 0);
      REQUIRE(counter.done == 0);
    }
  };
  // The bench's causal shapes at D 128, varlen batches, few CTAs, more CTAs than tiles.
  using Cfg = DefaultConfig<bfloat16_t, 128>;
  for (int S : {4096, 16384}) {
    const Problem p{4, 16, 16, S, S, S, nullptr, nullptr, 1.f, true};
    check(schedule_for(4, 16, 16, S, S, 128, Cfg::bM, true, false), p, Cfg::bM, Cfg::bN, kH200Sms, 3);
  }
  const std::vector<int> lengths{700, 5, 1, 300, 64, 65, 1000};
  std::vector<int> cu{0};
  for (int n : lengths) cu.push_back(cu.back() + n);
  for (bool causal : {true, false}) {
    const Problem p{int(lengths.size()), 3, 3, 1000, 1000, cu.back(), cu.data(), cu.data(), 1.f, causal};
    const AttentionTileScheduler s = schedule_for(int(lengths.size()), 3, 3, 1000, 1000, 128, 128, causal, true);
    for (int resident : {1, 2, 3, 7, 40, 132, 1000}) check(s, p, 128, 192, resident, 3);
  }
  rc::prop("any grid, order and resident CTAs", [&] {
    const AttentionTileScheduler s{*rc::gen::inRange(1, 40), *rc::gen::inRange(1, 12), *rc::gen::inRange(1, 5), *rc::gen::inRange(1, 30),
                                   *rc::gen::element(TileOrder::tile_major, TileOrder::longest_first)};
    const int S = s.tiles * 128;
    const Problem p{s.batch, s.heads, s.heads, S, S, S, nullptr, nullptr, 1.f, *rc::gen::arbitrary<bool>()};
    check(s, p, 128, 192, *rc::gen::inRange(1, 300), 2);
  });
  // The emulation sees a reset one CTA too early: a CTA still to draw then takes tickets from 0
  // again (a tile twice) and leaves the counter non-zero.
  const LastRule early = [](PersistentGrid const& g, std::uint32_t done) { return done + 2 == std::uint32_t(g.ctas); };
  const Problem p{4, 16, 16, 4096, 4096, 4096, nullptr, nullptr, 1.f, true};
  const AttentionTileScheduler s = schedule_for(4, 16, 16, 4096, 4096, 128, Cfg::bM, true, false);
  const std::vector<double> cost = block_costs(p, s, Cfg::bM, Cfg::bN);
  int caught = 0;
  for (int run = 0; run < 20; ++run) {
    TileCounter counter;
    const std::vector<int> computed = emulate_counter(s, cost, kH200Sms, counter, rng, early);
    const bool twice = std::any_of(computed.begin(), computed.end(), [](int n) { return n != 1; });
    caught += twice || counter.next != 0 || counter.done != 0 ? 1 : 0;
  }
  REQUIRE(caught == 20);
}

TEST_CASE("sm90 attention tile assignment: the rule of AttentionGrid, the mask, varlen and the workspace") {
  for (bool causal : {false, true})
    for (bool varlen : {false, true})
      for (bool counter : {false, true}) {
        INFO("causal " << causal << ", varlen " << varlen << ", counter " << counter);
        REQUIRE(tile_assignment(AttentionGrid::PerTile, causal, varlen, counter) == TileAssignment::per_tile);
        const TileAssignment persistent = tile_assignment(AttentionGrid::Persistent, causal, varlen, counter);
        const TileAssignment automatic = tile_assignment(AttentionGrid::Auto, causal, varlen, counter);
        REQUIRE(persistent != TileAssignment::per_tile);
        // The counter only with a workspace, and only where the tiles' costs differ.
        if (!counter || (!causal && !varlen)) {
          REQUIRE(persistent != TileAssignment::counter);
          REQUIRE(automatic != TileAssignment::counter);
        }
        if (!causal && !varlen) REQUIRE(automatic == TileAssignment::strided);  // (equal costs: striding is the list schedule)
        else REQUIRE(automatic != TileAssignment::strided);                     // (unequal: striding loses to the per-tile grid)
        if (counter && (causal || varlen)) REQUIRE(persistent == TileAssignment::counter);
      }
}
