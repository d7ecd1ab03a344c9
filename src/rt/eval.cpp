#include "tessera/rt/eval.hpp"

#include <algorithm>
#include <unordered_map>

#include "tessera/rt/checked.hpp"
#include "tessera/rt/trace.hpp"

namespace tessera::rt {

std::string describe(const Value& v) {
  switch (v.kind) {
    case Value::Kind::IntTuple:
      return v.tuple.is_leaf() ? "the integer " + to_string(v.tuple) : "the integer tuple " + to_string(v.tuple);
    case Value::Kind::Layout:
      return "the layout " + to_string(v.layout);
    case Value::Kind::Tiler:
      return "the tiler " + to_string(v.tiler);
    case Value::Kind::Swizzled:
      return "the swizzled layout " + to_string(v.swizzled);
    case Value::Kind::Swizzle:
      return "the swizzle " + to_string(v.swizzle);
    case Value::Kind::LayoutAfterSwizzle:
      return "the layout after a swizzle " + to_string(v.after_swizzle);
  }
  return "a value";
}

std::string to_string(const Value& v) {
  switch (v.kind) {
    case Value::Kind::IntTuple:
      return to_string(v.tuple);
    case Value::Kind::Layout:
      return to_string(v.layout);
    case Value::Kind::Tiler:
      return to_string(v.tiler);
    case Value::Kind::Swizzled:
      return to_string(v.swizzled);
    case Value::Kind::Swizzle:
      return to_string(v.swizzle);
    case Value::Kind::LayoutAfterSwizzle:
      return to_string(v.after_swizzle);
  }
  return {};
}

namespace {

// Arguments of one call, with their positions, and typed accessors whose errors
// point at the offending argument.
struct Args {
  const Node& call;
  std::vector<Value> v;

  std::size_t pos(std::size_t i) const { return call.children[i].pos; }
  std::size_t size() const { return v.size(); }
  [[noreturn]] void wrong(std::size_t i, const char* wanted) const {
    throw Error(call.name + ": argument " + std::to_string(i + 1) + " must be " + wanted + ", got " + describe(v[i]),
                pos(i));
  }
  const Layout& layout(std::size_t i) const {
    if (v[i].kind != Value::Kind::Layout) wrong(i, "a layout (shape:stride)");
    return v[i].layout;
  }
  // A layout or a composed layout Sw o off o L (the operations CuTe defines on both).
  const Layout& layout_or_composed(std::size_t i) const {
    if (v[i].kind == Value::Kind::Swizzled) return v[i].swizzled.layout;
    if (v[i].kind != Value::Kind::Layout) wrong(i, "a layout (shape:stride) or a swizzled layout (Sw<B,M,S> o off o L)");
    return v[i].layout;
  }
  std::int64_t integer(std::size_t i) const {
    if (!v[i].is_int()) wrong(i, "an integer");
    if (v[i].tuple.value() == kUnderscore) wrong(i, "an integer");
    return v[i].tuple.value();
  }
  const IntTuple& tuple(std::size_t i) const {
    if (v[i].kind != Value::Kind::IntTuple) wrong(i, "an integer or a tuple of integers");
    return v[i].tuple;
  }
  // A shape: positive integers only.
  const IntTuple& shape(std::size_t i) const {
    const IntTuple& t = tuple(i);
    for (auto x : leaves(t))
      if (x <= 0) throw Error(call.name + ": argument " + std::to_string(i + 1) + " must be a shape of positive integers, got " + to_string(t), pos(i));
    return t;
  }
  // A tiler: a layout, one layout per mode, or a shape (N means N:1).
  Tiler tiler(std::size_t i) const {
    switch (v[i].kind) {
      case Value::Kind::Layout:
        return Tiler::of_layout(v[i].layout);
      case Value::Kind::Tiler:
        return v[i].tiler;
      case Value::Kind::IntTuple:
        return Tiler::of_shape(shape(i));
      default:
        wrong(i, "a tiler (a layout, a tuple of layouts, or a shape)");
    }
  }
  // A layout, or a shape taken as its column-major layout.
  Layout layout_or_shape(std::size_t i) const {
    if (v[i].kind == Value::Kind::IntTuple) return Layout::column_major(shape(i));
    return layout(i);
  }
  bool is_swizzled(std::size_t i) const { return v[i].kind == Value::Kind::Swizzled; }
  bool is(std::size_t i, Value::Kind k) const { return v[i].kind == k; }
};

// A coordinate inside a shape: an index below its size, or a tuple of such per mode.
bool compatible_coord(const IntTuple& c, const IntTuple& s) {
  if (c.is_leaf()) return c.value() >= 0 && c.value() < product(s);
  if (s.is_leaf() || s.rank() != c.rank()) return false;
  for (std::size_t i = 0; i < c.rank(); ++i)
    if (!compatible_coord(c.elems()[i], s.elems()[i])) return false;
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
    if (tracing()) trace_note("composed layout", a.call.name + "(Sw o off o L) = Sw o off o " + a.call.name +
                                      "(L): the operation acts on the layout L under the swizzle");
    return Value::of(rebuild(a.v[0].swizzled, f(l)));
  }
  return Value::of(f(l));
}

// The divide and product families (a swizzle acts on offsets, so tiling acts on L).
template <Layout (*F)(const Layout&, const Tiler&)>
Value by_tiler(const Args& a) {
  const Tiler t = a.tiler(1);
  return on_layout(a, [&](const Layout& l) { return F(l, t); });
}

Value compose(const Args& a) {
  using K = Value::Kind;
  if (a.is(1, K::Swizzled) && a.is(0, K::Layout)) return Value::of(composition(a.layout(0), a.v[1].swizzled));
  if (a.is(1, K::Swizzle) && a.is(0, K::Layout)) return Value::of(composition(a.layout(0), a.v[1].swizzle));
  if (a.is(0, K::Swizzle)) {
    if (a.is(1, K::Swizzle)) return Value::of(composition(a.v[0].swizzle, a.v[1].swizzle));
    if (a.is(1, K::Swizzled) || a.is(1, K::LayoutAfterSwizzle))
      throw Error("composition: a swizzle composed with a composed layout is not a composed layout Sw o off o L",
                  a.pos(1));
    return Value::of(rebuild(a.v[0].swizzle, 0, a.layout(1)));  // Sw o 0 o L
  }
  if (a.is(0, K::LayoutAfterSwizzle))
    throw Error("composition: L o off o Sw composed with anything more is not a composed layout CuTe can form",
                a.pos(0));
  if (a.is(1, K::Swizzled) || a.is(1, K::Swizzle) || a.is(1, K::LayoutAfterSwizzle))
    throw Error("composition: a composed layout composed with a swizzle is not a composed layout Sw o off o L",
                a.pos(1));
  if (a.v[1].kind == K::Layout) return on_layout(a, [&](const Layout& l) { return composition(l, a.v[1].layout); });
  const Tiler t = a.tiler(1);
  return on_layout(a, [&](const Layout& l) { return composition(l, t); });
}

template <bool Right>
Value inverse(const Args& a) {
  using K = Value::Kind;
  if (a.is(0, K::Swizzle)) return a.v[0];  // a swizzle is its own inverse
  if (a.is(0, K::Swizzled))
    return Value::of(Right ? right_inverse(a.v[0].swizzled) : left_inverse(a.v[0].swizzled));
  if (a.is(0, K::LayoutAfterSwizzle))
    return Value::of(Right ? right_inverse(a.v[0].after_swizzle) : left_inverse(a.v[0].after_swizzle));
  return Value::of(Right ? right_inverse(a.layout(0)) : left_inverse(a.layout(0)));
}

template <bool Up>
Value cast(const Args& a) {
  using K = Value::Kind;
  const std::int64_t n = a.integer(1);
  if (a.is(0, K::Swizzle)) return Value::of(Up ? upcast(a.v[0].swizzle, n) : downcast(a.v[0].swizzle, n));
  if (a.is(0, K::Swizzled)) return Value::of(Up ? upcast(a.v[0].swizzled, n) : downcast(a.v[0].swizzled, n));
  return Value::of(Up ? upcast(a.layout(0), n) : downcast(a.layout(0), n));
}

// max_common_vector / max_common_layout with at most one swizzled operand (either side).
template <class F>
Value common(const Args& a, F&& f) {
  if (a.is_swizzled(0) && a.is_swizzled(1))
    throw Error("CuTe defines common vectors of a swizzled and a plain layout, not of two swizzled ones", a.pos(1));
  if (a.is_swizzled(0)) return f(a.v[0].swizzled, a.layout(1));
  if (a.is_swizzled(1)) return f(a.v[1].swizzled, a.layout(0));
  return f(a.layout(0), a.layout(1));
}

std::int64_t rank_of(const Args& a) {
  switch (a.v[0].kind) {
    case Value::Kind::IntTuple:
      return static_cast<std::int64_t>(a.v[0].tuple.rank());
    case Value::Kind::Layout:
      return static_cast<std::int64_t>(a.v[0].layout.rank());
    case Value::Kind::Tiler:
      return static_cast<std::int64_t>(a.v[0].tiler.rank());
    case Value::Kind::Swizzled:
      return static_cast<std::int64_t>(a.v[0].swizzled.layout.rank());
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
         switch (a.v[0].kind) {
           case Value::Kind::IntTuple: return v_int(product(a.shape(0)));
           case Value::Kind::Layout: return v_int(a.v[0].layout.size());
           case Value::Kind::Swizzled: return v_int(a.v[0].swizzled.size());
           case Value::Kind::Tiler: return v_int(product(a.v[0].tiler.shape()));
           default: a.wrong(0, "a layout, a swizzled layout, a tiler or a tuple");
         }
       }},
      {{"cosize", "cosize(L)", "1 + the largest offset"}, 1, 1,
       // CuTe: cosize(Sw o off o L) is cosize(L) (the swizzle permutes within L's power-of-two blocks).
       [](const Args& a) { return v_int(a.layout_or_composed(0).cosize()); }},
      {{"rank", "rank(x)", "number of top-level modes"}, 1, 1, [](const Args& a) { return v_int(rank_of(a)); }},
      {{"depth", "depth(x)", "nesting depth (0 for an integer)"}, 1, 1,
       [](const Args& a) {
         switch (a.v[0].kind) {
           case Value::Kind::IntTuple: return v_int(depth(a.v[0].tuple));
           case Value::Kind::Layout: return v_int(a.v[0].layout.depth());
           case Value::Kind::Swizzled: return v_int(a.v[0].swizzled.layout.depth());
           case Value::Kind::Tiler: return v_int(depth(a.v[0].tiler.shape()));
           default: a.wrong(0, "a layout, a swizzled layout, a tiler or a tuple");
         }
       }},
      {{"flatten", "flatten(x)", "every leaf its own top-level mode"}, 1, 1,
       [](const Args& a) {
         if (a.v[0].kind == Value::Kind::IntTuple) return Value::of(flatten(a.v[0].tuple));
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
         if (a.size() == 2 && a.is_swizzled(1)) return v_int(a.v[1].swizzled.at(c));
         return v_int(l.at(c));
       }},
      {{"slice", "slice(L, coord)", "the sub-layout of the modes where coord holds _"}, 2, 2,
       [](const Args& a) {
         if (a.is_swizzled(0)) return Value::of(slice(a.tuple(1), a.v[0].swizzled));
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
         if (a.v[0].kind == Value::Kind::IntTuple) return Value::of(a.v[0].tuple[static_cast<std::size_t>(i)]);
         return on_layout(a, [&](const Layout& l) { return l.mode(static_cast<std::size_t>(i)); });
       }},
      {{"make_layout", "make_layout(shape[, stride])  or  make_layout(L0, L1, ...)", "build a layout"}, 1, 16,
       [](const Args& a) {
         if (a.v[0].kind == Value::Kind::IntTuple) {
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

const std::unordered_map<std::string, const Function*>& index() {
  static const auto m = [] {
    std::unordered_map<std::string, const Function*> r;
    for (const auto& f : table()) r.emplace(f.info.name, &f);
    return r;
  }();
  return m;
}

Value eval_node(const Node& n);

Value eval_tuple(const Node& n) {
  std::vector<Value> vals;
  vals.reserve(n.children.size());
  bool all_int = true;
  for (const auto& c : n.children) {
    vals.push_back(eval_node(c));
    if (vals.back().kind != Value::Kind::IntTuple) all_int = false;
  }
  if (all_int) {
    std::vector<IntTuple> t;
    for (auto& v : vals) t.push_back(std::move(v.tuple));
    return Value::of(IntTuple::tuple(std::move(t)));
  }
  // A tuple holding layouts is a tiler; integers and shapes in it mean N:1 per mode.
  std::vector<Tiler> elems;
  for (std::size_t i = 0; i < vals.size(); ++i) {
    const Value& v = vals[i];
    switch (v.kind) {
      case Value::Kind::Layout: elems.push_back(Tiler::of_layout(v.layout)); break;
      case Value::Kind::Tiler: elems.push_back(v.tiler); break;
      case Value::Kind::IntTuple:
        if (has_underscore(v.tuple)) throw Error("'_' is not allowed in a tiler", n.children[i].pos);
        for (auto x : leaves(v.tuple))
          if (x <= 0) throw Error("a tiler's shape must be positive, got " + std::to_string(x), n.children[i].pos);
        elems.push_back(Tiler::of_shape(v.tuple));
        break;
      case Value::Kind::Swizzled:
      case Value::Kind::Swizzle:
      case Value::Kind::LayoutAfterSwizzle:
        throw Error("a swizzle or a swizzled layout cannot be a mode of a tiler", n.children[i].pos);
    }
  }
  return Value::of(Tiler::of_tuple(std::move(elems)));
}

Value eval_node(const Node& n) {
  switch (n.kind) {
    case Node::Kind::Int:
      return Value::of(IntTuple(n.value));
    case Node::Kind::Underscore:
      return Value::of(IntTuple(kUnderscore));
    case Node::Kind::Tuple:
      return eval_tuple(n);
    case Node::Kind::Layout: {
      Value s = eval_node(n.children[0]), d = eval_node(n.children[1]);
      try {
        return Value::of(Layout(s.tuple, d.tuple));
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
      Value l = eval_node(n.children[0]);
      if (l.kind != Value::Kind::Layout)
        throw Error("Sw<B,M,S> o ... needs a layout after 'o', got " + describe(l), n.children[0].pos);
      if (n.kind == Node::Kind::LayoutAfterSwizzle) return Value::of(LayoutAfterSwizzle{l.layout, n.value, sw});
      // A literal is a composed layout as written (CuTe's make_composed_layout), so that every
      // printed result reads back to itself; compositions decay (composition(Sw<0,..>, L) is L).
      return Value::of(SwizzledLayout{sw, l.layout, n.value});
    }
    case Node::Kind::Call: {
      const auto& idx = index();
      auto it = idx.find(n.name);
      if (it == idx.end()) throw Error("unknown function '" + n.name + "' (see `tessera eval --help`)", n.pos);
      const Function& f = *it->second;
      const std::size_t k = n.children.size();
      if (k < f.min_args || k > f.max_args) {
        std::string want = f.min_args == f.max_args ? std::to_string(f.min_args)
                                                    : std::to_string(f.min_args) + " to " + std::to_string(f.max_args);
        throw Error(n.name + " takes " + want + " argument" + (f.max_args == 1 ? "" : "s") + ", got " +
                        std::to_string(k) + " (" + f.info.signature + ")",
                    k > f.max_args ? n.children[f.max_args].pos : n.pos);
      }
      Args a{n, {}};
      a.v.reserve(k);
      for (const auto& c : n.children) a.v.push_back(eval_node(c));
      // The call with its arguments' values: a step of `tessera explain` (after the
      // arguments' own steps, so nested expressions read in the order they ran).
      TraceScope scope(f.info.name);
      if (scope) {
        std::string e = n.name + "(";
        for (std::size_t i = 0; i < k; ++i)
          e += (i ? "," : "") + (a.v[i].kind == Value::Kind::Tiler ? tiler_expression(a.v[i].tiler) : to_string(a.v[i]));
        scope.expr(e + ")");
        scope.set_pos(n.pos);
      }
      for (std::size_t i = 0; i < k; ++i)
        if (a.v[i].kind == Value::Kind::IntTuple && has_underscore(a.v[i].tuple) && !(n.name == "slice" && i == 1))
          throw Error("'_' is only allowed in the coordinate of slice", n.children[i].pos);
      try {
        if (!scope) return f.fn(a);
        Value r = f.fn(a);
        scope.close(to_string(r));
        return r;
      } catch (Error& e) {
        if (e.pos() == npos) e.set_pos(n.pos);
        if (dynamic_cast<OverflowError*>(&e) == nullptr) {
          // Name the operation when the message does not already start with it.
          std::string msg = e.what();
          if (msg.rfind(n.name, 0) != 0 && msg.rfind("inadmissible", 0) != 0 && msg.rfind("integer overflow", 0) != 0) {
            Error wrapped(n.name + ": " + msg, e.pos());
            throw wrapped;
          }
        }
        throw;
      }
    }
  }
  throw Error("internal: unknown node", n.pos);
}

}  // namespace

Value evaluate(const Node& n) { return eval_node(n); }

Value evaluate(std::string_view input) { return eval_node(parse(input)); }

const std::vector<FunctionInfo>& functions() {
  static const std::vector<FunctionInfo> v = [] {
    std::vector<FunctionInfo> r;
    for (const auto& f : table()) r.push_back(f.info);
    return r;
  }();
  return v;
}

}  // namespace tessera::rt
