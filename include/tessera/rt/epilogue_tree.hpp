#pragma once
// An epilogue visitor tree read from text: the runtime picture of a compile-time tree of
// include/tessera/kernels/epilogue_tree (Accumulator, Constant, Scalar, Row/ColumnBroadcast,
// SourceC, Compute<op>, AuxStore, Row/Column/ScalarReduction), so that `tessera epilogue` can
// draw a tree, name its C++ type and check it on the host. The grammar (docs/cli.md,
// "tessera epilogue"), statements separated by ';':
//
//   NAME = expr                      a named f32 value, used by the statements after it
//   [D =] store(TYPE, expr)          D: the root, its f32 value rounded to TYPE (exactly one)
//   NAME = store(TYPE, VALUE)        an aux matrix beside D: AuxStore<TYPE> of a named value
//   NAME[n] = RED(VALUE)             a row vector r[n] reduced over the rows m (RowReduction)
//   NAME[m] = RED(VALUE)             a column vector r[m] reduced over the columns (ColumnReduction)
//   NAME = RED(VALUE)  or  RED(VALUE)   one value for the whole problem (ScalarReduction)
//   RED: amax (absolute_maximum), max (maximum_value), sum; VALUE: a named value or D (the
//   root's f32 value, before its rounding)
//   expr: + - * over acc, numbers, C[:TYPE], scalars NAME or *NAME (read from memory),
//   vectors NAME[m] / NAME[n] [:TYPE], named values and the functions relu, gelu, gelu_tanh,
//   silu, abs, max, min, clamp, fma, convert(TYPE, x).
// a - b is a + -1 * b and -x is -1 * x (exact in f32: the nodes have no subtraction).
// TYPE: f32, bf16, f16, e4m3, e5m2.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/rt/error.hpp"

namespace tessera::rt::epilogue {

enum class Element { f32, bf16, f16, e4m3, e5m2 };
// "f32", "bf16", ...; the C++ type ("float", "tessera::bfloat16_t", ...).
const char* element_name(Element e);
const char* element_cpp(Element e);
std::optional<Element> element_from_name(std::string_view s);

// Compute's ops (kernels/epilogue_tree/compute.hpp), by their C++ names.
enum class Op { plus, multiplies, multiply_add, maximum, minimum, absolute, clamp, relu, gelu, gelu_tanh, silu, convert };
const char* op_cpp(Op o);
// Reductions' ops (kernels/epilogue_tree/sinks.hpp) and what they reduce to.
enum class Reduce { absolute_maximum, maximum_value, sum };
const char* reduce_cpp(Reduce r);
const char* reduce_name(Reduce r);  // the grammar's: amax, max, sum
enum class Along { row, column, scalar };  // RowReduction r[n], ColumnReduction r[m], ScalarReduction

struct TreeNode {
  enum class Kind { Accumulator, Constant, Scalar, RowBroadcast, ColumnBroadcast, SourceC, Compute, AuxStore, Reduction };
  Kind kind = Kind::Accumulator;
  std::size_t pos = npos;    // where the node was written (not compared)
  std::string name;          // Scalar, broadcasts: the operand; AuxStore, Reduction: the output
  std::string value;         // AuxStore, Reduction: the named value it takes ("D": the root's)
  bool pointer = false;      // Scalar: read from memory (*name)
  Element element = Element::f32;  // broadcasts, SourceC, AuxStore, Compute<convert<T>>
  std::int64_t num = 0, den = 1;   // Constant<num, den>
  Op op = Op::plus;
  Reduce reduce = Reduce::absolute_maximum;
  Along along = Along::scalar;
  std::vector<TreeNode> children;
  bool is_sink() const { return kind == Kind::AuxStore || kind == Kind::Reduction; }
  bool is_leaf() const { return children.empty(); }
  friend bool operator==(const TreeNode& a, const TreeNode& b);
};

struct Tree {
  TreeNode root;
  Element output = Element::f32;  // D's element type
  friend bool operator==(const Tree&, const Tree&) = default;
};

// The tree written in `text`. Throws rt::Error with the byte position of the offending text.
Tree parse_tree(std::string_view text);
// The tree in the grammar, one statement per sink plus D's (parse_tree reads it back equal).
std::string to_text(const Tree& t);
// The C++ type of the tree (names of tessera::kernels::tree; element types tessera::...).
std::string cpp_type(const TreeNode& n);
// A node's kind in the C++ names (Compute, RowBroadcast, ...) and a short label of what it
// computes ("silu", "bias[n]", "amax -> amax_d").
std::string node_kind(const TreeNode& n);
std::string node_label(const TreeNode& n);
// The constant as a decimal (exact: its denominator divides a power of 10).
std::string constant_text(std::int64_t num, std::int64_t den);

}  // namespace tessera::rt::epilogue
