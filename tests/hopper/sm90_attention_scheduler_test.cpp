// The attention grid's order (kernels/kernel/sm90_attention_scheduler.hpp), on the host: the map
// is a bijection onto (Q tile, head, batch) in both orders, longest_first takes each section's
// Q tiles heaviest first, a wave of CTAs reads the K and V of at most two sections, varlen tiles
// past their sequence's end still map to a CTA that exits; and a model of the grid (list
// scheduling of the blocks in index order on 132 SMs, each CTA costing its key tiles plus a
// constant) comparing the two orders' makespans at the bench's causal shapes.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <algorithm>
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
#include "tessera/pipeline/tma_pipeline.hpp"

using namespace tessera;
using namespace tessera::kernels::sm90::attention;

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
// wgmma reads it (and again when it is released: the read is asynchronous until then).
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
    auto issue = [this](tessera::pipeline::HostMbarrier& bar, Held& dst, Held value) { in_flight.push_back({&bar, &dst, value}); };
    // The producer thread.
    {
      std::vector<Op> ops;
      auto st = std::make_shared<State>();
      int q_load = 0;
      for (int t = 0; t < int(key_tiles.size()); ++t) {
        if (key_tiles[std::size_t(t)] == 0) continue;
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
      }
      actors.push_back(std::move(ops));
    }
    // The consumer warpgroups (each one arrival on every release, as its warps together).
    for (int c = 0; c < consumers; ++c) {
      std::vector<Op> ops;
      auto st = std::make_shared<State>();
      int q_use = 0;
      for (int t = 0; t < int(key_tiles.size()); ++t) {
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
