#include "tessera/rt/parse.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <limits>
#include <span>

#include "tessera/rt/algebra.hpp"
#include "tessera/rt/int_tuple.hpp"
#include "tessera/rt/syntax_tree.hpp"

namespace tessera::rt {

namespace {

// Nesting limit: deeper input is rejected instead of exhausting the stack.
constexpr int kMaxDepth = 256;

// The notation is ASCII: character classes without the C library's locale tables.
constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }
constexpr bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
constexpr bool is_name_char(char c) { return is_digit(c) || is_letter(c); }

using detail::SyntaxNode;
using detail::SyntaxTree;
// The children of one node while they are parsed (then adopted side by side).
using Children = SmallVector<SyntaxNode, 4>;

class Parser {
 public:
  Parser(std::string_view s, SyntaxTree& tree) : s_(s), tree_(tree) {}

  void parse_all() {
    skip_ws();
    if (at_end()) fail(p_, "empty expression");
    SyntaxNode n = expr(0);
    skip_ws();
    if (!at_end()) fail(p_, "unexpected " + describe(p_) + " after the expression");
    tree_.nodes.push_back(n);
  }

 private:
  std::string_view s_;
  SyntaxTree& tree_;
  std::size_t p_ = 0;

  bool at_end() const { return p_ >= s_.size(); }
  char peek() const { return at_end() ? '\0' : s_[p_]; }
  void skip_ws() {
    // (most characters are past ' ': one comparison tells them)
    while (!at_end() && s_[p_] <= ' ' && (s_[p_] == ' ' || s_[p_] == '\t' || s_[p_] == '\r' || s_[p_] == '\n')) ++p_;
  }
  [[noreturn]] void fail(std::size_t pos, const std::string& msg) const { throw Error(msg, pos); }

  std::string describe(std::size_t pos) const {
    if (pos >= s_.size()) return "end of input";
    unsigned char c = static_cast<unsigned char>(s_[pos]);
    if (std::isprint(c)) return std::string("'") + static_cast<char>(c) + "'";
    char buf[16];
    std::snprintf(buf, sizeof buf, "byte 0x%02x", c);
    return buf;
  }

  void expect(char c, const char* what) {
    skip_ws();
    if (peek() != c) fail(p_, std::string("expected ") + what + ", found " + describe(p_));
    ++p_;
  }

  static SyntaxNode node(Node::Kind kind, std::size_t pos) {
    SyntaxNode n;
    n.kind = kind;
    n.pos = pos;
    return n;
  }

  // expr: a primary, optionally followed by ':' and a stride, then optionally by
  // 'o' [offset 'o'] Sw<B,M,S> (a layout composed after a swizzle).
  SyntaxNode expr(int depth) {
    if (depth > kMaxDepth) fail(p_, "expression nested too deeply (more than 256 levels)");
    skip_ws();
    const std::size_t start = p_;
    SyntaxNode first = primary(depth);
    skip_ws();
    if (peek() != ':') return first;
    ++p_;
    require_inttuple(first, "the shape of a layout");
    skip_ws();
    SyntaxNode stride = primary(depth);
    require_inttuple(stride, "the stride of a layout");
    SyntaxNode n = node(Node::Kind::Layout, start);
    const SyntaxNode shape_stride[2] = {first, stride};
    tree_.adopt(n, std::span<const SyntaxNode>(shape_stride));
    skip_ws();
    if (!at_compose()) return n;
    ++p_;
    SyntaxNode after = node(Node::Kind::LayoutAfterSwizzle, start);
    skip_ws();
    if (peek() != 'S') {
      after.value = offset_then_o();
      skip_ws();
    }
    const std::size_t sw_at = p_;
    if (s_.substr(p_, 8) == "Swizzle<")
      p_ += 7;
    else if (s_.substr(p_, 3) == "Sw<")
      p_ += 2;
    else
      fail(p_, "expected Sw<B,M,S> after 'o' (a layout composed after a swizzle)");
    swizzle_args(after, sw_at);
    tree_.adopt(after, std::span<const SyntaxNode>(&n, 1));
    return after;
  }

  // 'o' followed by whitespace (or ending the input, so that what is missing after it gets
  // the error): the composition sign of CuTe's printed composed layouts.
  bool at_compose() const {
    return peek() == 'o' && (p_ + 1 == s_.size() || s_[p_ + 1] == ' ' || s_[p_ + 1] == '\t');
  }

  // An offset (an integer, maybe written _N) and the 'o' after it.
  std::int64_t offset_then_o() {
    const std::size_t at = p_;
    if (!(peek() == '_' || peek() == '-' || is_digit(peek())))
      fail(p_, "expected an offset (an integer) or Sw<B,M,S> after 'o', found " + describe(p_));
    SyntaxNode v = integer();
    if (v.kind != Node::Kind::Int) fail(at, "expected an integer offset after 'o'");
    skip_ws();
    if (!at_compose()) fail(p_, "expected 'o' followed by a space after the offset, found " + describe(p_));
    ++p_;
    return v.value;
  }

  // The first node that is not an integer (in the order of the text) is the error.
  void require_inttuple(const SyntaxNode& n, const char* what) const {
    if (n.integers) {
      if (!n.underscore) return;
      const std::string_view spelled = tree_.spelling_of(n);
      for (std::size_t k = 0, leaf = n.leaf_begin; k < spelled.size(); ++k)
        if (spelled[k] == IntTuple::kLeaf && tree_.literal_leaves[leaf++] == kUnderscore)
          fail(tree_.spelling_pos[n.spelling_begin + k], std::string("'_' is not an integer in ") + what);
    }
    switch (n.kind) {
      case Node::Kind::Int:
        return;
      case Node::Kind::Tuple:
        for (std::size_t i = 0; i < n.count; ++i) require_inttuple(tree_.child(n, i), what);
        return;
      case Node::Kind::Underscore:
        fail(n.pos, std::string("'_' is not an integer in ") + what);
      default:
        fail(n.pos, std::string(what) + " must be an integer or a tuple of integers");
    }
  }

  SyntaxNode primary(int depth) {
    if (depth > kMaxDepth) fail(p_, "expression nested too deeply (more than 256 levels)");
    skip_ws();
    const std::size_t start = p_;
    const char c = peek();
    if (c == '(') {
      SyntaxNode n = node(Node::Kind::Tuple, start);
      if (integer_tuple(n, depth)) return n;
      ++p_;
      skip_ws();
      if (peek() == ')') fail(p_, "empty tuple: a tuple needs at least one element");
      tree_.begin_spelling(n);
      tree_.spell(IntTuple::kOpen, start);
      elements(n, depth, [start] { return "the tuple opened at column " + std::to_string(start + 1); });
      tree_.spell(IntTuple::kClose, 0);
      tree_.end_spelling(n);
      n.integers = true;
      for (std::size_t i = 0; i < n.count; ++i) {
        const SyntaxNode& c = tree_.child(n, i);
        n.integers = n.integers && c.integers;
        n.underscore = n.underscore || c.underscore;
      }
      return n;
    }
    if (c == '_' || c == '-' || is_digit(c)) return integer();
    if (is_letter(c)) return name_or_call(depth);
    if (at_end()) fail(p_, "unexpected end of input: expected an integer, a tuple, a layout or a function call");
    fail(p_, "unexpected " + describe(p_) + ": expected an integer, a tuple, a layout or a function call");
  }

  // An integer: [_] [-] digits, or CuTe's alias _mN (-N). `cpp_suffix`: inside Int<..> / C<..>,
  // where a C++ literal's suffix (l, L, u, U: C<4294967296l>) may follow the digits.
  SyntaxNode integer(bool cpp_suffix = false) {
    const std::size_t start = p_;
    bool neg = false;
    if (peek() == '_') {
      ++p_;
      if (peek() == 'm' && p_ + 1 < s_.size() && is_digit(s_[p_ + 1])) {
        neg = true;  // CuTe's _m8 is -8
        ++p_;
      } else if (!is_digit(peek()) && peek() != '-') {
        SyntaxNode n = node(Node::Kind::Underscore, start);
        n.integers = n.underscore = true;
        tree_.spell_leaf(n, kUnderscore);
        return n;
      }
    }
    if (!neg && peek() == '-') {
      neg = true;
      ++p_;
    }
    if (!is_digit(peek())) fail(p_, "expected a digit, found " + describe(p_));
    const std::size_t digits = p_;
    // Accumulate as a negative number so that INT64_MIN itself is representable.
    std::int64_t v = 0;
    while (is_digit(peek())) {
      const int d = s_[p_] - '0';
      if (__builtin_mul_overflow(v, 10, &v) || __builtin_sub_overflow(v, d, &v))  // v*10 - d below -2^63
        throw OverflowError("integer literal does not fit in 64 bits", digits);
      ++p_;
    }
    if (v == std::numeric_limits<std::int64_t>::min()) {
      // -2^63 fits in int64 but stands for '_' inside (rt::kUnderscore), and its negation
      // (abs, strides reversed) would overflow: integers are kept within +-(2^63-1).
      throw OverflowError(neg ? "integer literal -9223372036854775808 is out of range (integers lie in +-(2^63-1))"
                              : "integer literal does not fit in 64 bits",
                          neg ? start : digits);
    }
    if (!neg) v = -v;
    if (cpp_suffix)
      while (peek() == 'l' || peek() == 'L' || peek() == 'u' || peek() == 'U') ++p_;
    if (is_letter(peek()) || peek() == '_')
      fail(p_, "unexpected " + describe(p_) + " after the integer");
    SyntaxNode n = node(Node::Kind::Int, start);
    n.value = v;
    n.integers = true;
    tree_.spell_leaf(n, v);
    return n;
  }

  // An integer tuple written out, the bulk of any input, read in one loop into the tree's
  // spelling as one node: from '(' to its ')', integers (digits, maybe after '-', '_' or "_-"),
  // '_' and such tuples, and spaces. At anything else (a layout, a call, an error of any kind)
  // it returns false having undone everything: the general path then parses that text and
  // reports what it finds. (to_node() gives the nodes the general path would have made.)
  bool integer_tuple(SyntaxNode& n, int depth) {
    const std::size_t start = p_, spelled = tree_.spelling.size(), leaves = tree_.literal_leaves.size();
    n.underscore = false;
    if (depth < kMaxDepth / 4 && literal_tuple(depth, n.underscore)) {
      n.kind = Node::Kind::Tuple;
      n.pos = start;
      n.integers = true;
      n.spelling_begin = static_cast<std::uint32_t>(spelled);
      n.leaf_begin = static_cast<std::uint32_t>(leaves);
      tree_.end_spelling(n);
      return true;
    }
    n.underscore = false;
    p_ = start;
    tree_.spelling.resize(spelled);
    tree_.spelling_pos.resize(spelled);
    tree_.literal_leaves.resize(leaves);
    return false;
  }
  bool literal_tuple(int depth, bool& underscore) {
    if (depth >= kMaxDepth / 4) return false;  // deep nesting: the general path, with its limit
    tree_.spell(IntTuple::kOpen, p_);
    ++p_;  // '('
    while (true) {
      skip_ws();
      if (peek() == '(') {
        if (!literal_tuple(depth + 1, underscore)) return false;
      } else if (!literal_integer(underscore)) {
        return false;
      }
      skip_ws();
      if (peek() == ',') {
        ++p_;
        continue;
      }
      if (peek() != ')') return false;
      ++p_;
      tree_.spell(IntTuple::kClose, 0);
      return true;
    }
  }
  // integer() where it succeeds (spelled as one leaf); false where it would fail.
  bool literal_integer(bool& underscore) {
    const std::size_t start = p_;
    if (peek() == '_') {
      ++p_;
      if (!is_digit(peek()) && peek() != '-') {
        underscore = true;
        tree_.spell(IntTuple::kLeaf, start);
        tree_.literal_leaves.push_back(kUnderscore);
        return true;
      }
    }
    bool neg = false;
    if (peek() == '-') {
      neg = true;
      ++p_;
    }
    if (!is_digit(peek())) return false;
    std::int64_t v = 0;
    while (is_digit(peek())) {
      if (__builtin_mul_overflow(v, 10, &v) || __builtin_sub_overflow(v, s_[p_] - '0', &v)) return false;
      ++p_;
    }
    if (v == std::numeric_limits<std::int64_t>::min() || is_letter(peek()) || peek() == '_') return false;
    tree_.spell(IntTuple::kLeaf, start);
    tree_.literal_leaves.push_back(neg ? v : -v);
    return true;
  }

  SyntaxNode name_or_call(int depth) {
    const std::size_t start = p_;
    while (!at_end() && (is_name_char(s_[p_]) || s_[p_] == '_')) ++p_;
    const std::string_view name = s_.substr(start, p_ - start);
    if (peek() == '<') return cute_type(name, start, depth);
    skip_ws();
    if (peek() != '(')
      fail(start, "unknown name '" + std::string(name) + "' (a function call needs '(' after the name)");
    ++p_;
    SyntaxNode n = node(Node::Kind::Call, start);
    n.name = name;
    skip_ws();
    if (peek() == ')') {
      ++p_;
      return n;
    }
    elements(n, depth, [name] { return "the arguments of " + std::string(name); });
    return n;
  }

  // CuTe's spellings, so that what CuTe prints and what `--cpp` writes read back:
  //   Sw<B,M,S>, Swizzle<B,M,S>          a swizzle (then 'o' [off 'o'] L as usual)
  //   Int<N>, C<N>, C<Nl>                 a static integer (and _N, _mN in integer())
  //   Shape<..>, Stride<..>, Coord<..>, Step<..>, Tile<..>   a tuple of its arguments
  //   Layout<S,D>                         the layout S:D; Layout<S> its column-major layout
  //   ComposedLayout<Swizzle<..>,off,L>   Sw o off o L;  ComposedLayout<L,off,Swizzle<..>>: L o off o Sw
  // (p_ at '<'; `start` at the name.)
  SyntaxNode cute_type(std::string_view name, std::size_t start, int depth) {
    if (name == "Sw" || name == "Swizzle") return swizzled(start, depth);
    if (name == "Int" || name == "C") {
      ++p_;
      skip_ws();
      if (!(peek() == '-' || is_digit(peek())))
        fail(p_, "expected an integer in " + std::string(name) + "<N>, found " + describe(p_));
      SyntaxNode v = integer(true);
      expect('>', (std::string("'>' closing ") + std::string(name) + "<N>").c_str());
      return v;
    }
    if (name == "Shape" || name == "Stride" || name == "Coord" || name == "Step" || name == "Tile") {
      SyntaxNode n = node(Node::Kind::Tuple, start);
      tree_.begin_spelling(n);
      tree_.spell(IntTuple::kOpen, start);
      type_arguments(n, depth, name);
      tree_.spell(IntTuple::kClose, 0);
      tree_.end_spelling(n);
      n.integers = true;
      for (std::size_t i = 0; i < n.count; ++i) {
        const SyntaxNode& c = tree_.child(n, i);
        n.integers = n.integers && c.integers;
        n.underscore = n.underscore || c.underscore;
      }
      return n;
    }
    if (name == "Layout") {
      SyntaxNode args = node(Node::Kind::Tuple, start);
      type_arguments(args, depth, name);
      if (args.count > 2) fail(tree_.child(args, 2).pos, "Layout<Shape, Stride> takes at most two arguments");
      const SyntaxNode shape = tree_.child(args, 0);
      require_inttuple(shape, "the shape of a layout");
      if (args.count == 1) {  // CuTe's default stride: column-major
        SyntaxNode call = node(Node::Kind::Call, start);
        call.name = "make_layout";
        tree_.adopt(call, std::span<const SyntaxNode>(&shape, 1));
        return call;
      }
      const SyntaxNode stride = tree_.child(args, 1);
      require_inttuple(stride, "the stride of a layout");
      SyntaxNode n = node(Node::Kind::Layout, start);
      const SyntaxNode shape_stride[2] = {shape, stride};
      tree_.adopt(n, std::span<const SyntaxNode>(shape_stride));
      return n;
    }
    if (name == "ComposedLayout") {
      SyntaxNode args = node(Node::Kind::Tuple, start);
      type_arguments(args, depth, name);
      if (args.count != 3)
        fail(start, "ComposedLayout<A, Offset, B> takes three arguments, got " + std::to_string(args.count));
      const SyntaxNode a = tree_.child(args, 0), off = tree_.child(args, 1), b = tree_.child(args, 2);
      if (off.kind != Node::Kind::Int) fail(off.pos, "the offset of ComposedLayout<A, Offset, B> must be an integer");
      if (a.kind == Node::Kind::Swizzle && b.kind != Node::Kind::Swizzle) {
        SyntaxNode n = node(Node::Kind::Swizzled, start);  // Sw o off o B
        std::copy(a.swizzle, a.swizzle + 3, n.swizzle);
        n.value = off.value;
        tree_.adopt(n, std::span<const SyntaxNode>(&b, 1));
        return n;
      }
      if (a.kind == Node::Kind::Layout && b.kind == Node::Kind::Swizzle) {
        SyntaxNode n = node(Node::Kind::LayoutAfterSwizzle, start);  // A o off o Sw
        std::copy(b.swizzle, b.swizzle + 3, n.swizzle);
        n.value = off.value;
        tree_.adopt(n, std::span<const SyntaxNode>(&a, 1));
        return n;
      }
      fail(start, "ComposedLayout<A, Offset, B>: tessera reads ComposedLayout<Swizzle<B,M,S>, off, layout> and "
                  "ComposedLayout<Layout<..>, off, Swizzle<B,M,S>>");
    }
    fail(start, "unknown type '" + std::string(name) + "<...>' (CuTe's spellings read here: Swizzle<B,M,S>, Int<N>, "
                "C<N>, Shape<..>, Stride<..>, Coord<..>, Step<..>, Tile<..>, Layout<..>, ComposedLayout<..>)");
  }

  // '<' expr (',' expr)* '>' as n's children (p_ at '<').
  void type_arguments(SyntaxNode& n, int depth, std::string_view name) {
    ++p_;
    skip_ws();
    if (peek() == '>') fail(p_, "empty " + std::string(name) + "<>: it needs at least one argument");
    elements(n, depth, [name] { return std::string(name) + "<...>"; }, '>');
  }

  // Expressions separated by ',' up to and past the closing `close` (')' for tuples and calls,
  // '>' for CuTe's type arguments), as n's children; `where()` names the list in the message
  // when neither follows an element.
  template <class Where>
  void elements(SyntaxNode& n, int depth, Where&& where, char close = ')') {
    Children children;
    while (true) {
      children.push_back(expr(depth + 1));
      skip_ws();
      if (peek() == ',') {
        ++p_;
        continue;
      }
      if (peek() == close) {
        ++p_;
        tree_.adopt(n, children);
        return;
      }
      fail(p_, std::string("expected ',' or '") + close + "' in " + where() + ", found " + describe(p_));
    }
  }

  int small_int(const char* what) {
    skip_ws();
    const std::size_t at = p_;
    SyntaxNode v = integer();
    if (v.kind != Node::Kind::Int) fail(at, std::string("expected an integer for ") + what);
    if (v.value < -64 || v.value > 64) fail(at, std::string(what) + " must be between -64 and 64");
    return static_cast<int>(v.value);
  }

  // '<' B ',' M ',' S '>' into n.swizzle (p_ at '<').
  void swizzle_args(SyntaxNode& n, std::size_t start) {
    (void)start;
    ++p_;  // '<'
    n.swizzle[0] = small_int("B (the number of swizzled bits)");
    expect(',', "',' after B in Sw<B,M,S>");
    n.swizzle[1] = small_int("M (the number of unchanged low bits)");
    expect(',', "',' after M in Sw<B,M,S>");
    n.swizzle[2] = small_int("S (the shift)");
    expect('>', "'>' closing Sw<B,M,S>");
  }

  // Sw<B,M,S> alone (a swizzle function), or Sw<B,M,S> o [offset o] layout.
  SyntaxNode swizzled(std::size_t start, int depth) {
    SyntaxNode n = node(Node::Kind::Swizzled, start);
    swizzle_args(n, start);
    skip_ws();
    if (peek() != 'o') {
      n.kind = Node::Kind::Swizzle;
      return n;
    }
    ++p_;
    if (!at_end() && (is_name_char(peek()) || peek() == '_'))
      fail(p_ - 1, "expected 'o' followed by a space after Sw<B,M,S>");
    skip_ws();
    // Sw o off o L: an integer followed by 'o' is the offset.
    const std::size_t save = p_;
    if (peek() == '_' || peek() == '-' || is_digit(peek())) {
      SyntaxNode v = integer();
      skip_ws();
      if (v.kind == Node::Kind::Int && at_compose()) {
        ++p_;
        n.value = v.value;
      } else {
        p_ = save;
      }
    }
    const SyntaxNode layout = expr(depth + 1);
    tree_.adopt(n, std::span<const SyntaxNode>(&layout, 1));
    return n;
  }
};

void append_node(const Node& n, std::string& out);

// "(c1,c2,...)": a tuple's elements, a call's arguments.
void append_children(const Node& n, std::string& out) {
  out += '(';
  for (std::size_t i = 0; i < n.children.size(); ++i) {
    if (i) out += ',';
    append_node(n.children[i], out);
  }
  out += ')';
}

void append_node(const Node& n, std::string& out) {
  switch (n.kind) {
    case Node::Kind::Int:
      out += std::to_string(n.value);
      break;
    case Node::Kind::Underscore:
      out += '_';
      break;
    case Node::Kind::Tuple:
      append_children(n, out);
      break;
    case Node::Kind::Layout:
      append_node(n.children[0], out);
      out += ':';
      append_node(n.children[1], out);
      break;
    case Node::Kind::Call:
      out += n.name;
      append_children(n, out);
      break;
    case Node::Kind::Swizzled:
      out += "Sw<" + std::to_string(n.swizzle[0]) + "," + std::to_string(n.swizzle[1]) + "," +
             std::to_string(n.swizzle[2]) + "> o " + std::to_string(n.value) + " o ";
      append_node(n.children[0], out);
      break;
    case Node::Kind::Swizzle:
      out += "Sw<" + std::to_string(n.swizzle[0]) + "," + std::to_string(n.swizzle[1]) + "," +
             std::to_string(n.swizzle[2]) + ">";
      break;
    case Node::Kind::LayoutAfterSwizzle:
      append_node(n.children[0], out);
      out += " o " + std::to_string(n.value) + " o Sw<" + std::to_string(n.swizzle[0]) + "," +
             std::to_string(n.swizzle[1]) + "," + std::to_string(n.swizzle[2]) + ">";
      break;
  }
}

}  // namespace

namespace detail {

SyntaxTree parse_tree(std::string_view input) {
  SyntaxTree t;
  Parser(input, t).parse_all();
  return t;
}

namespace {
// The nodes of an integer tuple the parser read as one (spelling[k], leaves from `leaf`).
Node literal_node(const SyntaxTree& t, std::size_t& k, std::size_t& leaf) {
  Node r;
  r.pos = t.spelling_pos[k];
  if (t.spelling[k++] == IntTuple::kLeaf) {
    r.value = t.literal_leaves[leaf++];
    r.kind = r.value == kUnderscore ? Node::Kind::Underscore : Node::Kind::Int;
    if (r.kind == Node::Kind::Underscore) r.value = 0;
    return r;
  }
  r.kind = Node::Kind::Tuple;
  while (t.spelling[k] != IntTuple::kClose) r.children.push_back(literal_node(t, k, leaf));
  ++k;
  return r;
}
}  // namespace

Node to_node(const SyntaxTree& t, const SyntaxNode& n) {
  if (n.kind == Node::Kind::Tuple && n.integers && n.count == 0) {
    std::size_t k = n.spelling_begin, leaf = n.leaf_begin;
    return literal_node(t, k, leaf);
  }
  Node r;
  r.kind = n.kind;
  r.pos = n.pos;
  r.value = n.value;
  r.name = std::string(n.name);
  for (int i = 0; i < 3; ++i) r.swizzle[i] = n.swizzle[i];
  r.children.reserve(n.count);
  for (std::size_t i = 0; i < n.count; ++i) r.children.push_back(to_node(t, t.child(n, i)));
  return r;
}

namespace {
SyntaxNode add_node(SyntaxTree& t, const Node& n) {
  SyntaxNode r;
  r.kind = n.kind;
  r.pos = n.pos;
  r.value = n.value;
  r.name = n.name;
  for (int i = 0; i < 3; ++i) r.swizzle[i] = n.swizzle[i];
  if (n.kind == Node::Kind::Int || n.kind == Node::Kind::Underscore)
    t.spell_leaf(r, n.kind == Node::Kind::Int ? n.value : kUnderscore);
  if (n.kind == Node::Kind::Tuple) {
    t.begin_spelling(r);
    t.spell(IntTuple::kOpen, n.pos);
  }
  Children children;
  for (const Node& c : n.children) children.push_back(add_node(t, c));
  t.adopt(r, children);
  if (n.kind == Node::Kind::Tuple) {
    t.spell(IntTuple::kClose, 0);
    t.end_spelling(r);
  }
  r.integers = n.kind == Node::Kind::Int || n.kind == Node::Kind::Underscore ||
               (n.kind == Node::Kind::Tuple &&
                std::all_of(children.begin(), children.end(), [](const SyntaxNode& c) { return c.integers; }));
  r.underscore = n.kind == Node::Kind::Underscore ||
                 std::any_of(children.begin(), children.end(), [](const SyntaxNode& c) { return c.underscore; });
  return r;
}
}  // namespace

SyntaxTree tree_of(const Node& n) {
  SyntaxTree t;
  const SyntaxNode root = add_node(t, n);
  t.nodes.push_back(root);
  return t;
}

}  // namespace detail

Node parse(std::string_view input) {
  const detail::SyntaxTree t = detail::parse_tree(input);
  return detail::to_node(t, t.root());
}

std::string to_string(const Node& n) {
  std::string s;
  append_node(n, s);
  return s;
}

std::string format_error(std::string_view input, std::size_t pos, std::string_view msg) {
  std::string out = "error: ";
  out += msg;
  out += '\n';
  if (pos == npos) return out;
  if (pos > input.size()) pos = input.size();
  // Show the line that holds pos; non-printable bytes are shown as '?' so the caret lines up.
  std::size_t b = 0;
  for (std::size_t i = 0; i < pos; ++i)
    if (input[i] == '\n') b = i + 1;
  std::size_t e = input.find('\n', pos);
  if (e == std::string_view::npos) e = input.size();
  out += "  ";
  for (std::size_t i = b; i < e; ++i) {
    unsigned char c = static_cast<unsigned char>(input[i]);
    out += (c == '\t') ? ' ' : (std::isprint(c) ? static_cast<char>(c) : '?');
  }
  out += "\n  ";
  out.append(pos - b, ' ');
  out += "^\n";
  return out;
}

}  // namespace tessera::rt
