// Parser and printer: round trips on generated layouts, whitespace tolerance,
// the 8 vs (8) distinction, error positions and the caret of format_error.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <functional>
#include <string>

#include "expression_generator.hpp"
#include "generators.hpp"
#include "tessera/rt/eval.hpp"
#include "tessera/rt/parsed_expression.hpp"
#include "tessera/rt/parse.hpp"

using namespace tessera::rt;
using namespace tessera::rt::testing;

namespace {
std::size_t parse_error_pos(const std::string& s) {
  try {
    parse(s);
  } catch (const Error& e) {
    return e.pos();
  }
  FAIL("expected a parse error for '" << s << "'");
  return npos;
}
}  // namespace

TEST_CASE("printer/parser round trip", "[runtime][parse][property]") {
  rc::prop("to_string(parse(to_string(L))) == to_string(L)", [] {
    const Layout l = gen_layout(3, 1000);
    const std::string s = to_string(l);
    const Value v = evaluate(s);
    RC_ASSERT(v.kind() == Value::Kind::Layout);
    RC_ASSERT(v.layout() == l);
    RC_ASSERT(to_string(parse(s)) == s);
  });
  rc::prop("whitespace between tokens does not matter", [] {
    const Layout l = gen_layout(2, 100);
    const std::string s = "coalesce(" + to_string(l) + ")";
    std::string spaced;
    for (char c : s) {
      spaced += c;
      if (c == '(' || c == ')' || c == ',' || c == ':')
        spaced += std::string(static_cast<std::size_t>(*rc::gen::inRange(0, 3)), *rc::gen::element(' ', '\t'));
    }
    RC_ASSERT(to_string(evaluate(spaced)) == to_string(evaluate(s)));
  });
  rc::prop("integer tuples round trip, with or without _ prefixes", [] {
    const IntTuple t = gen_shape(3, 1000);
    const std::string s = to_string(t);
    std::string underscored;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (std::isdigit(static_cast<unsigned char>(s[i])) && (i == 0 || !std::isdigit(static_cast<unsigned char>(s[i - 1]))))
        underscored += '_';
      underscored += s[i];
    }
    RC_ASSERT(to_string(evaluate(s)) == s);
    RC_ASSERT(to_string(evaluate(underscored)) == s);
  });
}

TEST_CASE("8 and (8) differ", "[runtime][parse]") {
  const Value a = evaluate("8"), b = evaluate("(8)");
  CHECK(a.tuple().is_leaf());
  CHECK(b.tuple().is_tuple());
  CHECK(to_string(a) == "8");
  CHECK(to_string(b) == "(8)");
  CHECK(to_string(evaluate("((8)):((1))")) == "((8)):((1))");
}

TEST_CASE("parse errors carry the byte position", "[runtime][parse]") {
  CHECK(parse_error_pos("") == 0);
  CHECK(parse_error_pos("   ") == 3);
  CHECK(parse_error_pos("(4,2):(1") == 8);
  CHECK(parse_error_pos("(4,2):(1,4))") == 11);
  CHECK(parse_error_pos("(4,,2):(1,4)") == 3);
  CHECK(parse_error_pos("()") == 1);
  CHECK(parse_error_pos("(4,2):(1,x)") == 9);
  CHECK(parse_error_pos("composition (4:1") == 16);
  CHECK(parse_error_pos("4:1 o") == 5);  // "L o" composes L after something: the missing Sw<B,M,S> is at the end
  CHECK(parse_error_pos("Sw<3,4> o 8:1") == 6);
  CHECK(parse_error_pos("Sw<3,4,3> 8:1") == 10);
  CHECK(parse_error_pos("foo") == 0);
  CHECK(parse_error_pos("4a") == 1);
  CHECK(parse_error_pos("(4,2):composition(1,2)") == 6);
  CHECK(parse_error_pos("99999999999999999999:1") == 0);
  CHECK(parse_error_pos("9223372036854775808:1") == 0);
  // -2^63 would alias the internal '_' marker and overflow when negated: out of range.
  CHECK(parse_error_pos("8:-9223372036854775808") == 2);
  CHECK(parse_error_pos("size(-9223372036854775808)") == 5);
  CHECK_NOTHROW(parse("8:-9223372036854775807"));
  CHECK(parse_error_pos("(4,2):(1,\x01)") == 9);
  CHECK(parse_error_pos(std::string(300, '(') + "1" + std::string(300, ')')) < 300);
}

TEST_CASE("format_error draws a caret under the offending byte", "[runtime][parse]") {
  CHECK(format_error("(4,2):(1", 8, "expected ',' or ')'") == "error: expected ',' or ')'\n  (4,2):(1\n          ^\n");
  CHECK(format_error("abc", 0, "bad") == "error: bad\n  abc\n  ^\n");
  CHECK(format_error("abc", npos, "bad") == "error: bad\n");
  CHECK(format_error("a\tb", 2, "x") == "error: x\n  a b\n    ^\n");
  CHECK(format_error("one\ntwo", 5, "x") == "error: x\n  two\n   ^\n");
}

namespace {
// A value or the error with its position: what a route through the evaluator gives.
std::string outcome(const std::function<Value()>& f) {
  try {
    return to_string(f());
  } catch (const Error& e) {
    return std::string("error: ") + e.what() + " @" + std::to_string(e.pos());
  }
}
struct RcRandom {
  std::int64_t operator()(std::int64_t lo, std::int64_t hi) const { return *rc::gen::inRange(lo, hi + 1); }
};
}  // namespace

TEST_CASE("text, rt::Node and ParsedExpression evaluate alike", "[runtime][parse][property]") {
  rc::prop("evaluate(text) == evaluate(parse(text)) == ParsedExpression(text).evaluate(), errors included", [] {
    RcRandom random;
    const std::string e = tessera_test::ExpressionGenerator<RcRandom>(random).expression();
    const std::string direct = outcome([&] { return evaluate(e); });
    RC_ASSERT(outcome([&] { return evaluate(parse(e)); }) == direct);
    RC_ASSERT(outcome([&] { return ParsedExpression(e).evaluate(); }) == direct);
    RC_ASSERT(to_string(parse(to_string(parse(e)))) == to_string(parse(e)));
  });
  // Unknown names are found before anything is evaluated, at the first one in the text;
  // evaluation finds the same error where it reaches the call.
  CHECK_THROWS_WITH(ParsedExpression("composition(1:1, nosuch(1), other(2))").check_function_names(),
                    "unknown function 'nosuch' (see `tessera eval --help`)");
  CHECK_NOTHROW(ParsedExpression("composition(8:1, 2:1)").check_function_names());
  CHECK(outcome([] { return ParsedExpression("composition(8:1, nosuch(2))").evaluate(); }) ==
        "error: unknown function 'nosuch' (see `tessera eval --help`) @17");
  CHECK_THROWS_WITH(ParsedExpression("(4,2):(1,"), Catch::Contains("expected"));
}
