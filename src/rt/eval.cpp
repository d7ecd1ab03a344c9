#include "tessera/rt/eval.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <string_view>
#include <utility>

#include "tessera/rt/parsed_expression.hpp"
#include "tessera/rt/syntax_tree.hpp"

#include "tessera/rt/checked.hpp"
#include "tessera/rt/trace.hpp"

namespace tessera::rt {

std::string describe(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::IntTuple:
      return v.tuple().is_leaf() ? "the integer " + to_string(v.tuple()) : "the integer tuple " + to_string(v.tuple());
    case Value::Kind::Layout:
      return "the layout " + to_string(v.layout());
    case Value::Kind::Tiler:
      return "the tiler " + to_string(v.tiler());
    case Value::Kind::Swizzled:
      return "the swizzled layout " + to_string(v.swizzled());
    case Value::Kind::Swizzle:
      return "the swizzle " + to_string(v.swizzle());
    case Value::Kind::LayoutAfterSwizzle:
      return "the layout after a swizzle " + to_string(v.after_swizzle());
  }
  return "a value";
}

std::string to_string(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::IntTuple:
      return to_string(v.tuple());
    case Value::Kind::Layout:
      return to_string(v.layout());
    case Value::Kind::Tiler:
      return to_string(v.tiler());
    case Value::Kind::Swizzled:
      return to_string(v.swizzled());
    case Value::Kind::Swizzle:
      return to_string(v.swizzle());
    case Value::Kind::LayoutAfterSwizzle:
      return to_string(v.after_swizzle());
  }
  return {};
}

namespace {

using detail::parse_tree;
using detail::SyntaxNode;
using detail::SyntaxTree;
using detail::tree_of;

// Arguments of one call, with their positions, and typed accessors whose errors
// point at the offending argument.
struct Args {
  const SyntaxTree& tree;
  const SyntaxNode& call;
  std::string_view name;  // the function's
  std::vector<Value> v;

  std::size_t pos(std::size_t i) const { return tree.child(call, i).pos; }
  std::size_t size() const { return v.size(); }
  [[noreturn]] void wrong(std::size_t i, const char* wanted) const {
    throw Error(std::string(name) + ": argument " + std::to_string(i + 1) + " must be " + wanted + ", got " +
                    describe(v[i]),
                pos(i));
  }
  const Layout& layout(std::size_t i) const {
    if (v[i].kind() != Value::Kind::Layout) wrong(i, "a layout (shape:stride)");
    return v[i].layout();
  }
  // A layout or a composed layout Sw o off o L (the operations CuTe defines on both).
  const Layout& layout_or_composed(std::size_t i) const {
    if (v[i].kind() == Value::Kind::Swizzled) return v[i].swizzled().layout;
    if (v[i].kind() != Value::Kind::Layout) wrong(i, "a layout (shape:stride) or a swizzled layout (Sw<B,M,S> o off o L)");
    return v[i].layout();
  }
  std::int64_t integer(std::size_t i) const {
    if (!v[i].is_int()) wrong(i, "an integer");
    if (v[i].tuple().value() == kUnderscore) wrong(i, "an integer");
    return v[i].tuple().value();
  }
  const IntTuple& tuple(std::size_t i) const {
    if (v[i].kind() != Value::Kind::IntTuple) wrong(i, "an integer or a tuple of integers");
    return v[i].tuple();
  }
  // A shape: positive integers only.
  const IntTuple& shape(std::size_t i) const {
    const IntTuple& t = tuple(i);
    for (const std::int64_t x : t.leaf_values())
      if (x <= 0)
        throw Error(std::string(name) + ": argument " + std::to_string(i + 1) +
                        " must be a shape of positive integers, got " + to_string(t),
                    pos(i));
    return t;
  }
  // A tiler: a layout, one layout per mode, or a shape (N means N:1).
  // A tiler value is read where it is; one made from a layout or a shape is kept in `made`.
  const Tiler& tiler(std::size_t i, std::optional<Tiler>& made) const {
    switch (v[i].kind()) {
      case Value::Kind::Layout:
        return made.emplace(Tiler::of_layout(v[i].layout()));
      case Value::Kind::Tiler:
        return v[i].tiler();
      case Value::Kind::IntTuple:
        return made.emplace(Tiler::of_shape(shape(i)));
      default:
        wrong(i, "a tiler (a layout, a tuple of layouts, or a shape)");
    }
  }
  // A layout, or a shape taken as its column-major layout.
  Layout layout_or_shape(std::size_t i) const {
    if (v[i].kind() == Value::Kind::IntTuple) return Layout::column_major(shape(i));
    return layout(i);
  }
  bool is_swizzled(std::size_t i) const { return v[i].kind() == Value::Kind::Swizzled; }
  bool is(std::size_t i, Value::Kind k) const { return v[i].kind() == k; }
};

// A coordinate inside a shape: an index below its size, or a tuple of such per mode.
bool compatible_coord(const IntTuple& c, const IntTuple& s) {
  if (c.is_leaf()) return c.value() >= 0 && c.value() < product(s);
  if (s.is_leaf() || s.rank() != c.rank()) return false;
  auto si = s.elems().begin();
  for (const IntTuple& ci : c.elems())
    if (!compatible_coord(ci, *si++)) return false;
  return true;
}

using Handler = Value (*)(const Args&);

struct Function {
  FunctionInfo info;
  std::size_t min_args, max_args;
  Handler fn;
};

Value v_int(std::int64_t x) { return Value::of(IntTuple(x)); }

// An operation CuTe defines on a composed layout by applying it to the layout under the
// swizzle and offset: op(Sw o off o L) = Sw o off o op(L) (op(L) for a plain layout).
template <class F>
Value on_layout(const Args& a, F&& f) {
  const Layout& l = a.layout_or_composed(0);
  if (a.is_swizzled(0)) {
    if (tracing())
      trace_note("composed layout", std::string(a.name) + "(Sw o off o L) = Sw o off o " + std::string(a.name) +
                                        "(L): the operation acts on the layout L under the swizzle");
    return Value::of(rebuild(a.v[0].swizzled(), f(l)));
  }
  return Value::of(f(l));
}

// The divide and product families (a swizzle acts on offsets, so tiling acts on L).
template <Layout (*F)(const Layout&, const Tiler&)>
Value by_tiler(const Args& a) {
  std::optional<Tiler> made;
  const Tiler& t = a.tiler(1, made);
  return on_layout(a, [&](const Layout& l) { return F(l, t); });
}

Value compose(const Args& a) {
  using K = Value::Kind;
  if (a.is(1, K::Swizzled) && a.is(0, K::Layout)) return Value::of(composition(a.layout(0), a.v[1].swizzled()));
  if (a.is(1, K::Swizzle) && a.is(0, K::Layout)) return Value::of(composition(a.layout(0), a.v[1].swizzle()));
  if (a.is(0, K::Swizzle)) {
    if (a.is(1, K::Swizzle)) return Value::of(composition(a.v[0].swizzle(), a.v[1].swizzle()));
    if (a.is(1, K::Swizzled) || a.is(1, K::LayoutAfterSwizzle))
      throw Error("composition: a swizzle composed with a composed layout is not a composed layout Sw o off o L",
                  a.pos(1));
    return Value::of(rebuild(a.v[0].swizzle(), 0, a.layout(1)));  // Sw o 0 o L
  }
  if (a.is(0, K::LayoutAfterSwizzle))
    throw Error("composition: L o off o Sw composed with anything more is not a composed layout CuTe can form",
                a.pos(0));
  if (a.is(1, K::Swizzled) || a.is(1, K::Swizzle) || a.is(1, K::LayoutAfterSwizzle))
    throw Error("composition: a composed layout composed with a swizzle is not a composed layout Sw o off o L",
                a.pos(1));
  if (a.v[1].kind() == K::Layout) return on_layout(a, [&](const Layout& l) { return composition(l, a.v[1].layout()); });
  std::optional<Tiler> made;
  const Tiler& t = a.tiler(1, made);
  return on_layout(a, [&](const Layout& l) { return composition(l, t); });
}

template <bool Right>
Value inverse(const Args& a) {
  using K = Value::Kind;
  if (a.is(0, K::Swizzle)) return a.v[0];  // a swizzle is its own inverse
  if (a.is(0, K::Swizzled))
    return Value::of(Right ? right_inverse(a.v[0].swizzled()) : left_inverse(a.v[0].swizzled()));
  if (a.is(0, K::LayoutAfterSwizzle))
    return Value::of(Right ? right_inverse(a.v[0].after_swizzle()) : left_inverse(a.v[0].after_swizzle()));
  return Value::of(Right ? right_inverse(a.layout(0)) : left_inverse(a.layout(0)));
}

template <bool Up>
Value cast(const Args& a) {
  using K = Value::Kind;
  const std::int64_t n = a.integer(1);
  if (a.is(0, K::Swizzle)) return Value::of(Up ? upcast(a.v[0].swizzle(), n) : downcast(a.v[0].swizzle(), n));
  if (a.is(0, K::Swizzled)) return Value::of(Up ? upcast(a.v[0].swizzled(), n) : downcast(a.v[0].swizzled(), n));
  return Value::of(Up ? upcast(a.layout(0), n) : downcast(a.layout(0), n));
}

// max_common_vector / max_common_layout with at most one swizzled operand (either side).
template <class F>
Value common(const Args& a, F&& f) {
  if (a.is_swizzled(0) && a.is_swizzled(1))
    throw Error("CuTe defines common vectors of a swizzled and a plain layout, not of two swizzled ones", a.pos(1));
  if (a.is_swizzled(0)) return f(a.v[0].swizzled(), a.layout(1));
  if (a.is_swizzled(1)) return f(a.v[1].swizzled(), a.layout(0));
  return f(a.layout(0), a.layout(1));
}

std::int64_t rank_of(const Args& a) {
  switch (a.v[0].kind()) {
    case Value::Kind::IntTuple:
      return static_cast<std::int64_t>(a.v[0].tuple().rank());
    case Value::Kind::Layout:
      return static_cast<std::int64_t>(a.v[0].layout().rank());
    case Value::Kind::Tiler:
      return static_cast<std::int64_t>(a.v[0].tiler().rank());
    case Value::Kind::Swizzled:
      return static_cast<std::int64_t>(a.v[0].swizzled().layout.rank());
    default:
      a.wrong(0, "a layout, a swizzled layout, a tiler or a tuple");
  }
  return 0;
}

const std::vector<Function>& table() {
  static const std::vector<Function> t = {
      {{"coalesce", "coalesce(L[, profile])", "merge modes that continue each other (per mode of profile)"}, 1, 2,
       [](const Args& a) {
         if (a.size() == 2) {
           const IntTuple p = a.tuple(1);
           return on_layout(a, [&](const Layout& l) { return coalesce(l, p); });
         }
         return on_layout(a, [](const Layout& l) { return coalesce(l); });
       }},
      {{"filter", "filter(L[, profile])", "remove stride-0 and size-1 modes, then coalesce"}, 1, 2,
       [](const Args& a) {
         if (a.size() == 2) {
           const IntTuple p = a.tuple(1);
           return on_layout(a, [&](const Layout& l) { return filter(l, p); });
         }
         return on_layout(a, [](const Layout& l) { return filter(l); });
       }},
      {{"composition", "composition(A, B)", "R(i) = A(B(i)); B a layout, a tiler or a shape"}, 2, 2,
       compose},
      {{"complement", "complement(L[, cotarget])", "the offsets in [0, cotarget) that L does not reach"}, 1, 2,
       [](const Args& a) {
         // complement(Sw o off o L) is L's complement: it is about the offsets L does not reach.
         if (a.is_swizzled(0) && tracing()) trace_note("composed layout", "complement(Sw o off o L) is the complement of L");
         if (a.size() == 2) return Value::of(complement(a.layout_or_composed(0), product(a.shape(1))));
         return Value::of(complement(a.layout_or_composed(0)));
       }},
      {{"right_inverse", "right_inverse(L)", "R with L(R(i)) == i on the largest contiguous range"}, 1, 1,
       inverse<true>},
      {{"left_inverse", "left_inverse(L)", "R with R(L(i)) == i"}, 1, 1,
       inverse<false>},
      {{"logical_divide", "logical_divide(L, tiler)", "((tile),(rest)) per mode of the tiler"}, 2, 2,
       by_tiler<logical_divide>},
      {{"zipped_divide", "zipped_divide(L, tiler)", "((tiles...),(rests...))"}, 2, 2, by_tiler<zipped_divide>},
      {{"tiled_divide", "tiled_divide(L, tiler)", "((tiles...),rest0,rest1,...)"}, 2, 2, by_tiler<tiled_divide>},
      {{"flat_divide", "flat_divide(L, tiler)", "(tile0,tile1,...,rest0,rest1,...)"}, 2, 2, by_tiler<flat_divide>},
      {{"logical_product", "logical_product(L, tiler)", "(L, complement(L) o tiler)"}, 2, 2,
       by_tiler<logical_product>},
      {{"zipped_product", "zipped_product(L, tiler)", "((blocks...),(tiles...))"}, 2, 2, by_tiler<zipped_product>},
      {{"tiled_product", "tiled_product(L, tiler)", "((blocks...),tile0,tile1,...)"}, 2, 2, by_tiler<tiled_product>},
      {{"flat_product", "flat_product(L, tiler)", "(block0,...,tile0,...)"}, 2, 2, by_tiler<flat_product>},
      {{"blocked_product", "blocked_product(L, T)", "L repeated over T, mode by mode (T a layout or shape)"}, 2, 2,
       [](const Args& a) {
         const Layout t = a.layout_or_shape(1);
         return on_layout(a, [&](const Layout& l) { return blocked_product(l, t); });
       }},
      {{"raked_product", "raked_product(L, T)", "L interleaved over T, mode by mode (T a layout or shape)"}, 2, 2,
       [](const Args& a) {
         const Layout t = a.layout_or_shape(1);
         return on_layout(a, [&](const Layout& l) { return raked_product(l, t); });
       }},
      {{"tile_to_shape", "tile_to_shape(L, shape[, order])",
        "blocked_product of L until it has the shape (copies column-major, or in order)"}, 2, 3,
       [](const Args& a) {
         const IntTuple s = a.shape(1);
         const IntTuple o = a.size() == 3 ? a.tuple(2) : IntTuple::tuple(std::vector<IntTuple>{});
         return on_layout(a, [&](const Layout& l) { return tile_to_shape(l, s, o); });
       }},
      {{"max_common_vector", "max_common_vector(A, B)", "how many contiguous elements A and B agree on"}, 2, 2,
       [](const Args& a) { return common(a, [](const auto& x, const Layout& y) { return v_int(max_common_vector(x, y)); }); }},
      {{"max_common_layout", "max_common_layout(A, B)", "the layout of those common contiguous elements"}, 2, 2,
       [](const Args& a) { return common(a, [](const auto& x, const Layout& y) { return Value::of(max_common_layout(x, y)); }); }},
      {{"size", "size(x)", "number of elements of a layout, or product of a tuple"}, 1, 1,
       [](const Args& a) {
         switch (a.v[0].kind()) {
           case Value::Kind::IntTuple: return v_int(product(a.shape(0)));
           case Value::Kind::Layout: return v_int(a.v[0].layout().size());
           case Value::Kind::Swizzled: return v_int(a.v[0].swizzled().size());
           case Value::Kind::Tiler: return v_int(product(a.v[0].tiler().shape()));
           default: a.wrong(0, "a layout, a swizzled layout, a tiler or a tuple");
         }
       }},
      {{"cosize", "cosize(L)", "1 + the largest offset"}, 1, 1,
       // CuTe: cosize(Sw o off o L) is cosize(L) (the swizzle permutes within L's power-of-two blocks).
       [](const Args& a) { return v_int(a.layout_or_composed(0).cosize()); }},
      {{"rank", "rank(x)", "number of top-level modes"}, 1, 1, [](const Args& a) { return v_int(rank_of(a)); }},
      {{"depth", "depth(x)", "nesting depth (0 for an integer)"}, 1, 1,
       [](const Args& a) {
         switch (a.v[0].kind()) {
           case Value::Kind::IntTuple: return v_int(depth(a.v[0].tuple()));
           case Value::Kind::Layout: return v_int(a.v[0].layout().depth());
           case Value::Kind::Swizzled: return v_int(a.v[0].swizzled().layout.depth());
           case Value::Kind::Tiler: return v_int(depth(a.v[0].tiler().shape()));
           default: a.wrong(0, "a layout, a swizzled layout, a tiler or a tuple");
         }
       }},
      {{"flatten", "flatten(x)", "every leaf its own top-level mode"}, 1, 1,
       [](const Args& a) {
         if (a.v[0].kind() == Value::Kind::IntTuple) return Value::of(flatten(a.v[0].tuple()));
         return on_layout(a, [](const Layout& l) { return flatten(l); });
       }},
      {{"upcast", "upcast(L, N)", "the layout for elements N times wider"}, 2, 2,
       cast<true>},
      {{"downcast", "downcast(L, N)", "the layout for elements N times narrower"}, 2, 2,
       cast<false>},
      {{"idx2crd", "idx2crd(i, shape)", "the coordinate of index i in the shape (column-major)"}, 2, 2,
       [](const Args& a) {
         const std::int64_t i = a.integer(0);
         const IntTuple& s = a.shape(1);
         if (i < 0 || i >= product(s))
           throw Error("idx2crd: index " + std::to_string(i) + " is outside [0, " + std::to_string(product(s)) + ")",
                       a.pos(0));
         return Value::of(idx2crd(i, s));
       }},
      {{"crd2idx", "crd2idx(coord, L)  or  crd2idx(coord, shape, stride)", "the offset of a coordinate"}, 2, 3,
       [](const Args& a) {
         const IntTuple& c = a.tuple(0);
         if (has_underscore(c)) throw Error("crd2idx: the coordinate may not contain _", a.pos(0));
         Layout l = a.size() == 3 ? Layout(a.shape(1), a.tuple(2)) : a.layout_or_composed(1);
         if (!compatible_coord(c, l.shape))
           throw Error("crd2idx: the coordinate " + to_string(c) + " is outside the shape " + to_string(l.shape),
                       a.pos(0));
         if (a.size() == 2 && a.is_swizzled(1)) return v_int(a.v[1].swizzled().at(c));
         return v_int(l.at(c));
       }},
      {{"slice", "slice(L, coord)", "the sub-layout of the modes where coord holds _"}, 2, 2,
       [](const Args& a) {
         if (a.is_swizzled(0)) return Value::of(slice(a.tuple(1), a.v[0].swizzled()));
         return Value::of(slice(a.tuple(1), a.layout(0)));
       }},
      {{"shape", "shape(L)", "the shape of a layout"}, 1, 1,
       [](const Args& a) { return Value::of(a.layout_or_composed(0).shape); }},
      {{"stride", "stride(L)", "the stride of a layout"}, 1, 1,
       [](const Args& a) {
         if (a.is_swizzled(0))
           throw Error("stride: a swizzled layout has no stride (CuTe deletes it: its offsets are not linear); "
                       "use stride of the layout under the swizzle",
                       a.pos(0));
         return Value::of(a.layout(0).stride);
       }},
      {{"get", "get(x, i)", "mode i of a layout or a tuple"}, 2, 2,
       [](const Args& a) {
         const std::int64_t i = a.integer(1);
         const std::int64_t r = rank_of(a);
         if (i < 0 || i >= r)
           throw Error("get: mode " + std::to_string(i) + " does not exist (rank " + std::to_string(r) + ")", a.pos(1));
         if (a.v[0].kind() == Value::Kind::IntTuple) return Value::of(a.v[0].tuple()[static_cast<std::size_t>(i)]);
         return on_layout(a, [&](const Layout& l) { return l.mode(static_cast<std::size_t>(i)); });
       }},
      {{"make_layout", "make_layout(shape[, stride])  or  make_layout(L0, L1, ...)", "build a layout"}, 1, 16,
       [](const Args& a) {
         if (a.v[0].kind() == Value::Kind::IntTuple) {
           if (a.size() == 1) return Value::of(Layout::column_major(a.shape(0)));
           if (a.size() == 2) return Value::of(Layout(a.shape(0), a.tuple(1)));
           throw Error("make_layout: with a shape, at most one more argument (the stride)", a.pos(2));
         }
         std::vector<Layout> modes;
         for (std::size_t i = 0; i < a.size(); ++i) modes.push_back(a.layout(i));
         return Value::of(make_layout(modes));
       }},
  };
  return t;
}

// The functions by name: those of the name's length, compared (a few at most; hashing the
// name cost more than that).
const Function* find_function(std::string_view name) {
  static const auto by_length = [] {
    std::array<std::vector<const Function*>, 32> r;
    for (const auto& f : table()) r.at(std::string_view(f.info.name).size()).push_back(&f);
    return r;
  }();
  if (name.size() >= by_length.size()) return nullptr;
  for (const Function* f : by_length[name.size()])
    if (std::memcmp(f->info.name, name.data(), name.size()) == 0) return f;
  return nullptr;
}

// Evaluation of a parsed expression, node by node (each node knows its children's places).
class Evaluator {
 public:
  explicit Evaluator(const SyntaxTree& t) : t_(t) {}
  Value eval(const SyntaxNode& n);

 private:
  const SyntaxTree& t_;

  // An integer tuple written out, built in one piece from its spelling (no value per element).
  IntTuple integers(const SyntaxNode& n) const {
    if (n.kind == Node::Kind::Int) return IntTuple(n.value);
    return t_.literal(n);
  }
  // The shape or the stride of a layout (the parser admits only integer tuples there).
  IntTuple layout_part(const SyntaxNode& n) {
    if (n.integers) return integers(n);
    Value v = eval(n);
    if (v.kind() != Value::Kind::IntTuple)
      throw Error("the shape and the stride of a layout must be integers or tuples of integers, got " + describe(v),
                  n.pos);
    return std::move(v.tuple());
  }
  Value tuple(const SyntaxNode& n);
  Value call(const SyntaxNode& n);
};

Value Evaluator::tuple(const SyntaxNode& n) {
  std::vector<Value> vals;
  vals.reserve(n.count);
  bool all_int = true;
  for (std::size_t i = 0; i < n.count; ++i) {
    vals.push_back(eval(t_.child(n, i)));
    if (vals.back().kind() != Value::Kind::IntTuple) all_int = false;
  }
  if (all_int) {
    IntTuple t = IntTuple::tuple({});
    for (const Value& v : vals) t.push_back(v.tuple());
    return Value::of(std::move(t));
  }
  // A tuple holding layouts is a tiler; integers and shapes in it mean N:1 per mode.
  std::vector<Tiler> elems;
  elems.reserve(vals.size());
  for (std::size_t i = 0; i < vals.size(); ++i) {
    const Value& v = vals[i];
    const std::size_t pos = t_.child(n, i).pos;
    switch (v.kind()) {
      case Value::Kind::Layout: elems.push_back(Tiler::of_layout(v.layout())); break;
      case Value::Kind::Tiler: elems.push_back(v.tiler()); break;
      case Value::Kind::IntTuple:
        if (has_underscore(v.tuple())) throw Error("'_' is not allowed in a tiler", pos);
        for (const std::int64_t x : v.tuple().leaf_values())
          if (x <= 0) throw Error("a tiler's shape must be positive, got " + std::to_string(x), pos);
        elems.push_back(Tiler::of_shape(v.tuple()));
        break;
      case Value::Kind::Swizzled:
      case Value::Kind::Swizzle:
      case Value::Kind::LayoutAfterSwizzle:
        throw Error("a swizzle or a swizzled layout cannot be a mode of a tiler", pos);
    }
  }
  return Value::of(Tiler::of_tuple(std::move(elems)));
}

Value Evaluator::eval(const SyntaxNode& n) {
  switch (n.kind) {
    case Node::Kind::Int:
    case Node::Kind::Underscore:
      return Value::of(integers(n));
    case Node::Kind::Tuple:
      return n.integers ? Value::of(integers(n)) : tuple(n);
    case Node::Kind::Layout: {
      IntTuple s = layout_part(t_.child(n, 0)), d = layout_part(t_.child(n, 1));
      try {
        return Value::of(Layout(std::move(s), std::move(d)));
      } catch (Error& e) {
        if (e.pos() == npos) e.set_pos(n.pos);
        throw;
      }
    }
    case Node::Kind::Swizzled:
    case Node::Kind::Swizzle:
    case Node::Kind::LayoutAfterSwizzle: {
      Swizzle sw;
      try {
        sw = Swizzle(n.swizzle[0], n.swizzle[1], n.swizzle[2]);
      } catch (Error& e) {
        if (e.pos() == npos) e.set_pos(n.pos);
        throw;
      }
      if (n.kind == Node::Kind::Swizzle) return Value::of(sw);
      const SyntaxNode& under = t_.child(n, 0);
      Value l = eval(under);
      if (l.kind() != Value::Kind::Layout)
        throw Error("Sw<B,M,S> o ... needs a layout after 'o', got " + describe(l), under.pos);
      if (n.kind == Node::Kind::LayoutAfterSwizzle)
        return Value::of(LayoutAfterSwizzle{std::move(l.layout()), n.value, sw});
      // A literal is a composed layout as written (CuTe's make_composed_layout), so that every
      // printed result reads back to itself; compositions decay (composition(Sw<0,..>, L) is L).
      return Value::of(SwizzledLayout{sw, std::move(l.layout()), n.value});
    }
    case Node::Kind::Call:
      return call(n);
  }
  throw Error("internal: unknown node", n.pos);
}

Value Evaluator::call(const SyntaxNode& n) {
  const Function* found = find_function(n.name);
  if (!found) throw Error("unknown function '" + std::string(n.name) + "' (see `tessera eval --help`)", n.pos);
  const Function& f = *found;
  const std::size_t k = n.count;
  if (k < f.min_args || k > f.max_args) {
    std::string want = f.min_args == f.max_args ? std::to_string(f.min_args)
                                                : std::to_string(f.min_args) + " to " + std::to_string(f.max_args);
    throw Error(std::string(n.name) + " takes " + want + " argument" + (f.max_args == 1 ? "" : "s") + ", got " +
                    std::to_string(k) + " (" + f.info.signature + ")",
                k > f.max_args ? t_.child(n, f.max_args).pos : n.pos);
  }
  Args a{t_, n, n.name, {}};
  a.v.reserve(k);
  for (std::size_t i = 0; i < k; ++i) a.v.push_back(eval(t_.child(n, i)));
  // The call with its arguments' values: a step of `tessera explain` (after the
  // arguments' own steps, so nested expressions read in the order they ran).
  TraceScope scope(f.info.name);
  if (scope) {
    std::string e = std::string(n.name) + "(";
    for (std::size_t i = 0; i < k; ++i)
      e += (i ? "," : "") +
           (a.v[i].kind() == Value::Kind::Tiler ? tiler_expression(a.v[i].tiler()) : to_string(a.v[i]));
    scope.expr(e + ")");
    scope.set_pos(n.pos);
  }
  for (std::size_t i = 0; i < k; ++i)
    if (a.v[i].kind() == Value::Kind::IntTuple && has_underscore(a.v[i].tuple()) && !(n.name == "slice" && i == 1))
      throw Error("'_' is only allowed in the coordinate of slice", t_.child(n, i).pos);
  try {
    if (!scope) return f.fn(a);
    Value r = f.fn(a);
    scope.close(to_string(r));
    return r;
  } catch (Error& e) {
    if (e.pos() == npos) e.set_pos(n.pos);
    if (dynamic_cast<OverflowError*>(&e) == nullptr) {
      // Name the operation when the message does not already start with it.
      const std::string_view msg = e.what();
      if (!msg.starts_with(n.name) && !msg.starts_with("inadmissible") && !msg.starts_with("integer overflow")) {
        Error wrapped(std::string(n.name) + ": " + std::string(msg), e.pos());
        throw wrapped;
      }
    }
    throw;
  }
}

}  // namespace

Value evaluate(const Node& n) {
  const SyntaxTree t = tree_of(n);
  return Evaluator(t).eval(t.root());
}

Value evaluate(std::string_view input) {
  const SyntaxTree t = parse_tree(input);
  return Evaluator(t).eval(t.root());
}

ParsedExpression::ParsedExpression(std::string_view input) : tree_(parse_tree(input)) {}

namespace {
void check_names(const SyntaxTree& t, const SyntaxNode& n) {
  if (n.kind == Node::Kind::Call && !find_function(n.name))
    throw Error("unknown function '" + std::string(n.name) + "' (see `tessera eval --help`)", n.pos);
  for (std::size_t i = 0; i < n.count; ++i) check_names(t, t.child(n, i));
}
}  // namespace

void ParsedExpression::check_function_names() const { check_names(tree_, tree_.root()); }

Value ParsedExpression::evaluate() const { return Evaluator(tree_).eval(tree_.root()); }

const std::vector<FunctionInfo>& functions() {
  static const std::vector<FunctionInfo> v = [] {
    std::vector<FunctionInfo> r;
    for (const auto& f : table()) r.push_back(f.info);
    return r;
  }();
  return v;
}

}  // namespace tessera::rt
