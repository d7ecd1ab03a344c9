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

#include <cstdint>
#include <algorithm>
#include <string>
#include <vector>

#include "kernel/sm90_epilogue_order.hpp"

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
