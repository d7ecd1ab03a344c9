// The ping-pong kernel's order of mainloops (kernels/kernel/sm90_pingpong_order.hpp) on the
// host, over HostMbarrier (the mbarrier state machine): two warpgroups of T threads take a
// CTA's units in turn (unit j is warpgroup j % 2's), each thread stepping at random: waiting
// for its unit's turn, in the mainloop, in the epilogue. Properties: no unit's mainloop starts
// before every thread has finished the previous unit's (the barrier's parity never aliases a
// phase), mainloops of the two warpgroups never overlap, and every unit completes (no
// deadlock) for any interleaving and unit count.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <cstdint>
#include <vector>

#include <tessera/pipeline/mbarrier.hpp>

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
