// What the SM90 wave model (kernels/device/gemm_selection.hpp) predicts for the suite's shapes
// (bench/sm90_gemm_bench.cu --suite) with a hypothetical family of cooperative 128 x BN tiles
// beside the shipped ones, in both orientations:
//   (a) the shipped 16-bit TN candidates, chosen as the dispatch chooses (sm90_schedule.hpp:
//       whole tiles first, then the Stream-K kernels it weighs);
//   (b) + cooperative 128 x BN in clusters of 2 along M, BN along the problem's N (as today);
//   (c) + the same tiles swapped: the kernel computes D^T, its M the problem's N, so BN lies
//       along the problem's M (the weight's rows in the suite's layers).
// Each new tile's MAC rate is an assumption, not a measurement: interpolated in operand bytes
// per MAC ((BM + BN) / (BM BN) against 128x256's 3/256) through the fitted clustered rates
// (64x128 ping-pong 0.58 at half 128x256's bytes ratio, 128x128 in clusters of 2 0.85 at 0.75,
// 128x256 1 at 1), linearly between them.
//
//   g++ -std=c++20 -O2 -Iinclude -Ikernels tools/predict_tiles.cpp -o /tmp/predict_tiles
//   /tmp/predict_tiles SUITE.csv [--rows]
//
// SUITE.csv: the bench's --csv (name,m,n,k,ratio,...,schedule,...). A row's predicted ratio to
// cuBLAS is its measured ratio times the model's best efficiency over the efficiency of what ran
// (the CSV's schedule), at most 1: the model's absolute figures are cuBLAS-free, only ratios of
// a row's predictions compare (gemm_selection.hpp).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "device/gemm_selection.hpp"

using namespace tessera::kernels;
using namespace tessera::kernels::sm90;

namespace {

constexpr int kSms = 132;

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
};

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
    const double e = eff_of(o, s);
    if (!best.o || e > best.eff * (1 + kSelectionMargin)) best = {&o, e};
  }
  for (const Option& o : opts) {
    if (!o.stream_k) continue;
    // (stream_k_considered: the 128x128 c2 and decode Stream-K kernels only at <= 128 tokens)
    if (o.c.tile_n == 128 && o.c.cluster.m == 2 && std::min(s.m, s.n) > 128) continue;
    if (o.c.tile_n == 64 && (o.swapped ? s.m : s.n) > 128) continue;
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

std::vector<Option> shipped() {
  return {opt(128, 256, 2, 1.0, false, false), opt(128, 128, 2, 0.85, false, false), opt(128, 128, 1, 0.90, false, false),
          opt(64, 128, 1, 0.58, false, false), opt(128, 256, 2, 1.0, true, false),    opt(128, 128, 2, 0.85, true, false),
          opt(128, 64, 1, 0.58, true, false)};
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

// What the dispatch builds and walks now (sm90_schedule.hpp: choose_config): the shipped tiles
// with 128x192 along N after 128x256 (the column-major D's kernels), then 128x192 swapped (the
// row-major D's kernels, MidRow / MidRowSplit) after every column-major one, whole tiles and
// Stream-K alike: the transposed run replaces a choice only past the margin.
std::vector<Option> as_built() {
  std::vector<Option> out = shipped();
  out.insert(out.begin() + 1, opt(128, 192, 2, assumed_rate(128, 192), false, false));
  const auto sk256 = std::find_if(out.begin(), out.end(), [](const Option& o) { return o.stream_k; }) + 1;
  out.insert(sk256, opt(128, 192, 2, assumed_rate(128, 192), true, false));
  out.push_back(opt(128, 192, 2, assumed_rate(128, 192), false, true));
  out.push_back(opt(128, 192, 2, assumed_rate(128, 192), true, true));
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

// The option the CSV's schedule names, among the shipped.
double ran_eff(const Row& r) {
  for (const Option& o : shipped()) {
    char want[96];
    std::snprintf(want, sizeof want, "%scooperative %dx%d%s", o.stream_k ? "stream-k " : "", o.c.tile_m, o.c.tile_n,
                  o.c.cluster.m == 1 ? " no cluster" : "");
    if (o.c.tile_m == 64) std::snprintf(want, sizeof want, "ping-pong 64x128");
    if (r.schedule == want) return eff_of(o, r.shape);
  }
  std::fprintf(stderr, "error: unknown schedule '%s'\n", r.schedule.c_str());
  std::exit(1);
}

struct Summary {
  double geo = 0, low_large = 9, low_small = 9;
};

Summary evaluate(const std::vector<Row>& rows, const std::vector<Option>& opts, bool print) {
  Summary s;
  double logsum = 0;
  for (const Row& r : rows) {
    const Pick p = choose(opts, r.shape);
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
  const std::vector<Row> rows = read_csv(argv[1]);
  const bool print_rows = argc > 2 && std::string(argv[2]) == "--rows";
  double measured = 0;
  for (const Row& r : rows) measured += std::log(r.ratio);
  std::printf("%zu rows; measured geometric mean %.3f\nassumed rates:", rows.size(), std::exp(measured / double(rows.size())));
  const std::vector<int> family = {96, 112, 144, 160, 176, 192};
  for (const int bn : family) std::printf(" 128x%d %.3f", bn, assumed_rate(128, bn));
  std::printf("\n\n");
  auto report = [&](const char* what, const std::vector<Option>& opts) {
    if (print_rows) std::printf("== %s\n", what);
    const Summary s = evaluate(rows, opts, print_rows);
    std::printf("%-44s geomean %.3f  lowest >= 512 rows %.3f  lowest < 512 %.3f\n", what, s.geo, s.low_large, s.low_small);
  };
  report("(a) shipped (model's choice)", shipped());
  report("as built: 128x192 along N and swapped", as_built());
  {
    // (would a 128x256 kernel with a row-major D add anything: swapped 128x256 after the rest)
    std::vector<Option> o = as_built();
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
