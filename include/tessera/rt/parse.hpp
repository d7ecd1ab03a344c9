#pragma once
// Parser for the text notation (docs/notation.md):
//   expr     := call | layout | tiler | inttuple | swizzled
//   call     := NAME '(' expr (',' expr)* ')'
//   layout   := inttuple ':' inttuple
//   inttuple := INT | '(' inttuple (',' inttuple)* ')'     INT may be written _N; a lone _ is a slice wildcard
//   tiler    := '(' layout (',' layout)* ')'
//   swizzle  := 'Sw<' B ',' M ',' S '>'
//   swizzled := swizzle 'o' [INT 'o'] layout            Sw o off o L (CuTe prints the offset: _0 o ...)
//   inverse  := layout 'o' [INT 'o'] swizzle            L o off o Sw (what inverses of Sw o off o L give)
// Whitespace is allowed between tokens. Every node keeps the byte offset where it starts,
// so evaluation errors can point at the offending call or argument.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/rt/error.hpp"

namespace tessera::rt {

struct Node {
  enum class Kind { Int, Underscore, Tuple, Layout, Call, Swizzled, Swizzle, LayoutAfterSwizzle };
  Kind kind = Kind::Int;
  std::size_t pos = 0;            // byte offset of the first character of the node
  std::int64_t value = 0;         // Int; Swizzled, LayoutAfterSwizzle: the offset
  std::string name;               // Call
  std::vector<Node> children;     // Tuple: elements; Layout: {shape, stride}; Call: arguments;
                                  // Swizzled, LayoutAfterSwizzle: {layout}
  int swizzle[3] = {0, 0, 0};     // Swizzled, Swizzle, LayoutAfterSwizzle: B, M, S
};

// Parse one expression (the whole input, surrounding whitespace allowed). Throws rt::Error with pos.
Node parse(std::string_view input);

// "error: <msg>\n<line of input>\n<caret under pos>\n" (pos may be npos: no caret).
std::string format_error(std::string_view input, std::size_t pos, std::string_view msg);

// Print a parsed node back in canonical notation (no spaces).
std::string to_string(const Node& n);

}  // namespace tessera::rt
