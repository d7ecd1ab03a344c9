// Problems drawn from a seed, for the GPU tests that run them (tests/kernels/gemm_drawn_gpu_test.cu,
// tests/hopper/attention_drawn_gpu_test.cu): the generator, the run's options from the
// environment, and the loop that gives problem i a stream of random numbers of its own, so that
// a problem's arguments and data are the same whether or not the others run. Host code; not
// part of the kernels or of the installed API (tools/check_layers.py: the part "harness").
//
//   TESSERA_SEED=s             the run's seed (default: from the clock; printed first)
//   TESSERA_DRAWN=n            how many problems
//   TESSERA_DRAWN_SECONDS=t    stop drawing after t seconds
//   TESSERA_DRAWN_ONLY=i       problem i alone
//   TESSERA_DRAWN_LIST=1       print the problems (no GPU needed)
//   TESSERA_DRAWN_MAX_WORK=w   the most work a problem may take (each test says in what unit)
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <random>
#include <string>

namespace tessera::kernels::harness::drawn {

struct Rng {
  std::mt19937_64 g;
  explicit Rng(std::uint64_t s) : g(s) {}
  std::int64_t uniform(std::int64_t lo, std::int64_t hi) { return std::uniform_int_distribution<std::int64_t>(lo, hi)(g); }
  double real(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(g); }
  bool chance(double p) { return real(0, 1) < p; }
  template <class T>
  T pick(std::initializer_list<T> xs) {
    return *(xs.begin() + uniform(0, std::int64_t(xs.size()) - 1));
  }
};

struct Options {
  std::uint64_t seed = 0;
  int count = 0;
  double seconds = 0;
  int only = -1;
  bool list = false;
};

inline Options options(int count, double seconds) {
  Options o;
  o.seed = std::uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()) % 1000000007ull;
  if (const char* s = std::getenv("TESSERA_SEED")) o.seed = std::strtoull(s, nullptr, 10);
  o.count = count;
  if (const char* s = std::getenv("TESSERA_DRAWN")) o.count = std::atoi(s);
  o.seconds = seconds;
  if (const char* s = std::getenv("TESSERA_DRAWN_SECONDS")) o.seconds = std::atof(s);
  if (const char* s = std::getenv("TESSERA_DRAWN_ONLY")) o.only = std::atoi(s);
  o.list = std::getenv("TESSERA_DRAWN_LIST") != nullptr;
  return o;
}

// TESSERA_DRAWN_MAX_WORK, or `fallback` (read once).
inline double max_work(double fallback) {
  static const double w = std::getenv("TESSERA_DRAWN_MAX_WORK") ? std::atof(std::getenv("TESSERA_DRAWN_MAX_WORK")) : fallback;
  return w;
}

// Problem i's stream.
inline std::uint64_t stream_of(const Options& o, int i) { return o.seed * 1000003ull + std::uint64_t(i); }

// each(i, rng, stream) for problems 0 .. count - 1 (problem `only` alone where set), until
// `seconds` have passed (never in list mode); how many ran.
template <class F>
int for_each(const Options& o, F&& each) {
  const auto t0 = std::chrono::steady_clock::now();
  int ran = 0;
  for (int i = 0; i < o.count; ++i) {
    if (o.only >= 0 && i != o.only) continue;
    Rng r(stream_of(o, i));
    each(i, r, stream_of(o, i));
    ++ran;
    if (!o.list && std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > o.seconds) break;
  }
  return ran;
}

// What a call's status says against what its arguments call for: a refusal must name its
// reason, leave the output's bytes as they were (`untouched`) and be one the arguments call for
// (`expected`: why, empty: none) or `allowed` otherwise; a call that ran where the arguments call
// for a refusal fails. `output` names the output in the message.
struct Judgement {
  bool ok = true;
  bool refused = false;  // refused, as it should be
  std::string why;
};
inline Judgement judge_status(bool ran, const std::string& status, const std::string& message, const std::string& expected, bool untouched,
                              const char* output, bool allowed = false) {
  Judgement j;
  if (!ran) {
    const bool may = !expected.empty() || allowed;
    j.ok = j.refused = may && untouched && !message.empty();
    j.why = "refused (" + status + ": " + message + ")" + (untouched ? "" : std::string(", and ") + output + " changed") +
            (may ? "" : ", which nothing in the arguments calls for");
  } else if (!expected.empty()) {
    j.ok = false;
    j.why = "ran, where the arguments call for a refusal: " + expected;
  }
  return j;
}

}  // namespace tessera::kernels::harness::drawn
