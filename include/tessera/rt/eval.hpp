#pragma once
// Evaluator: expression tree -> value. A value is an integer tuple (an integer is a
// rank-0-depth tuple), a layout, a tiler, a swizzle, or a composed layout
// (Sw o off o L, or L o off o Sw: see rt/composed_layout.hpp).
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "tessera/rt/algebra.hpp"
#include "tessera/rt/composed_layout.hpp"
#include "tessera/rt/parse.hpp"

namespace tessera::rt {

// One of the kinds below; kind() says which, and the accessor of that kind reads it (the
// others must not be called: a programming error, std::bad_variant_access).
class Value {
 public:
  // In the order of the alternatives of the variant below.
  enum class Kind { IntTuple, Layout, Tiler, Swizzled, Swizzle, LayoutAfterSwizzle };

  Value() = default;  // the integer 0
  static Value of(IntTuple t) { return Value(in<IntTuple>, std::move(t)); }
  static Value of(Layout l) { return Value(in<Layout>, std::move(l)); }
  static Value of(Tiler t) { return Value(in<Tiler>, std::move(t)); }
  static Value of(SwizzledLayout s) { return Value(in<SwizzledLayout>, std::move(s)); }  // Sw o off o L
  static Value of(Swizzle s) { return Value(in<Swizzle>, s); }                            // a bare Sw<B,M,S>
  static Value of(LayoutAfterSwizzle s) { return Value(in<LayoutAfterSwizzle>, std::move(s)); }  // L o off o Sw
  static Value of(ComposedResult r) { return std::visit([](auto&& x) { return of(std::move(x)); }, std::move(r)); }

  Kind kind() const { return static_cast<Kind>(v_.index()); }
  bool is_int() const { return kind() == Kind::IntTuple && tuple().is_leaf(); }

  const IntTuple& tuple() const { return std::get<IntTuple>(v_); }  // Kind::IntTuple (an integer is a leaf)
  const Layout& layout() const { return std::get<Layout>(v_); }
  const Tiler& tiler() const { return std::get<Tiler>(v_); }
  const SwizzledLayout& swizzled() const { return std::get<SwizzledLayout>(v_); }
  const Swizzle& swizzle() const { return std::get<Swizzle>(v_); }
  const LayoutAfterSwizzle& after_swizzle() const { return std::get<LayoutAfterSwizzle>(v_); }
  IntTuple& tuple() { return std::get<IntTuple>(v_); }
  Layout& layout() { return std::get<Layout>(v_); }
  Tiler& tiler() { return std::get<Tiler>(v_); }
  SwizzledLayout& swizzled() { return std::get<SwizzledLayout>(v_); }
  Swizzle& swizzle() { return std::get<Swizzle>(v_); }
  LayoutAfterSwizzle& after_swizzle() { return std::get<LayoutAfterSwizzle>(v_); }

 private:
  template <class T>
  static constexpr std::in_place_type_t<T> in{};
  template <class T, class X>
  Value(std::in_place_type_t<T> kind, X&& x) : v_(kind, std::forward<X>(x)) {}
  std::variant<IntTuple, Layout, Tiler, SwizzledLayout, Swizzle, LayoutAfterSwizzle> v_;
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
