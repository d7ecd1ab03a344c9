// How much of each suite row's time is last-wave quantization and how much is the tiles' own
// rate, from gemm_tune's per-configuration times (sm90_gemm_bench --suite --tuned's text
// output: every row's "tuned over N rounds (...)" list), against the SM90 wave model
// (kernels/device/gemm_selection.hpp).
//
//   g++ -std=c++20 -O2 -Iinclude -Ikernels tools/wave_tail.cpp -o /tmp/wave_tail
//   /tmp/wave_tail SUITE.txt [--points] [--sms 132]
//
// For every (row, configuration) timed it takes the model's critical path (the slowest
// cluster's k-tiles, tile steps and Stream-K partials moved, under the model's own constants)
// and fits, by least squares on relative error, three models of the measured time t:
//   A  t = T_c C                       (the model as shipped: a rate per configuration; C in
//                                        128x256x64 k-tiles of work on the critical path at
//                                        rate 1, whole tiles only)
//   B  t = T_c C + sigma S             (A with the Stream-K partials' cost S, in 128x256 f32
//                                        tiles moved, fitted instead of assumed: 13 k-tiles)
//   C  t = L + T_c C + E W + sigma S   (B with a launch constant L and a cost E per tile step
//                                        on the critical path, W in 128x256 tiles: the
//                                        prologue and epilogue a cooperative persistent kernel
//                                        does not overlap with its mainloop)
//   D  B with a factor per row         (what differs between rows: the clock, DRAM past L2)
// and two checks of C's step cost: C2 gives the ping-pong kernel its own (one warpgroup's
// epilogue runs under the other's mainloop), D2 fits the step costs within rows only (D's row
// factors: every tile pays the step per unit of area, so there it is not identifiable).
// The fit uses the rows whose output's smaller extent is at least --min-extent (512: below it
// the operands' DRAM bytes, not the MACs, bound the kernels, which the model does not see); the
// residuals of every row are printed. It then splits each large row's best measured time into
// the last wave's idle share (1 - tiles / (waves x clusters) of the fitted critical path) and
// the rest, and states what model C predicts for each Stream-K plan of the 128x256 tile
// (plan_stream_k's, and plan_stream_k_tail's: docs in stream_k_scheduler.hpp).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "device/gemm_selection.hpp"

using namespace tessera::kernels;
using namespace tessera::kernels::sm90;

namespace {

int g_sms = 132;

struct Config {
  std::string name;
  int bm = 128, bn = 256, cm = 2;
  double rate = 1;
  bool stream_k = false, swapped = false;
};

// A configuration named as sm90_schedule.hpp's to_string names it.
bool parse_config(std::string s, Config& c) {
  c = {};
  c.name = s;
  if (s.rfind("stream-k ", 0) == 0) c.stream_k = true, s = s.substr(9);
  const std::string row = " row-major D";
  if (s.size() > row.size() && s.compare(s.size() - row.size(), row.size(), row) == 0) c.swapped = true, s.resize(s.size() - row.size());
  if (s == "cooperative 128x256") c.bm = 128, c.bn = 256, c.cm = 2, c.rate = 1.0;
  else if (s == "cooperative 128x192") c.bm = 128, c.bn = 192, c.cm = 2, c.rate = 0.94;
  else if (s == "cooperative 128x128") c.bm = 128, c.bn = 128, c.cm = 2, c.rate = 0.85;
  else if (s == "cooperative 128x128 no cluster") c.bm = 128, c.bn = 128, c.cm = 1, c.rate = 0.90;
  else if (s == "ping-pong 64x128") c.bm = 64, c.bn = 128, c.cm = 1, c.rate = 0.58;
  else if (s == "cooperative 128x64 no cluster") c.bm = 128, c.bn = 64, c.cm = 1, c.rate = 0.58;
  else return false;
  return true;
}

// The critical path of a plan: the slowest cluster (by the shipped model's constants).
struct Path {
  double c = 0;      // k-tiles on it, in 128x256x64 units at rate 1
  double w = 0;      // tile steps on it (segments), in 128x256 tiles
  double s = 0;      // Stream-K partials written or read on it, in 128x256 f32 tiles
  double model = 0;  // the shipped model's time (k-tile times)
  double waves = 0;  // cluster tiles / clusters
  std::int64_t tiles = 0, clusters = 0, k_tiles = 0;
  StreamKPlan plan;
};

Path path_of(const Config& cfg, std::int64_t m, std::int64_t n, std::int64_t k, const StreamKPlan* forced = nullptr) {
  if (cfg.swapped) std::swap(m, n);
  const Candidate cand{cfg.bm, cfg.bn, 64, {cfg.cm, 1}, cfg.rate, Takes::Tn16BitSame};
  const GemmShape shape{m, n, k};
  StreamKScheduler sched = scheduler_for(cand, shape, g_sms, cfg.stream_k);
  if (forced) sched.plan = *forced;
  const double area = double(cfg.bm) * cfg.bn / (128.0 * 256.0);
  const double kt_cost = area;  // BK 64 = the unit's
  Path best;
  best.model = -1;
  for (std::int64_t cl = 0; cl < sched.clusters; ++cl) {
    Path p;
    const double dp = double(sched.dp_steps(cl));
    p.c = dp * double(sched.k_tiles) * kt_cost;
    p.w = dp * area;
    if (cl < sched.plan.sk_units) {
      p.c += double(sched.unit_begin(cl + 1) - sched.unit_begin(cl)) * kt_cost;
      p.w += double(sched.segments(cl)) * area;
      if (sched.work(cl, sched.dp_steps(cl)).role == SegmentRole::Partial) p.s += area;
      const StreamKWork last = sched.work(cl, sched.steps(cl) - 1);
      if (last.role == SegmentRole::Owner) p.s += double(last.unit - last.first_peer) * area;
    }
    p.model = p.c / cfg.rate + kSlotCostKTiles * p.s;
    if (p.model > best.model) best = p;
  }
  best.tiles = sched.tile_count();
  best.clusters = sched.clusters;
  best.k_tiles = sched.k_tiles;
  best.waves = double(best.tiles) / double(best.clusters);
  best.plan = sched.plan;
  return best;
}

struct Point {
  int row;
  Config cfg;
  double t;  // us
  bool rule;
  Path p;
};

struct Row {
  std::string name;
  std::int64_t m, n, k;  // as the kernels run it (column-major D)
  double tessera_us, cublas_us, ratio;
  std::string schedule;
  bool fit = false;
};

// Linear least squares on relative error: minimise sum ((x_i . beta) / t_i - 1)^2.
std::vector<double> solve(const std::vector<std::vector<double>>& x, const std::vector<double>& t) {
  const std::size_t p = x.empty() ? 0 : x[0].size();
  std::vector<std::vector<double>> a(p, std::vector<double>(p + 1, 0));
  for (std::size_t i = 0; i < x.size(); ++i)
    for (std::size_t r = 0; r < p; ++r) {
      for (std::size_t c = 0; c < p; ++c) a[r][c] += x[i][r] * x[i][c] / (t[i] * t[i]);
      a[r][p] += x[i][r] / t[i];
    }
  for (std::size_t c = 0; c < p; ++c) {
    std::size_t piv = c;
    for (std::size_t r = c + 1; r < p; ++r)
      if (std::fabs(a[r][c]) > std::fabs(a[piv][c])) piv = r;
    std::swap(a[c], a[piv]);
    if (std::fabs(a[c][c]) < 1e-300) continue;  // (a parameter no point constrains: 0)
    for (std::size_t r = 0; r < p; ++r)
      if (r != c) {
        const double f = a[r][c] / a[c][c];
        for (std::size_t j = c; j <= p; ++j) a[r][j] -= f * a[c][j];
      }
  }
  std::vector<double> beta(p, 0);
  for (std::size_t r = 0; r < p; ++r) beta[r] = std::fabs(a[r][r]) < 1e-300 ? 0 : a[r][p] / a[r][r];
  return beta;
}

struct Fit {
  std::vector<std::string> configs;  // base names (no stream-k / row-major: one rate per tile)
  std::vector<double> beta;          // T_c per config, then L, E, sigma
  bool launch = false, step = false, slot = false;
  bool split_step = false;  // a separate step cost for the ping-pong kernel (E2, last)

  std::size_t index(const Config& c) const {
    std::string base = c.name;
    if (base.rfind("stream-k ", 0) == 0) base = base.substr(9);
    const std::string row = " row-major D";
    if (base.size() > row.size() && base.compare(base.size() - row.size(), row.size(), row) == 0) base.resize(base.size() - row.size());
    return std::size_t(std::find(configs.begin(), configs.end(), base) - configs.begin());
  }
  std::vector<double> features(const Config& c, const Path& p) const {
    std::vector<double> f(configs.size() + 4, 0);
    f[index(c)] = p.c;
    f[configs.size()] = launch ? 1 : 0;
    const bool pingpong = c.bm == 64;
    f[configs.size() + 1] = step && !(split_step && pingpong) ? p.w : 0;
    f[configs.size() + 2] = slot ? p.s : 0;
    f[configs.size() + 3] = step && split_step && pingpong ? p.w : 0;
    return f;
  }
  double predict(const Config& c, const Path& p) const {
    const auto f = features(c, p);
    double t = 0;
    for (std::size_t i = 0; i < f.size(); ++i) t += f[i] * beta[i];
    return t;
  }
};

// scale: when given, a factor per row (the GPU's clock between rows: the same kernels' times
// moved by up to 15 % between the bench's two passes of a row) divides the row's times, fitted
// with the rest by alternation (geometric mean over the fitted rows kept at 1).
Fit fit(const std::vector<Point>& pts, const std::vector<Row>& rows, bool launch, bool step, bool slot,
        std::vector<double>* scale = nullptr, bool split_step = false) {
  Fit f;
  f.launch = launch, f.step = step, f.slot = slot, f.split_step = split_step;
  for (const Point& q : pts) {
    const std::size_t i = f.index(q.cfg);
    if (i == f.configs.size()) {
      std::string b = q.cfg.name;
      if (b.rfind("stream-k ", 0) == 0) b = b.substr(9);
      const std::string row = " row-major D";
      if (b.size() > row.size() && b.compare(b.size() - row.size(), row.size(), row) == 0) b.resize(b.size() - row.size());
      f.configs.push_back(b);
    }
  }
  std::vector<double> own(rows.size(), 1.0);
  for (int it = 0; it < (scale ? 50 : 1); ++it) {
    std::vector<std::vector<double>> x;
    std::vector<double> t;
    for (const Point& q : pts)
      if (rows[q.row].fit) x.push_back(f.features(q.cfg, q.p)), t.push_back(q.t / own[q.row]);
    f.beta = solve(x, t);
    if (!scale) break;
    std::vector<double> lsum(rows.size(), 0);
    std::vector<int> cnt(rows.size(), 0);
    for (const Point& q : pts)
      if (rows[q.row].fit) lsum[q.row] += std::log(q.t / f.predict(q.cfg, q.p)), ++cnt[q.row];
    double mean = 0;
    int nr = 0;
    for (std::size_t r = 0; r < rows.size(); ++r)
      if (cnt[r]) mean += lsum[r] / cnt[r], ++nr;
    mean /= nr;
    for (std::size_t r = 0; r < rows.size(); ++r) own[r] = cnt[r] ? std::exp(lsum[r] / cnt[r] - mean) : 1.0;
  }
  if (scale) *scale = own;
  return f;
}

std::string trim(std::string s) {
  while (!s.empty() && s.front() == ' ') s.erase(s.begin());
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

// Two hybrid plans beside plan_stream_k's (which keeps a last wave at least half full whole):
// "two waves": its rule 4 at any tail (the last full wave and the tail shared, dp (full - 1) P);
// "tail": every whole wave data-parallel and the tail alone shared by all P units.
// The tiles past dp shared as plan_stream_k shares them (its rules 4-6: units of at least
// kStreamKMinUnitKTiles, whole tiles where the longest unit is no shorter than their waves).
StreamKPlan shared(std::int64_t tiles, std::int64_t k, std::int64_t clusters, std::int64_t dp) {
  const std::int64_t sk = tiles - dp;
  const std::int64_t units = std::min(clusters, sk * k / kStreamKMinUnitKTiles);
  if (units < 1 || (sk * k + units - 1) / units >= (sk + clusters - 1) / clusters * k) return {Decomposition::DataParallel, tiles, 0};
  const bool split = units > sk && units % sk == 0;
  return {split ? Decomposition::SplitK : Decomposition::StreamK, dp, units};
}
StreamKPlan plan_two_waves(std::int64_t tiles, std::int64_t k, std::int64_t clusters) {
  const std::int64_t full = tiles / clusters, tail = tiles % clusters;
  if (tail == 0) return {Decomposition::DataParallel, tiles, 0};
  const std::int64_t dp = (full > 1 ? full - 1 : 0) * clusters;
  return shared(tiles, k, clusters, dp);
}
StreamKPlan plan_tail(std::int64_t tiles, std::int64_t k, std::int64_t clusters) {
  const std::int64_t full = tiles / clusters, tail = tiles % clusters;
  if (tail == 0) return {Decomposition::DataParallel, tiles, 0};
  return shared(tiles, k, clusters, full * clusters);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: wave_tail SUITE.txt [--points] [--sms N] [--min-extent N]\n");
    return 1;
  }
  bool points = false;
  std::int64_t min_extent = 512;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--points") points = true;
    else if (a == "--sms" && i + 1 < argc) g_sms = std::atoi(argv[++i]);
    else if (a == "--min-extent" && i + 1 < argc) min_extent = std::atoll(argv[++i]);
    else {
      std::fprintf(stderr, "wave_tail: unknown argument %s\n", a.c_str());
      return 1;
    }
  }
  if (g_sms < 2) {
    std::fprintf(stderr, "wave_tail: --sms must be at least 2\n");
    return 1;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::fprintf(stderr, "wave_tail: cannot read %s\n", argv[1]);
    return 1;
  }
  std::vector<Row> rows;
  std::vector<Point> pts;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("[", 0) == 0) {
      Row r;
      r.name = line.substr(1, line.find(']') - 1);
      const auto sch = line.find("schedule "), bf = line.find(" bf16 ");
      if (line.find(']') == std::string::npos || sch == std::string::npos || bf == std::string::npos || bf < sch ||
          line.find("cuBLAS ") == std::string::npos || line.find("ratio ") == std::string::npos) {
        std::fprintf(stderr, "wave_tail: not a bf16 suite row: %s\n", line.c_str());
        return 1;
      }
      r.schedule = trim(line.substr(sch + 9, bf - sch - 9));
      // "bf16 TN c2  M x N x K  tessera X ms ... cuBLAS Y ms ... ratio R"
      const auto cc = line.find(" c", bf + 8);
      std::istringstream ss(line.substr(line.find(' ', cc + 1)));
      std::string x, word;
      ss >> r.m >> x >> r.n >> x >> r.k >> word >> r.tessera_us;
      const auto cb = line.find("cuBLAS ");
      r.cublas_us = std::atof(line.c_str() + cb + 7);
      r.ratio = std::atof(line.c_str() + line.find("ratio ") + 6);
      r.tessera_us *= 1000, r.cublas_us *= 1000;
      r.fit = std::min(r.m, r.n) >= min_extent;
      rows.push_back(r);
    } else if (line.find("tuned over") != std::string::npos && !rows.empty()) {
      const auto open = line.find('(');
      const auto close = line.find(") schedule");
      std::string list = line.substr(open + 1, close - open - 1);
      // entries "NAME [(rule) ]T us [lo hi]" separated by "], "
      std::size_t pos = 0;
      while (pos < list.size()) {
        auto end = list.find("], ", pos);
        if (end == std::string::npos) end = list.size();
        std::string e = list.substr(pos, end - pos);
        pos = end + 3;
        const auto us = e.find(" us [");
        if (us == std::string::npos) continue;
        const auto sp = e.rfind(' ', us - 1);
        Point q;
        q.t = std::atof(e.c_str() + sp + 1);
        std::string name = trim(e.substr(0, sp));
        q.rule = name.size() > 7 && name.compare(name.size() - 6, 6, "(rule)") == 0;
        if (q.rule) name = trim(name.substr(0, name.size() - 6));
        if (!parse_config(name, q.cfg)) {
          std::fprintf(stderr, "wave_tail: unknown configuration '%s'\n", name.c_str());
          return 1;
        }
        q.row = int(rows.size() - 1);
        const Row& r = rows.back();
        q.p = path_of(q.cfg, r.m, r.n, r.k);
        pts.push_back(q);
      }
    }
  }
  if (rows.empty() || pts.empty()) {
    std::fprintf(stderr, "wave_tail: no suite rows with tuned lists in %s\n", argv[1]);
    return 1;
  }

  const Fit fa = fit(pts, rows, false, false, false), fb = fit(pts, rows, false, false, true), fc = fit(pts, rows, true, true, true);
  std::vector<double> clock;
  const Fit fd = fit(pts, rows, false, false, true, &clock);
  auto report = [&](const char* name, const Fit& f, const std::vector<double>* sc = nullptr) {
    double s2 = 0, worst = 0;
    int n = 0;
    std::printf("%s:", name);
    const double t256 = f.beta[f.index(Config{"cooperative 128x256"})];
    for (std::size_t i = 0; i < f.configs.size(); ++i)
      std::printf(" %s rate %.3f;", f.configs[i].c_str(), f.beta[i] > 0 ? t256 / f.beta[i] : 0.0);
    std::printf(" k-tile %.4f us", t256);
    if (f.launch) std::printf(", L %.2f us", f.beta[f.configs.size()]);
    if (f.step) std::printf(", E %.3f us = %.2f k-tiles per 128x256 tile step", f.beta[f.configs.size() + 1], f.beta[f.configs.size() + 1] / t256);
    if (f.split_step) std::printf(", ping-pong E %.3f us = %.2f k-tiles", f.beta[f.configs.size() + 3], f.beta[f.configs.size() + 3] / t256);
    if (f.slot) std::printf(", sigma %.3f us = %.1f k-tiles per partial", f.beta[f.configs.size() + 2], f.beta[f.configs.size() + 2] / t256);
    for (const Point& q : pts)
      if (rows[q.row].fit) {
        const double r = f.predict(q.cfg, q.p) * (sc ? (*sc)[q.row] : 1.0) / q.t - 1;
        s2 += r * r, ++n, worst = std::max(worst, std::fabs(r));
      }
    std::printf("\n  fitted points %d: rms relative residual %.3f, largest %.3f\n", n, std::sqrt(s2 / n), worst);
    // per configuration (as timed: Stream-K and row-major D apart): rms and mean residual
    std::map<std::string, std::pair<double, double>> by;
    std::map<std::string, int> cnt;
    for (const Point& q : pts)
      if (rows[q.row].fit) {
        const double r = f.predict(q.cfg, q.p) * (sc ? (*sc)[q.row] : 1.0) / q.t - 1;
        by[q.cfg.name].first += r * r, by[q.cfg.name].second += r, ++cnt[q.cfg.name];
      }
    std::printf("  per configuration (points, rms, mean):");
    for (const auto& [name, v] : by)
      std::printf(" %s (%d, %.3f, %+.3f);", name.c_str(), cnt[name], std::sqrt(v.first / cnt[name]), v.second / cnt[name]);
    std::printf("\n");
  };
  report("A (rates only)", fa);
  report("B (rates, partial cost)", fb);
  report("C (rates, partial cost, tile step, launch)", fc);
  report("D (B with a clock factor per row)", fd, &clock);
  report("C2 (C with the ping-pong kernel's own step cost)", fit(pts, rows, true, true, true, nullptr, true));
  {
    std::vector<double> sc2;
    const Fit fe = fit(pts, rows, false, true, true, &sc2, true);
    report("D2 (D with C2's step costs: within a row only)", fe, &sc2);
  }
  {
    double lo = 1e9, hi = 0;
    for (std::size_t r = 0; r < rows.size(); ++r)
      if (rows[r].fit) lo = std::min(lo, clock[r]), hi = std::max(hi, clock[r]);
    std::printf("  D's row factors span [%.3f %.3f]\n", lo, hi);
  }

  if (points) {
    std::printf("\n| row | M x N x K | configuration | tiles / clusters = waves | plan | t us | A | B | C | D |\n|---|---|---|---|---|---|---|---|---|---|\n");
    for (const Point& q : pts) {
      const Row& r = rows[q.row];
      std::printf("| %s%s | %lldx%lldx%lld | %s%s | %lld / %lld = %.2f | %s dp %lld u %lld | %.1f | %+.3f | %+.3f | %+.3f | %+.3f |\n",
                  r.name.c_str(), r.fit ? "" : " (not fitted)", (long long)r.m, (long long)r.n, (long long)r.k,
                  q.cfg.name.c_str(), q.rule ? " (rule)" : "", (long long)q.p.tiles, (long long)q.p.clusters, q.p.waves,
                  to_string(q.p.plan.kind), (long long)q.p.plan.dp_tiles, (long long)q.p.plan.sk_units, q.t,
                  fa.predict(q.cfg, q.p) / q.t - 1, fb.predict(q.cfg, q.p) / q.t - 1, fc.predict(q.cfg, q.p) / q.t - 1,
                  fd.predict(q.cfg, q.p) * clock[q.row] / q.t - 1);
    }
  }

  // Per row: the best measured configuration, its waves, the last wave's idle share of the
  // critical path (model C's k-tiles and steps: the part a whole last wave would not spend),
  // the rest against the 128x256 tile's fitted full rate; Stream-K plans of the 128x256 tile.
  std::printf("\n| row | M x N x K | cuBLAS us | best measured (us) | waves | last-wave idle | tile rate loss | fixed (L, steps) | "
              "128x256 model C us: DP / plan_stream_k / two waves / tail |\n|---|---|---|---|---|---|---|---|---|\n");
  const std::size_t nc = fc.configs.size();
  const double t256 = fc.beta[fc.index(Config{"cooperative 128x256"})];
  for (std::size_t ri = 0; ri < rows.size(); ++ri) {
    const Row& r = rows[ri];
    const Point* best = nullptr;
    for (const Point& q : pts)
      if (q.row == int(ri) && (!best || q.t < best->t)) best = &q;
    if (!best) continue;
    const Path& p = best->p;
    const double full_waves = std::ceil(p.waves - 1e-9);
    const double idle = best->cfg.stream_k && p.plan.sk_units > 0 ? 0.0 : 1 - p.waves / full_waves;
    const double tc = fc.beta[fc.index(best->cfg)];
    const double mac_part = tc * p.c;  // its k-tiles at its fitted rate
    const double ideal = t256 * double(r.m) * double(r.n) * double(r.k) / (128.0 * 256.0 * 64.0) / double(g_sms);
    const double fixed = fc.beta[nc] + fc.beta[nc + 1] * p.w + fc.beta[nc + 2] * p.s;
    Config c256;
    parse_config("cooperative 128x256", c256);
    Config sk256 = c256;
    sk256.stream_k = true;
    const Path dp = path_of(c256, r.m, r.n, r.k);
    const Path sk = path_of(sk256, r.m, r.n, r.k);
    const StreamKPlan two_plan = plan_two_waves(dp.tiles, dp.k_tiles, dp.clusters);
    const Path tw = path_of(sk256, r.m, r.n, r.k, &two_plan);
    const StreamKPlan tail_plan = plan_tail(dp.tiles, dp.k_tiles, dp.clusters);
    const Path tl = path_of(sk256, r.m, r.n, r.k, &tail_plan);
    std::printf("| %s | %lldx%lldx%lld | %.1f | %s %.1f | %.2f | %.1f%% | %.1f%% | %.1f%% | %.1f / %.1f (%s) / %.1f (%s) / %.1f (%s) |\n",
                r.name.c_str(), (long long)r.m, (long long)r.n, (long long)r.k, r.cublas_us, best->cfg.name.c_str(), best->t, p.waves,
                100 * idle * mac_part / best->t, 100 * (mac_part * (1 - idle) - ideal) / best->t, 100 * fixed / best->t,
                fc.predict(c256, dp), fc.predict(sk256, sk), to_string(sk.plan.kind), fc.predict(sk256, tw), to_string(tw.plan.kind),
                fc.predict(sk256, tl), to_string(tl.plan.kind));
  }

  // What the suite's geometric mean would be (the rule's measured ratio per row, scaled by model
  // C's time of the rule's configuration over the variant's): (a) a last wave as full as the
  // others (a tile family whose tile count is a whole number of waves, at the same rate and step
  // cost), (b) no cost per tile step (an epilogue and prologue hidden under the next tile's
  // mainloop), (c) both; (d) the rule's configuration or, where model C predicts it faster, the
  // 128x256 tile under the "two waves" or "tail" hybrid plan.
  double logs[5] = {0, 0, 0, 0, 0};
  int count = 0;
  std::printf("\n| row | rule (measured ratio) | model C us | (a) whole last wave | (b) no step cost | (c) both | (d) best hybrid |\n"
              "|---|---|---|---|---|---|---|\n");
  for (std::size_t ri = 0; ri < rows.size(); ++ri) {
    const Row& r = rows[ri];
    const Point* rule = nullptr;
    for (const Point& q : pts)
      if (q.row == int(ri) && q.rule) rule = &q;
    if (!rule) continue;
    const double t = fc.predict(rule->cfg, rule->p);
    Path whole = rule->p;
    if (!(rule->cfg.stream_k && whole.plan.sk_units > 0)) {
      const double f = whole.waves / std::ceil(whole.waves - 1e-9);
      whole.c *= f, whole.w *= f;
    }
    Fit no_step = fc;
    no_step.beta[nc + 1] = 0;
    const double ta = fc.predict(rule->cfg, whole), tb = no_step.predict(rule->cfg, rule->p), tcb = no_step.predict(rule->cfg, whole);
    Config sk256, c256x;
    parse_config("stream-k cooperative 128x256", sk256);
    parse_config("cooperative 128x256", c256x);
    const Path dp = path_of(c256x, r.m, r.n, r.k);
    const StreamKPlan p2 = plan_two_waves(dp.tiles, dp.k_tiles, dp.clusters), pt = plan_tail(dp.tiles, dp.k_tiles, dp.clusters);
    const double td = std::min({t, fc.predict(sk256, path_of(sk256, r.m, r.n, r.k, &p2)), fc.predict(sk256, path_of(sk256, r.m, r.n, r.k, &pt))});
    // (rows outside the fit keep their measured ratio: the model does not describe them)
    const double v[5] = {r.ratio, r.fit ? r.ratio * t / ta : r.ratio, r.fit ? r.ratio * t / tb : r.ratio,
                         r.fit ? r.ratio * t / tcb : r.ratio, r.fit ? r.ratio * t / td : r.ratio};
    for (int i = 0; i < 5; ++i) logs[i] += std::log(v[i]);
    ++count;
    std::printf("| %s %lldx%lldx%lld | %s (%.3f) | %.1f | %.3f | %.3f | %.3f | %.3f |\n", r.name.c_str(), (long long)r.m, (long long)r.n,
                (long long)r.k, rule->cfg.name.c_str(), r.ratio, t, v[1], v[2], v[3], v[4]);
  }
  std::printf("geometric mean over %d rows: rule %.3f, (a) %.3f, (b) %.3f, (c) %.3f, (d) %.3f\n", count, std::exp(logs[0] / count),
              std::exp(logs[1] / count), std::exp(logs[2] / count), std::exp(logs[3] / count), std::exp(logs[4] / count));
  return 0;
}
