// Verification of a trace against its maps, and the report.
#include <stdexcept>
#include <string_view>
#include <unordered_map>

#include "tessera/verify/trace.hpp"

namespace tessera::verify {

namespace {

// What has been seen of one (thread, value) so far.
enum : std::uint8_t { unseen = 0, matched_once = 1, wrong = 2, repeated = 3 };

struct MapState {
  const Map* map = nullptr;
  std::int64_t threads = 0, values = 0, rows = 0, cols = 0;
  std::vector<std::int64_t> expected;  // TV(i) for i = t + threads * v
  std::vector<std::uint8_t> seen;
  MapReport report;
};

void keep(std::vector<Finding>& first, std::int64_t& count, std::size_t cap, Finding f) {
  ++count;
  if (first.size() < cap) first.push_back(std::move(f));
}

std::string pair_text(std::int64_t a, std::int64_t b) {
  return "(" + std::to_string(a) + "," + std::to_string(b) + ")";
}

}  // namespace

Report verify(const Trace& t, std::size_t max_findings_per_map) {
  std::vector<MapState> states(t.maps.size());
  std::unordered_map<std::string_view, std::size_t> by_name;
  by_name.reserve(t.maps.size());
  for (std::size_t k = 0; k < t.maps.size(); ++k) {
    const Map& m = t.maps[k];
    const std::string why = check_map(m);
    if (!why.empty()) throw std::invalid_argument("map '" + m.name + "': " + why);
    if (!by_name.emplace(m.name, k).second) throw std::invalid_argument("map '" + m.name + "' is declared twice");
    MapState& s = states[k];
    s.map = &m;
    s.threads = num_threads(m);
    s.values = num_values(m);
    s.rows = rt::product(m.tile[0]);
    s.cols = rt::product(m.tile[1]);
    s.expected.reserve(static_cast<std::size_t>(m.tv.size()));
    rt::for_each_offset(m.tv, [&](std::int64_t off) { s.expected.push_back(off); });
    s.seen.assign(s.expected.size(), unseen);
    s.report.map = m.name;
    s.report.expected = static_cast<std::int64_t>(s.expected.size());
  }

  Report r;
  const std::size_t cap = max_findings_per_map;
  for (const Record& rec : t.records) {
    auto it = by_name.find(rec.map);
    if (it == by_name.end()) {
      keep(r.other, r.other_findings, cap,
           Finding{Finding::unknown_map, rec.map, rec.thread, rec.value, -1, -1, rec.row, rec.col, rec.line});
      continue;
    }
    MapState& s = states[it->second];
    Finding f{Finding::mismatch, rec.map, rec.thread, rec.value, -1, -1, rec.row, rec.col, rec.line};
    if (rec.thread < 0 || rec.thread >= s.threads || rec.value < 0 || rec.value >= s.values) {
      f.kind = Finding::out_of_domain;
      keep(s.report.first, s.report.findings, cap, std::move(f));
      continue;
    }
    const std::size_t i = static_cast<std::size_t>(rec.thread + s.threads * rec.value);
    const std::int64_t e = s.expected[i];
    f.exp_row = e % s.rows;
    f.exp_col = e / s.rows;
    std::uint8_t& seen = s.seen[i];
    if (seen != unseen) {
      f.kind = Finding::duplicate;
      seen = repeated;
    } else if (rec.row < 0 || rec.row >= s.rows || rec.col < 0 || rec.col >= s.cols) {
      f.kind = Finding::out_of_domain;
      seen = wrong;
    } else if (rec.row != f.exp_row || rec.col != f.exp_col) {
      f.kind = Finding::mismatch;
      seen = wrong;
    } else {
      seen = matched_once;
      continue;
    }
    keep(s.report.first, s.report.findings, cap, std::move(f));
  }

  r.ok = !states.empty() && r.other_findings == 0;
  for (MapState& s : states) {
    for (std::size_t i = 0; i < s.seen.size(); ++i) {
      if (s.seen[i] == matched_once) {
        ++s.report.matched;
      } else if (s.seen[i] == unseen) {
        const std::int64_t e = s.expected[i], k = static_cast<std::int64_t>(i);
        keep(s.report.first, s.report.findings, cap,
             Finding{Finding::missing, s.map->name, k % s.threads, k / s.threads, e % s.rows, e / s.rows, -1, -1, 0});
      }
    }
    if (s.report.findings > 0) r.ok = false;
    r.maps.push_back(std::move(s.report));
  }
  return r;
}

const char* kind_name(Finding::Kind k) {
  switch (k) {
    case Finding::mismatch: return "mismatch";
    case Finding::missing: return "missing";
    case Finding::duplicate: return "duplicate";
    case Finding::out_of_domain: return "out of domain";
    case Finding::unknown_map: return "unknown map";
  }
  return "?";
}

std::string to_string(const Finding& f) {
  std::string s = kind_name(f.kind);
  if (f.kind == Finding::unknown_map) s += " '" + f.map + "'";
  s += " thread " + std::to_string(f.thread) + " value " + std::to_string(f.value) + ":";
  switch (f.kind) {
    case Finding::mismatch:
    case Finding::duplicate:
      s += " expected " + pair_text(f.exp_row, f.exp_col) + " got " + pair_text(f.got_row, f.got_col);
      break;
    case Finding::missing:
      s += " expected " + pair_text(f.exp_row, f.exp_col) + ", never recorded";
      break;
    case Finding::out_of_domain:
      if (f.exp_row < 0) s += " no such (thread,value) in the map, got " + pair_text(f.got_row, f.got_col);
      else s += " expected " + pair_text(f.exp_row, f.exp_col) + " got " + pair_text(f.got_row, f.got_col) + ", outside the tile";
      break;
    case Finding::unknown_map:
      s += " got " + pair_text(f.got_row, f.got_col) + ", but the trace declares no such map";
      break;
  }
  if (f.line > 0) s += " (line " + std::to_string(f.line) + ")";
  return s;
}

std::string format_report(const Report& r) {
  std::string out;
  auto findings = [&](const std::vector<Finding>& first, std::int64_t count) {
    for (const Finding& f : first) out += "  " + to_string(f) + "\n";
    const std::int64_t more = count - static_cast<std::int64_t>(first.size());
    if (more > 0) out += "  ... and " + std::to_string(more) + " more\n";
  };
  auto header = [](std::int64_t count, std::size_t kept) {
    return std::to_string(count) + (count == 1 ? " finding" : " findings") + " (first " + std::to_string(kept) + "):\n";
  };
  if (r.maps.empty()) out += "no maps declared: nothing to verify\n";
  for (const MapReport& m : r.maps) {
    if (m.findings == 0) {
      out += "map " + m.map + ": " + std::to_string(m.matched) + "/" + std::to_string(m.expected) + " records match\n";
      continue;
    }
    out += "map " + m.map + ": " + header(m.findings, m.first.size());
    findings(m.first, m.findings);
  }
  if (r.other_findings > 0) {
    out += "records of undeclared maps: " + header(r.other_findings, r.other.size());
    findings(r.other, r.other_findings);
  }
  out += r.ok ? "OK\n" : "FAILED\n";
  return out;
}

}  // namespace tessera::verify
