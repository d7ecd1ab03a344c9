// `tessera verify` as a user runs it: reports and exit codes, errors with file:line:col and
// a caret, diagrams written (atomically) only when the trace could be read, never on error.
// The traces are built from the tiled MMA that `tessera mma --print-layouts` prints.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tessera/rt/eval.hpp"
#include "tessera/verify/trace.hpp"

#include "../cli/run_cli.hpp"

namespace fs = std::filesystem;
namespace tv = tessera::verify;
namespace rt = tessera::rt;

namespace {

using tessera_test::Result;
using tessera_test::slurp;

// The scratch directory the commands run in (their relative output files land there).
fs::path work_dir() { return tessera_test::scratch_dir(); }

Result run(const std::vector<std::string>& args, const std::string& input = "") {
  return tessera_test::run_in(work_dir(), args, input);
}

std::string write(const std::string& name, const std::string& text) {
  std::ofstream(work_dir() / name, std::ios::binary) << text;
  return name;
}

bool exists(const std::string& name) { return fs::exists(work_dir() / name); }

// The C map of SM80_16x8x16 BF16 tiled 2x2x1, from `tessera mma --print-layouts`.
tv::Map tiled_c() {
  const Result r = run({"mma", "SM80_16x8x16_F32BF16BF16F32_TN", "--atoms", "2x2x1", "--print-layouts"});
  REQUIRE(r.status == 0);
  std::string c, tile;
  std::istringstream in(r.out);
  for (std::string l; std::getline(in, l);) {
    if (l.rfind("layoutC_TV ", 0) == 0) c = l.substr(11);
    if (l.rfind("tile ", 0) == 0) tile = l.substr(5);
  }
  REQUIRE(tile == "(32,16,16)");
  REQUIRE(c.size() > 0);
  return tv::make_map("mma.C", rt::IntTuple::tuple({32, 16}), rt::evaluate(c).layout());
}

tv::Trace good_trace() {
  tv::Trace t;
  t.kernel = "tiled 2x2x1 SM80_16x8x16_F32BF16BF16F32_TN";
  t.maps.push_back(tiled_c());
  t.records = tv::expected_records(t.maps[0]);
  return t;
}

// Thread 5 value 3 one row down, thread 70 value 3 lost.
tv::Trace bad_trace() {
  tv::Trace t = good_trace();
  const std::int64_t threads = tv::num_threads(t.maps[0]);
  for (auto& r : t.records)
    if (r.thread == 5 && r.value == 3) r.row = (r.row + 1) % 32;
  std::erase_if(t.records, [&](const tv::Record& r) { return r.thread == 70 && r.value == 3; });
  REQUIRE(t.records.size() == static_cast<std::size_t>(threads * 4 - 1));
  return t;
}

using tessera_test::lines;

}  // namespace

TEST_CASE("verify: a correct trace from the tiled MMA passes") {
  const std::string f = write("good.trace", tv::to_string(good_trace()));
  const Result r = run({"verify", f});
  CHECK(r.status == 0);
  CHECK(r.err.empty());
  CHECK(r.out == "kernel: tiled 2x2x1 SM80_16x8x16_F32BF16BF16F32_TN\nmap mma.C: 512/512 records match\nOK\n");
  // From standard input too.
  const Result s = run({"verify", "-"}, tv::to_string(good_trace()));
  CHECK(s.status == 0);
  CHECK(s.out == r.out);
}

TEST_CASE("verify: findings are listed and the exit status is 1") {
  const tv::Trace bad = bad_trace();
  const tv::Coord e53 = tv::expected_coord(bad.maps[0], 5, 3), e706 = tv::expected_coord(bad.maps[0], 70, 3);
  const std::string f = write("bad.trace", tv::to_string(bad));
  const Result r = run({"verify", f});
  CHECK(r.status == 1);
  CHECK(r.err.empty());
  // Thread 5 value 3 is record 5 + 128*3 = 389, on line 4 + 389 = 393.
  const std::string mismatch = "  mismatch thread 5 value 3: expected (" + std::to_string(e53.row) + "," +
                               std::to_string(e53.col) + ") got (" + std::to_string((e53.row + 1) % 32) + "," +
                               std::to_string(e53.col) + ") (line 393)";
  const std::string missing = "  missing thread 70 value 3: expected (" + std::to_string(e706.row) + "," +
                              std::to_string(e706.col) + "), never recorded";
  CHECK(lines(r.out) == std::vector<std::string>{"kernel: tiled 2x2x1 SM80_16x8x16_F32BF16BF16F32_TN",
                                                    "map mma.C: 2 findings (first 2):", mismatch, missing, "FAILED"});
  const Result one = run({"verify", f, "--max", "1"});
  CHECK(one.status == 1);
  CHECK(lines(one.out) == std::vector<std::string>{"kernel: tiled 2x2x1 SM80_16x8x16_F32BF16BF16F32_TN",
                                                      "map mma.C: 2 findings (first 1):", mismatch, "  ... and 1 more",
                                                      "FAILED"});
  const Result zero = run({"verify", f, "--max", "0"});
  CHECK(zero.out.find("2 findings (first 0):\n  ... and 2 more\n") != std::string::npos);
}

TEST_CASE("verify: --map picks the map reported, drawn and deciding the exit status") {
  tv::Trace t = bad_trace();
  tv::Map ok = t.maps[0];
  ok.name = "mma.C.copy";
  t.maps.push_back(ok);
  for (auto& r : tv::expected_records(ok)) t.records.push_back(r);
  const std::string f = write("two.trace", tv::to_string(t));
  const Result all = run({"verify", f});
  CHECK(all.status == 1);
  const Result only = run({"verify", f, "--map", "mma.C.copy", "-o", "only.svg"});
  CHECK(only.status == 0);
  CHECK(lines(only.out).at(1) == "map mma.C.copy: 512/512 records match");
  CHECK(only.out.find("mma.C:") == std::string::npos);
  CHECK(slurp(work_dir() / "only.svg").find("no mismatching cells") != std::string::npos);
  const Result none = run({"verify", f, "--map", "mma.X", "-o", "none.svg"});
  CHECK(none.status == 2);
  CHECK(none.err == "error: the trace two.trace has no map 'mma.X' (its maps: mma.C, mma.C.copy)\n");
  CHECK_FALSE(exists("none.svg"));
}

TEST_CASE("verify: -o draws the first failing map, also when verification fails") {
  const std::string f = write("bad2.trace", tv::to_string(bad_trace()));
  const Result r = run({"verify", f, "-o", "diff.svg"});
  CHECK(r.status == 1);
  REQUIRE(exists("diff.svg"));
  const std::string svg = slurp(work_dir() / "diff.svg");
  CHECK(svg.rfind("<?xml", 0) == 0);
  CHECK(svg.find("map mma.C: expected vs observed") != std::string::npos);
  CHECK(svg.find("3 mismatching cell(s)") != std::string::npos);  // (5,3) left one cell for another; (70,3) lost
  CHECK(svg.find("#d62728") != std::string::npos);
  const Result g = run({"verify", write("good2.trace", tv::to_string(good_trace())), "-o", "good.tex"});
  CHECK(g.status == 0);
  CHECK(slurp(work_dir() / "good.tex").find("\\documentclass") != std::string::npos);
  // -o - prints the diagram after the report.
  const Result txt = run({"verify", f, "-o", "-", "-f", "txt"});
  CHECK(txt.status == 1);
  CHECK(txt.out.find("FAILED\nmap mma.C: expected vs observed\n") != std::string::npos);
#if TESSERA_TEST_HAS_CAIRO
  const Result png = run({"verify", f, "-o", "diff.png"});
  CHECK(png.status == 1);
  CHECK(slurp(work_dir() / "diff.png").rfind("\x89PNG", 0) == 0);
  const Result pdf = run({"verify", f, "-f", "pdf", "-o", "diff.pdf"});
  CHECK(slurp(work_dir() / "diff.pdf").rfind("%PDF", 0) == 0);
#endif
}

TEST_CASE("verify: --color-by colours the diagram as the other drawing commands do") {
  const std::string f = write("bad5.trace", tv::to_string(bad_trace()));
  const Result thread = run({"verify", f, "-o", "thread.svg"});
  const Result warp = run({"verify", f, "-o", "warp.svg", "--color-by", "warp"});
  const Result value = run({"verify", f, "-o", "value.svg", "--color-by", "value"});
  CHECK(thread.status == 1);  // the findings decide the status, the colours do not
  CHECK(warp.status == 1);
  CHECK(value.status == 1);
  const std::string t = slurp(work_dir() / "thread.svg"), w = slurp(work_dir() / "warp.svg"),
                    v = slurp(work_dir() / "value.svg");
  CHECK(t.find("colour: thread") != std::string::npos);
  CHECK(w.find("colour: warp (thread / 32)") != std::string::npos);
  CHECK(v.find("colour: value V") != std::string::npos);
  CHECK(w != t);
  CHECK(w.find("#d62728") != std::string::npos);  // mismatches stay red whatever the colouring
  CHECK(v.find("#d62728") != std::string::npos);
  // A quantity the cells lack is refused, with a caret under the option's value; nothing is written.
  const Result bank = run({"verify", f, "-o", "chunkless.svg", "--color-by", "nonsense"});
  CHECK(bank.status == 2);
  CHECK(bank.out.empty());  // checked before the trace is read
  CHECK_FALSE(exists("chunkless.svg"));
}

TEST_CASE("verify: bad input is reported with file:line:col and a caret, exit 2, and nothing is written") {
  const std::string good = tv::to_string(good_trace());
  // Line 3 is the map line; break its TV layout.
  std::string broken = good;
  const std::size_t p = broken.find("((4,8,2,2)");
  REQUIRE(p != std::string::npos);
  broken.insert(p + 2, "x");
  const std::size_t col = p - broken.rfind('\n', p) + 2;  // 1-based column of the 'x'
  const std::string f = write("broken.trace", broken);
  std::ofstream(work_dir() / "kept.svg") << "old";
  const Result r = run({"verify", f, "-o", "kept.svg"});
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  const auto l = lines(r.err);
  REQUIRE(l.size() == 3u);
  CHECK(l[0].rfind("broken.trace:3:" + std::to_string(col) + ": error: ", 0) == 0);
  CHECK(l[1].rfind("  map mma.C (32,16) ((x4,8,2,2)", 0) == 0);
  CHECK(l[2] == std::string(col + 1, ' ') + "^");
  CHECK(slurp(work_dir() / "kept.svg") == "old");  // untouched
  const Result n = run({"verify", f, "-o", "new.svg"});
  CHECK(n.status == 2);
  CHECK_FALSE(exists("new.svg"));

  const Result v = run({"verify", write("v2.trace", "tessera-trace 2\n")});
  CHECK(v.status == 2);
  CHECK(v.err == "v2.trace:1:15: error: unsupported trace version 2: this tessera reads version 1\n"
                 "  tessera-trace 2\n"
                 "                ^\n");
  const Result rec = run({"verify", write("rec.trace", good + "rec mma.C 1 2 3 99999999999999999999\n")});
  CHECK(rec.status == 2);
  CHECK(rec.err.find("rec.trace:516:17: error: the column '99999999999999999999' does not fit in 64 bits\n") == 0);
}

TEST_CASE("verify: option and file errors exit 2 with a message and write nothing") {
  const std::string f = write("good3.trace", tv::to_string(good_trace()));
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"verify"}, "error: give the TRACE file"},
      {{"verify", "nonexistent.trace"}, "nonexistent.trace: error: cannot open the trace"},
      {{"verify", f, "extra"}, "error: unexpected argument 'extra'"},
      {{"verify", f, "--frob"}, "error: unknown option '--frob'"},
      {{"verify", f, "--max", "-1"}, "error: --max takes a count"},
      {{"verify", f, "--max", "x"}, "error: --max takes a count"},
      {{"verify", f, "-o", "out.bmp"}, "error: cannot tell the format from 'out.bmp'"},
      {{"verify", f, "-o", "out.svg", "-f", "png"}, "error: -f png does not match the extension of 'out.svg'"},
      {{"verify", f, "-o", "out.svg", "-f", "gif"}, "error: unknown format 'gif'"},
      {{"verify", f, "-f", "svg"}, "error: -f svg needs -o FILE"},
      {{"verify", f, "-o", "-"}, "error: -o - needs -f"},
      {{"verify", f, "-o", "out.svg", "--color-by", "hue"}, "error: unknown --color-by 'hue'"},
      {{"verify", f, "--color-by", "warp"}, "error: --color-by needs -o FILE"},
  };
  for (const Case& c : cases) {
    INFO(c.args.back());
    const Result r = run(c.args);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(r.err.rfind(c.message, 0) == 0);
    CHECK_FALSE(exists("out.svg"));
    CHECK_FALSE(exists("out.bmp"));
  }
}

TEST_CASE("verify: when the diagram cannot be drawn, the report stands and the exit status is 2 (an error)") {
  const std::string f = write("good4.trace", tv::to_string(good_trace()));
  const Result dir = run({"verify", f, "-o", "no/such/dir/out.svg"});
  CHECK(dir.status == 2);
  CHECK(dir.out == "kernel: tiled 2x2x1 SM80_16x8x16_F32BF16BF16F32_TN\nmap mma.C: 512/512 records match\nOK\n");
  CHECK(dir.err.rfind("error: ", 0) == 0);
  CHECK(dir.err.find("no/such/dir/out.svg") != std::string::npos);
  const Result empty = run({"verify", write("empty.trace", "tessera-trace 1\n"), "-o", "out.svg"});
  CHECK(empty.status == 2);
  CHECK(empty.out == "no maps declared: nothing to verify\nFAILED\n");
  CHECK(empty.err == "error: the trace declares no map: there is nothing to draw\n");
  CHECK_FALSE(exists("out.svg"));
  // A tile too large to draw.
  tv::Trace big;
  big.maps.push_back(tv::make_map("big", rt::IntTuple::tuple({512, 256}), rt::Layout(rt::IntTuple::tuple({128, 1024}), rt::IntTuple::tuple({1, 128}))));
  big.records = tv::expected_records(big.maps[0]);
  const Result b = run({"verify", write("big.trace", tv::to_string(big)), "-o", "out.svg"});
  CHECK(b.status == 2);
  CHECK(b.out == "map big: 131072/131072 records match\nOK\n");
  CHECK(b.err.find("more than tessera draws (65536)") != std::string::npos);
  CHECK_FALSE(exists("out.svg"));
}

TEST_CASE("verify --help explains the format and shows examples") {
  const Result r = run({"verify", "--help"});
  CHECK(r.status == 0);
  for (const char* s : {"tessera-trace 1", "rec <NAME> <THREAD> <VALUE> <ROW> <COL>", "Examples:",
                        "tessera verify gemm.trace --max 100 -o diff.svg", "Exit status"})
    CHECK(r.out.find(s) != std::string::npos);
  const Result top = run({"--help"});
  CHECK(top.out.find("verify") != std::string::npos);
}
