// The timing policy of gemm_tune and the benchmark (kernels/device/timing_policy.hpp) on the
// host: how many rounds a first estimate asks for, the rotated and the balanced orders, quantiles and
// round spreads, and the margin that keeps the rule's configuration against noise.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <set>
#include <stdexcept>
#include <vector>

#include "device/timing_policy.hpp"

namespace t = tessera::kernels::timing;

TEST_CASE("rounds_for: enough rounds to reach the target time, within the bounds", "[timing]") {
  // a 30 us decode kernel: 5 ms of samples needs 167 launches, not the 20 asked at least
  CHECK(t::rounds_for(0.030, 5.0, 20) == 167);
  // a 2 ms kernel: the minimum already covers the target
  CHECK(t::rounds_for(2.0, 5.0, 20) == 20);
  // a kernel of a few nanoseconds: the cap
  CHECK(t::rounds_for(1e-6, 5.0, 20) == t::kMaxRounds);
  CHECK(t::rounds_for(1e-6, 5.0, 20, 300) == 300);
  // nothing measured, or no target: the minimum
  CHECK(t::rounds_for(0.0, 5.0, 7) == 7);
  CHECK(t::rounds_for(NAN, 5.0, 7) == 7);
  CHECK(t::rounds_for(INFINITY, 5.0, 7) == 7);
  CHECK(t::rounds_for(0.030, 0.0, 7) == 7);
  CHECK_THROWS_AS(t::rounds_for(0.03, 5.0, 0), std::invalid_argument);
  CHECK_THROWS_AS(t::rounds_for(0.03, 5.0, 10, 9), std::invalid_argument);
  // over a sweep of estimates: never fewer than the target needs (unless capped), never more
  // than one round beyond it, and never more rounds for a longer kernel
  int previous = t::kMaxRounds;
  for (double est = 1e-4; est < 50; est *= 1.07) {
    const int r = t::rounds_for(est, 5.0, 15);
    CHECK(r >= 15);
    CHECK(r <= previous);
    if (r < t::kMaxRounds) CHECK(r * est >= 5.0 - 1e-9);
    if (r > 15) CHECK((r - 1) * est < 5.0);
    previous = r;
  }
}

TEST_CASE("round_robin: every candidate at every position once in n rounds", "[timing]") {
  for (std::size_t n = 1; n <= 9; ++n)
    for (long long first : {0LL, 5LL, -3LL}) {  // (any n consecutive rounds, negative ones too)
      std::vector<std::vector<int>> seen(n, std::vector<int>(n, 0));  // [candidate][position]
      for (long long r = first; r < first + (long long)n; ++r) {
        std::set<std::size_t> in_round;
        for (std::size_t pos = 0; pos < n; ++pos) {
          const std::size_t c = t::round_robin(n, r, pos);
          REQUIRE(c < n);
          in_round.insert(c);
          ++seen[c][pos];
        }
        CHECK(in_round.size() == n);  // a round launches each candidate once
      }
      for (const auto& row : seen)
        for (int k : row) CHECK(k == 1);
    }
  // not the same order every round (the first launch of a round is not always candidate 0)
  CHECK(t::round_robin(4, 0, 0) != t::round_robin(4, 1, 0));
  CHECK_THROWS_AS(t::round_robin(0, 0, 0), std::invalid_argument);
}

TEST_CASE("balanced_order: every position and every predecessor equally often over a period", "[timing]") {
  for (std::size_t n = 1; n <= 11; ++n) {
    const long long period = (long long)(n % 2 == 0 ? n : 2 * n);
    const int each = n % 2 == 0 ? 1 : 2;
    for (long long first : {0LL, 7LL, -5LL}) {  // (any period of consecutive rounds, negative ones too)
      std::vector<std::vector<int>> at(n, std::vector<int>(n, 0));       // [candidate][position]
      std::vector<std::vector<int>> after(n, std::vector<int>(n, 0));    // [previous][candidate] within a round
      for (long long r = first; r < first + period; ++r) {
        std::set<std::size_t> in_round;
        std::size_t prev = 0;
        for (std::size_t pos = 0; pos < n; ++pos) {
          const std::size_t c = t::balanced_order(n, r, pos);
          REQUIRE(c < n);
          in_round.insert(c);
          ++at[c][pos];
          if (pos > 0) ++after[prev][c];
          prev = c;
        }
        CHECK(in_round.size() == n);  // a round launches each candidate once
      }
      for (const auto& row : at)
        for (int k : row) CHECK(k == each);
      for (std::size_t a = 0; a < n; ++a)
        for (std::size_t b = 0; b < n; ++b) CHECK(after[a][b] == (a == b ? 0 : each));
    }
  }
  // the rotation does not vary the predecessor: candidate 2 follows candidate 1 in every round
  // where both run and 2 is not first; the balanced order puts others before it too
  std::set<std::size_t> before_2;
  for (long long r = 0; r < 6; ++r)
    for (std::size_t pos = 1; pos < 6; ++pos)
      if (t::balanced_order(6, r, pos) == 2) before_2.insert(t::balanced_order(6, r, pos - 1));
  CHECK(before_2.size() == 5);
  for (long long r = 0; r < 6; ++r)
    for (std::size_t pos = 1; pos < 6; ++pos)
      if (t::round_robin(6, r, pos) == 2) CHECK(t::round_robin(6, r, pos - 1) == 1);
  CHECK_THROWS_AS(t::balanced_order(0, 0, 0), std::invalid_argument);
  CHECK_THROWS_AS(t::balanced_order(4, 0, 4), std::invalid_argument);
}

TEST_CASE("whole_periods: rounds raised to whole periods of the balanced order", "[timing]") {
  CHECK(t::whole_periods(131, 10) == 140);  // n even: periods of n rounds
  CHECK(t::whole_periods(140, 10) == 140);
  CHECK(t::whole_periods(10, 7) == 14);     // n odd: periods of 2n
  CHECK(t::whole_periods(1, 1) == 2);
  CHECK(t::whole_periods(1995, 30) == 1995);  // the next period passes the cap: as asked
  CHECK(t::whole_periods(5, 4, 6) == 5);
  for (std::size_t n = 1; n <= 12; ++n)
    for (int r = 1; r <= 60; ++r) {
      const int w = t::whole_periods(r, n, 100);
      const int period = int(n % 2 == 0 ? n : 2 * n);
      CHECK(w >= r);  // never fewer than asked
      CHECK(w <= 100);
      if (w != r || r % period == 0) CHECK(w % period == 0);
      if (w % period == 0) CHECK(w - r < period);
    }
  CHECK_THROWS_AS(t::whole_periods(0, 4), std::invalid_argument);
  CHECK_THROWS_AS(t::whole_periods(5, 0), std::invalid_argument);
  CHECK_THROWS_AS(t::whole_periods(10, 4, 9), std::invalid_argument);
}

TEST_CASE("quantile and spread_of", "[timing]") {
  CHECK(t::quantile({3, 1, 2}, 0.5) == 2);
  CHECK(t::quantile({4, 1, 3, 2}, 0.5) == Approx(2.5));  // even count: the middle two's mean
  CHECK(t::quantile({1, 2, 3, 4, 5}, 0.25) == 2);
  CHECK(t::quantile({1, 2, 3, 4, 5}, 0.75) == 4);
  CHECK(t::quantile({1, 2}, 0.25) == Approx(1.25));
  CHECK(t::quantile({7}, 0.9) == 7);
  CHECK_THROWS_AS(t::quantile({}, 0.5), std::invalid_argument);
  CHECK_THROWS_AS(t::quantile({1}, 1.5), std::invalid_argument);
  const t::Spread s = t::spread_of({10, 1, 9, 2, 8, 3, 7, 4, 6, 5, 100});  // one outlier
  CHECK(s.median == 6);
  CHECK(s.q1 == Approx(3.5));
  CHECK(s.q3 == Approx(8.5));
}

TEST_CASE("ratio_spread: the lowest and highest of the round ratios", "[timing]") {
  // tessera 1 ms throughout; the reference 0.9 ms in the first third, 1.0 then 1.1
  std::vector<double> mine(30, 1.0), theirs;
  for (double v : {0.9, 1.0, 1.1})
    for (int i = 0; i < 10; ++i) theirs.push_back(v);
  const t::RatioSpread r = t::ratio_spread(mine, theirs, 3);
  CHECK(r.ratio == Approx(1.0));
  CHECK(r.lo == Approx(0.9));
  CHECK(r.hi == Approx(1.1));
  // one round: no spread to see
  const t::RatioSpread one = t::ratio_spread(mine, theirs, 1);
  CHECK(one.lo == one.hi);
  // more rounds than pairs: one pair a round
  const t::RatioSpread many = t::ratio_spread({1, 2}, {1, 1}, 10);
  CHECK(many.lo == Approx(0.5));
  CHECK(many.hi == Approx(1.0));
  CHECK_THROWS_AS(t::ratio_spread({1}, {1, 2}, 3), std::invalid_argument);
  CHECK_THROWS_AS(t::ratio_spread({}, {}, 3), std::invalid_argument);
  CHECK_THROWS_AS(t::ratio_spread({1}, {1}, 0), std::invalid_argument);
}

namespace {
// Per-round times of candidates with true times `base`: each round scales every candidate by a
// common drift (clocks) and each launch by its own noise, both uniform within +-`noise`.
std::vector<std::vector<double>> synthetic(const std::vector<double>& base, int rounds, double drift, double noise, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> d(-drift, drift), e(-noise, noise);
  std::vector<std::vector<double>> ms(base.size());
  for (int r = 0; r < rounds; ++r) {
    const double common = 1 + d(rng);
    for (std::size_t c = 0; c < base.size(); ++c) ms[c].push_back(base[c] * common * (1 + e(rng)));
  }
  return ms;
}
}  // namespace

TEST_CASE("choose_with_margin: a clear winner replaces the rule's choice", "[timing]") {
  // candidate 2 is 5% faster than the rule's (0); launches vary by 1%, rounds drift by 10%
  for (unsigned seed = 1; seed <= 20; ++seed) {
    const auto ms = synthetic({1.00, 1.08, 0.95}, 100, 0.10, 0.01, seed);
    const t::TuneChoice c = t::choose_with_margin(ms, 0);
    CHECK(c.index == 2);
    CHECK(c.fastest == 2);
  }
}

TEST_CASE("choose_with_margin: a difference within the noise keeps the rule's choice", "[timing]") {
  // candidate 1 is 0.5% faster in truth, each launch varies by 8%: its median is lower in many
  // seeds, yet it is faster in about half the rounds, not three in four
  int fastest_not_rule = 0;
  for (unsigned seed = 1; seed <= 40; ++seed) {
    const auto ms = synthetic({1.000, 0.995, 1.2}, 100, 0.05, 0.08, seed);
    const t::TuneChoice c = t::choose_with_margin(ms, 0);
    CHECK(c.index == 0);
    fastest_not_rule += c.fastest != 0;
  }
  CHECK(fastest_not_rule > 0);  // (the margin did something: without it these would flip)
}

TEST_CASE("choose_with_margin: without a rule, the smallest median; the rule when it is fastest", "[timing]") {
  const auto ms = synthetic({1.000, 0.995, 1.2}, 100, 0.05, 0.08, 7);
  const t::TuneChoice free = t::choose_with_margin(ms, std::nullopt);
  CHECK(free.index == free.fastest);
  for (std::size_t c = 0; c < ms.size(); ++c) CHECK(t::quantile(ms[free.index], 0.5) <= t::quantile(ms[c], 0.5));
  const std::vector<std::vector<double>> rule_best = {{2, 2, 2}, {1, 1, 1}, {3, 3, 3}};
  CHECK(t::choose_with_margin(rule_best, 1).index == 1);
}

TEST_CASE("choose_with_margin: of two clear winners, the smaller median", "[timing]") {
  // both beat the rule (index 1) in every round; candidate 2 is the faster of them
  const std::vector<std::vector<double>> ms = {{0.90, 0.91, 0.89, 0.90}, {1.0, 1.0, 1.0, 1.0}, {0.80, 0.82, 0.79, 0.81}};
  CHECK(t::choose_with_margin(ms, 1).index == 2);
  // faster in three rounds of four (by more than it lost in the fourth): enough; in half of
  // them, by the same amounts: not enough, though its median is lower
  const std::vector<std::vector<double>> three = {{0.9, 0.9, 0.9, 1.05, 0.9, 0.9, 0.9, 1.05}, {1, 1, 1, 1, 1, 1, 1, 1}};
  CHECK(t::choose_with_margin(three, 1).index == 0);
  const std::vector<std::vector<double>> half = {{0.9, 1.05, 0.9, 1.05, 0.9, 1.05, 0.9, 1.05}, {1, 1, 1, 1, 1, 1, 1, 1}};
  CHECK(t::quantile(half[0], 0.5) < 1.0);
  CHECK(t::choose_with_margin(half, 1).index == 1);
}

TEST_CASE("choose_with_margin: bad input is refused", "[timing]") {
  CHECK_THROWS_AS(t::choose_with_margin({}, std::nullopt), std::invalid_argument);
  CHECK_THROWS_AS(t::choose_with_margin({{}}, std::nullopt), std::invalid_argument);
  CHECK_THROWS_AS(t::choose_with_margin({{1, 2}, {1}}, std::nullopt), std::invalid_argument);
  CHECK_THROWS_AS(t::choose_with_margin({{1}, {1}}, 2), std::invalid_argument);
}
