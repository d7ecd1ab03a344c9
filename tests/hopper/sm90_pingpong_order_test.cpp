// The ping-pong kernel's order of mainloops (kernels/kernel/sm90_pingpong_order.hpp) on the
// host, over HostMbarrier (the mbarrier state machine): two warpgroups of T threads take a
// CTA's units in turn (unit j is warpgroup j % 2's), each thread stepping at random: waiting
// for its unit's turn, in the mainloop, in the epilogue. Properties: no unit's mainloop starts
// before every thread has finished the previous unit's (the barrier's parity never aliases a
// phase), mainloops of the two warpgroups never overlap, and every unit completes (no
// deadlock) for any interleaving and unit count.
// The block-scaled mainloop's alternating issue (kernels/collective/sm90_block_scaled_turns.hpp)
// over a model of the named barriers it uses (bar.sync / bar.arrive counting whole warps): the
// two consumer warpgroups' warps, stepping at random through calls of random k-tile counts
// (tiles, Stream-K steps, calls with none), issue their k-tiles in the order 0, 1, 0, 1, ...
// across calls, every barrier phase is one arrival of each of the eight warps (no warp counted
// twice in a phase, so no turn is handed out early), no barrier is left with pending arrivals,
// and every warp finishes.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include <tessera/pipeline/mbarrier.hpp>

#include "collective/sm90_block_scaled_turns.hpp"
#include "kernel/sm90_pingpong_order.hpp"

using tessera::kernels::sm90::PingpongOrder;
using tessera::pipeline::HostMbarrier;

namespace {
enum class Where { Waiting, Math, Epilogue, Done };
struct Thread {
  int wg = 0;
  int64_t unit = 0;  // the unit it is on (its warpgroup's units: wg, wg + 2, ...)
  Where where = Where::Waiting;
};
}  // namespace

TEST_CASE("sm90 ping-pong order: mainloops in unit order, never together, no deadlock (generated interleavings)") {
  rc::prop("random steps of 2 x T threads over U units", [] {
    const int threads = *rc::gen::inRange(1, 5);
    const int64_t units = *rc::gen::inRange<int64_t>(0, 40);
    PingpongOrder<HostMbarrier> order;
    order.init(threads);
    std::vector<Thread> ts;
    for (int wg = 0; wg < 2; ++wg)
      for (int t = 0; t < threads; ++t) ts.push_back({wg, wg, wg < units ? Where::Waiting : Where::Done});
    std::vector<int> finished(size_t(units), 0);  // threads past unit j's mainloop
    std::vector<int> in_math(2, 0);
    int64_t steps = 0;
    for (;;) {
      std::vector<size_t> live;
      for (size_t i = 0; i < ts.size(); ++i)
        if (ts[i].where != Where::Done) live.push_back(i);
      if (live.empty()) break;
      RC_ASSERT(++steps < 100000);  // no deadlock: some thread can always move on
      Thread& t = ts[*rc::gen::elementOf(live)];
      switch (t.where) {
        case Where::Waiting:
          if (order.may_start(t.unit)) {
            // Unit j - 1's mainloop has finished in every thread; the other warpgroup is not in one.
            if (t.unit > 0) RC_ASSERT(finished[size_t(t.unit - 1)] == threads);
            RC_ASSERT(in_math[size_t(1 - t.wg)] == 0);
            ++in_math[size_t(t.wg)];
            t.where = Where::Math;
          }
          break;
        case Where::Math:
          --in_math[size_t(t.wg)];
          ++finished[size_t(t.unit)];
          order.finished(t.unit);
          t.where = Where::Epilogue;
          break;
        case Where::Epilogue:
          t.unit += 2;
          t.where = t.unit < units ? Where::Waiting : Where::Done;
          break;
        case Where::Done: break;
      }
    }
    for (int64_t j = 0; j < units; ++j) RC_ASSERT(finished[size_t(j)] == threads);
  });
}

TEST_CASE("sm90 ping-pong order: owners and the first unit") {
  PingpongOrder<HostMbarrier> order;
  order.init(1);
  CHECK(order.may_start(0));
  CHECK_FALSE(order.may_start(1));  // waits for unit 0
  order.finished(0);
  CHECK(order.may_start(1));
  CHECK_FALSE(order.may_start(2));  // waits for unit 1
  order.finished(1);
  CHECK(order.may_start(2));
  CHECK(PingpongOrder<HostMbarrier>::owner(6) == 0);
  CHECK(PingpongOrder<HostMbarrier>::owner(7) == 1);
}

namespace {
// A named barrier of `expected` warps (bar.sync and bar.arrive of whole warps): a phase completes
// at its expected-th arrival; a warp in bar.sync waits for the phase it arrived in.
struct NamedBarrierModel {
  int expected = 0;
  int64_t phase = 0;
  std::vector<int> arrived;  // the warps counted in the current phase
  // Returns the phase the arrival counted in; checks that the phase that completes is one
  // arrival of each warp.
  int64_t arrive(int warp) {
    const int64_t in = phase;
    arrived.push_back(warp);
    if (int(arrived.size()) == expected) {
      std::vector<int> seen(size_t(expected), 0);
      for (const int w : arrived) RC_ASSERT(++seen[size_t(w)] == 1);
      arrived.clear();
      ++phase;
    }
    return in;
  }
};
enum class TurnOp { Arrive, Sync, Issue };
struct Step {
  TurnOp op;
  int barrier = 0;  // Arrive, Sync: the turn barrier (offset from ConsumerTurn)
  int turn = 0;     // Issue: the index of the k-tile's turn in the order 0, 1, 0, 1, ... over all calls
};
}  // namespace

TEST_CASE("sm90 block-scaled alternating issue: k-tiles in turns across calls, barriers balanced, no deadlock") {
  using Turns = tessera::kernels::sm90::block_scaled_turns<2>;
  static_assert(Turns::threads == 2 * 4 * 32, "each turn barrier counts both warpgroups' warps");
  rc::prop("random steps of 2 x 4 warps over calls of random k-tile counts", [] {
    constexpr int warps_per_wg = 4, warps = 2 * warps_per_wg;
    const auto calls = *rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 6));
    // Each warp's program, as the mainloop runs it (warps of a warpgroup run the same one).
    std::array<std::vector<Step>, 2> program;
    int turns = 0;
    for (const int k_tiles : calls) {
      for (int wg = 0; wg < 2; ++wg) {
        if (k_tiles > 0 && Turns::primes(wg)) program[size_t(wg)].push_back({TurnOp::Arrive, Turns::first()});
        for (int kt = 0; kt < k_tiles; ++kt) {
          program[size_t(wg)].push_back({TurnOp::Sync, Turns::waits_at(wg)});
          program[size_t(wg)].push_back({TurnOp::Issue, 0, turns + 2 * kt + wg});
          if (Turns::passes(wg, kt, k_tiles)) program[size_t(wg)].push_back({TurnOp::Arrive, Turns::passes_to(wg)});
        }
      }
      turns += 2 * k_tiles;
    }
    std::array<NamedBarrierModel, 2> bar{NamedBarrierModel{warps}, NamedBarrierModel{warps}};
    std::vector<int> issued(size_t(turns), 0);  // warps past each turn's issue
    std::vector<size_t> pc(warps, 0);
    std::vector<int64_t> waiting(warps, -1);  // the phase a warp in bar.sync waits out
    int64_t steps = 0;
    for (;;) {
      std::vector<int> live, movable;
      for (int w = 0; w < warps; ++w) {
        if (pc[size_t(w)] == program[size_t(w / warps_per_wg)].size()) continue;
        live.push_back(w);
        const Step& s = program[size_t(w / warps_per_wg)][pc[size_t(w)]];
        if (s.op != TurnOp::Sync || waiting[size_t(w)] < 0 || bar[size_t(s.barrier)].phase > waiting[size_t(w)]) movable.push_back(w);
      }
      if (live.empty()) break;
      RC_ASSERT(!movable.empty());  // no deadlock: some warp can always move on
      RC_ASSERT(++steps < 200000);
      const int w = *rc::gen::elementOf(movable);
      const Step& s = program[size_t(w / warps_per_wg)][pc[size_t(w)]];
      switch (s.op) {
        case TurnOp::Arrive: bar[size_t(s.barrier)].arrive(w), ++pc[size_t(w)]; break;
        case TurnOp::Sync:
          if (waiting[size_t(w)] < 0) waiting[size_t(w)] = bar[size_t(s.barrier)].arrive(w);
          if (bar[size_t(s.barrier)].phase > waiting[size_t(w)]) waiting[size_t(w)] = -1, ++pc[size_t(w)];
          break;
        case TurnOp::Issue:
          // Every earlier turn has been issued by all the warps of its warpgroup.
          for (int j = 0; j < s.turn; ++j) RC_ASSERT(issued[size_t(j)] == warps_per_wg);
          ++issued[size_t(s.turn)], ++pc[size_t(w)];
          break;
      }
    }
    for (const int n : issued) RC_ASSERT(n == warps_per_wg);
    // Balanced: nothing pending that a later call (or kernel exit) would inherit.
    for (const NamedBarrierModel& b : bar) RC_ASSERT(b.arrived.empty());
  });
}

TEST_CASE("sm90 block-scaled alternating issue: the hand-offs of one call") {
  using Turns = tessera::kernels::sm90::block_scaled_turns<2>;
  // Warpgroup 0 goes first, given its turn by warpgroup 1; each waits at its own barrier and
  // hands on at the other's; warpgroup 1 does not hand on after the call's last k-tile.
  CHECK((Turns::first() == 0 && Turns::primes(1) && !Turns::primes(0)));
  CHECK((Turns::waits_at(0) == 0 && Turns::waits_at(1) == 1 && Turns::passes_to(0) == 1 && Turns::passes_to(1) == 0));
  CHECK((Turns::passes(0, 2, 3) && Turns::passes(1, 1, 3) && !Turns::passes(1, 2, 3) && Turns::passes(0, 0, 1) && !Turns::passes(1, 0, 1)));
  // Per call of k k-tiles: barrier 0 is waited k times (warpgroup 0) and arrived at 1 + (k - 1)
  // times by warpgroup 1; barrier 1 waited k times (warpgroup 1), arrived k times by warpgroup 0.
  for (int k = 1; k < 6; ++k) {
    int arrive0 = Turns::primes(1) ? 1 : 0, arrive1 = 0;
    for (int kt = 0; kt < k; ++kt) {
      if (Turns::passes(0, kt, k)) (Turns::passes_to(0) == 1 ? arrive1 : arrive0)++;
      if (Turns::passes(1, kt, k)) (Turns::passes_to(1) == 0 ? arrive0 : arrive1)++;
    }
    CHECK((arrive0 == k && arrive1 == k));
  }
}
