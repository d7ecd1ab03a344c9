// How tessera times kernels against each other on the GPU: gemm_tune's candidates
// (kernels/device/gemm_tune.cpp) and the benchmark's pairs (bench/timing.hpp). Pure functions on
// counts and milliseconds, so the host tests check the policy without a GPU.
//
// Why each rule:
// - Warm-up by time, not by count: after idle host work (allocation, a reference check) the GPU
//   runs at a low clock for milliseconds; five launches of a 30 us kernel do not bring it up.
// - Repetitions by time: a kernel of 20-40 us timed 15 times gives ~0.5 ms of samples, and the
//   median of that moved by more than 10% between runs; each series gets at least `target_ms`.
// - Rounds in a balanced order (a Williams design), not one order rotated: every candidate is
//   timed at every position of a round equally often, so a position's cost (the first launch after
//   a wait) spreads over all of them, as drift in clocks does; and every candidate follows every
//   other equally often, so what the previous kernel leaves (the part of the operands it left in
//   the L2, which depends on its tile order; its shared-memory carveout) spreads too. A rotation
//   alone keeps each candidate behind the same neighbour in every round: at decode shapes, whose
//   weights are about the L2's size, that neighbour's leftovers moved a candidate's median by
//   microseconds and not its neighbour's (bench/notes/suite.md).
// - The margin: a candidate replaces the rule's choice only where it was faster in at least three
//   rounds out of four (the upper quartile of the per-round ratio candidate / rule below 1): a
//   difference smaller than the rounds' own spread keeps the rule's choice, so noise does not
//   pick the configuration.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace tessera::kernels::timing {

// Defaults shared by gemm_tune and the benchmark.
inline constexpr double kWarmupMs = 25.0;  // of GPU work before the first timed launch
inline constexpr int kMaxRounds = 2000;    // a cap for kernels of a few microseconds

// How many rounds (or pairs) to time: enough that `estimate_ms` (one launch, from the warm-up)
// times the count reaches `target_ms`, at least `min_rounds`, at most `max_rounds`. An estimate
// that is not a positive finite number (nothing measured) gives `min_rounds`: nothing says the
// kernel is short.
inline int rounds_for(double estimate_ms, double target_ms, int min_rounds, int max_rounds = kMaxRounds) {
  if (min_rounds < 1) throw std::invalid_argument("rounds_for: min_rounds must be at least 1 (got " + std::to_string(min_rounds) + ")");
  if (max_rounds < min_rounds)
    throw std::invalid_argument("rounds_for: max_rounds " + std::to_string(max_rounds) + " is below min_rounds " + std::to_string(min_rounds));
  if (!(estimate_ms > 0) || !std::isfinite(estimate_ms) || !(target_ms > 0)) return min_rounds;
  const double need = std::ceil(target_ms / estimate_ms);
  if (need >= double(max_rounds)) return max_rounds;
  return std::max(min_rounds, int(need));
}

// The candidate launched at position `pos` of round `round` (of n candidates): round r starts
// with candidate r mod n, so over n consecutive rounds each candidate takes each position once,
// but always behind the same neighbour (candidate i - 1): balanced_order varies that too.
inline std::size_t round_robin(std::size_t n, long long round, std::size_t pos) {
  if (n == 0) throw std::invalid_argument("round_robin: no candidates");
  const long long r = ((round % (long long)n) + (long long)n) % (long long)n;  // (warm-up rounds are negative)
  return (std::size_t(r) + pos) % n;
}

// The candidate launched at position `pos` of round `round` (of n candidates) in a Williams
// design: round r (mod n) is the sequence 0, 1, n-1, 2, n-2, 3, ... shifted by r (mod n); for an
// odd n the next n rounds run those sequences reversed. Over any n consecutive rounds (2n for an
// odd n) each candidate takes each position equally often (once; twice for an odd n), and each
// ordered pair (a then b, a != b) is adjacent in a round equally often (once; twice for an odd
// n): no candidate always follows the same one.
inline std::size_t balanced_order(std::size_t n, long long round, std::size_t pos) {
  if (n == 0) throw std::invalid_argument("balanced_order: no candidates");
  if (pos >= n) throw std::invalid_argument("balanced_order: position " + std::to_string(pos) + " of a round of " + std::to_string(n));
  const long long period = (long long)(n % 2 == 0 ? n : 2 * n);
  const long long r = ((round % period) + period) % period;  // (warm-up rounds are negative)
  const std::size_t shift = std::size_t(r) % n;
  const std::size_t j = r < (long long)n ? pos : n - 1 - pos;  // (the odd case's mirrored rounds)
  // the base sequence's j-th entry: 0, 1, n-1, 2, n-2, ...
  const std::size_t base = j == 0 ? 0 : j % 2 == 1 ? (j + 1) / 2 : n - j / 2;
  return (base + shift) % n;
}

// `rounds` raised to whole periods of balanced_order over n candidates (n rounds, 2n for an odd
// n), so that each position and each neighbour counts equally; `rounds` as given where the next
// whole period would pass `max_rounds` (never fewer rounds than asked).
inline int whole_periods(int rounds, std::size_t n, int max_rounds = kMaxRounds) {
  if (n == 0) throw std::invalid_argument("whole_periods: no candidates");
  if (rounds < 1) throw std::invalid_argument("whole_periods: rounds must be at least 1 (got " + std::to_string(rounds) + ")");
  if (max_rounds < rounds)
    throw std::invalid_argument("whole_periods: max_rounds " + std::to_string(max_rounds) + " is below rounds " + std::to_string(rounds));
  const long long period = (long long)(n % 2 == 0 ? n : 2 * n);
  const long long up = (rounds + period - 1) / period * period;
  return up <= max_rounds ? int(up) : rounds;
}

// The q-quantile (0 <= q <= 1) of v, interpolated linearly between order statistics (q 0.5 of an
// even count: the mean of the middle two). v must not be empty.
inline double quantile(std::vector<double> v, double q) {
  if (v.empty()) throw std::invalid_argument("quantile: no values");
  if (!(q >= 0 && q <= 1)) throw std::invalid_argument("quantile: q must lie in [0, 1]");
  std::sort(v.begin(), v.end());
  const double at = q * double(v.size() - 1);
  const std::size_t lo = std::size_t(std::floor(at));
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (at - double(lo)) * (v[hi] - v[lo]);
}

// A series' median and quartiles.
struct Spread {
  double q1 = 0, median = 0, q3 = 0;
};
inline Spread spread_of(const std::vector<double>& v) { return {quantile(v, 0.25), quantile(v, 0.5), quantile(v, 0.75)}; }

// The median and the lowest and highest of `rounds` round ratios: pairs (theirs[i] / mine[i]
// measured together) cut in `rounds` consecutive runs, each run's ratio the quotient of its two
// medians. The overall ratio is the quotient of the two series' medians.
struct RatioSpread {
  double ratio = 0, lo = 0, hi = 0;
};
inline RatioSpread ratio_spread(const std::vector<double>& mine, const std::vector<double>& theirs, int rounds) {
  if (mine.size() != theirs.size() || mine.empty()) throw std::invalid_argument("ratio_spread: two series of the same nonzero length");
  if (rounds < 1) throw std::invalid_argument("ratio_spread: rounds must be at least 1");
  const std::size_t n = mine.size(), r = std::min<std::size_t>(std::size_t(rounds), n);
  RatioSpread out;
  out.ratio = quantile(theirs, 0.5) / quantile(mine, 0.5);
  out.lo = out.hi = out.ratio;
  for (std::size_t j = 0; j < r; ++j) {
    const std::size_t b = j * n / r, e = (j + 1) * n / r;
    const double x = quantile({theirs.begin() + b, theirs.begin() + e}, 0.5) / quantile({mine.begin() + b, mine.begin() + e}, 0.5);
    if (j == 0) out.lo = out.hi = x;
    out.lo = std::min(out.lo, x), out.hi = std::max(out.hi, x);
  }
  return out;
}

// gemm_tune's choice from per-round times: ms[c][r] is candidate c's time in round r (every
// candidate timed in every round). The candidate with the smallest median, unless `rule` (the
// index of the configuration the dispatch's rule runs) is given and that candidate was not faster
// than the rule's in at least three rounds out of four (upper quartile of ms[c][r] / ms[rule][r]
// not below 1): then the rule's. Among candidates that pass, the smallest median wins.
struct TuneChoice {
  std::size_t index = 0;   // the chosen candidate
  std::size_t fastest = 0; // the smallest median (index differs where the margin kept the rule's)
};
inline TuneChoice choose_with_margin(const std::vector<std::vector<double>>& ms, std::optional<std::size_t> rule) {
  if (ms.empty()) throw std::invalid_argument("choose_with_margin: no candidates");
  const std::size_t rounds = ms[0].size();
  if (rounds == 0) throw std::invalid_argument("choose_with_margin: no rounds");
  for (const auto& c : ms)
    if (c.size() != rounds) throw std::invalid_argument("choose_with_margin: every candidate needs a time in every round");
  if (rule && *rule >= ms.size()) throw std::invalid_argument("choose_with_margin: the rule's index is not a candidate");
  std::vector<double> med(ms.size());
  for (std::size_t c = 0; c < ms.size(); ++c) med[c] = quantile(ms[c], 0.5);
  TuneChoice out;
  for (std::size_t c = 1; c < ms.size(); ++c)
    if (med[c] < med[out.fastest]) out.fastest = c;
  if (!rule) {
    out.index = out.fastest;
    return out;
  }
  out.index = *rule;
  for (std::size_t c = 0; c < ms.size(); ++c) {
    if (c == *rule || med[c] >= med[out.index]) continue;
    std::vector<double> ratio(rounds);
    for (std::size_t r = 0; r < rounds; ++r) ratio[r] = ms[c][r] / ms[*rule][r];
    if (quantile(ratio, 0.75) < 1.0) out.index = c;
  }
  return out;
}

}  // namespace tessera::kernels::timing
