// The device layer's per-entry cache (kernels/device/entry_cache.hpp), on the host: a value is
// asked once per (entry address, device, fact) and kept, a failed ask (negative) is asked again,
// and two entries never share a value, whatever the sequence of queries.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <map>
#include <thread>
#include <tuple>
#include <vector>

#include "device/entry_cache.hpp"

using tessera::kernels::device::EntryCache;

namespace {
// Entries stand for host stubs: distinct addresses, as two TUs' stubs of one kernel type are.
char stubs[8];
}  // namespace

TEST_CASE("entry cache: two stubs of one kernel never share a value", "[kernels]") {
  EntryCache cache;
  int asked = 0;
  const int a = cache.get(&stubs[0], 0, EntryCache::Fact::SmemOptIn, [&] { return ++asked; });
  const int b = cache.get(&stubs[1], 0, EntryCache::Fact::SmemOptIn, [&] { return ++asked; });
  REQUIRE(a == 1);
  REQUIRE(b == 2);  // the second stub is asked for itself, not answered with the first's
  REQUIRE(cache.get(&stubs[0], 0, EntryCache::Fact::SmemOptIn, [&] { return ++asked; }) == 1);
  REQUIRE(asked == 2);
}

TEST_CASE("entry cache: generated query sequences", "[kernels]") {
  rc::prop("entry cache answers every query with its key's value, asking once per key that succeeds", [] {
  // value(key) for each of 4 entries x 2 devices x 3 facts; negative = the driver refused.
  const auto values = *rc::gen::container<std::vector<int>>(24, rc::gen::inRange(-2, 100));
  const auto queries = *rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 24));
  EntryCache cache;
  std::map<int, int> asks;
  for (int q : queries) {
    const int entry = q / 6, device = (q / 3) % 2, fact = q % 3;
    const int got = cache.get(&stubs[entry], device, EntryCache::Fact(fact), [&] {
      ++asks[q];
      return values[std::size_t(q)];
    });
    RC_ASSERT(got == values[std::size_t(q)]);
  }
  for (const auto& [q, n] : asks) {
    int queried = 0;
    for (int x : queries) queried += x == q;
    if (values[std::size_t(q)] >= 0) RC_ASSERT(n == 1);  // kept after the first answer
    else RC_ASSERT(n == queried);                         // an error is asked again every time
  }
  std::size_t kept = 0;
  for (const auto& [q, n] : asks) kept += values[std::size_t(q)] >= 0;
  RC_ASSERT(cache.size() == kept);
  });
}

TEST_CASE("entry cache: concurrent first calls all get the value", "[kernels]") {
  EntryCache cache;
  std::vector<std::thread> threads;
  std::vector<int> got(8, -1);
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] { got[std::size_t(t)] = cache.get(&stubs[t % 2], 3, EntryCache::Fact::CtasPerSm, [t] { return 40 + t % 2; }); });
  for (auto& th : threads) th.join();
  for (int t = 0; t < 8; ++t) REQUIRE(got[std::size_t(t)] == 40 + t % 2);
  REQUIRE(cache.size() == 2);
}
