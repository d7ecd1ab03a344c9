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
#include <queue>
#include <set>
#include <vector>

#include "collective/sm90_attention_config.hpp"
#include "collective/sm90_attention_problem.hpp"
#include "kernel/sm90_attention_scheduler.hpp"

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
