// The cooperative SM90 kernel's walk under EpilogueUnderNextTile (walk_epilogue_under_next_tile,
// kernel/sm90_epilogue_order.hpp: the kernel runs this function with its device steps), run on
// the host with steps that model the accumulators, the packed registers and the wgmmas in
// flight: for generated walks (first unit, step, unit count, k-tiles per unit, head k-tiles)
// every unit of the walk is stored once and in order, from accumulators that summed all its
// k-tiles and had retired; no wgmma writes the accumulators before their values are packed;
// every store but the walk's last runs while the next unit's first min(head, k-tiles) k-tiles
// are in flight (the overlap); nothing is in flight or unstored when the walk ends.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "kernel/sm90_epilogue_order.hpp"
#include "tessera/kernels/epilogue_tree.hpp"
#include "tessera/atom/numeric.hpp"

namespace {

struct Recorder {
  struct InFlight {
    int issued = 0;
  };
  std::vector<int> k_of;  // k-tiles of each unit
  int64_t current = -1;   // the unit the accumulators sum
  int issued = 0;         // its k-tiles issued
  int in_flight = 0;      // k-tiles whose wgmmas are issued, not waited for
  bool complete = false;  // the accumulators hold all of `current`'s k-tiles, retired, not packed
  int64_t packed = -1;    // the unit in the packed registers, not stored
  std::vector<int64_t> stored;
  std::vector<int> in_flight_at_store;
  bool settled = false;
  std::vector<std::string> errors;

  void take(int64_t u) {
    if (complete) errors.push_back("a unit taken over accumulators not packed");
    if (in_flight) errors.push_back("a unit taken with wgmmas in flight");
    current = u, issued = 0;
  }
  InFlight head(int n) {
    if (in_flight || complete) errors.push_back("head: the accumulators are busy");
    const int k = k_of[size_t(current)];
    issued = n < k ? n : k;
    in_flight = issued;
    return {issued};
  }
  void tail(InFlight const& f) {
    if (f.issued != issued) errors.push_back("tail: not the head's k-tiles");
    issued = k_of[size_t(current)];
    in_flight = 0;  // (its last wait)
    complete = true;
  }
  void pack() {
    if (!complete || in_flight) errors.push_back("pack: accumulators incomplete or in flight");
    if (issued != k_of[size_t(current)]) errors.push_back("pack: k-tiles missing");
    if (packed >= 0) errors.push_back("pack: the previous packed unit was not stored");
    packed = current;
    complete = false;
  }
  void store() {
    if (packed < 0) errors.push_back("store: nothing packed");
    stored.push_back(packed);
    in_flight_at_store.push_back(in_flight);
    packed = -1;
  }
  void settle() {
    in_flight = 0;
    settled = true;
  }
};

}  // namespace

TEST_CASE("sm90 epilogue under the next tile: each unit stored once, in order, while the next unit's head runs (generated)") {
  rc::prop("walks", [] {
    const int64_t step = *rc::gen::inRange<int64_t>(1, 9);
    const int64_t first = *rc::gen::inRange<int64_t>(0, step);
    const int64_t units = *rc::gen::inRange<int64_t>(0, 60);
    const int head = *rc::gen::inRange(1, 5);
    Recorder r;
    r.k_of = *rc::gen::container<std::vector<int>>(size_t(units), rc::gen::inRange(1, 7));
    tessera::kernels::sm90::walk_epilogue_under_next_tile(r, first, step, units, head);
    RC_ASSERT(r.errors.empty());
    std::vector<int64_t> walk;
    for (int64_t u = first; u < units; u += step) walk.push_back(u);
    RC_ASSERT(r.stored == walk);
    for (size_t i = 0; i < walk.size(); ++i) {
      // under the store of unit i: the head of unit i + 1, or nothing after the last
      const int want = i + 1 < walk.size() ? std::min(head, r.k_of[size_t(walk[i + 1])]) : 0;
      RC_ASSERT(r.in_flight_at_store[i] == want);
    }
    RC_ASSERT(r.in_flight == 0);
    RC_ASSERT(r.packed == -1);
    RC_ASSERT(!r.complete);
    RC_ASSERT(r.settled == !walk.empty());
  });
}

TEST_CASE("sm90 epilogue under the next tile: a CTA with one unit stores it after its mainloop, none without units") {
  Recorder one;
  one.k_of = {3, 3, 3};
  tessera::kernels::sm90::walk_epilogue_under_next_tile(one, 1, 4, 3, 2);  // unit 1 only
  CHECK(one.errors.empty());
  CHECK(one.stored == std::vector<int64_t>{1});
  CHECK(one.in_flight_at_store == std::vector<int>{0});
  Recorder none;
  none.k_of = {3};
  tessera::kernels::sm90::walk_epilogue_under_next_tile(none, 2, 4, 1, 2);
  CHECK(none.stored.empty());
  CHECK(!none.settled);
}

// ---- a tree with a reduction through the walk (the kernel's pack: the tree's visits, its
// reductions' partials and their combine, all before the next head's wgmmas overwrite the
// accumulators; sm90_epilogue_tree_tma.cuh). Units are the tiles of a small problem; each unit's
// accumulators are its tile's values once its tail retired, and the head's k-tiles overwrite
// them (the next unit's first partial sums: here NaN, so that a value or a reduction read after
// the head shows). pack() runs the tree over the accumulators (the host emulation,
// tree::evaluate_tile) into the packed 16-bit values; store() writes those to D. D and the amax
// must equal the tree run tile by tile after each mainloop (the after-tile order), bit for bit.
namespace {

namespace tr = tessera::kernels::tree;
using Bf16 = tessera::bfloat16_t;
using Product = tr::Compute<tr::multiplies, tr::Accumulator, tr::RowBroadcast<float>>;
using Scaled = tr::Compute<tr::multiplies, Product, tr::ColumnBroadcast<float>>;
using Pre = tr::Compute<tr::plus, Scaled, tr::ColumnBroadcast<Bf16>>;
using Activated = tr::Compute<tr::silu, Pre>;
using IssueTree = tr::ScalarReduction<tr::absolute_maximum, Activated>;

struct TreeProblem {
  int64_t m, n, bm, bn, tiles_m, tiles_n;
  std::vector<float> acc, sa, sb;  // acc column-major (m, n)
  std::vector<Bf16> bias;
  float amax = 0;
  tr::TreeShape shape() const { return {m, n, 1}; }
  IssueTree::Params params() {
    const Product::Arguments product(tr::Accumulator::Arguments{}, tr::RowBroadcast<float>::Arguments{sa.data(), 0});
    const Scaled::Arguments scaled(product, tr::ColumnBroadcast<float>::Arguments{sb.data(), 0});
    const Pre::Arguments pre(scaled, tr::ColumnBroadcast<Bf16>::Arguments{bias.data(), 0});
    const IssueTree::Arguments a(&amax, 0, Activated::Arguments(pre));
    REQUIRE(tr::can_implement<IssueTree>(shape(), a));
    return IssueTree::to_underlying_arguments(shape(), a, nullptr);
  }
};

struct TreeSteps {
  struct InFlight {
    int issued = 0;
  };
  TreeProblem& pr;
  IssueTree::Params params;
  std::vector<Bf16>& d;
  std::vector<float> acc;  // the current unit's tile (bm x bn, column-major)
  std::vector<Bf16> packed;
  int64_t current = -1, packed_unit = -1;
  void take(int64_t u) { current = u; }
  InFlight head(int) {
    std::fill(acc.begin(), acc.end(), std::numeric_limits<float>::quiet_NaN());  // the next unit's partial sums
    return {1};
  }
  void tail(InFlight const&) {
    const int64_t tm = current % pr.tiles_m, tn = current / pr.tiles_m;
    for (int64_t j = 0; j < pr.bn; ++j)
      for (int64_t i = 0; i < pr.bm; ++i) {
        const int64_t gm = tm * pr.bm + i, gn = tn * pr.bn + j;
        acc[size_t(i + j * pr.bm)] = gm < pr.m && gn < pr.n ? pr.acc[size_t(gm + gn * pr.m)] : 0.0f;
      }
  }
  void pack() {
    const int64_t tm = current % pr.tiles_m, tn = current / pr.tiles_m;
    std::fill(packed.begin(), packed.end(), Bf16(0.0f));
    tr::evaluate_tile<IssueTree>(
        params, pr.shape(), tm, tn, 0, pr.bm, pr.bn,
        [&](int64_t gm, int64_t gn) { return acc[size_t((gm - tm * pr.bm) + (gn - tn * pr.bn) * pr.bm)]; },
        [&](int64_t gm, int64_t gn, float v) { packed[size_t((gm - tm * pr.bm) + (gn - tn * pr.bn) * pr.bm)] = Bf16(v); });
    packed_unit = current;
  }
  void store() {
    const int64_t tm = packed_unit % pr.tiles_m, tn = packed_unit / pr.tiles_m;
    for (int64_t j = 0; j < pr.bn; ++j)
      for (int64_t i = 0; i < pr.bm; ++i) {
        const int64_t gm = tm * pr.bm + i, gn = tn * pr.bn + j;
        if (gm < pr.m && gn < pr.n) d[size_t(gm + gn * pr.m)] = packed[size_t(i + j * pr.bm)];
      }
  }
  void settle() {}
};

}  // namespace

TEST_CASE("sm90 epilogue under the next tile: a tree with an amax gives the after-tile order's D and amax, bit for bit (generated)") {
  rc::prop("trees", [] {
    TreeProblem pr;
    pr.bm = *rc::gen::inRange<int64_t>(1, 6);
    pr.bn = *rc::gen::inRange<int64_t>(1, 6);
    pr.m = *rc::gen::inRange<int64_t>(1, 20);
    pr.n = *rc::gen::inRange<int64_t>(1, 20);
    pr.tiles_m = (pr.m + pr.bm - 1) / pr.bm, pr.tiles_n = (pr.n + pr.bn - 1) / pr.bn;
    const int64_t units = pr.tiles_m * pr.tiles_n;
    const int64_t step = *rc::gen::inRange<int64_t>(1, 5);
    const int head = *rc::gen::inRange(1, 4);
    const auto value = rc::gen::map(rc::gen::inRange(-4000, 4000), [](int x) { return float(x) / 256.0f; });
    pr.acc = *rc::gen::container<std::vector<float>>(size_t(pr.m * pr.n), value);
    pr.sa = *rc::gen::container<std::vector<float>>(size_t(pr.n), value);
    pr.sb = *rc::gen::container<std::vector<float>>(size_t(pr.m), value);
    for (float x : *rc::gen::container<std::vector<float>>(size_t(pr.m), value)) pr.bias.push_back(Bf16(x));
    // the after-tile order: each tile's tree over its complete accumulators
    std::vector<Bf16> want(size_t(pr.m * pr.n), Bf16(0.0f));
    const auto p = pr.params();
    for (int64_t u = 0; u < units; ++u)
      tr::evaluate_tile<IssueTree>(
          p, pr.shape(), u % pr.tiles_m, u / pr.tiles_m, 0, pr.bm, pr.bn, [&](int64_t gm, int64_t gn) { return pr.acc[size_t(gm + gn * pr.m)]; },
          [&](int64_t gm, int64_t gn, float v) { want[size_t(gm + gn * pr.m)] = Bf16(v); });
    const float want_amax = pr.amax;
    // the overlapped walk, every CTA (first unit 0 .. step - 1) in turn
    pr.amax = 0;
    std::vector<Bf16> d(size_t(pr.m * pr.n), Bf16(std::numeric_limits<float>::quiet_NaN()));
    for (int64_t first = 0; first < step; ++first) {
      TreeSteps s{pr, pr.params(), d, std::vector<float>(size_t(pr.bm * pr.bn)), std::vector<Bf16>(size_t(pr.bm * pr.bn))};
      tessera::kernels::sm90::walk_epilogue_under_next_tile(s, first, step, units, head);
    }
    RC_ASSERT(std::memcmp(d.data(), want.data(), d.size() * sizeof(Bf16)) == 0);
    RC_ASSERT(std::memcmp(&pr.amax, &want_amax, sizeof(float)) == 0);
  });
}
