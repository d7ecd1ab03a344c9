// `tessera verify`'s report (tessera/verify/report.hpp).
#include "tessera/verify/report.hpp"

#include <utility>
#include <vector>

#include "tessera/rt/error.hpp"

namespace tessera::verify {

namespace json = rt::json;

namespace {

std::string map_names(const Trace& t) {
  std::string s;
  for (const Map& m : t.maps) s += (s.empty() ? "" : ", ") + m.name;
  return s.empty() ? "none" : s;
}

}  // namespace

const Map* focus(const Trace& t, Report& r, const std::string& map, const std::string& trace_name) {
  if (!map.empty()) {
    const Map* chosen = nullptr;
    for (const Map& m : t.maps)
      if (m.name == map) chosen = &m;
    if (!chosen) throw rt::Error("the trace " + trace_name + " has no map '" + map + "' (its maps: " + map_names(t) + ")");
    std::vector<MapReport> kept;
    for (MapReport& m : r.maps)
      if (m.map == chosen->name) kept.push_back(std::move(m));
    r.maps = std::move(kept);
    r.other.clear();
    r.other_findings = 0;
    r.ok = r.maps.front().findings == 0;
    return chosen;
  }
  for (std::size_t k = 0; k < r.maps.size(); ++k)
    if (r.maps[k].findings > 0) return &t.maps[k];
  return t.maps.empty() ? nullptr : &t.maps.front();
}

// A finding: its kind as a JSON name (out_of_domain, unknown_map), coordinates as [row, col]
// or null where there is none, the trace line or null.
json::Value finding_json(const Finding& f) {
  static constexpr const char* kinds[] = {"mismatch", "missing", "duplicate", "out_of_domain", "unknown_map"};
  const auto coord = [](std::int64_t r, std::int64_t c) {
    return r < 0 ? json::Value() : json::Value::array({r, c});
  };
  return json::Value::object({{"kind", kinds[f.kind]},
                              {"map", f.map},
                              {"thread", f.thread},
                              {"value", f.value},
                              {"expected", coord(f.exp_row, f.exp_col)},
                              {"got", coord(f.got_row, f.got_col)},
                              {"line", f.line ? json::Value(f.line) : json::Value()},
                              {"text", to_string(f)}});
}

json::Value report_json(const std::string& trace_name, const Trace& t, const Report& r) {
  json::Value d = json::document("verify");
  d.set("trace", trace_name);
  d.set("kernel", t.kernel.empty() ? json::Value() : json::Value(t.kernel));
  d.set("ok", r.ok);
  json::Value maps = json::Value::array();
  for (const MapReport& m : r.maps) {
    json::Value first = json::Value::array();
    for (const Finding& f : m.first) first.push(finding_json(f));
    maps.push(json::Value::object({{"map", m.map},
                                   {"expected", m.expected},
                                   {"matched", m.matched},
                                   {"findings", m.findings},
                                   {"first", std::move(first)}}));
  }
  d.set("maps", std::move(maps));
  json::Value other = json::Value::array();
  for (const Finding& f : r.other) other.push(finding_json(f));
  d.set("other", std::move(other));
  d.set("other_findings", r.other_findings);
  return d;
}

std::string report_text(const Trace& t, const Report& r) {
  return (t.kernel.empty() ? "" : "kernel: " + t.kernel + "\n") + format_report(r);
}

}  // namespace tessera::verify
