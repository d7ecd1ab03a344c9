// The block-scaled mainloop's promotion under the next k-tile (BlockPromotion::UnderNextKTile,
// collective/sm90_block_promotion.hpp), played out on the host: the loop the kernel runs, with
// its issue / retire / promote steps recorded against a model of wgmma groups (committed in
// order, retired in order, `wait<N>` leaving the newest N in flight), and of the stages a
// PipelineState walks (a Stream-K step starts at any stage and phase).
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <deque>
#include <string>
#include <vector>

#include <tessera/pipeline/tma_pipeline.hpp>

#include "collective/sm90_block_promotion.hpp"

namespace {
using tessera::kernels::sm90::promote_under_next_k_tile;
using tessera::kernels::sm90::promotion_in_flight;
using tessera::kernels::sm90::promotion_set;

// What a run of the loop did, and the first broken rule (empty: none).
struct Played {
  std::vector<int> issued, promoted;      // k-tiles in order
  std::vector<int> issued_stage;          // the stage each k-tile's wgmmas read (by k-tile)
  std::vector<int> released_stage;        // stages released, in order
  std::vector<int> overlapped;            // k-tiles promoted while the next one's wgmmas were in flight
  int max_in_flight = 0;
  std::string broken;
};

template <int Stages>
Played play(int k_tiles, tessera::pipeline::PipelineState<Stages> start) {
  Played r;
  std::deque<int> in_flight;  // committed groups not retired, oldest first (their k-tiles)
  int holds[2] = {-1, -1};    // the k-tile each set holds from its issue to its promotion (-1: free)
  auto st = start, held = start;  // as the device loop: the next stage to fill, the oldest not released
  r.issued_stage.assign(size_t(k_tiles > 0 ? k_tiles : 0), -1);
  auto fail = [&](std::string why) {
    if (r.broken.empty()) r.broken = std::move(why);
  };
  auto issue = [&](auto set, int kt) {
    constexpr int w = decltype(set)::value;
    if (w != promotion_set(kt)) fail("k-tile " + std::to_string(kt) + " issued into set " + std::to_string(w));
    if (holds[w] != -1) fail("set " + std::to_string(w) + " written while it holds k-tile " + std::to_string(holds[w]));
    if (kt < 0 || kt >= k_tiles) return fail("k-tile " + std::to_string(kt) + " out of range");
    holds[w] = kt;
    r.issued.push_back(kt);
    r.issued_stage[size_t(kt)] = st.index;
    ++st;
    in_flight.push_back(kt);
    if (int(in_flight.size()) > r.max_in_flight) r.max_in_flight = int(in_flight.size());
  };
  auto retire = [&](auto newest) {
    while (int(in_flight.size()) > decltype(newest)::value) in_flight.pop_front();
  };
  auto promote = [&](auto set, int kt) {
    constexpr int w = decltype(set)::value;
    if (holds[w] != kt) fail("set " + std::to_string(w) + " promoted as k-tile " + std::to_string(kt) + " holds " + std::to_string(holds[w]));
    for (int g : in_flight)
      if (g == kt) fail("k-tile " + std::to_string(kt) + " promoted before its wgmmas retired");
    if (int(in_flight.size()) != promotion_in_flight(kt, k_tiles))
      fail("k-tile " + std::to_string(kt) + " promoted with " + std::to_string(in_flight.size()) + " groups in flight");
    if (!in_flight.empty() && in_flight.back() == kt + 1) r.overlapped.push_back(kt);
    // the stage the device releases is `held`'s: it must be the one this k-tile's wgmmas read
    if (kt >= 0 && kt < k_tiles && held.index != r.issued_stage[size_t(kt)])
      fail("k-tile " + std::to_string(kt) + " releases stage " + std::to_string(held.index) + ", read " +
           std::to_string(r.issued_stage[size_t(kt)]));
    r.released_stage.push_back(held.index);
    ++held;
    holds[w] = -1;
    r.promoted.push_back(kt);
  };
  promote_under_next_k_tile(k_tiles, issue, retire, promote);
  if (!in_flight.empty()) fail("groups left in flight at the end");
  if (holds[0] != -1 || holds[1] != -1) fail("a set left unpromoted");
  if (st.index != held.index || st.phase != held.phase) fail("stages filled and released differ");
  return r;
}

// The loop's run checked whole: "" where it keeps every rule, else the first it breaks.
template <int Stages>
std::string check_play(int k_tiles, int start_index, bool start_phase) {
  tessera::pipeline::PipelineState<Stages> start;
  start.index = start_index;
  start.phase = start_phase ? 1u : 0u;
  const Played r = play<Stages>(k_tiles, start);
  if (!r.broken.empty()) return r.broken;
  // every k-tile issued and promoted once, in order (the accumulators' order of addition is AfterWait's)
  std::vector<int> order;
  for (int kt = 0; kt < k_tiles; ++kt) order.push_back(kt);
  if (r.issued != order) return "issue order";
  if (r.promoted != order) return "promotion order";
  // the stages released are the ring's, in the order they were filled
  tessera::pipeline::PipelineState<Stages> s = start;
  std::vector<int> ring;
  for (int kt = 0; kt < k_tiles; ++kt, ++s) ring.push_back(s.index);
  if (r.released_stage != ring) return "released stages";
  // the point of it: every k-tile but the last promoted under the next one's wgmmas, never more
  // than two groups in flight (two sets)
  std::vector<int> under;
  for (int kt = 0; kt + 1 < k_tiles; ++kt) under.push_back(kt);
  if (r.overlapped != under) return "a k-tile promoted without the next one in flight";
  if (r.max_in_flight != (k_tiles >= 2 ? 2 : k_tiles)) return "groups in flight: " + std::to_string(r.max_in_flight);
  return "";
}
}  // namespace

TEST_CASE("sm90 block promotion under the next k-tile: the order at every k-tile count up to 40, from every stage") {
  for (int k_tiles = 0; k_tiles <= 40; ++k_tiles)
    for (int start = 0; start < 5; ++start)
      for (bool phase : {false, true}) {
        INFO("k_tiles " << k_tiles << ", start stage " << start << " phase " << phase);
        CHECK(check_play<5>(k_tiles, start, phase) == "");
      }
  for (int k_tiles = 0; k_tiles <= 9; ++k_tiles) CHECK(check_play<2>(k_tiles, 1, true) == "");
}

TEST_CASE("sm90 block promotion under the next k-tile: generated counts, stages and starts") {
  rc::prop("any k-tile count and ring", [] {
    const int k_tiles = *rc::gen::inRange(0, 1000);
    const int start = *rc::gen::inRange(0, 7);
    const bool phase = *rc::gen::arbitrary<bool>();
    RC_ASSERT(check_play<7>(k_tiles, start, phase) == std::string());
  });
}

TEST_CASE("sm90 block promotion: which set a k-tile uses and what is in flight at its promotion") {
  for (int kt = 0; kt < 64; ++kt) {
    CHECK(promotion_set(kt) == kt % 2);
    CHECK(promotion_set(kt) != promotion_set(kt + 1));  // consecutive k-tiles never share a set
    for (int k_tiles = kt + 1; k_tiles < kt + 4; ++k_tiles) CHECK(promotion_in_flight(kt, k_tiles) == (kt == k_tiles - 1 ? 0 : 1));
  }
}
