#pragma once
// The parsed form of an expression that evaluation walks (rt::ParsedExpression holds one):
// the nodes of the parse tree in one array, the children of each node side by side in it,
// names as views of the text, so that parsing a short expression allocates nothing.
// rt::Node (parse.hpp) is the tree of the same grammar to build or inspect: parse() converts
// this one into it, and evaluate(const Node&) converts back, so there is one parser and one
// evaluator. Internal (rt::detail): its layout may change.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "tessera/rt/int_tuple.hpp"
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
  // An integer tuple written out (`integers`): its nesting and leaves, as IntTuple spells them,
  // are the tree's spelling [spelling_begin, spelling_end) and literal_leaves [leaf_begin, leaf_end).
  // The parser gives such a tuple no children (its spelling says all; spelling_pos has the
  // position of each of its integers and tuples); a tree made from an rt::Node keeps them.
  std::uint32_t spelling_begin = 0, spelling_end = 0, leaf_begin = 0, leaf_end = 0;
};

struct SyntaxTree {
  SmallVector<SyntaxNode, 32> nodes;  // every node; the root is the last one
  // Every integer, '_' and tuple parenthesis met, in the order of the text (see SyntaxNode),
  // with the position in the text of each ('.' and '('; ')' has none).
  SmallVector<char, 64> spelling;
  SmallVector<std::size_t, 64> spelling_pos;
  SmallVector<std::int64_t, 32> literal_leaves;
  const SyntaxNode& root() const { return nodes.back(); }
  const SyntaxNode& child(const SyntaxNode& n, std::size_t i) const { return nodes[n.first + i]; }
  std::string_view spelling_of(const SyntaxNode& n) const {
    return {spelling.data() + n.spelling_begin, n.spelling_end - n.spelling_begin};
  }
  std::span<const std::int64_t> leaves_of(const SyntaxNode& n) const {
    return {literal_leaves.data() + n.leaf_begin, n.leaf_end - n.leaf_begin};
  }
  // The integer tuple an `integers` node spells (well formed: the tree spelled it; unlike
  // IntTuple::from_nesting, not checked again).
  IntTuple literal(const SyntaxNode& n) const {
    IntTuple t{IntTuple::Empty{}};
    const std::string_view s = spelling_of(n);
    t.nesting_.append(s.data(), s.size());
    t.leaves_.append(leaves_of(n));
    return t;
  }
  // Records what follows as part of n's spelling (call begin_spelling first, end_spelling after).
  void begin_spelling(SyntaxNode& n) const {
    n.spelling_begin = static_cast<std::uint32_t>(spelling.size());
    n.leaf_begin = static_cast<std::uint32_t>(literal_leaves.size());
  }
  void end_spelling(SyntaxNode& n) const {
    n.spelling_end = static_cast<std::uint32_t>(spelling.size());
    n.leaf_end = static_cast<std::uint32_t>(literal_leaves.size());
  }
  void spell(char c, std::size_t pos) {
    spelling.push_back(c);
    spelling_pos.push_back(pos);
  }
  void spell_leaf(SyntaxNode& n, std::int64_t v) {
    begin_spelling(n);
    spell('.', n.pos);
    literal_leaves.push_back(v);
    end_spelling(n);
  }
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
