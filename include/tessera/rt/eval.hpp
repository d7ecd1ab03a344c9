#pragma once
// Evaluator: expression tree -> value. A value is an integer tuple (an integer is a
// rank-0-depth tuple), a layout, a tiler, a swizzle, or a composed layout
// (Sw o off o L, or L o off o Sw: see rt/composed_layout.hpp).
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/rt/algebra.hpp"
#include "tessera/rt/composed_layout.hpp"
#include "tessera/rt/parse.hpp"

namespace tessera::rt {

struct Value {
  enum class Kind { IntTuple, Layout, Tiler, Swizzled, Swizzle, LayoutAfterSwizzle };
  Kind kind = Kind::IntTuple;
  IntTuple tuple;          // Kind::IntTuple (an integer is a leaf)
  Layout layout;           // Kind::Layout
  Tiler tiler;             // Kind::Tiler
  SwizzledLayout swizzled; // Kind::Swizzled: Sw o off o L
  Swizzle swizzle;         // Kind::Swizzle: a bare Sw<B,M,S>
  LayoutAfterSwizzle after_swizzle;  // Kind::LayoutAfterSwizzle: L o off o Sw

  static Value of(IntTuple t) { Value v; v.kind = Kind::IntTuple; v.tuple = std::move(t); return v; }
  static Value of(Layout l) { Value v; v.kind = Kind::Layout; v.layout = std::move(l); return v; }
  static Value of(Tiler t) { Value v; v.kind = Kind::Tiler; v.tiler = std::move(t); return v; }
  static Value of(SwizzledLayout s) { Value v; v.kind = Kind::Swizzled; v.swizzled = std::move(s); return v; }
  static Value of(Swizzle s) { Value v; v.kind = Kind::Swizzle; v.swizzle = s; return v; }
  static Value of(LayoutAfterSwizzle s) { Value v; v.kind = Kind::LayoutAfterSwizzle; v.after_swizzle = std::move(s); return v; }
  static Value of(ComposedResult r) { return std::visit([](auto&& x) { return of(std::move(x)); }, std::move(r)); }
  bool is_int() const { return kind == Kind::IntTuple && tuple.is_leaf(); }
};

// What kind of value this is, in words ("an integer", "a layout", ...), for error messages.
std::string describe(const Value& v);
// Output notation (CuTe print format without static markers or spaces).
std::string to_string(const Value& v);

// Evaluate a parsed expression. Errors are rt::Error with the byte position of the
// offending call or argument.
Value evaluate(const Node& n);
// Parse and evaluate.
Value evaluate(std::string_view input);

// Names of the functions `evaluate` knows, with a one-line signature each.
struct FunctionInfo {
  const char* name;
  const char* signature;
  const char* summary;
};
const std::vector<FunctionInfo>& functions();

}  // namespace tessera::rt
