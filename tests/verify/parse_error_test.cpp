// Every malformed trace is refused with file:line:col, the line and a caret under the
// offending character; the well-formed variants around each rule still parse.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <sstream>

#include "tessera/verify/trace.hpp"

namespace tv = tessera::verify;

namespace {

const std::string H = "tessera-trace 1\n";
const std::string C = "map mma.C (16,8) ((4,8),(2,2)):((32,1),(16,8))\n";

struct Bad {
  std::string text;
  std::size_t line, col;
  std::string message;  // a part of the message
};

tv::Trace parse(const std::string& text) {
  std::istringstream in(text);
  return tv::parse_trace(in, "k.trace");
}

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> v;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) v.push_back(l);
  return v;
}

}  // namespace

TEST_CASE("every parse error names its line and column, with a caret") {
  const std::string over = "99999999999999999999";
  const std::vector<Bad> cases = {
      {"", 1, 1, "empty trace: expected the header 'tessera-trace 1'"},
      {"# only a comment\n\n", 3, 1, "empty trace"},
      {"tessera-trace\n", 1, 14, "expected the version"},
      {"tessera-trace 2\n", 1, 15, "unsupported trace version 2"},
      {"tessera-trace 1x\n", 1, 16, "unexpected 'x' in the version"},
      {"tessera-trace -\n", 1, 16, "expected the version (a decimal integer)"},
      {"tessera-trace 1 extra\n", 1, 17, "unexpected 'extra' after the header"},
      {"map a (1,1) 1:0\n", 1, 1, "expected the header 'tessera-trace 1' first, found 'map'"},
      {"tessera-trace " + over + "\n", 1, 15, "does not fit in 64 bits"},
      {H + H, 2, 1, "a second header line"},
      {H + "frob x\n", 2, 1, "unknown directive 'frob'"},
      {H + "  Map a (1,1) 1:0\n", 2, 3, "unknown directive 'Map'"},
      {H + "kernel a\nkernel b\n", 3, 1, "a second kernel line (the first is at line 2)"},
      {H + "map\n", 2, 4, "expected the map name"},
      {H + "map a\n", 2, 6, "expected the tile"},
      {H + "map a (16,8)\n", 2, 13, "expected the TV layout"},
      {H + "map a (16,8) (4,8):(1,4) x\n", 2, 26, "unexpected 'x' after a map"},
      {H + "map a\x01 (16,8) (4,8):(1,4)\n", 2, 6, "the map name contains a control character"},
      {H + "map a (16,8 (4,8):(1,4)\n", 2, 12, "expected ',' or ')'"},
      {H + "map a (16,x) (4,8):(1,4)\n", 2, 11, "unknown name 'x'"},
      {H + "map a 128 128:1\n", 2, 7, "the tile must have rank 2"},
      {H + "map a (16) 16:1\n", 2, 7, "has rank 1"},
      {H + "map a (2,2,2) 8:1\n", 2, 7, "(2,2,2) has rank 3"},
      {H + "map a (16,0) 1:0\n", 2, 11, "extents of the tile must be positive, found 0"},
      {H + "map a ((2,-8),8) 1:0\n", 2, 11, "extents of the tile must be positive, found -8"},
      {H + "map a (16,_) 1:0\n", 2, 11, "'_' is not an integer in the tile"},
      {H + "map a (16,8):(1,16) 1:0\n", 2, 7, "the tile is a shape (rows,cols)"},
      {H + "map a (4294967296,4294967296) 1:0\n", 2, 7, "overflow"},
      {H + "map a (16,8) (4,8):(1,4x)\n", 2, 24, "unexpected 'x' after the integer"},
      {H + "map a (16,8) (4,8):(1," + over + ")\n", 2, 23, "does not fit in 64 bits"},
      {H + "map a (16,8) 32:1\n", 2, 14, "the TV layout must have rank 2"},
      {H + "map a (16,8) (2,2,2):(1,2,4)\n", 2, 14, "has rank 3"},
      {H + "map a (16,8) (4,8):(1,(4,1))\n", 2, 20, "congruent"},
      {H + "map a (16,8) (4,0):(1,4)\n", 2, 17, "extents of the TV layout's shape must be positive"},
      {H + "map a (16,8) (32,4):(1,33)\n", 2, 14, "sends (thread 29, value 3) to index 128"},
      {H + "map a (16,8) (4,2):(-1,1)\n", 2, 14, "sends (thread 1, value 0) to index -1, outside the tile (16,8)"},
      {H + "map a (16,8) ((4,8),(2,2)):((32,1),(16,9))\n", 2, 14,
       "sends (thread 31, value 3) to index 128, outside the tile (16,8) of 128 elements"},
      {H + "map a (4096,8192) (4096,8192):(1,4096)\n", 2, 19, "more than tessera verifies"},
      {H + "map a (16,8) Sw<1,0,1> o 8:1\n", 2, 24, "unexpected 'o' after a map"},
      {H + "map a (16,8) frob(8:1)\n", 2, 14, "frob"},
      {H + "map a (16,8) coalesce((4,8))\n", 2, 23, "argument 1 must be a layout"},
      {H + "map a (16,8) size(8:1)\n", 2, 14, "the TV layout must be a layout"},
      {H + C + C, 3, 5, "map 'mma.C' is already declared at line 2"},
      {H + "rec mma.C 0 0 0 0\n" + C, 2, 5, "record for map 'mma.C' comes before its map line (line 3)"},
      {H + "rec x 0 0 0 0\nrec mma.C 0 0 0 0\n" + C, 3, 5, "comes before its map line (line 4)"},
      {H + C + "rec\n", 3, 4, "expected the map name"},
      {H + C + "rec mma.C 1 2 3\n", 3, 16, "expected the column: a record is 'rec NAME THREAD VALUE ROW COL'"},
      {H + C + "rec mma.C 1 2 3 4 5\n", 3, 19, "unexpected '5' after a record"},
      {H + C + "rec mma.C x 2 3 4\n", 3, 11, "expected the thread (a decimal integer), found 'x'"},
      {H + C + "rec mma.C 1 +2 3 4\n", 3, 13, "expected the value (a decimal integer), found '+2'"},
      {H + C + "rec mma.C 1 2 3e 4\n", 3, 16, "unexpected 'e' in the row"},
      {H + C + "rec mma.C 1 2 3 --4\n", 3, 18, "expected the column (a decimal integer), found '-4'"},
      {H + C + "rec mma.C 1 2 3 " + over + "\n", 3, 17, "the column '99999999999999999999' does not fit in 64 bits"},
      {H + C + "rec mma.C 1 2 3 -9223372036854775809\n", 3, 18, "does not fit in 64 bits"},
      {H + C + "rec mma.C 1 2 3 9223372036854775808\n", 3, 17, "does not fit in 64 bits"},
      {H + C + "rec\tmma.C\t1\t2\t3\t4x\n", 3, 18, "unexpected 'x' in the column"},
      {H + C + "rec mma.C 1 2 3 4\r\nrec mma.C 1 2 3 4y\r\n", 4, 18, "unexpected 'y' in the column"},
  };
  for (const Bad& b : cases) {
    INFO("input:\n" << b.text);
    try {
      (void)parse(b.text);
      FAIL("parsed without error");
    } catch (const tv::TraceError& e) {
      CHECK(e.file() == "k.trace");
      CHECK(e.line() == b.line);
      CHECK(e.column() == b.col);
      CHECK_THAT(e.message(), Catch::Contains(b.message));
      // what(): "file:line:col: error: message", the line, the caret under the column.
      const auto l = lines_of(e.what());
      REQUIRE(l.size() == 3u);
      CHECK(l[0] == "k.trace:" + std::to_string(b.line) + ":" + std::to_string(b.col) + ": error: " + e.message());
      const auto src = lines_of(b.text);
      std::string shown = b.line <= src.size() ? src[b.line - 1] : "";
      if (!shown.empty() && shown.back() == '\r') shown.pop_back();
      for (char& ch : shown) ch = ch == '\t' ? ' ' : (ch < 0x20 ? '?' : ch);
      CHECK(l[1] == "  " + shown);
      CHECK(l[2] == std::string(b.col + 1, ' ') + "^");
    }
  }
}

TEST_CASE("well-formed variants parse") {
  const tv::Trace t = parse(
      "# a comment before the header\n"
      "\n"
      "  tessera-trace   1  \r\n"
      "   # an indented comment\n"
      "kernel \t tensorop_bf16 tile=128x128x32 # not a comment\n"
      "map\tmma.C  (16,8)\t((4,8),(2,2)):((32,1),(16,8))\n"
      "map mma.A (_16,(2,8)) ((4,8),(2,2,2)):((32,1),(16,8,128))\n"
      "map c (16,8) composition((16,8):(1,16),((4,8),(2,2)):((32,1),(16,8)))\n"
      "rec mma.C 0 0 0 0\n"
      "rec undeclared -1 -2 -3 -9223372036854775808\n"
      "rec mma.A 31 7 15 15\n");
  CHECK(t.kernel == "tensorop_bf16 tile=128x128x32 # not a comment");
  REQUIRE(t.maps.size() == 3u);
  CHECK(tessera::rt::to_string(t.maps[1].tile) == "(16,(2,8))");
  CHECK(tessera::rt::to_string(t.maps[2].tv) == "((4,8),(2,2)):((32,1),(16,8))");
  REQUIRE(t.records.size() == 3u);
  CHECK(t.records[1] == tv::Record{"undeclared", -1, -2, -3, INT64_MIN});
  CHECK(t.records[2].line == 11u);
  // A record for a map that is never declared is kept (verify reports it).
  const tv::Report r = tv::verify(t);
  CHECK(r.other_findings == 1);
}

TEST_CASE("read_trace_file reports a missing file") {
  try {
    (void)tv::read_trace_file("/nonexistent/dir/x.trace");
    FAIL("no error");
  } catch (const tv::TraceError& e) {
    CHECK(e.line() == 0u);
    CHECK_THAT(std::string(e.what()), Catch::StartsWith("/nonexistent/dir/x.trace: error: cannot open the trace"));
  }
  CHECK_THROWS_WITH(tv::read_trace_file(TESSERA_TEST_DATA_DIR), Catch::Contains("it is a directory"));
}

TEST_CASE("mangled traces parse or fail with a position inside the input, never crash") {
  const std::string base = H + "kernel k\n" + C + "map mma.B (8,16) ((4,8),(2,2)):((16,1),(8,64))\n" +
                           "rec mma.C 0 0 0 0\nrec mma.C 1 0 0 2\nrec mma.B 31 3 7 15\n";
  rc::prop("random byte edits", [&] {
    std::string text = base;
    const int edits = *rc::gen::inRange(1, 6);
    for (int i = 0; i < edits; ++i) {
      const std::size_t at = *rc::gen::inRange<std::size_t>(0, text.size() + 1);
      const char c = *rc::gen::element('(', ')', ',', ':', ' ', '\n', '\t', '#', '-', '0', '9', 'x', '_', '\x01', '\xff');
      switch (*rc::gen::element(0, 1, 2)) {
        case 0: text.insert(at, 1, c); break;
        case 1: if (at < text.size()) text.erase(at, 1); break;
        case 2: if (at < text.size()) text[at] = c; break;
      }
    }
    std::size_t nlines = 0;
    std::vector<std::size_t> len;
    for (const auto& l : lines_of(text)) { ++nlines; len.push_back(l.size()); }
    try {
      const tv::Trace t = parse(text);
      (void)tv::verify(t);  // whatever parses verifies without throwing
      std::istringstream again(tv::to_string(t));
      (void)tv::parse_trace(again, "again");
    } catch (const tv::TraceError& e) {
      RC_ASSERT(e.line() >= 1u);
      RC_ASSERT(e.line() <= nlines + 1);
      RC_ASSERT(e.column() >= 1u);
      if (e.line() <= nlines) RC_ASSERT(e.column() <= len[e.line() - 1] + 1);
    }
  });
}
