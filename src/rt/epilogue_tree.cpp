#include "tessera/rt/epilogue_tree.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>

namespace tessera::rt::epilogue {

namespace {
// Each element type's name in the grammar and its C++ type, in one table that the three
// functions below read (a type added here is parsed, printed and named alike).
struct ElementNames {
  Element element;
  const char* name;
  const char* cpp;
};
constexpr ElementNames element_names[] = {{Element::f32, "f32", "float"},
                                          {Element::bf16, "bf16", "tessera::bfloat16_t"},
                                          {Element::f16, "f16", "tessera::half_t"},
                                          {Element::e4m3, "e4m3", "tessera::float_e4m3_t"},
                                          {Element::e5m2, "e5m2", "tessera::float_e5m2_t"}};
const ElementNames* names_of(Element e) {
  for (const ElementNames& n : element_names)
    if (n.element == e) return &n;
  return nullptr;
}
}  // namespace
const char* element_name(Element e) {
  const ElementNames* n = names_of(e);
  return n ? n->name : "?";
}
const char* element_cpp(Element e) {
  const ElementNames* n = names_of(e);
  return n ? n->cpp : "?";
}
std::optional<Element> element_from_name(std::string_view s) {
  for (const ElementNames& n : element_names)
    if (s == n.name) return n.element;
  return std::nullopt;
}
const char* op_cpp(Op o) {
  switch (o) {
    case Op::plus: return "plus";
    case Op::multiplies: return "multiplies";
    case Op::multiply_add: return "multiply_add";
    case Op::maximum: return "maximum";
    case Op::minimum: return "minimum";
    case Op::absolute: return "absolute";
    case Op::clamp: return "clamp";
    case Op::relu: return "relu";
    case Op::gelu: return "gelu";
    case Op::gelu_tanh: return "gelu_tanh";
    case Op::silu: return "silu";
    case Op::convert: return "convert";
  }
  return "?";
}
const char* reduce_cpp(Reduce r) {
  return r == Reduce::absolute_maximum ? "absolute_maximum" : r == Reduce::maximum_value ? "maximum_value" : "sum";
}
const char* reduce_name(Reduce r) { return r == Reduce::absolute_maximum ? "amax" : r == Reduce::maximum_value ? "max" : "sum"; }

bool operator==(const TreeNode& a, const TreeNode& b) {
  return a.kind == b.kind && a.name == b.name && a.value == b.value && a.pointer == b.pointer && a.element == b.element &&
         a.num == b.num && a.den == b.den && a.op == b.op && a.reduce == b.reduce && a.along == b.along &&
         a.children == b.children;
}

namespace {

constexpr int kMaxDepth = 200;
// Named values are copied into every use: a few lines could otherwise name 2^40 nodes.
constexpr long kMaxNodes = 4096;

// The grammar's function names (in expressions): name, op, arity (convert: a type and a value).
struct Function {
  const char* name;
  Op op;
  int arity;
};
constexpr Function kFunctions[] = {{"relu", Op::relu, 1},       {"gelu", Op::gelu, 1},         {"gelu_tanh", Op::gelu_tanh, 1},
                                   {"silu", Op::silu, 1},       {"abs", Op::absolute, 1},      {"max", Op::maximum, 2},
                                   {"min", Op::minimum, 2},     {"clamp", Op::clamp, 3},       {"fma", Op::multiply_add, 3},
                                   {"convert", Op::convert, 2}, {"cast", Op::convert, 2}};
const Function* find_function(std::string_view s) {
  for (const Function& f : kFunctions)
    if (s == f.name) return &f;
  return nullptr;
}
std::optional<Reduce> find_reduction(std::string_view s) {
  if (s == "amax") return Reduce::absolute_maximum;
  if (s == "max") return Reduce::maximum_value;
  if (s == "sum") return Reduce::sum;
  return std::nullopt;
}
constexpr const char* kFunctionList = "relu, gelu, gelu_tanh, silu, abs, max, min, clamp, fma, convert";
constexpr const char* kTypeList = "f32, bf16, f16, e4m3, e5m2";

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_name_char(char c) { return is_name_start(c) || is_digit(c); }

struct Token {
  enum Kind { Name, Number, Punct, End } kind = End;
  std::string text;
  std::size_t pos = 0;
};

std::vector<Token> lex(std::string_view s) {
  std::vector<Token> out;
  std::size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++i;
    } else if (is_name_start(c)) {
      std::size_t j = i;
      while (j < s.size() && is_name_char(s[j])) ++j;
      out.push_back({Token::Name, std::string(s.substr(i, j - i)), i});
      i = j;
    } else if (is_digit(c) || (c == '.' && i + 1 < s.size() && is_digit(s[i + 1]))) {
      std::size_t j = i;
      while (j < s.size() && is_digit(s[j])) ++j;
      if (j < s.size() && s[j] == '.') {
        ++j;
        while (j < s.size() && is_digit(s[j])) ++j;
      }
      if (j < s.size() && (s[j] == 'e' || s[j] == 'E')) {
        std::size_t k = j + 1;
        if (k < s.size() && (s[k] == '+' || s[k] == '-')) ++k;
        if (k < s.size() && is_digit(s[k])) {
          while (k < s.size() && is_digit(s[k])) ++k;
          j = k;
        }
      }
      if (j < s.size() && is_name_char(s[j])) throw Error("malformed number '" + std::string(s.substr(i, j + 1 - i)) + "'", i);
      out.push_back({Token::Number, std::string(s.substr(i, j - i)), i});
      i = j;
    } else if (std::string_view("()[],;=+-*/:").find(c) != std::string_view::npos) {
      out.push_back({Token::Punct, std::string(1, c), i});
      ++i;
    } else {
      const unsigned char u = static_cast<unsigned char>(c);
      throw Error(u >= 0x20 && u < 0x7f ? std::string("unexpected character '") + c + "'"
                                        : "unexpected byte " + std::to_string(u) + " (the notation is ASCII)",
                  i);
    }
  }
  out.push_back({Token::End, "", s.size()});
  return out;
}

// A decimal literal as num / den in lowest terms, both fitting in int (Constant<int, int>).
std::pair<std::int64_t, std::int64_t> rational(const std::string& text, bool negative, std::size_t pos) {
  const std::string what = "the constant " + std::string(negative ? "-" : "") + text +
                           " does not fit Constant<Num, Den> (an int numerator and denominator)";
  __int128 num = 0, den = 1;
  const __int128 limit = __int128(1) << 80;
  std::size_t i = 0;
  bool fraction = false;
  for (; i < text.size() && text[i] != 'e' && text[i] != 'E'; ++i) {
    if (text[i] == '.') {
      fraction = true;
      continue;
    }
    num = num * 10 + (text[i] - '0');
    if (fraction) den *= 10;
    if (num > limit || den > limit) throw Error(what, pos);
  }
  if (i < text.size()) {
    const std::string e = text.substr(i + 1);
    const long x = e.size() > 4 ? 100 : std::stol(e);
    if (x > 30 || x < -30) throw Error(what, pos);
    for (long k = 0; k < (x < 0 ? -x : x); ++k) {
      (x < 0 ? den : num) *= 10;
      if (num > limit || den > limit) throw Error(what, pos);
    }
  }
  __int128 a = num, b = den;
  while (b != 0) {
    const __int128 t = a % b;
    a = b;
    b = t;
  }
  if (a > 1) {
    num /= a;
    den /= a;
  }
  if (num > std::numeric_limits<int>::max() || den > std::numeric_limits<int>::max()) throw Error(what, pos);
  return {negative ? -std::int64_t(num) : std::int64_t(num), std::int64_t(den)};
}

TreeNode leaf(TreeNode::Kind k, std::size_t pos) {
  TreeNode n;
  n.kind = k;
  n.pos = pos;
  return n;
}
TreeNode compute(Op op, std::size_t pos, std::vector<TreeNode> children) {
  TreeNode n = leaf(TreeNode::Kind::Compute, pos);
  n.op = op;
  n.children = std::move(children);
  return n;
}
TreeNode constant(std::int64_t num, std::int64_t den, std::size_t pos) {
  TreeNode n = leaf(TreeNode::Kind::Constant, pos);
  n.num = num;
  n.den = den;
  return n;
}

// An output statement: an aux store or a reduction of a named value.
struct Output {
  TreeNode node;  // without its child
  std::size_t value_pos = 0;
};

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text), toks_(lex(text)) {}

  Tree run() {
    while (true) {
      if (peek().kind == Token::End) break;
      statement();
      if (peek().kind == Token::End) break;
      if (is(";")) {
        next();
        continue;
      }
      if (is(")")) throw Error("unbalanced parentheses: this ')' closes nothing", peek().pos);
      throw Error("expected ';' between statements, not " + describe(peek()), peek().pos);
    }
    if (!d_) throw Error("no output D: write store(TYPE, expr) (or D = store(TYPE, expr))", text_.size());
    Tree t;
    t.output = d_type_;
    t.root = wrap("D", resolve(*d_, 0));
    for (const Output& o : outputs_) {
      if (o.node.value == "D") continue;
      if (!lets_.count(o.node.value))
        throw Error("'" + o.node.value + "' is not a value defined here: a " + std::string(output_what(o.node)) +
                        " takes a named value (NAME = expr) or D",
                    o.value_pos);
      const int u = uses_[o.node.value];
      if (u == 0)
        throw Error("'" + o.node.value + "' is not part of D's tree (D never uses it), so the tree cannot " +
                        std::string(o.node.kind == TreeNode::Kind::AuxStore ? "store" : "reduce") + " it",
                    o.value_pos);
      if (u > 1)
        throw Error("'" + o.node.value + "' is used " + std::to_string(u) + " times by D: its " + output_what(o.node) +
                        " would run once per use (name it once, or compute the copies apart)",
                    o.value_pos);
    }
    fill_source_type(t.root, t.output);
    const TreeNode* first_c = nullptr;
    check_one_source(t.root, first_c);
    return t;
  }

 private:
  std::string_view text_;
  std::vector<Token> toks_;
  std::size_t at_ = 0;
  int depth_ = 0;
  struct Let {
    TreeNode expr;
    std::size_t pos;
  };
  std::map<std::string, Let> lets_;
  std::map<std::string, int> uses_;
  // Operands seen, for consistency: a name is one scalar or one vector of one type.
  struct Operand {
    TreeNode::Kind kind;
    bool pointer;
    Element element;
    std::size_t pos;
  };
  std::map<std::string, Operand> operands_;
  std::map<std::string, std::size_t> outputs_named_;
  std::vector<Output> outputs_;
  std::optional<TreeNode> d_;
  Element d_type_ = Element::f32;
  long nodes_ = 0;
  std::size_t d_pos_ = 0;

  const Token& peek(std::size_t k = 0) const { return toks_[std::min(at_ + k, toks_.size() - 1)]; }
  const Token& next() { return toks_[std::min(at_++, toks_.size() - 1)]; }
  bool is(const char* p, std::size_t k = 0) const { return peek(k).kind == Token::Punct && peek(k).text == p; }
  static std::string describe(const Token& t) {
    return t.kind == Token::End ? std::string("the end of the input") : "'" + t.text + "'";
  }
  void expect(const char* p, const std::string& why) {
    if (!is(p)) throw Error("expected '" + std::string(p) + "' " + why + ", not " + describe(peek()), peek().pos);
    next();
  }
  static const char* output_what(const TreeNode& n) {
    return n.kind == TreeNode::Kind::AuxStore ? "store" : "reduction";
  }

  bool reserved(const std::string& s) const {
    return s == "acc" || s == "C" || s == "D" || s == "store" || s == "m" || s == "n" || find_function(s) || find_reduction(s) ||
           element_from_name(s);
  }
  void check_new_name(const Token& t) {
    if (reserved(t.text))
      throw Error("'" + t.text + "' is a name of the notation (acc, C, D, store, m, n, a function, a reduction or a type): "
                  "give the value another name",
                  t.pos);
    auto taken = [&](std::size_t p, const char* as) {
      throw Error("'" + t.text + "' is already " + as + " (at column " + std::to_string(p + 1) + ")", t.pos);
    };
    if (auto it = lets_.find(t.text); it != lets_.end()) taken(it->second.pos, "a named value");
    if (auto it = operands_.find(t.text); it != operands_.end()) taken(it->second.pos, "an operand");
    if (auto it = outputs_named_.find(t.text); it != outputs_named_.end()) taken(it->second, "an output");
  }

  // A reduction statement's right side: RED '(' NAME ')' (max with one argument).
  bool reduction_ahead() const {
    return peek().kind == Token::Name && find_reduction(peek().text) && is("(", 1) &&
           (peek().text != "max" || (peek(2).kind == Token::Name && is(")", 3)));
  }

  void statement() {
    const Token& t = peek();
    if (t.kind != Token::Name)
      throw Error("expected a statement (NAME = expr, store(TYPE, expr) or NAME = amax(VALUE)), not " + describe(t), t.pos);
    if (t.text == "store" && is("(", 1)) {
      next();
      store("D", t.pos, t.pos);
      return;
    }
    if (reduction_ahead()) {
      const Token name = t;
      reduction(name.text, name.pos, Along::scalar);
      return;
    }
    const Token name = next();
    std::optional<Along> along;
    std::size_t index_pos = 0;
    if (is("[")) {
      next();
      index_pos = peek().pos;
      if (peek().kind != Token::Name || (peek().text != "m" && peek().text != "n"))
        throw Error("an output vector is indexed by m (one per row) or n (one per column), not " + describe(peek()), peek().pos);
      along = next().text == "n" ? Along::row : Along::column;
      expect("]", "after the index");
    }
    if (!is("="))
      throw Error(find_function(name.text) || find_reduction(name.text)
                      ? "a statement is NAME = expr, store(TYPE, expr) or NAME = amax(VALUE); '" + name.text +
                            "(...)' alone computes nothing"
                      : "expected '=' after '" + name.text + "' (a statement is NAME = expr), not " + describe(peek()),
                  find_function(name.text) || find_reduction(name.text) ? name.pos : peek().pos);
    next();
    if (peek().kind == Token::Name && peek().text == "store" && is("(", 1)) {
      if (along) throw Error("a store writes a matrix: its output has no [m] or [n]", index_pos);
      const std::size_t store_pos = next().pos;
      if (name.text != "D") check_new_name(name);
      store(name.text, name.pos, store_pos);
      return;
    }
    if (reduction_ahead()) {
      if (name.text == "D") throw Error("D is the store's output: write D = store(TYPE, expr)", name.pos);
      reduction(name.text, name.pos, along.value_or(Along::scalar));
      return;
    }
    if (along)
      throw Error("a vector output r[m] or r[n] is a reduction: " + name.text + (*along == Along::row ? "[n]" : "[m]") +
                      " = amax(VALUE), max(VALUE) or sum(VALUE)",
                  peek().pos);
    if (name.text == "D") throw Error("D is the output: write D = store(TYPE, expr)", name.pos);
    check_new_name(name);
    TreeNode e = expr();
    lets_[name.text] = {std::move(e), name.pos};
  }

  Element type_argument(const std::string& of) {
    const Token& t = peek();
    if (t.kind == Token::Name) {
      if (auto e = element_from_name(t.text)) {
        next();
        return *e;
      }
    }
    throw Error("type mismatch: " + of + " takes an element type (" + kTypeList + ") first, not " + describe(t), t.pos);
  }

  // store '(' TYPE ',' ... ')': D's (an expression) or an aux matrix's (a named value).
  void store(const std::string& out, std::size_t out_pos, std::size_t store_pos) {
    const std::size_t open = peek().pos;
    expect("(", "after store");
    const Element e = type_argument("store");
    expect(",", "after store's type");
    if (out == "D") {
      if (d_) throw Error("D is stored twice: a tree has one output D (an aux matrix is NAME = store(TYPE, VALUE))", store_pos);
      d_pos_ = peek().pos;
      d_ = expr();
      d_type_ = e;
    } else {
      const Token& v = peek();
      if (v.kind != Token::Name || !is(")", 1))
        throw Error("an aux store takes a named value (name it first: z = expr; " + out + " = store(TYPE, z)), not an expression",
                    v.pos);
      next();
      Output o;
      o.node = leaf(TreeNode::Kind::AuxStore, out_pos);
      o.node.name = out;
      o.node.value = v.text;
      o.node.element = e;
      o.value_pos = v.pos;
      outputs_.push_back(o);
      outputs_named_[out] = out_pos;
    }
    close(open, "store");
  }

  void reduction(const std::string& out, std::size_t out_pos, Along along) {
    const Token red = next();
    const std::size_t open = peek().pos;
    expect("(", "after " + red.text);
    const Token& v = peek();
    if (v.kind != Token::Name)
      throw Error("a reduction takes a named value (name it first: z = expr; NAME = " + red.text + "(z)) or D, not " +
                      describe(v),
                  v.pos);
    next();
    Output o;
    o.node = leaf(TreeNode::Kind::Reduction, out_pos);
    o.node.name = out;
    o.node.value = v.text;
    o.node.reduce = *find_reduction(red.text);
    o.node.along = along;
    o.value_pos = v.pos;
    if (outputs_named_.count(out) || lets_.count(out) || operands_.count(out))
      throw Error("'" + out + "' is already defined: name the " + red.text + " output (NAME = " + red.text + "(" + v.text + "))",
                  out_pos);
    outputs_.push_back(o);
    outputs_named_[out] = out_pos;
    close(open, red.text);
  }

  void close(std::size_t open, const std::string& what) {
    if (is(")")) {
      next();
      return;
    }
    if (is(","))
      throw Error("wrong arity: " + what + " takes " + (what == "store" ? "a type and a value" : "one named value") +
                      ", given more",
                  peek().pos);
    if (peek().kind == Token::End) throw Error("unbalanced parentheses: this '(' is never closed", open);
    throw Error("expected ')' to close " + what + "(, not " + describe(peek()), peek().pos);
  }

  struct Depth {
    int& d;
    Depth(int& d_, std::size_t pos) : d(d_) {
      if (++d > kMaxDepth) throw Error("the tree nests deeper than " + std::to_string(kMaxDepth) + " levels", pos);
    }
    ~Depth() { --d; }
  };

  TreeNode expr() {
    TreeNode t = term();
    while (is("+") || is("-")) {
      const Token op = next();
      TreeNode r = term();
      if (op.text == "-") r = compute(Op::multiplies, op.pos, {constant(-1, 1, op.pos), std::move(r)});
      t = compute(Op::plus, op.pos, {std::move(t), std::move(r)});
    }
    return t;
  }
  TreeNode term() {
    TreeNode u = unary();
    while (is("*") || is("/")) {
      const Token op = next();
      if (op.text == "/")
        throw Error("the epilogue nodes have no division (multiply by a constant or a scalar instead: x * 0.5, x * inv_scale)",
                    op.pos);
      TreeNode r = unary();
      u = compute(Op::multiplies, op.pos, {std::move(u), std::move(r)});
    }
    return u;
  }
  TreeNode unary() {
    if (is("-")) {
      const Token minus = next();
      if (peek().kind == Token::Number) {
        const Token num = next();
        auto [n, d] = rational(num.text, true, minus.pos);
        return constant(n, d, minus.pos);
      }
      Depth guard(depth_, minus.pos);
      TreeNode x = unary();
      return compute(Op::multiplies, minus.pos, {constant(-1, 1, minus.pos), std::move(x)});
    }
    return primary();
  }

  Element annotation(Element fallback, bool* given = nullptr) {
    if (!is(":")) return fallback;
    next();
    if (given) *given = true;
    return type_argument("':'");
  }

  void operand(const Token& t, TreeNode::Kind kind, bool pointer, Element e) {
    auto it = operands_.find(t.text);
    if (it == operands_.end()) {
      if (lets_.count(t.text) || outputs_named_.count(t.text))
        throw Error("'" + t.text + "' is a named value or an output, not an operand", t.pos);
      operands_[t.text] = {kind, pointer, e, t.pos};
      return;
    }
    const Operand& o = it->second;
    auto what = [](TreeNode::Kind k, bool p, Element el) {
      std::string s = k == TreeNode::Kind::Scalar ? (p ? "a scalar read from memory" : "a scalar")
                      : k == TreeNode::Kind::RowBroadcast ? "a row vector [n]"
                                                          : "a column vector [m]";
      if (k != TreeNode::Kind::Scalar) s += std::string(" of ") + element_name(el);
      return s;
    };
    if (o.kind != kind || o.pointer != pointer || o.element != e)
      throw Error("type mismatch: '" + t.text + "' is " + what(o.kind, o.pointer, o.element) + " at column " +
                      std::to_string(o.pos + 1) + ", here " + what(kind, pointer, e),
                  t.pos);
  }

  TreeNode primary() {
    Depth guard(depth_, peek().pos);
    const Token t = peek();
    if (t.kind == Token::Number) {
      next();
      auto [n, d] = rational(t.text, false, t.pos);
      return constant(n, d, t.pos);
    }
    if (is("(")) {
      next();
      TreeNode e = expr();
      if (peek().kind == Token::End) throw Error("unbalanced parentheses: this '(' is never closed", t.pos);
      expect(")", "to close the '(' at column " + std::to_string(t.pos + 1));
      return e;
    }
    if (is("*")) {
      next();
      const Token name = peek();
      if (name.kind != Token::Name || reserved(name.text) || lets_.count(name.text))
        throw Error("'*' reads a scalar from memory: *NAME (e.g. *scale_a), not *" + (name.kind == Token::End ? "" : name.text),
                    name.pos);
      next();
      operand(name, TreeNode::Kind::Scalar, true, Element::f32);
      TreeNode n = leaf(TreeNode::Kind::Scalar, t.pos);
      n.name = name.text;
      n.pointer = true;
      return n;
    }
    if (t.kind != Token::Name)
      throw Error(is(")") ? "unbalanced parentheses: this ')' closes nothing (or a value is missing before it)"
                          : "expected a value (acc, a number, C, a scalar, a vector NAME[m] or NAME[n], a named value or a "
                            "function), not " + describe(t),
                  t.pos);
    next();
    if (t.text == "acc") return leaf(TreeNode::Kind::Accumulator, t.pos);
    if (t.text == "C") {
      TreeNode n = leaf(TreeNode::Kind::SourceC, t.pos);
      bool given = false;
      n.element = annotation(Element::f32, &given);
      if (!given) n.den = 0;  // (D's type, once known)
      return n;
    }
    if (t.text == "D")
      throw Error("D is the tree's output, not a value of it (reduce or store it: amax_d = amax(D))", t.pos);
    if (element_from_name(t.text))
      throw Error("type mismatch: " + t.text + " is an element type, not a value (convert(" + t.text + ", x) rounds x to it)",
                  t.pos);
    if ((find_reduction(t.text) && !find_function(t.text)) || (t.text == "max" && is("(") && reduction_like()))
      throw Error(t.text == "max"
                      ? "wrong arity: max takes 2 values (max(x, y)); the max of a value over D is a reduction statement of "
                        "its own: NAME = max(VALUE)"
                      : t.text + " is a reduction: a statement of its own (NAME = " + t.text + "(VALUE)), not part of an expression",
                  t.pos);
    if (t.text == "store")
      throw Error("store is a statement of its own (D = store(TYPE, expr)), not part of an expression", t.pos);
    if (const Function* f = find_function(t.text)) {
      if (!is("(")) throw Error(t.text + " is a function: " + t.text + "(x)", t.pos);
      return call(*f, t);
    }
    if (is("(")) throw Error("unknown function '" + t.text + "' (the epilogue nodes have " + kFunctionList + ")", t.pos);
    if (t.text == "m" || t.text == "n") throw Error("m and n index vectors (NAME[m], NAME[n]); they are not values", t.pos);
    if (is("[")) {
      next();
      const Token ix = peek();
      if (ix.kind != Token::Name || (ix.text != "m" && ix.text != "n"))
        throw Error("a vector is indexed by m (one value per row: a column vector) or n (per column: a row vector), not " +
                        describe(ix),
                    ix.pos);
      next();
      expect("]", "after the index");
      if (lets_.count(t.text)) throw Error("'" + t.text + "' is a named value, not a vector", t.pos);
      TreeNode n = leaf(ix.text == "n" ? TreeNode::Kind::RowBroadcast : TreeNode::Kind::ColumnBroadcast, t.pos);
      n.name = t.text;
      n.element = annotation(Element::f32);
      operand(t, n.kind, false, n.element);
      return n;
    }
    if (is(":")) throw Error("a type annotation goes on C or a vector (C:bf16, bias[n]:bf16), not on '" + t.text + "'", peek().pos);
    TreeNode n = leaf(TreeNode::Kind::Scalar, t.pos);
    n.name = t.text;
    if (lets_.count(t.text)) {
      n.value = "let";  // (a reference, resolved in run)
      return n;
    }
    if (outputs_named_.count(t.text))
      throw Error("'" + t.text + "' is an output of the tree, not a value it can read", t.pos);
    operand(t, TreeNode::Kind::Scalar, false, Element::f32);
    return n;
  }
  bool reduction_like() const { return peek(1).kind == Token::Name && is(")", 2); }

  TreeNode call(const Function& f, const Token& name) {
    const std::size_t open = peek().pos;
    next();
    std::vector<TreeNode> args;
    Element e = Element::f32;
    if (f.op == Op::convert) {
      e = type_argument(name.text);
      if (!is(",")) {
        if (is(")")) throw Error("wrong arity: " + name.text + " takes a type and a value, given 1 argument", name.pos);
        expect(",", "after " + name.text + "'s type");
      }
      next();
    }
    if (!is(")")) {
      while (true) {
        args.push_back(expr());
        if (!is(",")) break;
        next();
      }
    }
    if (peek().kind == Token::End) throw Error("unbalanced parentheses: this '(' is never closed", open);
    if (!is(")")) throw Error("expected ',' or ')' in " + name.text + "(...), not " + describe(peek()), peek().pos);
    next();
    const int given = int(args.size()) + (f.op == Op::convert ? 1 : 0);
    if (given != f.arity)
      throw Error("wrong arity: " + name.text + " takes " + std::to_string(f.arity) +
                      (f.op == Op::convert ? " arguments (a type and a value)" : f.arity == 1 ? " argument" : " arguments") +
                      ", given " + std::to_string(given),
                  name.pos);
    TreeNode n = compute(f.op, name.pos, std::move(args));
    n.element = e;
    return n;
  }

  // The sinks named on `value`, innermost first (in the order of their statements).
  TreeNode wrap(const std::string& value, TreeNode e) {
    for (const Output& o : outputs_)
      if (o.node.value == value) {
        TreeNode s = o.node;
        s.children = {std::move(e)};
        e = std::move(s);
      }
    return e;
  }
  TreeNode resolve(const TreeNode& n, int depth) {
    if (depth > kMaxDepth) throw Error("the tree nests deeper than " + std::to_string(kMaxDepth) + " levels", n.pos);
    if (++nodes_ > kMaxNodes)
      throw Error("the tree has more than " + std::to_string(kMaxNodes) +
                      " nodes (each use of a named value is a copy of its nodes: a kernel computes it again)",
                  d_pos_);
    if (n.kind == TreeNode::Kind::Scalar && n.value == "let") {
      ++uses_[n.name];
      return wrap(n.name, resolve(lets_.at(n.name).expr, depth + 1));
    }
    TreeNode r = n;
    for (TreeNode& c : r.children) c = resolve(c, depth + 1);
    return r;
  }
  // C is one matrix: one element type wherever it is read.
  static void check_one_source(const TreeNode& n, const TreeNode*& first) {
    if (n.kind == TreeNode::Kind::SourceC) {
      if (!first) first = &n;
      else if (first->element != n.element)
        throw Error(std::string("type mismatch: C is ") + element_name(first->element) + " at column " + std::to_string(first->pos + 1) +
                        ", here " + element_name(n.element) + " (an unannotated C is D's type)",
                    n.pos);
    }
    for (const TreeNode& c : n.children) check_one_source(c, first);
  }
  static void fill_source_type(TreeNode& n, Element d) {
    if (n.kind == TreeNode::Kind::SourceC && n.den == 0) {
      n.element = d;
      n.den = 1;
    }
    for (TreeNode& c : n.children) fill_source_type(c, d);
  }
};

// Printing: an expression at a precedence (0: a sum, 1: a product's left operand, 2: a
// product's right operand or a unary minus's), statements for the sinks met on the way.
struct Printer {
  std::vector<std::string> statements;

  std::string expr(const TreeNode& n, int level) {
    using K = TreeNode::Kind;
    switch (n.kind) {
      case K::Accumulator: return "acc";
      case K::Constant: return constant_text(n.num, n.den);
      case K::Scalar: return (n.pointer ? "*" : "") + n.name;
      case K::RowBroadcast:
      case K::ColumnBroadcast:
        return n.name + (n.kind == K::RowBroadcast ? "[n]" : "[m]") +
               (n.element == Element::f32 ? "" : std::string(":") + element_name(n.element));
      case K::SourceC: return std::string("C:") + element_name(n.element);
      case K::Compute: {
        if (n.op == Op::plus) {
          const std::string s = expr(n.children[0], 0) + " + " + expr(n.children[1], 1);
          return level >= 1 ? "(" + s + ")" : s;
        }
        if (n.op == Op::multiplies) {
          const std::string s = expr(n.children[0], 1) + " * " + expr(n.children[1], 2);
          return level >= 2 ? "(" + s + ")" : s;
        }
        std::string s = n.op == Op::convert ? std::string("convert(") + element_name(n.element) + ", " : call_name(n.op) + "(";
        for (std::size_t i = 0; i < n.children.size(); ++i) s += (i ? ", " : "") + expr(n.children[i], 0);
        return s + ")";
      }
      case K::AuxStore:
      case K::Reduction: {
        const std::string& v = n.value;
        const TreeNode* inner = &n;
        while (inner->is_sink() && inner->value == v) inner = &inner->children[0];  // (this value's sinks)
        const std::string e = expr(*inner, 0);
        statements.push_back(v == "D" ? "D = store(@, " + e + ")" : v + " = " + e);
        sink_statements(n);
        return v;
      }
    }
    return "?";
  }
  void sink_statements(const TreeNode& n) {
    if (!n.is_sink()) return;
    if (n.children[0].is_sink() && n.children[0].value == n.value) sink_statements(n.children[0]);  // inner first
    if (n.kind == TreeNode::Kind::AuxStore)
      statements.push_back(n.name + " = store(" + element_name(n.element) + ", " + n.value + ")");
    else
      statements.push_back(n.name + (n.along == Along::row ? "[n]" : n.along == Along::column ? "[m]" : "") + " = " +
                           reduce_name(n.reduce) + "(" + n.value + ")");
  }
  static std::string call_name(Op o) {
    for (const Function& f : kFunctions)
      if (f.op == o) return f.name;
    return "?";
  }
};

std::string cpp_of(const TreeNode& n) {
  using K = TreeNode::Kind;
  switch (n.kind) {
    case K::Accumulator: return "Accumulator";
    case K::Constant:
      return "Constant<" + std::to_string(n.num) + (n.den == 1 ? "" : ", " + std::to_string(n.den)) + ">";
    case K::Scalar: return "Scalar<float>";
    case K::RowBroadcast: return std::string("RowBroadcast<") + element_cpp(n.element) + ">";
    case K::ColumnBroadcast: return std::string("ColumnBroadcast<") + element_cpp(n.element) + ">";
    case K::SourceC: return std::string("SourceC<") + element_cpp(n.element) + ">";
    case K::Compute: {
      std::string s = "Compute<" + (n.op == Op::convert ? std::string("convert<") + element_cpp(n.element) + ">"
                                                        : std::string(op_cpp(n.op)));
      for (const TreeNode& c : n.children) s += ", " + cpp_of(c);
      return s + ">";
    }
    case K::AuxStore: return std::string("AuxStore<") + element_cpp(n.element) + ", " + cpp_of(n.children[0]) + ">";
    case K::Reduction: {
      const char* r = n.along == Along::row ? "RowReduction" : n.along == Along::column ? "ColumnReduction" : "ScalarReduction";
      return std::string(r) + "<" + reduce_cpp(n.reduce) + ", " + cpp_of(n.children[0]) + ">";
    }
  }
  return "?";
}

}  // namespace

std::string constant_text(std::int64_t num, std::int64_t den) {
  std::string s = num < 0 ? "-" : "";
  std::uint64_t a = num < 0 ? std::uint64_t(-num) : std::uint64_t(num);
  const std::uint64_t d = std::uint64_t(den);
  s += std::to_string(a / d);
  std::uint64_t r = a % d;
  if (r == 0) return s;
  s += '.';
  // den divides a power of 10 (it came from a decimal): the digits end; 40 bounds any other
  for (int k = 0; r != 0 && k < 40; ++k) {
    r *= 10;
    s += char('0' + r / d);
    r %= d;
  }
  return s;
}

Tree parse_tree(std::string_view text) { return Parser(text).run(); }

std::string to_text(const Tree& t) {
  Printer p;
  const std::string root = p.expr(t.root, 0);
  std::string out;
  if (!(t.root.is_sink() && t.root.value == "D")) p.statements.push_back("D = store(@, " + root + ")");
  bool first = true;
  for (std::string s : p.statements) {
    if (auto at = s.find("store(@"); at != std::string::npos) s.replace(at + 6, 1, element_name(t.output));
    out += (first ? "" : "; ") + s;
    first = false;
  }
  return out;
}

std::string cpp_type(const TreeNode& n) { return cpp_of(n); }

std::string node_kind(const TreeNode& n) {
  using K = TreeNode::Kind;
  switch (n.kind) {
    case K::Accumulator: return "Accumulator";
    case K::Constant: return "Constant";
    case K::Scalar: return "Scalar";
    case K::RowBroadcast: return "RowBroadcast";
    case K::ColumnBroadcast: return "ColumnBroadcast";
    case K::SourceC: return "SourceC";
    case K::Compute: return "Compute";
    case K::AuxStore: return "AuxStore";
    case K::Reduction:
      return n.along == Along::row ? "RowReduction" : n.along == Along::column ? "ColumnReduction" : "ScalarReduction";
  }
  return "?";
}

std::string node_label(const TreeNode& n) {
  using K = TreeNode::Kind;
  switch (n.kind) {
    case K::Accumulator: return "acc";
    case K::Constant: return constant_text(n.num, n.den);
    case K::Scalar: return (n.pointer ? "*" : "") + n.name;
    case K::RowBroadcast: return n.name + "[n]";
    case K::ColumnBroadcast: return n.name + "[m]";
    case K::SourceC: return "C";
    case K::Compute:
      if (n.op == Op::plus) return "+";
      if (n.op == Op::multiplies) return "*";
      if (n.op == Op::convert) return std::string("convert(") + element_name(n.element) + ")";
      return Printer::call_name(n.op);
    case K::AuxStore: return n.name + " = store(" + n.value + ")";
    case K::Reduction:
      return n.name + (n.along == Along::row ? "[n]" : n.along == Along::column ? "[m]" : "") + " = " + reduce_name(n.reduce) +
             "(" + n.value + ")";
  }
  return "?";
}

}  // namespace tessera::rt::epilogue
