// The trace format and the verifier: write/parse round trips, correct traces verify,
// every generated corruption is reported with its exact kind, (thread, value) and
// coordinates, every parse error names its line and column, the report's text.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <sstream>

#include "fixtures.hpp"

using namespace verify_fixtures;
using tv::Finding;

namespace {

tv::Trace parse(const std::string& text, const std::string& name = "t.trace") {
  std::istringstream in(text);
  return tv::parse_trace(in, name);
}

void require_same(const tv::Trace& a, const tv::Trace& b) {
  RC_ASSERT(a.kernel == b.kernel);
  RC_ASSERT(a.maps.size() == b.maps.size());
  for (std::size_t i = 0; i < a.maps.size(); ++i) {
    RC_ASSERT(a.maps[i].name == b.maps[i].name);
    RC_ASSERT(a.maps[i].tile == b.maps[i].tile);
    RC_ASSERT(a.maps[i].tv == b.maps[i].tv);
  }
  RC_ASSERT(a.records == b.records);
}

// Expected coordinate by the definition, idx2crd(TV(t,v), TILE), independently of
// verify's arithmetic: the row/column mode coordinates are turned back into their
// column-major 1-D positions within the mode.
tv::Coord oracle(const tv::Map& m, std::int64_t t, std::int64_t v) {
  const std::int64_t idx = m.tv.at(T({T(t), T(v)}));
  const IT crd = rt::idx2crd(idx, m.tile);
  const std::int64_t row = rt::Layout::column_major(m.tile[0]).at(crd[0]);
  const std::int64_t col = rt::Layout::column_major(m.tile[1]).at(crd[1]);
  return {row, col};
}

tv::Trace correct_trace(const std::vector<tv::Map>& maps) {
  tv::Trace t;
  t.kernel = "test kernel";
  t.maps = maps;
  for (const auto& m : maps)
    for (auto& r : tv::expected_records(m)) t.records.push_back(r);
  return t;
}

Finding finding(Finding::Kind k, const std::string& map, std::int64_t t, std::int64_t v, std::int64_t er,
                std::int64_t ec, std::int64_t gr, std::int64_t gc) {
  return Finding{k, map, t, v, er, ec, gr, gc, 0};
}

// Findings without the source line (records built in memory have line 0 anyway).
std::vector<Finding> findings_of(const tv::Report& r, const std::string& map) {
  for (const auto& m : r.maps)
    if (m.map == map) return m.first;
  return {};
}

}  // namespace

TEST_CASE("expected coordinates of the SM80 16x8 C fragment are PTX's") {
  const tv::Map c = sm80_c();
  // Lane l holds rows l/4 and l/4+8, columns 2*(l%4) and 2*(l%4)+1 (PTX ISA, m16n8 C fragment).
  for (std::int64_t l = 0; l < 32; ++l)
    for (std::int64_t v = 0; v < 4; ++v) {
      const tv::Coord want{l / 4 + 8 * (v / 2), 2 * (l % 4) + v % 2};
      CHECK(tv::expected_coord(c, l, v) == want);
      CHECK(oracle(c, l, v) == want);
    }
  CHECK_THROWS_AS(tv::expected_coord(c, 32, 0), std::out_of_range);
  CHECK_THROWS_AS(tv::expected_coord(c, 0, -1), std::out_of_range);
}

TEST_CASE("write then parse gives the trace back") {
  rc::prop("parse(write(t)) == t and write is a fixed point", [] {
    tv::Trace t;
    t.kernel = *rc::gen::element<std::string>("", "tensorop_bf16 tile=128x128x32 stages=3 # not a comment",
                                               "k \t x", "x");
    const int nmaps = *rc::gen::inRange(0, 4);
    std::vector<std::string> names;
    for (int i = 0; i < nmaps; ++i) {
      const std::string n = *gen_name() + std::to_string(i);  // distinct
      names.push_back(n);
      t.maps.push_back(*gen_any_map(n));
    }
    const int nrec = *rc::gen::inRange(0, 40);
    const auto big = rc::gen::element<std::int64_t>(std::numeric_limits<std::int64_t>::min(),
                                                    std::numeric_limits<std::int64_t>::max(), -1, 0);
    for (int i = 0; i < nrec; ++i) {
      tv::Record r;
      r.map = names.empty() || *rc::gen::inRange(0, 5) == 0 ? *gen_name() : *rc::gen::elementOf(names);
      auto num = [&] { return *rc::gen::inRange(0, 4) == 0 ? *big : *rc::gen::inRange<std::int64_t>(-3, 300); };
      r.thread = num();
      r.value = num();
      r.row = num();
      r.col = num();
      t.records.push_back(r);
    }
    const std::string text = tv::to_string(t);
    const tv::Trace back = parse(text);
    require_same(t, back);
    RC_ASSERT(tv::to_string(back) == text);
    // Parsed records remember their lines: header, kernel (if any), maps, then one a line.
    const std::size_t first = 2 + (t.kernel.empty() ? 0 : 1) + t.maps.size();
    for (std::size_t i = 0; i < back.records.size(); ++i) RC_ASSERT(back.records[i].line == first + i);
  });
}

TEST_CASE("the writer refuses what the format cannot hold") {
  tv::Trace t;
  t.maps.push_back(sm80_c());
  t.kernel = "two\nlines";
  CHECK_THROWS_AS(tv::to_string(t), std::invalid_argument);
  t.kernel = " leading blank";
  CHECK_THROWS_AS(tv::to_string(t), std::invalid_argument);
  t.kernel = "ok";
  t.maps[0].name = "mma C";
  CHECK_THROWS_AS(tv::to_string(t), std::invalid_argument);
  t.maps[0].name = "mma.C";
  t.records.push_back(tv::Record{"", 0, 0, 0, 0});
  CHECK_THROWS_AS(tv::to_string(t), std::invalid_argument);
  t.records.clear();
  t.maps[0].tile = T({8, 8});  // TV reaches index 127
  CHECK_THROWS_WITH(tv::to_string(t), Catch::Contains("outside the tile (8,8)"));
  CHECK_THROWS_AS(tv::make_map("x", T(16), sm80_c().tv), std::invalid_argument);
  CHECK_THROWS_AS(tv::make_map("x", T({16, 8}), rt::Layout(T(32), T(1))), std::invalid_argument);
}

TEST_CASE("a correct trace verifies") {
  rc::prop("every map matches all of its (thread,value) pairs", [] {
    std::vector<tv::Map> maps;
    const int n = *rc::gen::inRange(1, 4);
    for (int i = 0; i < n; ++i) maps.push_back(*gen_any_map("m" + std::to_string(i)));
    tv::Trace t = correct_trace(maps);
    // Order does not matter.
    const std::size_t k = *rc::gen::inRange<std::size_t>(0, t.records.size());
    std::rotate(t.records.begin(), t.records.begin() + static_cast<std::ptrdiff_t>(k), t.records.end());
    if (*rc::gen::arbitrary<bool>()) std::reverse(t.records.begin(), t.records.end());
    const tv::Report r = tv::verify(t);
    RC_ASSERT(r.ok);
    RC_ASSERT(r.maps.size() == maps.size());
    for (std::size_t i = 0; i < maps.size(); ++i) {
      RC_ASSERT(r.maps[i].map == maps[i].name);
      RC_ASSERT(r.maps[i].expected == maps[i].tv.size());
      RC_ASSERT(r.maps[i].matched == maps[i].tv.size());
      RC_ASSERT(r.maps[i].findings == 0);
    }
    // The records are the definition's coordinates.
    for (const auto& rec : t.records) {
      const auto& m = *std::find_if(maps.begin(), maps.end(), [&](const tv::Map& x) { return x.name == rec.map; });
      RC_ASSERT((tv::Coord{rec.row, rec.col}) == oracle(m, rec.thread, rec.value));
    }
  });
}

TEST_CASE("every corruption is reported exactly") {
  rc::prop("swap, drop, duplicate, shift, out of domain, unknown map", [] {
    const tv::Map m = *gen_any_map("target");
    const tv::Map other = *gen_any_map("other");
    tv::Trace t = correct_trace({m, other});
    const std::size_t n = static_cast<std::size_t>(m.tv.size());  // m's records come first
    const std::size_t i = *rc::gen::inRange<std::size_t>(0, n);
    const tv::Record ri = t.records[i];
    const tv::Coord ei{ri.row, ri.col};
    std::vector<Finding> want;
    std::int64_t other_findings = 0;
    const int kind = *rc::gen::element(0, 1, 2, 3, 4, 5, 6);  // uniform, unlike inRange
    RC_TAG(kind);
    switch (kind) {
      case 0: {  // swap the coordinates of two records
        const std::size_t j = *rc::gen::inRange<std::size_t>(0, n);
        tv::Record& a = t.records[std::min(i, j)];
        tv::Record& b = t.records[std::max(i, j)];
        std::swap(a.row, b.row);
        std::swap(a.col, b.col);
        if (a.row != b.row || a.col != b.col) {
          want.push_back(finding(Finding::mismatch, "target", a.thread, a.value, b.row, b.col, a.row, a.col));
          want.push_back(finding(Finding::mismatch, "target", b.thread, b.value, a.row, a.col, b.row, b.col));
        }
        break;
      }
      case 1:  // drop one
        t.records.erase(t.records.begin() + static_cast<std::ptrdiff_t>(i));
        want.push_back(finding(Finding::missing, "target", ri.thread, ri.value, ei.row, ei.col, -1, -1));
        break;
      case 2: {  // duplicate one, anywhere
        const std::size_t at = *rc::gen::inRange<std::size_t>(0, t.records.size() + 1);
        t.records.insert(t.records.begin() + static_cast<std::ptrdiff_t>(at), ri);
        want.push_back(finding(Finding::duplicate, "target", ri.thread, ri.value, ei.row, ei.col, ei.row, ei.col));
        break;
      }
      case 3: {  // shift one to another cell of the tile
        const std::int64_t rows = rt::product(m.tile[0]), cols = rt::product(m.tile[1]);
        RC_PRE(rows * cols > 1);
        std::int64_t cell = *rc::gen::inRange<std::int64_t>(0, rows * cols - 1);
        if (cell >= ei.row + rows * ei.col) ++cell;  // any cell but the expected one
        t.records[i].row = cell % rows;
        t.records[i].col = cell / rows;
        want.push_back(finding(Finding::mismatch, "target", ri.thread, ri.value, ei.row, ei.col, cell % rows, cell / rows));
        break;
      }
      case 4: {  // shift one out of the tile
        const std::int64_t rows = rt::product(m.tile[0]), cols = rt::product(m.tile[1]);
        const std::int64_t d = *rc::gen::element<std::int64_t>(-1, 1);
        if (*rc::gen::arbitrary<bool>()) t.records[i].row = d < 0 ? -1 : rows;
        else t.records[i].col = d < 0 ? -1 : cols;
        want.push_back(finding(Finding::out_of_domain, "target", ri.thread, ri.value, ei.row, ei.col,
                               t.records[i].row, t.records[i].col));
        break;
      }
      case 5: {  // a (thread, value) the map does not have, added
        tv::Record r = ri;
        if (*rc::gen::arbitrary<bool>()) r.thread = tv::num_threads(m) + *rc::gen::inRange<std::int64_t>(0, 3);
        else r.value = -1 - *rc::gen::inRange<std::int64_t>(0, 3);
        t.records.push_back(r);
        want.push_back(finding(Finding::out_of_domain, "target", r.thread, r.value, -1, -1, r.row, r.col));
        break;
      }
      case 6: {  // a record of an undeclared map
        tv::Record r = ri;
        r.map = "nowhere";
        t.records.push_back(r);
        other_findings = 1;
        break;
      }
    }
    // Through the text format too: the findings then carry the records' lines.
    const tv::Trace parsed = parse(tv::to_string(t));
    const tv::Report r = tv::verify(parsed, 1000);
    std::vector<Finding> got = findings_of(r, "target");
    for (auto& f : got) {
      if (f.kind == Finding::missing) RC_ASSERT(f.line == 0u);
      else RC_ASSERT(f.line >= 5u);  // header, kernel, two maps before the records
      if (f.line > 0) RC_ASSERT(parsed.records[f.line - 5] == (tv::Record{f.map, f.thread, f.value, f.got_row, f.got_col}));
      f.line = 0;
    }
    RC_ASSERT(got == want);
    RC_ASSERT(r.maps[0].findings == static_cast<std::int64_t>(want.size()));
    RC_ASSERT(r.maps[1].findings == 0);
    RC_ASSERT(r.other_findings == other_findings);
    if (other_findings) {
      RC_ASSERT(r.other.size() == 1u);
      RC_ASSERT(r.other[0].kind == Finding::unknown_map);
      RC_ASSERT(r.other[0].map == "nowhere");
    }
    // Matched: every pair but those named by a finding (a duplicate spoils its pair too).
    std::int64_t spoiled = 0;
    for (const auto& f : want) spoiled += f.exp_row >= 0 ? 1 : 0;
    RC_ASSERT(r.maps[0].matched == m.tv.size() - spoiled);
    RC_ASSERT(r.ok == (want.empty() && other_findings == 0));
  });
}

TEST_CASE("findings are counted in full and stored up to the cap") {
  const tv::Map c = sm80_c();
  tv::Trace t = correct_trace({c});
  t.records.resize(100);  // 28 missing
  for (std::size_t cap : {0u, 1u, 5u, 28u, 100u}) {
    const tv::Report r = tv::verify(t, cap);
    CHECK_FALSE(r.ok);
    CHECK(r.maps[0].findings == 28);
    CHECK(r.maps[0].first.size() == std::min<std::size_t>(cap, 28));
    CHECK(r.maps[0].matched == 100);
    // Missing pairs in (thread fastest) order: records 100.. were (t, v) = (100%32, 100/32) ...
    const tv::Coord e = oracle(c, 100 % 32, 100 / 32);
    if (cap > 0) CHECK(r.maps[0].first[0] == finding(Finding::missing, "mma.C", 100 % 32, 100 / 32, e.row, e.col, -1, -1));
  }
  tv::Trace empty;
  CHECK_FALSE(tv::verify(empty).ok);
  CHECK(tv::format_report(tv::verify(empty)) == "no maps declared: nothing to verify\nFAILED\n");
}

TEST_CASE("the report's text") {
  tv::Trace t = correct_trace({sm80_c(), sm80_a()});
  CHECK(tv::format_report(tv::verify(t)) == "map mma.C: 128/128 records match\nmap mma.A: 256/256 records match\nOK\n");
  t.records[5 + 32 * 3].row += 1;    // thread 5 value 3: (9,3) -> (10,3)
  t.records.erase(t.records.begin() + 7 + 32);  // thread 7 value 1, expected (1,7)
  t.records.push_back(tv::Record{"mma.C", 0, 0, 0, 0});
  t.records.push_back(tv::Record{"mma.C", 40, 0, 0, 0});
  t.records.push_back(tv::Record{"mma.C", 1, 1, 16, 3});
  t.records.push_back(tv::Record{"mma.X", 1, 2, 3, 4});
  const tv::Trace parsed = parse(tv::to_string(t));
  CHECK(tv::format_report(tv::verify(parsed, 4)) ==
        "map mma.C: 5 findings (first 4):\n"
        "  mismatch thread 5 value 3: expected (9,3) got (10,3) (line 105)\n"
        "  duplicate thread 0 value 0: expected (0,0) got (0,0) (line 388)\n"
        "  out of domain thread 40 value 0: no such (thread,value) in the map, got (0,0) (line 389)\n"
        "  duplicate thread 1 value 1: expected (0,3) got (16,3) (line 390)\n"
        "  ... and 1 more\n"
        "map mma.A: 256/256 records match\n"
        "records of undeclared maps: 1 finding (first 1):\n"
        "  unknown map 'mma.X' thread 1 value 2: got (3,4), but the trace declares no such map (line 391)\n"
        "FAILED\n");
  const tv::Report r = tv::verify(parsed, 10);
  CHECK(tv::to_string(r.maps[0].first[4]) == "missing thread 7 value 1: expected (1,7), never recorded");
  CHECK(r.maps[0].first.size() == 5u);
  CHECK(tv::to_string(Finding{Finding::out_of_domain, "m", 2, 1, 3, 4, 3, 8, 0}) ==
        "out of domain thread 2 value 1: expected (3,4) got (3,8), outside the tile");
}

TEST_CASE("verify refuses invalid maps") {
  tv::Trace t;
  t.maps.push_back(sm80_c());
  t.maps.push_back(sm80_c());
  CHECK_THROWS_WITH(tv::verify(t), Catch::Contains("declared twice"));
  t.maps.pop_back();
  t.maps[0].tile = T({4, 4});
  CHECK_THROWS_AS(tv::verify(t), std::invalid_argument);
}

TEST_CASE("100k+ records parse and verify quickly") {
  // 128 threads x 1024 values over a (256,512) tile: 131072 records.
  const tv::Map m = tv::make_map("big", T({256, 512}), rt::Layout(T({T({4, 32}), T({8, 128})}), T({T({1, 4096}), T({4, 32})})));
  REQUIRE(tv::check_map(m).empty());
  tv::Trace t = correct_trace({m});
  t.records[777].col ^= 1;
  const auto t0 = std::chrono::steady_clock::now();
  const std::string text = tv::to_string(t);
  const tv::Trace parsed = parse(text);
  const tv::Report r = tv::verify(parsed);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  WARN("write + parse + verify of " << t.records.size() << " records: " << s << " s");
  CHECK(s < 20.0);  // a loose bound for a loaded 2-core machine; it takes well under a second
  REQUIRE(r.maps[0].findings == 1);
  CHECK(r.maps[0].first[0].kind == Finding::mismatch);
  CHECK(r.maps[0].matched == 131071);
}
