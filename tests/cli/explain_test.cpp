// `tessera explain` run as a user runs it: golden derivations (CuTe's textbook logical_divide,
// a refused composition, a swizzled inverse), exit statuses and carets, drawings, JSON, and
// on a generated list of expressions: the explained result is `tessera eval`'s, and every
// printed step `N  expression = result` re-evaluates through `tessera eval` to its result.
#include <catch2/catch.hpp>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "../runtime/expression_generator.hpp"
#include "run_cli.hpp"

using tessera_test::count;
using tessera_test::golden;
using tessera_test::lines;
using tessera_test::run;
using tessera_test::slurp;

namespace {

struct MtRandom {
  std::mt19937_64 engine;
  std::int64_t operator()(std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(engine);
  }
};

// A printed operation step: "<indent><number>  <expression> = <result>" or "...  REFUSED".
struct PrintedStep {
  std::string expr, result;
  bool refused = false;
};
std::vector<PrintedStep> printed_steps(const std::string& out) {
  std::vector<PrintedStep> v;
  for (const std::string& l : lines(out)) {
    const auto start = l.find_first_not_of(' ');
    if (start == std::string::npos || !std::isdigit(static_cast<unsigned char>(l[start]))) continue;
    const auto gap = l.find("  ", start);
    REQUIRE(gap != std::string::npos);
    const std::string rest = l.substr(gap + 2);
    PrintedStep s;
    if (rest.size() > 9 && rest.compare(rest.size() - 9, 9, "  REFUSED") == 0) {
      s.refused = true;
      s.expr = rest.substr(0, rest.size() - 9);
    } else {
      const auto eq = rest.rfind(" = ");
      REQUIRE(eq != std::string::npos);
      s.expr = rest.substr(0, eq);
      s.result = rest.substr(eq + 3);
    }
    v.push_back(s);
  }
  return v;
}

}  // namespace

TEST_CASE("explain: CuTe's logical_divide example, golden", "[cli][explain]") {
  const auto r = run({"explain", "logical_divide((4,2,3):(2,1,8), 4:2)"});
  CHECK(r.status == 0);
  CHECK(r.err.empty());
  CHECK(r.out == golden("explain_logical_divide.txt"));
  // The steps CuTe's documentation names, with its numbers.
  CHECK(r.out.find("complement(4:2,24) = (2,3):(1,8)") != std::string::npos);
  CHECK(r.out.find("- concatenation (B, complement): (4,(2,3)):(2,(1,8))") != std::string::npos);
  CHECK(r.out.find("composition((4,2,3):(2,1,8),4:2) = (2,2):(4,1)") != std::string::npos);
  CHECK(r.out.find("composition((4,2,3):(2,1,8),(2,3):(1,8)) = (2,3):(2,8)") != std::string::npos);
  CHECK(lines(r.out).back() == "result: ((2,2),(2,3)):((4,1),(2,8))");
}

TEST_CASE("explain: a refused expression shows the failing step, the rule and the caret, exit 1", "[cli][explain]") {
  const auto r = run({"explain", "composition((2,2):(1,6), (2,2):(1,1))"});
  CHECK(r.status == 1);
  CHECK(r.out == golden("explain_refused.txt"));
  CHECK(r.out.find("REFUSED") != std::string::npos);
  CHECK(r.out.find("! refused here: inadmissible composition: the modes of (2,2):(1,1) overlap") != std::string::npos);
  // The same error line eval prints, and eval's caret block on stderr.
  const auto e = run({"eval", "composition((2,2):(1,6), (2,2):(1,1))"});
  CHECK(lines(r.out).back() == lines(e.out).back());
  CHECK(r.err == e.err);
  // Refused inside a nested expression: the steps that ran before it are printed.
  const auto n = run({"explain", "make_layout(complement(4:2, 24), composition((2,2):(1,6), (2,2):(1,1)))"});
  CHECK(n.status == 1);
  CHECK(n.out.find("1  complement(4:2,24) = (2,3):(1,8)") != std::string::npos);
  CHECK(n.out.find("2  composition((2,2):(1,6),(2,2):(1,1))  REFUSED") != std::string::npos);
  CHECK(count(n.out, "make_layout") == 1);  // only in the expression line: never reached
  // A parse error: no step, the error and its caret.
  const auto p = run({"explain", "coalesce((2,2):(1,2)"});
  CHECK(p.status == 1);
  CHECK(lines(p.out).back().rfind("error: ", 0) == 0);
  CHECK(p.err.find('^') != std::string::npos);
}

TEST_CASE("explain: a swizzled layout, golden", "[cli][explain]") {
  const auto r = run({"explain", "right_inverse(Sw<3,3,3> o (8,64):(64,1))"});
  CHECK(r.status == 0);
  CHECK(r.out == golden("explain_swizzled.txt"));
  CHECK(r.out.find("Sw' = make_swizzle(L(Y), L(Z)): Sw<3,0,-6>") != std::string::npos);
  const auto t = run({"explain", "tile_to_shape(Sw<3,3,3> o (8,64):(64,1), (16,64))"});
  CHECK(t.status == 0);
  CHECK(t.out.find("tile_to_shape(Sw o off o L) = Sw o off o tile_to_shape(L)") != std::string::npos);
  CHECK(t.out.find("blocked_product((8,64):(64,1),(2,1):(1,0))") != std::string::npos);
}

TEST_CASE("explain: nested expressions in the order they ran; --depth", "[cli][explain]") {
  const auto r = run({"explain", "size(complement(4:2, 24))"});
  CHECK(r.status == 0);
  const auto steps = printed_steps(r.out);
  std::vector<std::string> top;
  for (const std::string& l : lines(r.out))
    if (!l.empty() && std::isdigit(static_cast<unsigned char>(l[0]))) top.push_back(l);
  REQUIRE(top.size() == 2);
  CHECK(top[0] == "1  complement(4:2,24) = (2,3):(1,8)");
  CHECK(top[1] == "2  size((2,3):(1,8)) = 6");
  const auto d = run({"explain", "--depth", "1", "logical_divide((4,2,3):(2,1,8), 4:2)"});
  CHECK(d.status == 0);
  CHECK(printed_steps(d.out).size() == 1);
  CHECK(d.out.find("   - size(A): 24\n   - concatenation (B, complement): (4,(2,3)):(2,(1,8))\n") != std::string::npos);
  CHECK(printed_steps(r.out).size() > 2);
}

TEST_CASE("explain: results are eval's and every printed step re-evaluates (generated)", "[cli][explain]") {
  MtRandom random{std::mt19937_64(18)};
  tessera_test::ExpressionGenerator<MtRandom> gen(random);
  std::vector<std::string> exprs;
  for (int i = 0; i < 300; ++i) exprs.push_back(gen.expression());
  std::string all;
  for (const auto& e : exprs) all += e + "\n";
  const auto eval = lines(run({"eval", "-q"}, all).out);
  REQUIRE(eval.size() == exprs.size());
  std::vector<PrintedStep> steps;
  int refused = 0, nested = 0;
  for (std::size_t i = 0; i < exprs.size(); ++i) {
    const auto r = run({"explain", exprs[i]});
    INFO(exprs[i]);
    const auto out = lines(r.out);
    REQUIRE(!out.empty());
    // The last line is eval's line, result or error alike.
    if (eval[i].rfind("error: ", 0) == 0) {
      ++refused;
      CHECK(r.status == 1);
      CHECK(out.back() == eval[i]);
    } else {
      CHECK(r.status == 0);
      CHECK(out.back() == "result: " + eval[i]);
    }
    const auto s = printed_steps(r.out);
    std::size_t top = 0;
    for (const std::string& l : out) top += !l.empty() && std::isdigit(static_cast<unsigned char>(l[0]));
    nested += top > 1;
    steps.insert(steps.end(), s.begin(), s.end());
  }
  CHECK(refused > 10);
  CHECK(nested > 10);
  // Every step, through eval in one batch: a shown result is what eval gives; a refused step is
  // refused by eval too.
  std::string batch;
  for (const auto& s : steps) batch += s.expr + "\n";
  const auto again = lines(run({"eval", "-q"}, batch).out);
  REQUIRE(again.size() == steps.size());
  std::size_t checked = 0;
  for (std::size_t k = 0; k < steps.size(); ++k) {
    INFO(steps[k].expr);
    if (steps[k].refused) {
      CHECK(again[k].rfind("error: ", 0) == 0);
    } else {
      CHECK(again[k] == steps[k].result);
      ++checked;
    }
  }
  CHECK(checked > 1000);
}

TEST_CASE("explain: -o draws every input and step as a captioned panel", "[cli][explain]") {
  const auto dir = tessera_test::scratch_dir();
  const std::string svg = (dir / "explain.svg").string(), html = (dir / "explain.html").string();
  const auto r = run({"explain", "logical_divide((4,2,3):(2,1,8), 4:2)", "-o", svg});
  CHECK(r.status == 0);
  CHECK(r.out == golden("explain_logical_divide.txt"));  // the text still on stdout
  const std::string s = slurp(svg);
  CHECK(s.rfind("<?xml", 0) == 0);
  for (const char* caption : {">input (4,2,3):(2,1,8)<", ">input 4:2<", ">1.1  complement(4:2,24)<",
                              ">= (2,3):(1,8)<", ">1 concatenation (B, complement)<",
                              ">1.2  composition((4,2,3):(2,1,8),4:2)<", ">= (2,2):(4,1)<",
                              ">result: ((2,2),(2,3)):((4,1),(2,8))<"})
    CHECK(s.find(caption) != std::string::npos);
  const auto h = run({"explain", "logical_divide((4,2,3):(2,1,8), 4:2)", "-o", html});
  CHECK(h.status == 0);
  const std::string page = slurp(html);
  CHECK(page.find("<html") != std::string::npos);
  CHECK(page.find("1.3  composition((4,2,3):(2,1,8),(2,3):(1,8))") != std::string::npos);
  CHECK(page.find("src=\"http") == std::string::npos);  // self-contained: nothing fetched
  // A refused expression draws the steps before it, says where it stopped, exits 1.
  const auto f = run({"explain", "logical_divide((2,2):(1,6), (2,2):(1,1))", "-o", svg});
  CHECK(f.status == 1);
  CHECK(slurp(svg).find("refused") != std::string::npos);
  std::filesystem::remove(svg);
  std::filesystem::remove(html);
}

TEST_CASE("explain: --json", "[cli][explain]") {
  const auto r = run({"explain", "--json", "size(complement(4:2, 24))"});
  CHECK(r.status == 0);
  CHECK(lines(r.out).size() == 1);
  CHECK(r.out.rfind("{\"command\":\"explain\",\"schema_version\":1,\"expression\":\"size(complement(4:2, 24))\","
                    "\"steps\":[{\"step\":\"1\",\"operation\":\"complement\",\"expression\":\"complement(4:2,24)\","
                    "\"inputs\":[{\"kind\":\"layout\",\"text\":\"4:2\",\"shape\":4,\"stride\":2},{\"kind\":"
                    "\"integer\",\"text\":\"24\",\"value\":24}],\"refused\":false,\"result\":{\"kind\":\"layout\","
                    "\"text\":\"(2,3):(1,8)\"",
                    0) == 0);
  CHECK(r.out.find("{\"note\":\"modes sorted by stride\",\"text\":\"4:2\"}") != std::string::npos);
  CHECK(r.out.find("\"result\":{\"kind\":\"integer\",\"text\":\"6\",\"value\":6},\"error\":null}\n") !=
        std::string::npos);
  const auto f = run({"explain", "--json", "composition((2,2):(1,6), (2,2):(1,1))"});
  CHECK(f.status == 1);
  CHECK(f.out.find("\"refused\":true,\"result\":null,\"error\":\"inadmissible composition") != std::string::npos);
  CHECK(f.out.find("\"result\":null,\"error\":{\"message\":\"inadmissible composition") != std::string::npos);
  CHECK(f.out.find("\"column\":1}}") != std::string::npos);
  const auto bad = run({"explain", "--json", "-o", "x.svg", "8:1"});
  CHECK(bad.status == 1);
  CHECK(bad.out.empty());
  CHECK(bad.err.rfind("error: --json prints JSON on standard output", 0) == 0);
}

TEST_CASE("explain: command-line errors", "[cli][explain]") {
  const auto e = run({"explain", ""});
  CHECK(e.status == 1);
  CHECK(e.err.rfind("error: EXPR is empty", 0) == 0);
  const auto f = run({"explain", "-f", "svg", "8:1"});
  CHECK(f.status == 1);
  CHECK(f.err.find("needs -o FILE") != std::string::npos);
  const auto x = run({"explain", "8:1", "4:1"});
  CHECK(x.status == 1);
  CHECK(x.err.rfind("error: unexpected argument '4:1'", 0) == 0);
  const auto n = run({"explain", "(8,8):(8,1)", "-o", (tessera_test::scratch_dir() / "x.svg").string()});
  CHECK(n.status == 0);  // a literal: its input panel is drawn
  const auto h = run({"explain", "--help"});
  CHECK(h.status == 0);
  CHECK(h.out.find("Exit status: 0 when the expression evaluates; 1 when it is refused") != std::string::npos);
}
