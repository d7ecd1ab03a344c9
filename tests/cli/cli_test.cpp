// Runs the tessera binary as a user would and checks docs/notation.md's `tessera eval`
// contract, every error path (status, message, caret column), info and help.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "run_cli.hpp"

namespace {

using tessera_test::lines;
using tessera_test::Result;
using tessera_test::run;

// The column of the caret in a format_error block (0-based in the input), or -1.
long caret_column(const std::string& err) {
  for (const auto& l : lines(err)) {
    const auto p = l.find('^');
    if (p != std::string::npos && l.find_first_not_of(' ') == p) return static_cast<long>(p) - 2;
  }
  return -1;
}

}  // namespace

TEST_CASE("eval: one line per argument", "[cli]") {
  const Result r = run({"eval", "composition((4,2):(2,1), 8:1)", "size((4,(2,2)):(2,(1,8)))", "(8)", "8",
                        "logical_divide(16:1, 4:1)"});
  CHECK(r.status == 0);
  CHECK(r.out == "(4,2):(2,1)\n16\n(8)\n8\n(4,4):(1,4)\n");
  CHECK(r.err.empty());
}

TEST_CASE("eval: a failed expression prints error on its line, continues, exits 1", "[cli]") {
  const Result r = run({"eval", "coalesce((2,2):(1,2))", "composition((2,2):(1,6), (2,2):(1,1))", "rank(4:1)"});
  CHECK(r.status == 1);
  const auto l = lines(r.out);
  REQUIRE(l.size() == 3);
  CHECK(l[0] == "4:1");
  CHECK(l[1].rfind("error: inadmissible composition", 0) == 0);
  CHECK(l[2] == "1");
  CHECK(r.err.find("composition((2,2):(1,6), (2,2):(1,1))") != std::string::npos);
}

TEST_CASE("eval: reads one expression per stdin line without arguments", "[cli]") {
  const Result r = run({"eval"}, "coalesce((2,(1,4)):(1,(7,2)))\n\nflatten((4,(2,3)))\r\nfoo(\n");
  CHECK(r.status == 1);
  const auto l = lines(r.out);
  REQUIRE(l.size() == 4);
  CHECK(l[0] == "8:1");
  CHECK(l[1].rfind("error: empty expression", 0) == 0);
  CHECK(l[2] == "(4,2,3)");
  CHECK(l[3].rfind("error: ", 0) == 0);
  const Result ok = run({"eval"}, "size(8:1)\n");
  CHECK(ok.status == 0);
  CHECK(ok.out == "8\n");
  const Result empty = run({"eval"}, "");
  CHECK(empty.status == 0);
  CHECK(empty.out.empty());
}

TEST_CASE("eval: the CuTe conformance file through stdin, exactly", "[cli][conformance]") {
  namespace fs = std::filesystem;
  const fs::path file = fs::path(TESSERA_CONFORMANCE_DIR) / "cute_algebra.jsonl";
  INFO("conformance file: " << file.string());
  REQUIRE(fs::exists(file));  // part of the repository: its absence is a failure
  std::ifstream in(file);
  std::string line, exprs;
  std::vector<std::string> want;
  while (std::getline(in, line)) {
    const auto e0 = line.find("\"expr\": \"") + 9, e1 = line.find("\", \"result\": \"");
    const auto r0 = e1 + 14, r1 = line.rfind("\"}");
    REQUIRE(e1 != std::string::npos);
    exprs += line.substr(e0, e1 - e0) + "\n";
    want.push_back(line.substr(r0, r1 - r0));
  }
  const Result r = run({"eval"}, exprs);
  CHECK(r.status == 0);
  const auto got = lines(r.out);
  REQUIRE(got.size() == want.size());
  std::size_t same = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (got[i] == want[i]) ++same;
    else FAIL_CHECK("line " << i + 1 << ": expected " << want[i] << ", got " << got[i]);
  }
  CHECK(same == want.size());
}

TEST_CASE("eval: every malformed input gives error, position and caret", "[cli][errors]") {
  struct Case {
    std::string expr, message;
    long column;  // 0-based byte position of the caret
  };
  const std::vector<Case> cases = {
      {"(4,2):(1", "expected ',' or ')'", 8},
      {"(4,2):(1,4))", "after the expression", 11},
      {"(4,,2):(1,4)", "expected an integer", 3},
      {"()", "empty tuple", 1},
      {"foo(4:1)", "unknown function 'foo'", 0},
      {"coalesce(4:1, 1, 2)", "takes 1 to 2 arguments", 17},
      {"size(composition((2,2):(1,6), (2,2):(1,1)))", "overlap", 5},
      {"complement((2,2):(1,1))", "not injective", 0},
      {"(4,2):(1,(4,1))", "not congruent", 0},
      {"0:1", "positive", 0},
      {"99999999999999999999:1", "does not fit in 64 bits", 0},
      {"size(-9223372036854775808)", "out of range", 5},
      {"crd2idx(4000000000, 5000000000:4000000000)", "overflow in offset", 0},
      {"upcast(8:-9223372036854775807, 3)", "do not divide", 0},
      {"(4294967296,4294967296):(1,4294967296)", "overflow", 0},
      {"Sw<3,4> o 8:1", "expected ','", 6},
      {"complement((4,2), 8)", "argument 1 must be a layout", 11},
      {"composition((4,2):(1,5), 3:3)", "does not divide", 0},
      // docs/notation.md: a divide whose (tile, rest) leaves A's domain inconsistently
      {"logical_divide((6,1):(17,6), (5,2):(1,12))", "inadmissible logical_divide: the tile (5,2):(1,12) and the rest 2:5", 0},
      {"size(zipped_divide(Sw<3,3,3> o (6,1):(17,6), (5,2):(1,12)))", "leave A's domain inconsistently", 5},
      {"   ", "empty expression", 3},
      {"4:1 $", "unexpected '$'", 4},
  };
  for (const auto& c : cases) {
    INFO("expr: " << c.expr);
    const Result r = run({"eval", c.expr});
    CHECK(r.status == 1);
    CHECK(r.out.rfind("error: ", 0) == 0);
    CHECK(r.out.find(c.message) != std::string::npos);
    CHECK(r.out.find("(at column " + std::to_string(c.column + 1) + ")") != std::string::npos);
    CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 1);
    CHECK(r.err.rfind("error: ", 0) == 0);
    CHECK(caret_column(r.err) == c.column);
  }
}

TEST_CASE("eval: arbitrary bytes never crash", "[cli][errors]") {
  std::string junk;
  for (int i = 0; i < 2000; ++i) junk += static_cast<char>((i * 7919 + 13) % 256);
  std::string deep = std::string(5000, '(') + "1" + std::string(5000, ')');
  const Result r = run({"eval"}, junk + "\n" + deep + "\n");
  CHECK(r.status == 1);
  for (const auto& l : lines(r.out)) CHECK(l.rfind("error: ", 0) == 0);
}

TEST_CASE("info: size, cosize, rank, depth and properties", "[cli][info]") {
  const Result r = run({"info", "(4,(2,2)):(2,(1,8))"});
  CHECK(r.status == 0);
  CHECK(r.out ==
        "layout:     (4,(2,2)):(2,(1,8))\n"
        "size:       16\n"
        "cosize:     16\n"
        "image:      [0, 15]\n"
        "rank:       2\n"
        "depth:      2\n"
        "injective:  yes\n"
        "surjective: yes\n"
        "bijective:  yes\n"
        "compact:    yes\n");
  const Result b = run({"info", "(4,2):(1,0)"});
  CHECK(b.status == 0);
  CHECK(b.out.find("injective:  no\n") != std::string::npos);
  CHECK(b.out.find("compact:    yes\n") != std::string::npos);
  const Result g = run({"info", "(2,2):(1,4)"});
  CHECK(g.out.find("injective:  yes\n") != std::string::npos);
  CHECK(g.out.find("surjective: no\n") != std::string::npos);
  CHECK(g.out.find("compact:    no\n") != std::string::npos);
  const Result s = run({"info", "Sw<1,0,1> o 4:1"});
  CHECK(s.status == 0);
  CHECK(s.out.find("bijective:  yes\n") != std::string::npos);
}

// Negative strides: cosize is CuTe's (1 + sum (s-1)*|d|, coshape of the absolute strides),
// and the properties are judged against the image [min, max], not [0, cosize).
TEST_CASE("info: negative strides", "[cli][info]") {
  const Result a = run({"info", "(4,2):(-1,4)"});  // offsets -3..0 and 1..4
  CHECK(a.status == 0);
  CHECK(a.out ==
        "layout:     (4,2):(-1,4)\n"
        "size:       8\n"
        "cosize:     8\n"
        "image:      [-3, 4]\n"
        "rank:       2\n"
        "depth:      1\n"
        "injective:  yes\n"
        "surjective: yes\n"
        "bijective:  yes\n"
        "compact:    yes\n");
  const Result b = run({"info", "4:-2"});  // 0,-2,-4,-6: holes
  CHECK(b.out.find("cosize:     7\n") != std::string::npos);
  CHECK(b.out.find("image:      [-6, 0]\n") != std::string::npos);
  CHECK(b.out.find("injective:  yes\n") != std::string::npos);
  CHECK(b.out.find("surjective: no\n") != std::string::npos);
  CHECK(b.out.find("compact:    no\n") != std::string::npos);
  const Result c = run({"info", "(2,3):(-1,0)"});  // broadcast along a stride-0 mode
  CHECK(c.out.find("cosize:     2\n") != std::string::npos);
  CHECK(c.out.find("image:      [-1, 0]\n") != std::string::npos);
  CHECK(c.out.find("injective:  no\n") != std::string::npos);
  CHECK(c.out.find("surjective: yes\n") != std::string::npos);
  CHECK(c.out.find("compact:    yes\n") != std::string::npos);  // filter: 2:-1, onto [-1, 0]
  const Result d = run({"info", "(2,3):(-3,0)"});  // filter: 2:-3, offsets {-3, 0}: holes
  CHECK(d.out.find("compact:    no\n") != std::string::npos);
  // eval's cosize agrees with info's (one definition in the runtime tier).
  const Result e = run({"eval", "cosize((4,2):(-1,4))", "cosize(((2,2),3):((-1,2),-4))"});
  CHECK(e.out == "8\n12\n");
}

TEST_CASE("info: errors", "[cli][info][errors]") {
  const Result a = run({"info", "(4,2"});
  CHECK(a.status == 1);
  CHECK(a.out.empty());
  CHECK(a.err.rfind("error: ", 0) == 0);
  CHECK(caret_column(a.err) == 4);
  const Result b = run({"info", "(4,2)"});
  CHECK(b.status == 1);
  CHECK(b.err.find("needs a layout") != std::string::npos);
  const Result c = run({"info"});
  CHECK(c.status != 0);
  // Offsets beyond 64 bits: reported, never wrapped.
  const Result d = run({"info", "(2,2):(1,9223372036854775807)"});
  CHECK(d.status == 1);
  CHECK(d.out.empty());
  CHECK(d.err.find("overflow") != std::string::npos);
  CHECK(caret_column(d.err) == 0);
  const Result e = run({"info", "complement((2,2):(1,1))"});
  CHECK(e.status == 1);
  CHECK(e.err.find("not injective") != std::string::npos);
  CHECK(caret_column(e.err) == 0);
}

TEST_CASE("help", "[cli]") {
  // A bare `tessera`: a short usage on stderr and status 2 (a usage error), nothing on stdout.
  const Result none = run({});
  CHECK(none.status == 2);
  CHECK(none.out.empty());
  CHECK(none.err.rfind("usage: tessera COMMAND", 0) == 0);
  CHECK(lines(none.err).size() <= 4);
  for (const char* c : {"eval", "info", "render", "mma", "copy", "banks", "list", "verify"})
    CHECK(none.err.find(c) != std::string::npos);
  // `tessera render` without EXPR is a command (the default diagram), not a bare tessera.
  const Result dflt = run({"render"});
  CHECK(dflt.status == 0);
  CHECK(!dflt.out.empty());
  // --version: the CMake project version.
  const Result v = run({"--version"});
  CHECK(v.status == 0);
  CHECK(v.out == "tessera " TESSERA_VERSION "\n");
  for (const char* sub : {"eval", "info"}) {
    const Result h = run({sub, "--help"});
    CHECK(h.status == 0);
    CHECK(h.out.find("Examples") != std::string::npos);
  }
  const Result e = run({"eval", "--help"});
  CHECK(e.out.find("composition(A, B)") != std::string::npos);
  CHECK(e.out.find("Sw<B,M,S>") != std::string::npos);
  const Result bad = run({"frobnicate"});
  CHECK(bad.status == 1);
  CHECK(bad.err.rfind("error: ", 0) == 0);
  // Every help says what, arguments, options, an example and the exit status.
  const Result top = run({"--help"});
  CHECK(top.status == 0);
  for (const char* w : {"Usage", "Subcommands", "eval", "info", "render", "Examples", "Exit status",
                        "2 when no command is given", "never destroyed", "--version"})
    CHECK(top.out.find(w) != std::string::npos);
  // info says what each line means, negative strides included; eval that standard output is checked.
  const Result ih = run({"info", "--help"});
  for (const char* w : {"image", "[min, max]", "1 + sum over the modes of (shape - 1) * |stride|", "every offset in [min, max]"})
    CHECK(ih.out.find(w) != std::string::npos);
  CHECK(run({"eval", "--help"}).out.find("cannot write to standard output") != std::string::npos);
  for (const char* sub : {"eval", "info", "render"}) {
    INFO(sub);
    const Result h = run({sub, "--help"});
    CHECK(h.status == 0);
    for (const char* w : {"Usage", "EXPR", "Options", "--help", "Examples", "Exit status"})
      CHECK(h.out.find(w) != std::string::npos);
  }
}

TEST_CASE("a wrong command line is an error with exit status 1", "[cli][errors]") {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"info"}, {"info", "8:1", "4:1"}, {"eval", "--bogus"}, {"info", "--bogus", "8:1"}}) {
    INFO(args.size() << " arguments, first " << args[0]);
    const Result r = run(args);
    CHECK(r.status == 1);
    CHECK(r.err.rfind("error: ", 0) == 0);
    CHECK(r.out.empty());
  }
}

TEST_CASE("eval: corners of the contract", "[cli]") {
  // With EXPR arguments standard input is not read.
  const Result a = run({"eval", "8:1"}, "4:1\n");
  CHECK(a.status == 0);
  CHECK(a.out == "8:1\n");
  // The last line needs no newline; whitespace around an expression is fine.
  const Result b = run({"eval"}, "  size( (4,2):(1,4) ) \t\ncosize(8:2)");
  CHECK(b.status == 0);
  CHECK(b.out == "8\n15\n");
  // Output line k answers input line k, errors included; --quiet keeps stderr empty.
  const Result c = run({"eval", "-q"}, "8:1\n(4,2\n\n4:2\n");
  CHECK(c.status == 1);
  const auto l = lines(c.out);
  REQUIRE(l.size() == 4);
  CHECK(l[0] == "8:1");
  CHECK(l[1].rfind("error: ", 0) == 0);
  CHECK(l[2].rfind("error: empty expression", 0) == 0);
  CHECK(l[3] == "4:2");
  CHECK(c.err.empty());
  // Every kind of result prints in the notation it is parsed from.
  const Result d = run({"eval", "Sw<3,4,3> o (8,64):(64,1)", "(4:1,2:2)", "(4,(2,3))", "_8", "rank((4,2):(1,4))"});
  CHECK(d.status == 0);
  CHECK(d.out == "Sw<3,4,3> o 0 o (8,64):(64,1)\n(4:1,2:2)\n(4,(2,3))\n8\n2\n");
}

namespace {
// The word the caret points at in a command-line error (the line above the caret, from the
// caret's column), or "" when the message has no such caret.
std::string word_at_caret(const std::string& err) {
  const auto ls = lines(err);
  for (std::size_t i = 1; i < ls.size(); ++i) {
    const auto p = ls[i].find('^');
    if (p == std::string::npos || ls[i].find_first_not_of(' ') != p || ls[i - 1].size() <= p) continue;
    const std::string rest = ls[i - 1].substr(p);
    return rest.substr(0, rest.find(' '));
  }
  return "";
}
}  // namespace

// Every wrong command line is answered in tessera's words (never CLI11's templates), with the
// command line and a caret under the word at fault; diff and verify exit 2, others 1.
TEST_CASE("option errors: tessera's words, a caret under the option, exit 1 (diff, verify: 2)", "[cli]") {
  const auto dir = tessera_test::scratch_dir();
  const std::string G = "(8192,4096):(4096,1)", S = "Sw<3,3,3> o (128,64):(64,1)";
  struct Case {
    std::vector<std::string> args;
    int status;
    std::string message, word;  // message: a part of the first line; word: under the caret ("": none)
  };
  const std::vector<Case> cases = {
      {{"copy", "UniversalCopy_128", "--threads", "(4,8):(8,1)", "--values", "(1,8)", "--bits", "0"}, 1, "--bits must be", "--bits"},
      {{"tma", G, S, "--bits", "0"}, 1, "--bits must be an element width in bits: 8, 16, 32 or 64, not '0'", "--bits"},
      {{"tma", G, S, "--bits", "7"}, 1, "not '7'", "--bits"},
      {{"tma", G, "gmma_k_sw128_bf16", "--bits=32"}, 1, "contradicts the atom's 16-bit elements", "--bits=32"},
      {{"banks", "(8,64):(64,1)", "--tv", "(32,8):(8,1)", "--bits", "99999999999"}, 1, "not '99999999999'", "--bits"},
      {{"gmem", "(4,4):(4,1)", "--tv", "(16,1):(1,0)", "--bits", "12"}, 1, "--bits must be", "--bits"},
      {{"gmem", "(4,4):(4,1)", "--tv", "(16,1):(1,0)", "--base", "x"}, 1, "--base must be", "--base"},
      {{"banks", "(8,64):(64,1)", "--tv", "(32,8):(8,1)", "--vec", "0"}, 1, "--vec must be a positive number", "--vec"},
      {{"info", "8:1", "frobnicate"}, 1, "unexpected argument 'frobnicate'", "frobnicate"},
      {{"eval", "--frob", "8:1"}, 1, "unknown option '--frob'", "--frob"},
      {{"frobnicate"}, 1, "unknown command 'frobnicate'", "frobnicate"},
      {{"explain", "8:1", "--depth", "-1"}, 1, "--depth must be", "--depth"},
      {{"render", "8:1", "--color-by", "hue"}, 1, "unknown --color-by 'hue'", "--color-by"},
      {{"render", "(4,2):(1,4)", "--color-by", "thread", "-o", (dir / "c.svg").string()}, 1, "cannot colour by thread", "--color-by"},
      {{"render", "8:1", "-o", dir.string()}, 1, "is a directory", "-o"},
      {{"render", "8:1", "--output=" + (dir / "x.bmp").string()}, 1, "cannot tell the format", "--output=" + (dir / "x.bmp").string()},
      {{"render", "8:1", "-f", "bmp"}, 1, "unknown format 'bmp'", "-f"},
      {{"render", "8:1", "--title", "my\x01tile", "-o", (dir / "t.svg").string()}, 1, "--title must be UTF-8 text", "--title"},
      {{"render", "8:1", "--title", "bad\xff", "-o", (dir / "t.svg").string()}, 1, "byte 4 (0xff)", "--title"},
      {{"tma", G}, 1, "missing SMEM", ""},
      {{"mma", "SM80_16x8x8_F16F16F16F16_TN", "--json", "-o", (dir / "j.svg").string()}, 1, "cannot be combined with --output", "-o"},
      {{"diff", "8:1", "8:1", "--width", "-5"}, 2, "--width must be a number of columns from 0 to 1000000, not '-5'", "--width"},
      {{"diff", "8:1", "8:1", "--width"}, 2, "--width needs a value", "--width"},
      {{"diff", "8:1", "8:1", "--max", "x", "--json"}, 2, "--max takes a count", "--max"},
      {{"diff", "8:1", "x"}, 2, "B: unknown name 'x'", ""},
      {{"verify", "-", "--max"}, 2, "--max needs a value", "--max"},
      {{"render", "8:1", "-o", (dir / "t.svg").string(), "-o", (dir / "j.svg").string()}, 1, "--output is given more than once", "-o"},
      {{"eval", "-q=1", "8:1"}, 1, "unknown option '-q=1'", "-q=1"},
      {{"verify", (dir / "none.trace").string()}, 2, "cannot open the trace", ""},
  };
  for (const Case& c : cases) {
    std::string shown;
    for (const auto& a : c.args) shown += a + " ";
    INFO(shown);
    const Result r = run(c.args);
    INFO(r.err);
    CHECK(r.status == c.status);
    CHECK(r.out.empty());
    CHECK(r.err.find("error: ") != std::string::npos);
    CHECK(lines(r.err).at(0).find(c.message) != std::string::npos);
    if (!c.word.empty()) CHECK(word_at_caret(r.err) == c.word);
    for (const char* cli11 : {"Could not convert", "was not expected", "is required", "Expected ", "not in range",
                              "required INT", "1797693134", "INT", "The value "})
      CHECK(r.err.find(cli11) == std::string::npos);
    CHECK_FALSE(std::filesystem::exists(dir / "t.svg"));
    CHECK_FALSE(std::filesystem::exists(dir / "j.svg"));
    CHECK_FALSE(std::filesystem::exists(dir / "c.svg"));
  }
}
