// `tessera diff` run as a user runs it: the verdicts (equal to the letter, equal as functions,
// differ, sizes differ), exit statuses, plain, swizzled and TV operands, the marked cells in
// text (golden; the tables side by side or one below the other) and drawings, --brief and --json.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "run_cli.hpp"

using tessera_test::count;
using tessera_test::golden;
using tessera_test::lines;
using tessera_test::run;
using tessera_test::slurp;

namespace {
std::string verdict(const tessera_test::Result& r) { return lines(r.out).empty() ? "" : lines(r.out).back(); }
}  // namespace

TEST_CASE("diff: equal to the letter, exit 0", "[cli][diff]") {
  const auto r = run({"diff", "(4,2):(1,4)", "(4,2):(1,4)"});
  CHECK(r.status == 0);
  CHECK(verdict(r) == "equal to the letter: (4,2):(1,4)");
  CHECK(count(r.out, "!") == 0);
  // Written differently, printed the same (static markers, spaces): still the letter.
  CHECK(verdict(run({"diff", "(_4, _2):(_1, _4)", "(4,2):(1,4)"})) == "equal to the letter: (4,2):(1,4)");
}

TEST_CASE("diff: equal as functions across shapes, exit 0", "[cli][diff]") {
  const auto r = run({"diff", "(2,2):(1,2)", "4:1"});
  CHECK(r.status == 0);
  CHECK(verdict(r) == "equal as functions: A(i) == B(i) for all 4 indices i (A is (2,2):(1,2), B is 4:1)");
  CHECK(count(r.out, "!") == 0);
  // A shape stands for its column-major layout.
  const auto s = run({"diff", "(4,8)", "(4,8):(1,4)", "--brief"});
  CHECK(s.status == 0);
  CHECK(s.out == "equal to the letter: (4,8):(1,4)\n");
  // A swizzle that moves nothing on this domain: equal as functions, not to the letter.
  const auto w = run({"diff", "Sw<1,2,3> o 4:1", "4:1", "--brief"});
  CHECK(w.status == 0);
  CHECK(w.out.rfind("equal as functions", 0) == 0);
}

TEST_CASE("diff: differ, with the first index and the marked cells, exit 1", "[cli][diff]") {
  const auto r = run({"diff", "(4,2):(1,4)", "(4,2):(2,1)"});
  CHECK(r.status == 1);
  CHECK(r.out == golden("diff_differ.txt"));
  CHECK(verdict(r) == "differ at 6 of 8 indices, first at index 1: A(1,0) = 1, B(1,0) = 2");
  CHECK(count(r.out, "!") == 2 * 6 + 1);  // both tables, and the legend line's "! in text"
  // Same size, different shapes.
  const auto s = run({"diff", "(2,2):(1,2)", "4:2", "--brief"});
  CHECK(s.status == 1);
  CHECK(s.out == "differ at 3 of 4 indices, first at index 1: A(1,0) = 1, B(1) = 2\n");
  // Swizzled against plain: the swizzle moves offsets 2 and 3.
  const auto w = run({"diff", "Sw<1,0,1> o (2,2):(2,1)", "(2,2):(2,1)", "--brief"});
  CHECK(w.status == 1);
  CHECK(w.out == "differ at 2 of 4 indices, first at index 1: A(1,0) = 3, B(1,0) = 2\n");
}

namespace {
// The text of `tessera diff ARGS` up to the drawing's notes: the tables' lines only.
std::vector<std::string> table_lines(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (const auto& l : lines(run(args).out)) {
    if (l.rfind("marked cells", 0) == 0 || l.rfind("no cell differs", 0) == 0) break;
    out.push_back(l);
  }
  return out;
}

std::string trim_right(std::string s) { return s.erase(s.find_last_not_of(' ') + 1); }
}  // namespace

TEST_CASE("diff: the text tables stand side by side when they fit in --width, else B below A", "[cli][diff]") {
  const auto r = run({"diff", "(4,2):(1,4)", "(4,2):(2,1)"});
  CHECK(r.out == golden("diff_differ.txt"));
  CHECK(run({"diff", "(4,2):(1,4)", "(4,2):(2,1)", "--width", "0"}).out == golden("diff_differ_stacked.txt"));
  // On generated pairs: side by side, each line is A's line padded to A's width, 4 spaces and
  // B's line; stacked (--width 0), A's lines, a blank line and B's. Both hold the same tables.
  std::mt19937_64 rng(18);
  auto pick = [&](std::int64_t lo, std::int64_t hi) { return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng); };
  for (int k = 0; k < 40; ++k) {
    auto layout = [&] {
      const std::int64_t m = pick(1, 6), n = pick(1, 6);
      return "(" + std::to_string(m) + "," + std::to_string(n) + "):(" + std::to_string(pick(0, 9)) + "," +
             std::to_string(pick(0, 40)) + ")";
    };
    const std::string a = layout(), b = layout();
    const auto stacked = table_lines({"diff", a, b, "--width", "0"});
    const auto blank = std::find(stacked.begin(), stacked.end(), "");
    REQUIRE(blank != stacked.end());
    const std::vector<std::string> ta(stacked.begin(), blank), tb(blank + 1, stacked.end());
    std::size_t wa = 0, wb = 0;
    for (const auto& l : ta) wa = std::max(wa, l.size());
    for (const auto& l : tb) wb = std::max(wb, l.size());
    const auto wide = table_lines({"diff", a, b, "--width", std::to_string(wa + 4 + wb)});
    REQUIRE(wide.size() == std::max(ta.size(), tb.size()));
    for (std::size_t i = 0; i < wide.size(); ++i) {
      const std::string left = i < ta.size() ? ta[i] : "", right = i < tb.size() ? tb[i] : "";
      CHECK(wide[i] == trim_right(left + std::string(wa - left.size() + 4, ' ') + right));
    }
    // One column short of both: B below A, as --width 0.
    CHECK(table_lines({"diff", a, b, "--width", std::to_string(wa + 4 + wb - 1)}) == stacked);
  }
  // The default (120 columns) takes the SM80 16x8 C fragment's two TV tables (158) one below the other.
  const auto tv = run({"diff", "--tv", "(16,8)", "((4,8),(2,2)):((32,1),(16,8))", "((4,8),(2,2)):((32,1),(8,16))"});
  CHECK(lines(tv.out)[0] == "A: ((4,8),(2,2)):((32,1),(16,8))");
  CHECK(run({"diff", "--tv", "(16,8)", "((4,8),(2,2)):((32,1),(16,8))", "((4,8),(2,2)):((32,1),(8,16))", "--width",
             "160"}).out.find("A: ((4,8),(2,2)):((32,1),(16,8))    ") == 0);
  const auto bad = run({"diff", "4:1", "4:1", "--width", "-1"});
  CHECK(bad.status == 2);
  CHECK(bad.err.rfind("error:", 0) == 0);
}

TEST_CASE("diff: different sizes differ, saying how the common indices compare", "[cli][diff]") {
  const auto r = run({"diff", "4:1", "8:1", "--brief"});
  CHECK(r.status == 1);
  CHECK(r.out == "differ: A has 4 indices, B has 8 (the domains differ); over the common indices [0,4) they agree\n");
  const auto t = run({"diff", "8:1", "(2,2):(2,1)", "--width", "0"});
  CHECK(t.status == 1);
  CHECK(verdict(t) == "differ: A has 8 indices, B has 4 (the domains differ); over the common indices [0,4) 2 differ, "
                      "first at index 1: A(1) = 1, B(1,0) = 2");
  // A's indices 4..7 have no counterpart: marked too.
  CHECK(count(lines(t.out)[3], "!") == 6);  // row 0 of A: indices 1,2 differ, 4..7 outside B
}

TEST_CASE("diff: TV maps over a tile", "[cli][diff]") {
  const auto eq = run({"diff", "--tv", "(4,2)", "((2,2),2):((1,2),4)", "(4,2):(1,4)", "--brief"});
  CHECK(eq.status == 0);
  CHECK(eq.out == "equal as functions: all 8 (thread,value) pairs land on the same tile index (A is "
                  "((2,2),2):((1,2),4), B is (4,2):(1,4))\n");
  const auto r = run({"diff", "--tv", "(4,2)", "(4,2):(1,4)", "(4,2):(2,1)"});
  CHECK(r.status == 1);
  CHECK(verdict(r) == "differ at 6 of 8 (thread,value) pairs, first at thread 1 value 0: A -> tile index 1, B -> 2");
  CHECK(r.out.find("T0V1!") != std::string::npos);
  const auto sm80 = run({"diff", "--tv", "(16,8)", "((4,8),(2,2)):((32,1),(16,8))", "((4,8),(2,2)):((32,1),(16,8))",
                         "--brief"});
  CHECK(sm80.status == 0);
  CHECK(sm80.out == "equal to the letter: ((4,8),(2,2)):((32,1),(16,8))\n");
  const auto dom = run({"diff", "--tv", "(4,2)", "(4,2):(1,4)", "(2,4):(1,2)", "--brief"});
  CHECK(dom.status == 1);
  CHECK(dom.out == "differ: A maps 4 threads x 2 values, B 2 x 4 (the (thread,value) domains differ)\n");
}

TEST_CASE("diff: drawings mark the differing cells", "[cli][diff]") {
  const auto dir = tessera_test::scratch_dir();
  const std::string svg = (dir / "d.svg").string(), html = (dir / "d.html").string();
  const auto r = run({"diff", "(4,2):(1,4)", "(4,2):(2,1)", "-o", svg});
  CHECK(r.status == 1);
  CHECK(r.out == "differ at 6 of 8 indices, first at index 1: A(1,0) = 1, B(1,0) = 2\n");
  const std::string s = slurp(svg);
  CHECK(s.find(">A: (4,2):(1,4)<") != std::string::npos);
  CHECK(s.find(">B: (4,2):(2,1)<") != std::string::npos);
  CHECK(count(s, "fill=\"#d62728\"") == 12);  // the mismatch red, on 6 cells of each panel
  CHECK(s.find("index 1: B gives 2") != std::string::npos);  // the tooltip
  CHECK(s.find(">differ at 6 of 8 indices") != std::string::npos);
  const auto e = run({"diff", "(2,2):(1,2)", "4:1", "-o", svg});
  CHECK(e.status == 0);
  CHECK(count(slurp(svg), "fill=\"#d62728\"") == 0);
  const auto h = run({"diff", "(4,2):(1,4)", "(4,2):(2,1)", "-o", html});
  CHECK(h.status == 1);
  CHECK(slurp(html).find("<html") != std::string::npos);
  std::filesystem::remove(svg);
  std::filesystem::remove(html);
}

TEST_CASE("diff: --json", "[cli][diff]") {
  const auto r = run({"diff", "--json", "(2,2):(1,2)", "4:2", "--max", "2"});
  CHECK(r.status == 1);
  CHECK(r.out == "{\"command\":\"diff\",\"schema_version\":1,\"mode\":\"layout\",\"a\":{\"kind\":\"layout\",\"text\":"
                 "\"(2,2):(1,2)\",\"shape\":[2,2],\"stride\":[1,2]},\"b\":{\"kind\":\"layout\",\"text\":\"4:2\","
                 "\"shape\":4,\"stride\":2},\"verdict\":\"differ\",\"equal\":false,\"summary\":\"differ at 3 of 4 "
                 "indices, first at index 1: A(1,0) = 1, B(1) = 2\",\"size_a\":4,\"size_b\":4,\"compared\":4,"
                 "\"differing\":3,\"cells\":[{\"index\":1,\"a_coord\":[1,0],\"b_coord\":1,\"a\":1,\"b\":2},"
                 "{\"index\":2,\"a_coord\":[0,1],\"b_coord\":2,\"a\":2,\"b\":4}]}\n");
  const auto e = run({"diff", "--json", "(2,2):(1,2)", "4:1"});
  CHECK(e.status == 0);
  CHECK(e.out.find("\"verdict\":\"equal_as_functions\",\"equal\":true") != std::string::npos);
  const auto t = run({"diff", "--json", "--tv", "(4,2)", "(4,2):(1,4)", "(4,2):(2,1)", "--max", "1"});
  CHECK(t.status == 1);
  CHECK(t.out.find("\"mode\":\"tv\"") != std::string::npos);
  CHECK(t.out.find("\"cells\":[{\"thread\":1,\"value\":0,\"a\":1,\"b\":2}]}") != std::string::npos);
  const auto bad = run({"diff", "--json", "8:1", "8:1", "-o", "x.svg"});
  CHECK(bad.status == 2);
  CHECK(bad.out.empty());
}

TEST_CASE("diff: errors print no verdict and exit 2", "[cli][diff]") {
  const auto r = run({"diff", "(4,2):(1,4)", "foo"});
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  CHECK(r.err.rfind("error: B: unknown name 'foo'", 0) == 0);
  CHECK(r.err.find('^') != std::string::npos);
  const auto m = run({"diff", "(4,2):(1,4)"});
  CHECK(m.status == 2);
  CHECK(m.out.empty());
  CHECK(m.err.rfind("error: B is empty", 0) == 0);
  const auto t = run({"diff", "Sw<3,3,3>", "8:1"});
  CHECK(t.status == 2);
  CHECK(t.err.find("A is the swizzle Sw<3,3,3>") != std::string::npos);
  const auto x = run({"diff", "8:1", "8:1", "8:1"});
  CHECK(x.status == 2);
  CHECK(x.err.rfind("error: unexpected argument '8:1'", 0) == 0);
  const auto h = run({"diff", "--help"});
  CHECK(h.status == 0);
  CHECK(h.out.find("Exit status (for scripts, as `tessera verify`): 0 when A and B are equal as functions") != std::string::npos);
}
