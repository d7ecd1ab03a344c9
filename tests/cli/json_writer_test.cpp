// The JSON writer of --json and to_dict() (tessera/rt/json.hpp): exact output for every kind of value, string
// escaping (control characters, quotes, UTF-8 passthrough, U+FFFD for bytes that are not
// UTF-8) checked against an independent decoder on generated strings, and the JSON forms of
// layouts rebuilt into the layouts they came from (docs/json.md).
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "tessera/rt/json.hpp"
#include "../runtime/generators.hpp"

namespace json = tessera::rt::json;
namespace rt = tessera::rt;

namespace {

// ---- an independent UTF-8 and JSON-string reader, for the properties -------------------

void encode_utf8(std::uint32_t cp, std::string& out) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// The code point encoded at s[i] and its length, or nothing when the bytes there are not a
// well-formed sequence: decoded by value, then judged (shortest form, no surrogate, <= U+10FFFF).
std::optional<std::pair<std::uint32_t, std::size_t>> decode_at(const std::string& s, std::size_t i) {
  const auto b = static_cast<unsigned char>(s[i]);
  std::size_t n;
  std::uint32_t cp;
  if (b < 0x80) return std::pair<std::uint32_t, std::size_t>{b, 1};
  if ((b & 0xE0) == 0xC0) n = 2, cp = b & 0x1F;
  else if ((b & 0xF0) == 0xE0) n = 3, cp = b & 0x0F;
  else if ((b & 0xF8) == 0xF0) n = 4, cp = b & 0x07;
  else return std::nullopt;
  if (i + n > s.size()) return std::nullopt;
  for (std::size_t k = 1; k < n; ++k) {
    const auto c = static_cast<unsigned char>(s[i + k]);
    if ((c & 0xC0) != 0x80) return std::nullopt;
    cp = (cp << 6) | (c & 0x3F);
  }
  const std::uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < smallest[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return std::nullopt;
  return std::pair<std::uint32_t, std::size_t>{cp, n};
}

// s with every byte that does not start a well-formed sequence replaced by U+FFFD.
std::string repaired(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    if (auto d = decode_at(s, i)) {
      out.append(s, i, d->second);
      i += d->second;
    } else {
      encode_utf8(0xFFFD, out);
      ++i;
    }
  }
  return out;
}

bool valid_utf8(const std::string& s) { return repaired(s) == s; }

// The string a JSON string literal denotes (RFC 8259 escapes, \u pairs for astral code
// points); nothing when the literal is malformed (raw control character, bad escape).
std::optional<std::string> unquote(const std::string& lit) {
  if (lit.size() < 2 || lit.front() != '"' || lit.back() != '"') return std::nullopt;
  std::string out;
  for (std::size_t i = 1; i + 1 < lit.size(); ++i) {
    const auto c = static_cast<unsigned char>(lit[i]);
    if (c < 0x20 || c == '"') return std::nullopt;
    if (c != '\\') {
      out += static_cast<char>(c);
      continue;
    }
    if (++i + 1 >= lit.size()) return std::nullopt;
    switch (lit[i]) {
      case '"': out += '"'; break;
      case '\\': out += '\\'; break;
      case '/': out += '/'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'u': {
        if (i + 4 >= lit.size() - 1) return std::nullopt;
        const std::uint32_t cp = static_cast<std::uint32_t>(std::stoul(lit.substr(i + 1, 4), nullptr, 16));
        if (cp >= 0xD800 && cp <= 0xDFFF) return std::nullopt;  // the writer never needs pairs
        encode_utf8(cp, out);
        i += 4;
        break;
      }
      default: return std::nullopt;
    }
  }
  return out;
}

std::string quoted(const std::string& s) {
  std::string out;
  json::append_quoted(s, out);
  return out;
}

// An IntTuple rebuilt from its JSON form.
rt::IntTuple int_tuple_of(const json::Value& v) {
  if (v.kind() == json::Value::Kind::Int) return rt::IntTuple(v.as_int());
  std::vector<rt::IntTuple> e;
  for (const json::Value& x : v.items()) e.push_back(int_tuple_of(x));
  return rt::IntTuple::tuple(std::move(e));
}

}  // namespace

TEST_CASE("json: scalars, arrays and objects are written exactly", "[cli][json]") {
  CHECK(json::dump(json::Value()) == "null");
  CHECK(json::dump(nullptr) == "null");
  CHECK(json::dump(true) == "true");
  CHECK(json::dump(false) == "false");
  CHECK(json::dump(0) == "0");
  CHECK(json::dump(-17) == "-17");
  CHECK(json::dump(std::numeric_limits<std::int64_t>::max()) == "9223372036854775807");
  CHECK(json::dump(std::numeric_limits<std::int64_t>::min()) == "-9223372036854775808");
  CHECK(json::dump(std::uint64_t{1} << 63 >> 1) == "4611686018427387904");
  CHECK_THROWS_AS(json::Value(std::uint64_t{1} << 63), std::out_of_range);
  CHECK(json::dump(1.0) == "1.0");
  CHECK(json::dump(0.5) == "0.5");
  CHECK(json::dump(-2.5e-10) == "-2.5e-10");
  CHECK(json::dump(0.1) == "0.1");  // shortest form that reads back as the same double
  CHECK_THROWS_AS(json::Value(std::numeric_limits<double>::quiet_NaN()), std::domain_error);
  CHECK_THROWS_AS(json::Value(std::numeric_limits<double>::infinity()), std::domain_error);
  CHECK(json::dump("a") == "\"a\"");
  CHECK(json::dump(std::string("")) == "\"\"");
  CHECK(json::dump(json::Value::array()) == "[]");
  CHECK(json::dump(json::Value::object()) == "{}");

  json::Value a = json::Value::array();
  a.push(1);
  a.push("x");
  a.push(json::Value::array({2, json::Value::array(), json::Value::object({{"k", false}})}));
  CHECK(json::dump(a) == R"J([1,"x",[2,[],{"k":false}]])J");
}

TEST_CASE("json: objects keep insertion order and never repeat a key", "[cli][json]") {
  json::Value o = json::Value::object();
  o.set("zeta", 1);
  o.set("alpha", 2);
  o.set("mid", json::Value::object({{"b", 1}, {"a", 2}}));
  CHECK(json::dump(o) == R"J({"zeta":1,"alpha":2,"mid":{"b":1,"a":2}})J");
  o.set("zeta", "again");  // keeps its place
  CHECK(json::dump(o) == R"J({"zeta":"again","alpha":2,"mid":{"b":1,"a":2}})J");
  CHECK(o.find("alpha")->as_int() == 2);
  CHECK(o.find("nope") == nullptr);
  CHECK(o.size() == 3);
  json::Value n;  // null becomes what is first asked of it
  n.set("k", 1);
  CHECK(json::dump(n) == R"J({"k":1})J");
  CHECK_THROWS_AS(n.push(1), std::logic_error);
  CHECK_THROWS_AS(json::Value(1).set("k", 1), std::logic_error);
  CHECK_THROWS_AS(json::Value("s").as_int(), std::logic_error);
  CHECK(json::dump(json::Value::object({{"q\"k", 1}})) == R"J({"q\"k":1})J");  // keys are escaped too
}

TEST_CASE("json: strings escape control characters, quote and backslash; UTF-8 passes", "[cli][json]") {
  CHECK(quoted("a\"b\\c/d") == R"J("a\"b\\c/d")J");
  CHECK(quoted("\b\f\n\r\t") == R"J("\b\f\n\r\t")J");
  CHECK(quoted(std::string("\0\x01\x1f", 3)) == R"J("\u0000\u0001\u001f")J");
  CHECK(quoted("\x7f") == "\"\x7f\"");  // DEL is not a control character for JSON
  for (int c = 0; c < 0x20; ++c) {
    const std::string lit = quoted(std::string(1, static_cast<char>(c)));
    CHECK(lit.find_first_of(std::string("\0\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f"
                                        "\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f",
                                        32)) == std::string::npos);
    CHECK(unquote(lit) == std::string(1, static_cast<char>(c)));
  }
  CHECK(quoted("é € 😀 Σ") == "\"é € 😀 Σ\"");
  CHECK(quoted("\xef\xbf\xbf") == "\"\xef\xbf\xbf\"");  // U+FFFF is a character
  // Bytes that are not UTF-8 become U+FFFD, one per byte: a stray continuation byte, a
  // lead byte that may never start a sequence, an overlong '/', a surrogate, a truncation,
  // a code point above U+10FFFF.
  const std::string fffd = "\xef\xbf\xbd";
  CHECK(quoted("a\x80z") == "\"a" + fffd + "z\"");
  CHECK(quoted("\xff") == "\"" + fffd + "\"");
  CHECK(quoted("\xc0\xaf") == "\"" + fffd + fffd + "\"");
  CHECK(quoted("\xed\xa0\x80") == "\"" + fffd + fffd + fffd + "\"");
  CHECK(quoted("\xe2\x82") == "\"" + fffd + fffd + "\"");
  CHECK(quoted("\xf4\x90\x80\x80") == "\"" + fffd + fffd + fffd + fffd + "\"");
  CHECK(quoted("\xe2\x82\xac\xe2\x82") == "\"\xe2\x82\xac" + fffd + fffd + "\"");
}

TEST_CASE("json: every generated string is written as valid JSON that reads back", "[cli][json][property]") {
  rc::prop("strings", [] {
    // ASCII (controls included), valid code points of every length, and raw bytes.
    const int parts = *rc::gen::inRange(0, 24);
    std::string s;
    for (int k = 0; k < parts; ++k) {
      switch (*rc::gen::inRange(0, 4)) {
        case 0: s += static_cast<char>(*rc::gen::inRange(0, 0x80)); break;
        case 1: {
          std::uint32_t cp = *rc::gen::inRange<std::uint32_t>(0x80, 0x110000);
          if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xE000;
          encode_utf8(cp, s);
          break;
        }
        case 2: s += static_cast<char>(*rc::gen::inRange(0x80, 0x100)); break;
        default: s += "\"\\"[*rc::gen::inRange(0, 2)]; break;
      }
    }
    const std::string lit = quoted(s);
    RC_ASSERT(valid_utf8(lit));
    const std::optional<std::string> back = unquote(lit);
    RC_ASSERT(back.has_value());
    RC_ASSERT(*back == repaired(s));
    if (valid_utf8(s)) RC_ASSERT(*back == s);
  });
}

TEST_CASE("json: layouts in the agreed form", "[cli][json]") {
  CHECK(json::dump(json::layout(rt::evaluate("(4,(2,2)):(2,(1,8))").layout())) ==
        R"J({"text":"(4,(2,2)):(2,(1,8))","shape":[4,[2,2]],"stride":[2,[1,8]]})J");
  CHECK(json::dump(json::layout(rt::evaluate("8:1").layout())) == R"J({"text":"8:1","shape":8,"stride":1})J");
  CHECK(json::dump(json::layout(rt::evaluate("(8):(1)").layout())) == R"J({"text":"(8):(1)","shape":[8],"stride":[1]})J");
  CHECK(json::dump(json::swizzled_layout(rt::evaluate("Sw<3,3,3> o 0 o (8,64):(64,1)").swizzled())) ==
        R"J({"text":"Sw<3,3,3> o 0 o (8,64):(64,1)","shape":[8,64],"stride":[64,1],)J"
        R"J("swizzle":{"B":3,"M":3,"S":3},"offset":0})J");
  CHECK(json::dump(json::document("eval")) == R"J({"command":"eval","schema_version":1})J");

  // Every kind eval produces, tagged.
  CHECK(json::dump(json::value(rt::evaluate("size((4,2):(1,4))"))) == R"J({"kind":"integer","text":"8","value":8})J");
  CHECK(json::dump(json::value(rt::evaluate("shape((4,(2,3)):(1,(4,8)))"))) ==
        R"J({"kind":"int_tuple","text":"(4,(2,3))","value":[4,[2,3]]})J");
  CHECK(json::dump(json::value(rt::evaluate("(4,2):(1,4)"))) ==
        R"J({"kind":"layout","text":"(4,2):(1,4)","shape":[4,2],"stride":[1,4]})J");
  CHECK(json::dump(json::value(rt::evaluate("Sw<2,1,3>"))) ==
        R"J({"kind":"swizzle","text":"Sw<2,1,3>","B":2,"M":1,"S":3})J");
  CHECK(json::dump(json::value(rt::evaluate("(64,8):(8,1) o -8 o Sw<3,3,3>"))) ==
        R"J({"kind":"layout_after_swizzle","text":"(64,8):(8,1) o -8 o Sw<3,3,3>","shape":[64,8],)J"
        R"J("stride":[8,1],"offset":-8,"swizzle":{"B":3,"M":3,"S":3}})J");
  const rt::Value tiler = rt::evaluate("(4:1,(2:2,3:1))");
  REQUIRE(tiler.kind() == rt::Value::Kind::Tiler);
  CHECK(json::dump(json::value(tiler)) ==
        R"J({"kind":"tiler","text":"(4:1,(2:2,3:1))","modes":[{"text":"4:1","shape":4,"stride":1},)J"
        R"J({"text":"(2:2,3:1)","modes":[{"text":"2:2","shape":2,"stride":2},{"text":"3:1","shape":3,"stride":1}]}]})J");
}

TEST_CASE("json: a layout's JSON form rebuilds the layout", "[cli][json][property]") {
  rc::prop("layout", [] {
    const rt::Layout l = rt::testing::gen_layout(3, 1 << 20);
    const json::Value v = json::layout(l);
    RC_ASSERT(v.find("text")->as_string() == rt::to_string(l));
    RC_ASSERT(rt::Layout(int_tuple_of(*v.find("shape")), int_tuple_of(*v.find("stride"))) == l);
    RC_ASSERT(v.size() == 3u);
  });
}
