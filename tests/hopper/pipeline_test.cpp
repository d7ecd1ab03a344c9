// The mbarrier producer/consumer pipeline's phase logic, emulated on the host: a producer
// issuing TMA copies into a ring of stages, C consumers reading them, and the copies landing
// in pieces at arbitrary later times; rapidcheck picks the interleaving. And the handoff ring
// (words from one producer thread to C consumers) under any interleaving.
#include <catch2/catch.hpp>
#include <rapidcheck/catch.h>

#include <algorithm>
#include <deque>
#include <vector>

#include "tessera/pipeline/handoff_ring.hpp"
#include "tessera/pipeline/tma_pipeline.hpp"

using namespace tessera::pipeline;

namespace {

TEST_CASE("mbarrier: phases, parity waits, transaction bytes") {
  HostMbarrier b;
  b.init(2);
  CHECK(b.try_wait(1));   // the phase before phase 0 counts as completed
  CHECK_FALSE(b.try_wait(0));
  b.arrive_expect_tx(100);
  b.arrive();
  CHECK_FALSE(b.try_wait(0));  // both arrived, 100 bytes still in flight
  b.complete_tx(60);
  CHECK_FALSE(b.try_wait(0));
  b.complete_tx(40);
  CHECK(b.try_wait(0));        // phase 0 complete
  CHECK_FALSE(b.try_wait(1));  // phase 1 under way
  b.arrive();
  b.arrive();
  CHECK(b.try_wait(1));
  CHECK(b.phase == 2);
}

TEST_CASE("PipelineState: the phase flips each lap") {
  PipelineState<3> st;
  for (int i = 0; i < 7; ++i) ++st;
  CHECK(st.index == 1);
  CHECK(st.phase == 0);  // 7 = 2 laps + 1
  ++st; ++st;
  CHECK(st.index == 0);
  CHECK(st.phase == 1);
}

template <int Stages>
void run_interleaving(int consumers, int k_tiles, uint32_t bytes) {
  TmaPipeline<Stages, HostMbarrier> p;
  p.init(consumers, bytes);
  // What each stage holds (the k-tile last landed there, -1 before) and who still reads it.
  std::vector<int> content(Stages, -1), landed_bytes(Stages, 0), readers(Stages, 0);
  struct Copy { int stage, k; uint32_t left; };
  std::deque<Copy> in_flight;
  PipelineState<Stages> prod;
  std::vector<PipelineState<Stages>> cons(static_cast<std::size_t>(consumers), PipelineState<Stages>{});
  std::vector<int> next_k(std::size_t(consumers), 0);
  std::vector<bool> reading(std::size_t(consumers), false);
  int produced = 0;
  for (int steps = 0;; ++steps) {
    RC_ASSERT(steps < 100000);
    // Which actors can move: 0 producer, 1..C consumers, C+1 a copy landing (in part).
    std::vector<int> enabled;
    if (produced < k_tiles && p.producer_try_acquire(prod)) enabled.push_back(0);
    for (int c = 0; c < consumers; ++c)
      if (next_k[std::size_t(c)] < k_tiles && (reading[std::size_t(c)] || p.consumer_try_wait(cons[std::size_t(c)])))
        enabled.push_back(1 + c);
    if (!in_flight.empty()) enabled.push_back(1 + consumers);
    bool done = produced == k_tiles && in_flight.empty();
    for (int c = 0; c < consumers; ++c) done = done && next_k[std::size_t(c)] == k_tiles;
    if (done) break;
    RC_ASSERT(!enabled.empty());  // no deadlock
    const int who = *rc::gen::elementOf(enabled);
    if (who == 0) {
      // The stage is free: every consumer has released the k-tile it held.
      RC_ASSERT(readers[std::size_t(prod.index)] == 0);
      p.producer_commit(prod);
      in_flight.push_back({prod.index, produced, bytes});
      content[std::size_t(prod.index)] = -1;  // being overwritten
      landed_bytes[std::size_t(prod.index)] = 0;
      readers[std::size_t(prod.index)] = consumers;
      ++produced;
      ++prod;
    } else if (who == 1 + consumers) {
      // The oldest copies land in pieces, in any order among them.
      const std::size_t i = std::size_t(*rc::gen::inRange<std::size_t>(0, in_flight.size()));
      Copy& c = in_flight[i];
      const uint32_t piece = *rc::gen::inRange<uint32_t>(1, c.left + 1);
      c.left -= piece;
      landed_bytes[std::size_t(c.stage)] += int(piece);
      if (c.left == 0) content[std::size_t(c.stage)] = c.k;
      const int stage = c.stage;
      if (c.left == 0) in_flight.erase(in_flight.begin() + std::ptrdiff_t(i));
      p.full[stage].complete_tx(piece);
    } else {
      const std::size_t c = std::size_t(who - 1);
      PipelineState<Stages>& st = cons[c];
      if (!reading[c]) {
        // The wait passed: the whole k-tile this consumer expects is there.
        RC_ASSERT(content[std::size_t(st.index)] == next_k[c]);
        RC_ASSERT(landed_bytes[std::size_t(st.index)] == int(bytes));
        reading[c] = true;
      } else {
        RC_ASSERT(content[std::size_t(st.index)] == next_k[c]);  // nobody overwrote it meanwhile
        --readers[std::size_t(st.index)];
        p.consumer_release(st);
        reading[c] = false;
        ++next_k[c];
        ++st;
      }
    }
  }
}

TEST_CASE("TMA pipeline: any interleaving delivers every k-tile to every consumer, never overwritten early") {
  rc::prop("1 to 3 consumers, 2 to 4 stages", [] {
    const int consumers = *rc::gen::inRange(1, 4);
    const int k_tiles = *rc::gen::inRange(1, 20);
    const uint32_t bytes = *rc::gen::inRange<uint32_t>(1, 64);
    switch (*rc::gen::inRange(2, 5)) {
      case 2: run_interleaving<2>(consumers, k_tiles, bytes); break;
      case 3: run_interleaving<3>(consumers, k_tiles, bytes); break;
      default: run_interleaving<4>(consumers, k_tiles, bytes); break;
    }
  });
}

// The handoff ring: the producer publishes words 0 .. n-1 (each once a slot frees), each of C
// consumers reads them in order (a wait, the read, a release as separate steps), rapidcheck
// choosing who moves. Every consumer reads every word in order; a slot is never written while
// a consumer still has to read it; the producer is blocked exactly when it is Slots words ahead
// of the slowest consumer's releases.
template <int Slots>
void run_handoff(int consumers, int words) {
  HandoffRing<Slots, HostMbarrier> r;
  r.init(consumers);
  PipelineState<Slots> prod;
  std::vector<PipelineState<Slots>> cons(std::size_t(consumers), PipelineState<Slots>{});
  std::vector<int> next(std::size_t(consumers), 0), step(std::size_t(consumers), 0);  // step 0 wait, 1 read, 2 release
  std::vector<int> unread(Slots, 0);  // consumers still to read (and release) each slot
  int published = 0;
  for (int steps = 0;; ++steps) {
    RC_ASSERT(steps < 100000);
    std::vector<int> movable;
    if (published < words) movable.push_back(0);
    for (int c = 0; c < consumers; ++c)
      if (next[std::size_t(c)] < words) movable.push_back(c + 1);
    if (movable.empty()) break;
    const int who = *rc::gen::elementOf(movable);
    if (who == 0) {
      int behind = words;  // words the slowest consumer has released
      for (int c = 0; c < consumers; ++c) behind = std::min(behind, next[std::size_t(c)]);
      const bool free = r.producer_try_acquire(prod);
      RC_ASSERT(free == (published - behind < Slots));
      if (!free) continue;
      RC_ASSERT(unread[std::size_t(prod.index)] == 0);
      r.publish(prod, uint32_t(published));
      unread[std::size_t(prod.index)] = consumers;
      ++published, ++prod;
      continue;
    }
    const auto c = std::size_t(who - 1);
    auto& st = cons[c];
    if (step[c] == 0) {
      if (r.consumer_try_wait(st)) step[c] = 1;
      else RC_ASSERT(published <= next[c]);  // (blocked only before the word is published)
    } else if (step[c] == 1) {
      RC_ASSERT(r.read(st) == uint32_t(next[c]));
      step[c] = 2;
    } else {
      --unread[std::size_t(st.index)];
      r.consumer_release(st);
      ++st, ++next[c], step[c] = 0;
    }
  }
  RC_ASSERT(published == words);
}

TEST_CASE("handoff ring: any interleaving gives every consumer every word in order, a slot rewritten only once all read it") {
  rc::prop("1 to 12 consumers, 1 to 3 slots", [] {
    const int consumers = *rc::gen::inRange(1, 13);
    const int words = *rc::gen::inRange(1, 30);
    switch (*rc::gen::inRange(1, 4)) {
      case 1: run_handoff<1>(consumers, words); break;
      case 2: run_handoff<2>(consumers, words); break;
      default: run_handoff<3>(consumers, words); break;
    }
  });
}

}  // namespace
