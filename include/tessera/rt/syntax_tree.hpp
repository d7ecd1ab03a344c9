#pragma once
// The parsed form of an expression that evaluation walks (rt::ParsedExpression holds one):
// the nodes of the parse tree in one array, the children of each node side by side in it,
// names as views of the text, so that parsing a short expression allocates nothing.
// rt::Node (parse.hpp) is the tree of the same grammar to build or inspect: parse() converts
// this one into it, and evaluate(const Node&) converts back, so there is one parser and one
// evaluator. Internal (rt::detail): its layout may change.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tessera/rt/parse.hpp"
#include "tessera/rt/small_vector.hpp"

namespace tessera::rt::detail {

struct SyntaxNode {
  Node::Kind kind = Node::Kind::Int;
  // An integer, '_', or a tuple of those: an integer tuple written out, which evaluation
  // builds in one piece; `underscore`: a '_' is among them.
  bool integers = false, underscore = false;
  std::uint32_t first = 0, count = 0;  // the children: the tree's nodes [first, first + count)
  std::size_t pos = 0;                 // as Node::pos
  std::int64_t value = 0;              // as Node::value
  std::string_view name;               // Call: the function's name (a view of the text it came from)
  int swizzle[3] = {0, 0, 0};          // as Node::swizzle
};

struct SyntaxTree {
  SmallVector<SyntaxNode, 32> nodes;  // every node; the root is the last one
  const SyntaxNode& root() const { return nodes.back(); }
  const SyntaxNode& child(const SyntaxNode& n, std::size_t i) const { return nodes[n.first + i]; }
  // Appends `children` side by side as n's children.
  template <class Children>
  void adopt(SyntaxNode& n, const Children& children) {
    n.first = static_cast<std::uint32_t>(nodes.size());
    n.count = static_cast<std::uint32_t>(children.size());
    nodes.append(children.data(), children.size());
  }
};

// The expression in `input` (names are views of it); errors as parse() reports them.
SyntaxTree parse_tree(std::string_view input);
// The same tree as rt::Node (parse()) and from it (names are views of n's).
Node to_node(const SyntaxTree& t, const SyntaxNode& n);
SyntaxTree tree_of(const Node& n);

}  // namespace tessera::rt::detail
