#include "epilogue_check.hpp"

#include <cmath>
#include <functional>
#include <limits>

#include "tessera/kernels/epilogue_tree/compute.hpp"
#include "tessera/kernels/epilogue_tree/sinks.hpp"

namespace tessera::epilogue_check {

using rt::epilogue::Along;
using rt::epilogue::Element;
using rt::epilogue::Op;
using rt::epilogue::Reduce;
using rt::epilogue::Tree;
using rt::epilogue::TreeNode;
using K = TreeNode::Kind;
namespace tree = tessera::kernels::tree;

namespace {

// f(T{}) for the element type e.
template <class F>
auto with_element(Element e, F f) {
  switch (e) {
    case Element::bf16: return f(tessera::bfloat16_t{});
    case Element::f16: return f(tessera::half_t{});
    case Element::e4m3: return f(tessera::float_e4m3_t{});
    case Element::e5m2: return f(tessera::float_e5m2_t{});
    case Element::f32: break;
  }
  return f(float{});
}
// x stored as an element of type e and read back: tree::from_float / tree::to_float, what D's
// store, AuxStore and the leaves' loads do.
float stored(Element e, float x) {
  return with_element(e, [x](auto t) {
    using T = decltype(t);
    return tree::to_float(tree::from_float<T>(x));
  });
}

// A deterministic generator (the same inputs for a seed on every platform).
struct Random {
  std::uint64_t s;
  std::uint64_t next() {
    s += 0x9e3779b97f4a7c15ull;
    std::uint64_t z = s;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double uniform(double lo, double hi) { return lo + (hi - lo) * double(next() >> 11) * 0x1.0p-53; }
};

void collect(const TreeNode& n, std::map<std::string, std::pair<K, Element>>& leaves, bool& has_c, Element& c_type) {
  if (n.kind == K::RowBroadcast || n.kind == K::ColumnBroadcast || n.kind == K::Scalar) leaves[n.name] = {n.kind, n.element};
  if (n.kind == K::SourceC) {
    has_c = true;
    c_type = n.element;
  }
  for (const TreeNode& ch : n.children) collect(ch, leaves, has_c, c_type);
}

// The outputs in a fixed order: D, then the sinks in pre-order (root first).
void sinks_of(const TreeNode& n, std::vector<const TreeNode*>& out) {
  if (n.is_sink()) out.push_back(&n);
  for (const TreeNode& c : n.children) sinks_of(c, out);
}
std::int64_t reduced_length(const TreeNode& s, std::int64_t m, std::int64_t n) {
  return s.along == Along::row ? n : s.along == Along::column ? m : 1;
}
std::int64_t reduced_index(const TreeNode& s, std::int64_t i, std::int64_t j) {
  return s.along == Along::row ? j : s.along == Along::column ? i : 0;
}
std::string kind_of(const TreeNode& s) { return rt::epilogue::node_kind(s); }
std::string type_of(const TreeNode& s) {
  return s.kind == K::AuxStore ? rt::epilogue::element_name(s.element) : rt::epilogue::reduce_name(s.reduce);
}

// The reduction op's structs of sinks.hpp, for r.
template <class F>
auto with_reduction(Reduce r, F f) {
  switch (r) {
    case Reduce::maximum_value: return f(tree::maximum_value{});
    case Reduce::sum: return f(tree::sum{});
    case Reduce::absolute_maximum: break;
  }
  return f(tree::absolute_maximum{});
}

// ---- the emulation: f32 through the nodes' host ops ----
struct Emulator {
  const Inputs& in;
  std::map<const TreeNode*, std::vector<float>> sink_values;
  std::int64_t i = 0, j = 0;

  float leaf_vector(const TreeNode& n) const {
    const auto& v = in.vectors.at(n.name);
    return v[std::size_t(n.kind == K::RowBroadcast ? j : i)];
  }
  float eval(const TreeNode& n) {
    switch (n.kind) {
      case K::Accumulator: return in.acc[std::size_t(j * in.m + i)];
      case K::Constant: return float(n.num) / float(n.den);  // (tree::Constant<Num, Den>::value's formula)
      case K::Scalar: return in.scalars.at(n.name);
      case K::RowBroadcast:
      case K::ColumnBroadcast: return leaf_vector(n);
      case K::SourceC: return in.c[std::size_t(j * in.m + i)];
      case K::Compute: {
        float a[3] = {0, 0, 0};
        for (std::size_t k = 0; k < n.children.size() && k < 3; ++k) a[k] = eval(n.children[k]);
        switch (n.op) {
          case Op::plus: return tree::plus{}(a[0], a[1]);
          case Op::multiplies: return tree::multiplies{}(a[0], a[1]);
          case Op::multiply_add: return tree::multiply_add{}(a[0], a[1], a[2]);
          case Op::maximum: return tree::maximum{}(a[0], a[1]);
          case Op::minimum: return tree::minimum{}(a[0], a[1]);
          case Op::absolute: return tree::absolute{}(a[0]);
          case Op::clamp: return tree::clamp{}(a[0], a[1], a[2]);
          case Op::relu: return tree::relu{}(a[0]);
          case Op::gelu: return tree::gelu{}(a[0]);
          case Op::gelu_tanh: return tree::gelu_tanh{}(a[0]);
          case Op::silu: return tree::silu{}(a[0]);
          case Op::convert:
            return with_element(n.element, [&](auto t) { return tree::convert<decltype(t)>{}(a[0]); });
        }
        return 0.0f;
      }
      case K::AuxStore: {
        const float x = eval(n.children[0]);
        sink_values[&n][std::size_t(j * in.m + i)] = stored(n.element, x);
        return x;
      }
      case K::Reduction: {
        const float x = eval(n.children[0]);
        float& r = sink_values[&n][std::size_t(reduced_index(n, i, j))];
        // an element's frame: its partial from the identity, combined into the output (end_tile)
        with_reduction(n.reduce, [&](auto op) {
          using R = decltype(op);
          R::combine(&r, R::of(R::identity, R::element(x)));
          return 0;
        });
        return x;
      }
    }
    return 0.0f;
  }
};

// ---- the reference: the math in double, with an error bound per value ----
constexpr double u32 = 0x1.0p-24;
constexpr double eps32 = 0x1.0p-23;
// Half an ulp relative, and half the smallest subnormal.
double rounding(Element e, double x) {
  const double a = std::fabs(x);
  switch (e) {
    case Element::bf16: return a * 0x1.0p-8 + 0x1.0p-134;
    case Element::f16: return a * 0x1.0p-11 + 0x1.0p-25;
    case Element::e4m3: return a * 0x1.0p-4 + 0x1.0p-10;
    case Element::e5m2: return a * 0x1.0p-3 + 0x1.0p-17;
    case Element::f32: break;
  }
  return a * u32 + 0x1.0p-150;
}
struct Ref {
  double v = 0, e = 0;  // the exact value and a bound on the f32 computation's distance from it
  double magnitude = 0;  // a sum's: the sum of its terms' |x| + e (its additions' rounding)
};
struct Reference {
  const Inputs& in;
  std::map<const TreeNode*, std::vector<Ref>> sink_values;
  std::int64_t i = 0, j = 0;

  static double gelu(double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); }
  static double gelu_tanh(double x) {
    const double k = std::sqrt(2.0 / 3.14159265358979323846);
    return 0.5 * x * (1.0 + std::tanh(k * (x + 0.044715 * x * x * x)));
  }
  static double silu(double x) { return x / (1.0 + std::exp(-x)); }
  // f32 rounding of a computed value carrying error e
  static double r32(double v, double e) { return u32 * (std::fabs(v) + e) + 0x1.0p-150; }

  Ref eval(const TreeNode& n) {
    switch (n.kind) {
      case K::Accumulator: return {in.acc[std::size_t(j * in.m + i)], 0};
      case K::Constant: {
        const double v = double(n.num) / double(n.den);
        return {v, r32(v, 0) * 2};  // (Num and Den in f32, then their quotient)
      }
      case K::Scalar: return {in.scalars.at(n.name), 0};
      case K::RowBroadcast:
      case K::ColumnBroadcast: return {in.vectors.at(n.name)[std::size_t(n.kind == K::RowBroadcast ? j : i)], 0};
      case K::SourceC: return {in.c[std::size_t(j * in.m + i)], 0};
      case K::Compute: {
        Ref a[3];
        for (std::size_t k = 0; k < n.children.size() && k < 3; ++k) a[k] = eval(n.children[k]);
        const Ref x = a[0], y = a[1], z = a[2];
        switch (n.op) {
          case Op::plus: {
            const double v = x.v + y.v, e = x.e + y.e;
            return {v, e + r32(v, e)};
          }
          case Op::multiplies: {
            const double v = x.v * y.v, e = std::fabs(x.v) * y.e + std::fabs(y.v) * x.e + x.e * y.e;
            return {v, e + r32(v, e)};
          }
          case Op::multiply_add: {  // a * b + c: two roundings unless contracted
            const double p = x.v * y.v, ep = std::fabs(x.v) * y.e + std::fabs(y.v) * x.e + x.e * y.e;
            const double v = p + z.v, e = ep + r32(p, ep) + z.e;
            return {v, e + r32(v, e)};
          }
          case Op::maximum: return {std::max(x.v, y.v), std::max(x.e, y.e)};
          case Op::minimum: return {std::min(x.v, y.v), std::max(x.e, y.e)};
          case Op::absolute: return {std::fabs(x.v), x.e};
          case Op::clamp: return {std::min(std::max(x.v, y.v), z.v), std::max({x.e, y.e, z.e})};
          case Op::relu: return {x.v < 0 ? 0.0 : x.v, x.e};
          case Op::gelu:
          case Op::gelu_tanh:
          case Op::silu: {
            const double v = n.op == Op::gelu ? gelu(x.v) : n.op == Op::gelu_tanh ? gelu_tanh(x.v) : silu(x.v);
            // slope at most 1.13 (GELU's 1.129) times the argument's error, plus the stated bound
            return {v, 1.13 * x.e + 4.5 * eps32 * (std::fabs(x.v) + x.e) + r32(v, 0)};
          }
          case Op::convert: return {x.v, x.e + rounding(n.element, x.v + (x.v < 0 ? -x.e : x.e))};
        }
        return {};
      }
      case K::AuxStore: {
        const Ref x = eval(n.children[0]);
        sink_values[&n][std::size_t(j * in.m + i)] = {x.v, x.e + rounding(n.element, std::fabs(x.v) + x.e)};
        return x;
      }
      case K::Reduction: {
        const Ref x = eval(n.children[0]);
        Ref& r = sink_values[&n][std::size_t(reduced_index(n, i, j))];
        switch (n.reduce) {
          case Reduce::absolute_maximum:
            r = {std::max(r.v, std::fabs(x.v)), std::max(r.e, x.e)};
            break;
          case Reduce::maximum_value:
            r = {std::max(r.v, x.v), std::max(r.e, x.e)};
            break;
          case Reduce::sum:  // (the f32 additions' rounding is added once the count is known)
            r = {r.v + x.v, r.e + x.e, r.magnitude + std::fabs(x.v) + x.e};
            break;
        }
        return x;
      }
    }
    return {};
  }
};

}  // namespace

Inputs generate_inputs(const Tree& t, std::int64_t m, std::int64_t n, std::uint64_t seed) {
  Inputs in;
  in.m = m;
  in.n = n;
  Random r{seed};
  std::map<std::string, std::pair<K, Element>> leaves;
  bool has_c = false;
  Element c_type = Element::f32;
  collect(t.root, leaves, has_c, c_type);
  in.acc.resize(std::size_t(m * n));
  for (float& a : in.acc) a = float(r.uniform(-4, 4));
  if (has_c) {
    in.c.resize(std::size_t(m * n));
    for (float& c : in.c) c = stored(c_type, float(r.uniform(-2, 2)));
  }
  for (const auto& [name, leaf] : leaves) {
    if (leaf.first == K::Scalar) {
      in.scalars[name] = float(r.uniform(0.5, 2));
    } else {
      std::vector<float> v(std::size_t(leaf.first == K::RowBroadcast ? n : m));
      for (float& x : v) x = stored(leaf.second, float(r.uniform(-2, 2)));
      in.vectors[name] = std::move(v);
    }
  }
  return in;
}

std::vector<OutputValues> emulate(const Tree& t, const Inputs& in) {
  std::vector<const TreeNode*> sinks;
  sinks_of(t.root, sinks);
  Emulator em{in, {}};
  for (const TreeNode* s : sinks) {
    const std::int64_t len = s->kind == K::AuxStore ? in.m * in.n : reduced_length(*s, in.m, in.n);
    const float init = s->kind == K::AuxStore ? 0.0f : with_reduction(s->reduce, [](auto op) { return decltype(op)::identity; });
    em.sink_values[s].assign(std::size_t(len), init);
  }
  OutputValues d{"D", "D", rt::epilogue::element_name(t.output), {}, {}};
  d.values.resize(std::size_t(in.m * in.n));
  // (tree::evaluate_tile's order: columns outer, rows inner)
  for (em.j = 0; em.j < in.n; ++em.j)
    for (em.i = 0; em.i < in.m; ++em.i) d.values[std::size_t(em.j * in.m + em.i)] = stored(t.output, em.eval(t.root));
  std::vector<OutputValues> out{d};
  for (const TreeNode* s : sinks) {
    OutputValues o{s->name, kind_of(*s), type_of(*s), {}, {}};
    for (float x : em.sink_values[s]) o.values.push_back(x);
    out.push_back(std::move(o));
  }
  return out;
}

std::vector<OutputValues> reference(const Tree& t, const Inputs& in) {
  std::vector<const TreeNode*> sinks;
  sinks_of(t.root, sinks);
  Reference ref{in, {}};
  for (const TreeNode* s : sinks) {
    const std::int64_t len = s->kind == K::AuxStore ? in.m * in.n : reduced_length(*s, in.m, in.n);
    Ref init{};
    if (s->kind == K::Reduction && s->reduce == Reduce::maximum_value) init.v = -std::numeric_limits<double>::infinity();
    ref.sink_values[s].assign(std::size_t(len), init);
  }
  OutputValues d{"D", "D", rt::epilogue::element_name(t.output), {}, {}};
  for (ref.j = 0; ref.j < in.n; ++ref.j)
    for (ref.i = 0; ref.i < in.m; ++ref.i) {
      const Ref x = ref.eval(t.root);
      d.values.push_back(x.v);
      d.bound.push_back(x.e + rounding(t.output, std::fabs(x.v) + x.e));
    }
  std::vector<OutputValues> out{d};
  for (const TreeNode* s : sinks) {
    OutputValues o{s->name, kind_of(*s), type_of(*s), {}, {}};
    const double count = s->kind == K::AuxStore ? 1.0 : double(in.m * in.n) / double(reduced_length(*s, in.m, in.n));
    for (const Ref& r : ref.sink_values[s]) {
      o.values.push_back(r.v);
      // a sum's f32 additions: each partial sum rounded, at most count * u of the sum of |x|
      o.bound.push_back(s->kind == K::Reduction && s->reduce == Reduce::sum ? r.e + count * u32 * r.magnitude : r.e);
    }
    out.push_back(std::move(o));
  }
  return out;
}

std::vector<OutputCheck> compare(const std::vector<OutputValues>& emulated, const std::vector<OutputValues>& expected) {
  std::vector<OutputCheck> out;
  for (std::size_t k = 0; k < emulated.size() && k < expected.size(); ++k) {
    const OutputValues &a = emulated[k], &b = expected[k];
    OutputCheck c{b.name, b.kind, b.type, std::int64_t(b.values.size())};
    for (std::size_t i = 0; i < a.values.size() && i < b.values.size(); ++i) {
      const double err = std::fabs(a.values[i] - b.values[i]);
      const double bound = i < b.bound.size() ? b.bound[i] : 0.0;
      const double ratio = std::isnan(err) ? std::numeric_limits<double>::infinity()
                           : bound > 0     ? err / bound
                           : err == 0      ? 0.0
                                           : std::numeric_limits<double>::infinity();
      if (!(err <= c.max_error)) c.max_error = err;
      if (!(ratio <= c.worst_ratio)) {
        c.worst_ratio = ratio;
        c.bound_at_worst = bound;
      }
    }
    c.pass = a.values.size() == b.values.size() && c.worst_ratio <= 1.0;
    out.push_back(c);
  }
  return out;
}

}  // namespace tessera::epilogue_check
