#pragma once
// The JSON forms of docs/json.md (what the tessera command's `--json` prints and what the
// Python module's to_dict() returns): a small value tree and its writer. Objects keep their keys in insertion order (the output is deterministic and reads
// in the order the text output does); integers are 64-bit; strings are written as valid
// UTF-8 whatever bytes they hold (an invalid byte becomes U+FFFD); control characters are
// escaped. Plus the agreed JSON forms of tessera's values (layouts, swizzled layouts, ...).
// Private to the CLI.
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "tessera/rt/eval.hpp"
#include "tessera/rt/tiled.hpp"

namespace tessera::rt::json {

// The version every --json output carries as "schema_version"; raised on an incompatible
// change of any command's schema (docs/json.md).
inline constexpr int kSchemaVersion = 1;

class Value {
 public:
  enum class Kind { Null, Bool, Int, Double, String, Array, Object };
  using Member = std::pair<std::string, Value>;

  Value() = default;  // null
  Value(std::nullptr_t) {}
  Value(bool b) : kind_(Kind::Bool), int_(b ? 1 : 0) {}
  // Every integer type but bool and the character types: stored as int64 (an unsigned
  // value above INT64_MAX is refused, never wrapped).
  template <class I, std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool> &&
                                          !std::is_same_v<I, char> && !std::is_same_v<I, char8_t>,
                                      int> = 0>
  Value(I i) : kind_(Kind::Int), int_(static_cast<std::int64_t>(i)) {
    if constexpr (std::is_unsigned_v<I> && sizeof(I) >= sizeof(std::int64_t)) {
      if (i > static_cast<I>(std::numeric_limits<std::int64_t>::max()))
        throw std::out_of_range("json: integer above 2^63-1");
    }
  }
  Value(double d);  // finite only (JSON has no NaN or infinity)
  Value(std::string s) : kind_(Kind::String), string_(std::move(s)) {}
  Value(std::string_view s) : kind_(Kind::String), string_(s) {}
  Value(const char* s) : kind_(Kind::String), string_(s) {}

  static Value array() { Value v; v.kind_ = Kind::Array; return v; }
  static Value array(std::vector<Value> items) { Value v = array(); v.items_ = std::move(items); return v; }
  static Value object() { Value v; v.kind_ = Kind::Object; return v; }
  // object({{"a", 1}, {"b", "x"}}): the members in this order.
  static Value object(std::initializer_list<Member> members);

  // Arrays: append (a null value becomes an empty array first).
  Value& push(Value v);
  // Objects: set a member (a null value becomes an empty object first). A key already
  // present keeps its place and takes the new value, so no key appears twice.
  Value& set(std::string_view key, Value v);

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::Null; }
  bool as_bool() const;
  std::int64_t as_int() const;
  double as_double() const;
  const std::string& as_string() const;
  const std::vector<Value>& items() const;    // an array's items
  const std::vector<Member>& members() const;  // an object's members, in order
  const Value* find(std::string_view key) const;  // an object's member, or nullptr
  std::size_t size() const;                        // items or members

 private:
  Kind kind_ = Kind::Null;
  std::int64_t int_ = 0;
  double double_ = 0;
  std::string string_;
  std::vector<Value> items_;
  std::vector<Member> members_;
};

// The JSON text of v on one line, no spaces, no trailing newline.
std::string dump(const Value& v);
// Appends s as a JSON string literal (quotes included) to out.
void append_quoted(std::string_view s, std::string& out);

// The start of every --json document: {"command": name, "schema_version": kSchemaVersion}.
Value document(std::string_view command);

// ---- tessera's values, in the forms docs/json.md defines ------------------------------
// An integer tuple: an integer, or an array of integer tuples ((8) is [8], 8 is 8).
Value int_tuple(const rt::IntTuple& t);
// {"text", "shape", "stride"}.
Value layout(const rt::Layout& l);
// {"text", "shape", "stride", "swizzle": {"B","M","S"}, "offset"}: Sw o off o L, with L's shape and stride.
Value swizzled_layout(const rt::SwizzledLayout& s);
// {"B", "M", "S"}.
Value swizzle(const rt::Swizzle& s);
// Any value eval can produce, tagged by "kind": "integer", "int_tuple", "layout",
// "swizzled_layout", "swizzle", "layout_after_swizzle", "tiler"; every form has "text".
Value value(const rt::Value& v);
// `tessera mma --json`: the atom, the tiled MMA's arguments and its layouts.
Value tiled_mma(const rt::TiledMma& t);
// `tessera copy --json`: the atom, the element width and the tiled copy's layouts.
Value tiled_copy(const rt::TiledCopy& c);

}  // namespace tessera::rt::json
