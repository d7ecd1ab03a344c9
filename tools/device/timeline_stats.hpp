// The summaries the timeline probes share (sm90_tile_timeline.cu, sm90_decode_timeline.cu):
// quantiles and means of per-record intervals, and a table of named series printed as mean,
// p50, p90 and count, with the means of the CTAs' first, middle and last units beside them
// where values were added with their position. Host code only.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace timeline {

// The q-quantile (nearest rank below, q in [0, 1]); NaN for no values.
inline double quantile(std::vector<double> v, double q) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, size_t(q * double(v.size())))];
}
inline double mean(std::vector<double> const& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? NAN : s / double(v.size());
}

// A unit's place among its CTA's units: the first (pipeline fill), a middle one (steady
// state), the last (tail). A CTA of one unit counts it as first.
enum Position : int { First = 0, Middle = 1, Last = 2 };
inline Position position(int j, int units) { return j == 0 ? First : j == units - 1 ? Last : Middle; }

// Named series of values (us), in the order first named.
struct Table {
  struct Row {
    std::string name;
    std::vector<double> all, at[3];
  };
  std::vector<Row> rows;
  bool positions = false;
  Row& row(const std::string& name) {
    for (auto& r : rows)
      if (r.name == name) return r;
    rows.push_back({name, {}, {}});
    return rows.back();
  }
  std::vector<double>& operator[](const std::string& name) { return row(name).all; }
  // x at position p (NaN: not defined there, skipped)
  void add(const std::string& name, double x, Position p) {
    Row& r = row(name);
    if (std::isnan(x)) return;
    r.all.push_back(x);
    r.at[p].push_back(x);
    positions = true;
  }
  void print(const char* title = "phase (us)", int width = 64) const {
    std::printf("    %-*s %8s %8s %8s %6s", width, title, "mean", "p50", "p90", "n");
    if (positions) std::printf(" | %8s %8s %8s", "first", "middle", "last");
    std::printf("\n");
    for (auto const& r : rows) {
      if (r.all.empty()) continue;
      std::printf("    %-*s %8.3f %8.3f %8.3f %6zu", width, r.name.c_str(), mean(r.all), quantile(r.all, 0.5), quantile(r.all, 0.9), r.all.size());
      if (positions) std::printf(" | %8.3f %8.3f %8.3f", mean(r.at[First]), mean(r.at[Middle]), mean(r.at[Last]));
      std::printf("\n");
    }
  }
};

}  // namespace timeline
