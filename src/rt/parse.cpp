#include "tessera/rt/parse.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <limits>

namespace tessera::rt {

namespace {

// Nesting limit: deeper input is rejected instead of exhausting the stack.
constexpr int kMaxDepth = 256;

class Parser {
 public:
  explicit Parser(std::string_view s) : s_(s) {}

  Node parse_all() {
    skip_ws();
    if (at_end()) fail(p_, "empty expression");
    Node n = expr(0);
    skip_ws();
    if (!at_end()) fail(p_, "unexpected " + describe(p_) + " after the expression");
    return n;
  }

 private:
  std::string_view s_;
  std::size_t p_ = 0;

  bool at_end() const { return p_ >= s_.size(); }
  char peek() const { return at_end() ? '\0' : s_[p_]; }
  void skip_ws() {
    while (!at_end() && (s_[p_] == ' ' || s_[p_] == '\t' || s_[p_] == '\r' || s_[p_] == '\n')) ++p_;
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

  // expr: a primary, optionally followed by ':' and a stride, then optionally by
  // 'o' [offset 'o'] Sw<B,M,S> (a layout composed after a swizzle).
  Node expr(int depth) {
    if (depth > kMaxDepth) fail(p_, "expression nested too deeply (more than 256 levels)");
    skip_ws();
    const std::size_t start = p_;
    Node first = primary(depth);
    skip_ws();
    if (peek() != ':') return first;
    ++p_;
    require_inttuple(first, "the shape of a layout");
    skip_ws();
    Node stride = primary(depth);
    require_inttuple(stride, "the stride of a layout");
    Node n;
    n.kind = Node::Kind::Layout;
    n.pos = start;
    n.children.push_back(std::move(first));
    n.children.push_back(std::move(stride));
    skip_ws();
    if (!at_compose()) return n;
    ++p_;
    Node after;
    after.kind = Node::Kind::LayoutAfterSwizzle;
    after.pos = start;
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
    after.children.push_back(std::move(n));
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
    if (!(peek() == '_' || peek() == '-' || std::isdigit(static_cast<unsigned char>(peek()))))
      fail(p_, "expected an offset (an integer) or Sw<B,M,S> after 'o', found " + describe(p_));
    Node v = integer();
    if (v.kind != Node::Kind::Int) fail(at, "expected an integer offset after 'o'");
    skip_ws();
    if (!at_compose()) fail(p_, "expected 'o' followed by a space after the offset, found " + describe(p_));
    ++p_;
    return v.value;
  }

  void require_inttuple(const Node& n, const char* what) const {
    switch (n.kind) {
      case Node::Kind::Int:
        return;
      case Node::Kind::Tuple:
        for (const auto& c : n.children) require_inttuple(c, what);
        return;
      case Node::Kind::Underscore:
        fail(n.pos, std::string("'_' is not an integer in ") + what);
      default:
        fail(n.pos, std::string(what) + " must be an integer or a tuple of integers");
    }
  }

  Node primary(int depth) {
    if (depth > kMaxDepth) fail(p_, "expression nested too deeply (more than 256 levels)");
    skip_ws();
    const std::size_t start = p_;
    const char c = peek();
    if (c == '(') {
      ++p_;
      Node n;
      n.kind = Node::Kind::Tuple;
      n.pos = start;
      skip_ws();
      if (peek() == ')') fail(p_, "empty tuple: a tuple needs at least one element");
      elements(n, depth, "the tuple opened at column " + std::to_string(start + 1));
      return n;
    }
    if (c == '_' || c == '-' || std::isdigit(static_cast<unsigned char>(c))) return integer();
    if (std::isalpha(static_cast<unsigned char>(c))) return name_or_call(depth);
    if (at_end()) fail(p_, "unexpected end of input: expected an integer, a tuple, a layout or a function call");
    fail(p_, "unexpected " + describe(p_) + ": expected an integer, a tuple, a layout or a function call");
  }

  // An integer: [_] [-] digits, or CuTe's alias _mN (-N). `cpp_suffix`: inside Int<..> / C<..>,
  // where a C++ literal's suffix (l, L, u, U: C<4294967296l>) may follow the digits.
  Node integer(bool cpp_suffix = false) {
    const std::size_t start = p_;
    bool neg = false;
    if (peek() == '_') {
      ++p_;
      if (peek() == 'm' && p_ + 1 < s_.size() && std::isdigit(static_cast<unsigned char>(s_[p_ + 1]))) {
        neg = true;  // CuTe's _m8 is -8
        ++p_;
      } else if (!std::isdigit(static_cast<unsigned char>(peek())) && peek() != '-') {
        Node n;
        n.kind = Node::Kind::Underscore;
        n.pos = start;
        return n;
      }
    }
    if (!neg && peek() == '-') {
      neg = true;
      ++p_;
    }
    if (!std::isdigit(static_cast<unsigned char>(peek()))) fail(p_, "expected a digit, found " + describe(p_));
    const std::size_t digits = p_;
    // Accumulate as a negative number so that INT64_MIN itself is representable.
    std::int64_t v = 0;
    while (std::isdigit(static_cast<unsigned char>(peek()))) {
      const int d = s_[p_] - '0';
      if (v < (std::numeric_limits<std::int64_t>::min() + d) / 10)
        throw OverflowError("integer literal does not fit in 64 bits", digits);
      v = v * 10 - d;
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
    if (std::isalpha(static_cast<unsigned char>(peek())) || peek() == '_')
      fail(p_, "unexpected " + describe(p_) + " after the integer");
    Node n;
    n.kind = Node::Kind::Int;
    n.pos = start;
    n.value = v;
    return n;
  }

  Node name_or_call(int depth) {
    const std::size_t start = p_;
    while (!at_end() && (std::isalnum(static_cast<unsigned char>(s_[p_])) || s_[p_] == '_')) ++p_;
    std::string name(s_.substr(start, p_ - start));
    if (peek() == '<') return cute_type(name, start, depth);
    skip_ws();
    if (peek() != '(') fail(start, "unknown name '" + name + "' (a function call needs '(' after the name)");
    ++p_;
    Node n;
    n.kind = Node::Kind::Call;
    n.pos = start;
    n.name = std::move(name);
    skip_ws();
    if (peek() == ')') {
      ++p_;
      return n;
    }
    elements(n, depth, "the arguments of " + n.name);
    return n;
  }

  // CuTe's spellings, so that what CuTe prints and what `--cpp` writes read back:
  //   Sw<B,M,S>, Swizzle<B,M,S>          a swizzle (then 'o' [off 'o'] L as usual)
  //   Int<N>, C<N>, C<Nl>                 a static integer (and _N, _mN in integer())
  //   Shape<..>, Stride<..>, Coord<..>, Step<..>, Tile<..>   a tuple of its arguments
  //   Layout<S,D>                         the layout S:D; Layout<S> its column-major layout
  //   ComposedLayout<Swizzle<..>,off,L>   Sw o off o L;  ComposedLayout<L,off,Swizzle<..>>: L o off o Sw
  // (p_ at '<'; `start` at the name.)
  Node cute_type(const std::string& name, std::size_t start, int depth) {
    if (name == "Sw" || name == "Swizzle") return swizzled(start, depth);
    if (name == "Int" || name == "C") {
      ++p_;
      skip_ws();
      const std::size_t at = p_;
      if (!(peek() == '-' || std::isdigit(static_cast<unsigned char>(peek()))))
        fail(at, "expected an integer in " + name + "<N>, found " + describe(p_));
      Node v = integer(true);
      v.pos = start;
      expect('>', ("'>' closing " + name + "<N>").c_str());
      return v;
    }
    if (name == "Shape" || name == "Stride" || name == "Coord" || name == "Step" || name == "Tile") {
      Node n;
      n.kind = Node::Kind::Tuple;
      n.pos = start;
      type_arguments(n, depth, name);
      return n;
    }
    if (name == "Layout") {
      Node args;
      type_arguments(args, depth, name);
      if (args.children.size() > 2) fail(args.children[2].pos, "Layout<Shape, Stride> takes at most two arguments");
      require_inttuple(args.children[0], "the shape of a layout");
      if (args.children.size() == 1) {  // CuTe's default stride: column-major
        Node call;
        call.kind = Node::Kind::Call;
        call.pos = start;
        call.name = "make_layout";
        call.children.push_back(std::move(args.children[0]));
        return call;
      }
      require_inttuple(args.children[1], "the stride of a layout");
      Node n;
      n.kind = Node::Kind::Layout;
      n.pos = start;
      n.children = std::move(args.children);
      return n;
    }
    if (name == "ComposedLayout") {
      Node args;
      type_arguments(args, depth, name);
      if (args.children.size() != 3)
        fail(start, "ComposedLayout<A, Offset, B> takes three arguments, got " + std::to_string(args.children.size()));
      Node& a = args.children[0];
      const Node& off = args.children[1];
      Node& b = args.children[2];
      if (off.kind != Node::Kind::Int) fail(off.pos, "the offset of ComposedLayout<A, Offset, B> must be an integer");
      Node n;
      n.pos = start;
      n.value = off.value;
      if (a.kind == Node::Kind::Swizzle && b.kind != Node::Kind::Swizzle) {
        n.kind = Node::Kind::Swizzled;  // Sw o off o B
        std::copy(a.swizzle, a.swizzle + 3, n.swizzle);
        n.children.push_back(std::move(b));
      } else if (a.kind == Node::Kind::Layout && b.kind == Node::Kind::Swizzle) {
        n.kind = Node::Kind::LayoutAfterSwizzle;  // A o off o Sw
        std::copy(b.swizzle, b.swizzle + 3, n.swizzle);
        n.children.push_back(std::move(a));
      } else {
        fail(start, "ComposedLayout<A, Offset, B>: tessera reads ComposedLayout<Swizzle<B,M,S>, off, layout> and "
                    "ComposedLayout<Layout<..>, off, Swizzle<B,M,S>>");
      }
      return n;
    }
    fail(start, "unknown type '" + name + "<...>' (CuTe's spellings read here: Swizzle<B,M,S>, Int<N>, C<N>, Shape<..>, "
                "Stride<..>, Coord<..>, Step<..>, Tile<..>, Layout<..>, ComposedLayout<..>)");
  }

  // '<' expr (',' expr)* '>' as n's children (p_ at '<').
  void type_arguments(Node& n, int depth, const std::string& name) {
    ++p_;
    skip_ws();
    if (peek() == '>') fail(p_, "empty " + name + "<>: it needs at least one argument");
    while (true) {
      n.children.push_back(expr(depth + 1));
      skip_ws();
      if (peek() == ',') {
        ++p_;
        continue;
      }
      if (peek() == '>') {
        ++p_;
        return;
      }
      fail(p_, "expected ',' or '>' in " + name + "<...>, found " + describe(p_));
    }
  }

  // Expressions separated by ',' up to and past the closing ')', as n's children; `where`
  // names the list in the message when neither follows an element.
  void elements(Node& n, int depth, const std::string& where) {
    while (true) {
      n.children.push_back(expr(depth + 1));
      skip_ws();
      if (peek() == ',') {
        ++p_;
        continue;
      }
      if (peek() == ')') {
        ++p_;
        return;
      }
      fail(p_, "expected ',' or ')' in " + where + ", found " + describe(p_));
    }
  }

  int small_int(const char* what) {
    skip_ws();
    const std::size_t at = p_;
    Node v = integer();
    if (v.kind != Node::Kind::Int) fail(at, std::string("expected an integer for ") + what);
    if (v.value < -64 || v.value > 64) fail(at, std::string(what) + " must be between -64 and 64");
    return static_cast<int>(v.value);
  }

  // '<' B ',' M ',' S '>' into n.swizzle (p_ at '<').
  void swizzle_args(Node& n, std::size_t start) {
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
  Node swizzled(std::size_t start, int depth) {
    Node n;
    n.kind = Node::Kind::Swizzled;
    n.pos = start;
    swizzle_args(n, start);
    skip_ws();
    if (peek() != 'o') {
      n.kind = Node::Kind::Swizzle;
      return n;
    }
    ++p_;
    if (!at_end() && (std::isalnum(static_cast<unsigned char>(peek())) || peek() == '_'))
      fail(p_ - 1, "expected 'o' followed by a space after Sw<B,M,S>");
    skip_ws();
    // Sw o off o L: an integer followed by 'o' is the offset.
    const std::size_t save = p_;
    if (peek() == '_' || peek() == '-' || std::isdigit(static_cast<unsigned char>(peek()))) {
      Node v = integer();
      skip_ws();
      if (v.kind == Node::Kind::Int && at_compose()) {
        ++p_;
        n.value = v.value;
      } else {
        p_ = save;
      }
    }
    n.children.push_back(expr(depth + 1));
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

Node parse(std::string_view input) { return Parser(input).parse_all(); }

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
