// What the SM90 wave model (kernels/device/gemm_selection.hpp) predicts for the suite's shapes
// (bench/sm90_gemm_bench.cu --suite) with a hypothetical family of cooperative 128 x BN tiles
// beside the shipped ones, in both orientations:
//   (a) the shipped configurations, as the dispatch chooses among them (sm90_schedule.hpp:
//       choose_config_stream_k, else choose_config). The shipped list is the library's own:
//       sm90::built_configs (every kernel the list builds for 16-bit TN, both D majors), each
//       with sm90::candidate_of's tile, cluster and rate; a row-major D's configuration is the
//       same tile run on the problem transposed (M and N swapped);
//   (b) + cooperative 128 x BN in clusters of 2 along M, BN along the problem's N (the shipped orientation);
//   (c) + the same tiles swapped: the kernel computes D^T, its M the problem's N, so BN lies
//       along the problem's M (the weight's rows in the suite's layers).
// Each new tile's MAC rate is an assumption, not a measurement: interpolated in operand bytes
// per MAC ((BM + BN) / (BM BN) against 128x256's 3/256) through the fitted clustered rates
// (64x128 ping-pong 0.58 at half 128x256's bytes ratio, 128x128 in clusters of 2 0.85 at 0.75,
// 128x256 1 at 1), linearly between them.
//
//   cmake --build build --target predict_tiles   (or: g++ -std=c++20 -O2 -Iinclude -Ikernels tools/predict_tiles.cpp)
//   build/tests/tools/predict_tiles SUITE.csv [--rows]   (ctest -R tools_predict_tiles runs it on bench/data/)
//
// SUITE.csv: the bench's --csv (name,m,n,k,ratio,...,schedule,...); a schedule the library does
// not name for the row is an error. A row's predicted ratio to
// cuBLAS is its measured ratio times the model's best efficiency over the efficiency of what ran
// (the CSV's schedule), at most 1: the model's absolute figures are cuBLAS-free, only ratios of
// a row's predictions compare (gemm_selection.hpp).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "device/gemm_selection.hpp"
#include "device/sm90_schedule.hpp"

using namespace tessera::kernels;
using namespace tessera::kernels::sm90;

namespace {

constexpr int kSms = 132;
std::string g_csv;  // the CSV read (for errors)

double assumed_rate(int bm, int bn) {
  const double r = (3.0 / 256.0) / (double(bm + bn) / (double(bm) * bn));
  if (r >= 0.75) return 0.85 + (r - 0.75) / 0.25 * 0.15;
  return 0.58 + (r - 0.5) / 0.25 * 0.27;
}

struct Option {
  Candidate c;
  bool swapped = false;  // the kernel runs D^T: its M is the problem's N
  bool stream_k = false;
  std::string name;
  std::optional<Sm90Config> config;  // a shipped configuration (the library's), else hypothetical
};

// The problem a suite row is, as the dispatch sees it: bf16 TN, D column-major (the layers' D^T).
GemmArguments problem_of(const GemmShape& s) {
  GemmArguments g;
  g.m = s.m, g.n = s.n, g.k = s.k, g.batch = s.batch;
  g.element = Element::BF16;
  g.a.major = Major::Row, g.b.major = Major::Col, g.c.major = Major::Col;
  g.ldd = s.m;
  return g;
}

struct Pick {
  const Option* o = nullptr;
  double eff = 0;
};

GemmShape swap(const GemmShape& s) { return {s.n, s.m, s.k, s.batch, s.element, s.output, s.a, s.b}; }

double eff_of(const Option& o, const GemmShape& shape) {
  const GemmShape s = o.swapped ? swap(shape) : shape;
  const StreamKScheduler sched = scheduler_for(o.c, s, kSms, o.stream_k);
  if (o.stream_k && sched.plan.kind == Decomposition::DataParallel) return 0;
  return predict(o.c, s, kSms, sched).efficiency;
}

// The dispatch's two steps: whole tiles (walk order, margin), then the Stream-K options against
// that choice.
Pick choose(const std::vector<Option>& opts, const GemmShape& s) {
  Pick best;
  for (const Option& o : opts) {
    if (o.stream_k) continue;
    // (the dispatch's gates on its whole tiles: sm90_schedule.hpp, whole_considered)
    if (o.config && !whole_considered(o.config->schedule, oriented(problem_of(s), o.config->d))) continue;
    const double e = eff_of(o, s);
    if (!best.o || e > best.eff * (1 + kSelectionMargin)) best = {&o, e};
  }
  for (const Option& o : opts) {
    if (!o.stream_k) continue;
    // (the dispatch's gates on its Stream-K kernels: sm90_schedule.hpp, stream_k_considered)
    if (o.config && !stream_k_considered(o.config->schedule, oriented(problem_of(s), o.config->d))) continue;
    const double e = eff_of(o, s);
    if (e > best.eff * (1 + kSelectionMargin)) best = {&o, e};
  }
  return best;
}

Option opt(int bm, int bn, int cm, double rate, bool sk, bool swapped, Schedulers sch = Schedulers::Both) {
  char name[64];
  std::snprintf(name, sizeof name, "%s%s%dx%d%s", sk ? "sk " : "", swapped ? "T " : "", bm, bn, cm == 1 ? " c1" : "");
  return {{bm, bn, 64, {cm, 1}, rate, Takes::Tn16BitSame, sch}, swapped, sk, name};
}

// The shipped configurations, from the library: every configuration sm90::built_configs lists for
// a 16-bit TN problem with a column-major D (whole tiles first, the column-major D's before the
// row-major D's, larger tiles first: the dispatch's walk order), each with candidate_of's tile,
// cluster and rate. The row-major D's kernels run the problem transposed (as_row_major_d).
std::vector<Option> shipped() {
  static const std::vector<Option> options = [] {
    std::vector<Option> out;
    const GemmArguments g = problem_of({4096, 4096, 4096});
    for (const Sm90Config& c : built_configs(g)) {
      Candidate cand = candidate_of(c.schedule, g.element, c.stream_k ? Schedulers::StreamK : Schedulers::DataParallel);
      out.push_back({cand, c.d == Major::Row, c.stream_k, to_string(c), c});
    }
    return out;
  }();
  return options;
}

// shipped + 128 x bn (whole tiles and Stream-K, clusters of 2), in `orient` (0: N, 1: swapped,
// 2: both), inserted after the larger tiles so that near-ties keep the larger.
std::vector<Option> with(std::vector<int> bns, int orient) {
  std::vector<Option> out = shipped();
  std::vector<Option> add;
  std::sort(bns.rbegin(), bns.rend());
  for (const bool sk : {false, true})
    for (const int bn : bns)
      for (const bool sw : {false, true}) {
        if ((orient == 0 && sw) || (orient == 1 && !sw)) continue;
        add.push_back(opt(128, bn, 2, assumed_rate(128, bn), sk, sw));
      }
  // whole tiles after 128x256, Stream-K after Stream-K 128x256
  out.insert(out.begin() + 1, add.begin(), add.begin() + add.size() / 2);
  const auto sk256 = std::find_if(out.begin(), out.end(), [](const Option& o) { return o.stream_k; }) + 1;
  out.insert(sk256, add.begin() + add.size() / 2, add.end());
  return out;
}

// shipped + one bm x bn tile in clusters of 2 (whole tiles and Stream-K) along N at `rate`, after
// the 128x256 ones (e.g. 192 x 128 with three consumer warpgroups: cuBLAS's tile orientation
// without a transposed D).
std::vector<Option> with_tile(int bm, int bn, double rate) {
  std::vector<Option> out = shipped();
  out.insert(out.begin() + 1, opt(bm, bn, 2, rate, false, false));
  const auto sk256 = std::find_if(out.begin(), out.end(), [](const Option& o) { return o.stream_k; }) + 1;
  out.insert(sk256, opt(bm, bn, 2, rate, true, false));
  return out;
}

struct Row {
  std::string name, schedule;
  std::int64_t m, n, k;  // as the CSV names them
  double ratio;
  GemmShape shape;  // the kernel's
};

std::vector<Row> read_csv(const char* path) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "error: cannot read %s\n", path);
    std::exit(1);
  }
  std::vector<Row> rows;
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, ',');) f.push_back(x);
    if (f.size() < 8) continue;
    Row r{f[0], f[7], std::stoll(f[1]), std::stoll(f[2]), std::stoll(f[3]), std::stod(f[4]), {}};
    // layers: bench(out, tokens, in); the shapes: bench(m, n, k)
    r.shape = r.name == "issue" ? GemmShape{r.m, r.n, r.k} : GemmShape{r.n, r.m, r.k};
    rows.push_back(r);
  }
  return rows;
}

// The option the CSV's schedule names, among the shipped (sm90_schedule.hpp's to_string).
double ran_eff(const Row& r) {
  for (const Option& o : shipped())
    if (r.schedule == o.name) {
      const double e = eff_of(o, r.shape);
      // (a Stream-K configuration whose plan shares nothing runs as its whole-tile twin)
      if (o.stream_k && e == 0) {
        Option whole = o;
        whole.stream_k = false;
        return eff_of(whole, r.shape);
      }
      return e;
    }
  std::string names;
  for (const Option& o : shipped()) names += (names.empty() ? "" : ", ") + o.name;
  std::fprintf(stderr, "error: %s (row '%s' %lld x %lld x %lld): unknown schedule '%s'; the library builds: %s\n", g_csv.c_str(),
               r.name.c_str(), (long long)r.m, (long long)r.n, (long long)r.k, r.schedule.c_str(), names.c_str());
  std::exit(1);
}

struct Summary {
  double geo = 0, low_large = 9, low_small = 9;
};

// With `dispatch`, opts are shipped() and each row's choice must be the dispatch's own
// (choose_config_stream_k, else choose_config): this walk is a copy of its rule, and the check
// keeps the copy honest.
Summary evaluate(const std::vector<Row>& rows, const std::vector<Option>& opts, bool print, bool dispatch = false) {
  Summary s;
  double logsum = 0;
  for (const Row& r : rows) {
    const Pick p = choose(opts, r.shape);
    if (dispatch) {
      const GemmArguments g = problem_of(r.shape);
      const std::string lib = to_string(choose_config_stream_k(g, kSms).value_or(choose_config(g, kSms)));
      if (!p.o || p.o->name != lib) {
        std::fprintf(stderr, "error: %lld x %lld x %lld: this tool's walk chose '%s', the dispatch '%s'\n", (long long)r.shape.m,
                     (long long)r.shape.n, (long long)r.shape.k, p.o ? p.o->name.c_str() : "nothing", lib.c_str());
        std::exit(1);
      }
    }
    const double now = ran_eff(r);
    const double pred = std::min(1.0, std::max(r.ratio, r.ratio * p.eff / now));
    logsum += std::log(pred);
    const bool small = (r.name == "issue" ? r.m : r.m) < 512;
    double& low = small ? s.low_small : s.low_large;
    low = std::min(low, pred);
    if (print)
      std::printf("%-15s %5lld x %5lld x %5lld | %.3f %-40s %.3f | %-14s %.3f -> %.3f\n", r.name.c_str(), (long long)r.shape.m,
                  (long long)r.shape.n, (long long)r.shape.k, r.ratio, r.schedule.c_str(), now, p.o->name.c_str(), p.eff, pred);
  }
  s.geo = std::exp(logsum / double(rows.size()));
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: predict_tiles SUITE.csv [--rows]\n");
    return 1;
  }
  g_csv = argv[1];
  const std::vector<Row> rows = read_csv(argv[1]);
  if (rows.empty()) {
    std::fprintf(stderr, "error: %s: no rows\n", argv[1]);
    return 1;
  }
  const bool print_rows = argc > 2 && std::string(argv[2]) == "--rows";
  double measured = 0;
  for (const Row& r : rows) measured += std::log(r.ratio);
  std::printf("%zu rows; measured geometric mean %.3f\nassumed rates:", rows.size(), std::exp(measured / double(rows.size())));
  const std::vector<int> family = {96, 112, 144, 160, 176, 192};
  for (const int bn : family) std::printf(" 128x%d %.3f", bn, assumed_rate(128, bn));
  std::printf("\n\n");
  auto report = [&](const char* what, const std::vector<Option>& opts, bool dispatch = false) {
    if (print_rows) std::printf("== %s\n", what);
    const Summary s = evaluate(rows, opts, print_rows, dispatch);
    std::printf("%-44s geomean %.3f  lowest >= 512 rows %.3f  lowest < 512 %.3f\n", what, s.geo, s.low_large, s.low_small);
  };
  report("(a) shipped (model's choice)", shipped(), true);
    {
    // (would a 128x256 kernel with a row-major D add anything: swapped 128x256 after the rest)
    std::vector<Option> o = shipped();
    o.push_back(opt(128, 256, 2, 1.0, false, true));
    o.push_back(opt(128, 256, 2, 1.0, true, true));
    report("as built + 128x256 swapped", o);
  }
  report("(b) + 128 x {96..192} along N", with(family, 0));
  report("(c) + 128 x {96..192} swapped", with(family, 1));
  report("(b)+(c) both orientations", with(family, 2));
  std::printf("\nsingle additions (whole tiles + Stream-K, clusters of 2):\n");
  for (const int orient : {0, 1})
    for (const int bn : family) {
      char what[64];
      std::snprintf(what, sizeof what, "  + 128x%d %s", bn, orient ? "swapped" : "along N");
      report(what, with({bn}, orient));
    }
  std::printf("\n192 x 128 along N (three consumer warpgroups of 64 x 128: 128x192's operand bytes per MAC\n"
              "through L2, 128x128's through shared memory per wgmma), at rates from 128x128's to 128x192's:\n");
  for (const double rate : {0.85, 0.90, 0.94}) {
    char what[64];
    std::snprintf(what, sizeof what, "  + 192x128 along N, rate %.2f", rate);
    report(what, with_tile(192, 128, rate));
  }
  std::printf("\npairs and triples:\n");
  for (const auto& set : std::vector<std::vector<int>>{{192, 96}, {192, 128}, {192, 160}, {192, 112}, {192, 144, 96}, {192, 160, 112}})
    for (const int orient : {0, 1, 2}) {
      std::string what = "  +";
      for (const int bn : set) what += " 128x" + std::to_string(bn);
      what += orient == 0 ? " along N" : orient == 1 ? " swapped" : " both";
      report(what.c_str(), with(set, orient));
    }
  return 0;
}
