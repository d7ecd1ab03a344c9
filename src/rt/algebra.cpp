// CuTe's layout algebra on runtime values, implemented from the definitions.
// Where CuTe's static-integer code takes a particular path (which modes it keeps,
// where it coalesces), the comments say so: the conformance vectors pin it down.
#include "tessera/rt/algebra.hpp"

#include <algorithm>
#include <string>

#include "tessera/rt/checked.hpp"
#include "tessera/rt/error.hpp"
#include "tessera/rt/trace.hpp"

namespace tessera::rt {

namespace {

// A flat list of modes (shape, stride), the working form of most algorithms.
struct Flat {
  std::vector<std::int64_t> s, d;
  std::size_t rank() const { return s.size(); }
};

Flat flat_of(const Layout& l) { return Flat{leaves(l.shape), leaves(l.stride)}; }

// A list of modes as a layout: one mode is an integer layout, several a flat tuple.
Layout layout_of(const std::vector<std::int64_t>& s, const std::vector<std::int64_t>& d) {
  if (s.size() == 1) return Layout(IntTuple(s[0]), IntTuple(d[0]));
  std::vector<IntTuple> ts, td;
  for (std::size_t i = 0; i < s.size(); ++i) {
    ts.emplace_back(s[i]);
    td.emplace_back(d[i]);
  }
  return Layout(IntTuple::tuple(std::move(ts)), IntTuple::tuple(std::move(td)));
}

// Layout from tuples of modes: make_layout(m0, m1, ...).
Layout tuple_layout(const std::vector<Layout>& modes) { return make_layout(modes); }

std::string str(std::int64_t v) { return std::to_string(v); }

// Notation for traced steps (only formatted while a trace is installed).
std::string mode_text(std::int64_t s, std::int64_t d) { return str(s) + ":" + str(d); }
std::string modes_text(const std::vector<std::int64_t>& s, const std::vector<std::int64_t>& d) {
  std::string r;
  for (std::size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + mode_text(s[i], d[i]);
  return r;
}
std::string tiler_text(const Tiler& t) { return tiler_expression(t); }
std::string call_text(const char* op, const std::string& a, const std::string& b = {}) {
  return std::string(op) + "(" + a + (b.empty() ? "" : "," + b) + ")";
}
// The step's result; `r` is the caller's temporary, moved into its return value once.
Layout&& traced(TraceScope& s, Layout&& r) {
  if (s) s.close(to_string(r));
  return std::move(r);
}

void require_nonnegative_strides(const Layout& l, const char* op) {
  for (auto d : leaves(l.stride))
    if (d < 0) throw Error(std::string(op) + ": negative strides are not supported (" + to_string(l) + ")");
}

}  // namespace

// ---------------------------------------------------------------- integers

std::int64_t shape_div(std::int64_t a, std::int64_t b) {
  if (b == 0) throw Error("shape_div: division by zero");
  if (a % b != 0 && (a == 0 || b % a != 0))
    throw Error("shape_div: neither " + str(a) + " nor " + str(b) + " divides the other");
  std::int64_t q = a / b;
  if (q != 0) return q;
  return (a > 0 ? 1 : a < 0 ? -1 : 0) * (b > 0 ? 1 : -1);
}

IntTuple shape_div(const IntTuple& a, const IntTuple& b) {
  if (a.is_tuple()) {
    if (b.is_tuple()) {
      if (a.rank() != b.rank()) throw Error("shape_div: ranks differ: " + to_string(a) + " and " + to_string(b));
      std::vector<IntTuple> out;
      for (std::size_t i = 0; i < a.rank(); ++i) out.push_back(shape_div(a.elems()[i], b.elems()[i]));
      return IntTuple::tuple(std::move(out));
    }
    std::int64_t rest = b.value();
    std::vector<IntTuple> out;
    for (const auto& ai : a.elems()) {
      out.push_back(shape_div(ai, IntTuple(rest)));
      rest = shape_div(rest, product(ai));
    }
    return IntTuple::tuple(std::move(out));
  }
  if (b.is_tuple()) return IntTuple(shape_div(a.value(), product(b)));
  return IntTuple(shape_div(a.value(), b.value()));
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  if (b <= 0) throw Error("ceil_div: divisor must be positive");
  if (a <= 0) return a / b;
  return (a - 1) / b + 1;
}

// ---------------------------------------------------------------- coalesce, filter

Layout flatten(const Layout& l) {
  if (l.shape.is_leaf()) return l;
  return Layout(rt::flatten(l.shape), rt::flatten(l.stride));
}

// Walk the flat modes from the back, merging s0:d0 into s1:d1 when s0*d0 == d1,
// skipping size-1 modes; an all-ones layout becomes 1:0 (CuTe's bw_coalesce).
Layout coalesce(const Layout& l) {
  TraceScope scope("coalesce");
  if (scope) {
    scope.expr(call_text("coalesce", to_string(l)));
    scope.note("flat modes", modes_text(leaves(l.shape), leaves(l.stride)));
  }
  Flat f = flat_of(l);
  const std::size_t R = f.rank();
  std::vector<std::int64_t> ns{f.s[R - 1]}, nd{f.d[R - 1]};  // stored reversed: back() is the front
  for (std::size_t k = R - 1; k-- > 0;) {
    const std::int64_t s = f.s[k], d = f.d[k];
    if (s == 1) {
      if (scope) scope.note("drop", mode_text(s, d) + " (size 1)");
      continue;
    }
    if (ns.size() == 1 && ns.back() == 1) {
      if (scope) scope.note("drop", mode_text(ns.back(), nd.back()) + " (size 1)");
      ns.back() = s;
      nd.back() = d;
    } else if (checked_mul(s, d, "coalesce") == nd.back()) {
      const std::int64_t merged = checked_mul(s, ns.back(), "coalesce");
      if (scope)
        scope.note("merge", mode_text(s, d) + " with " + mode_text(ns.back(), nd.back()) + " (" + str(s) + "*" +
                                str(d) + " = " + str(nd.back()) + ") -> " + mode_text(merged, d));
      ns.back() = merged;
      nd.back() = d;
    } else {
      ns.push_back(s);
      nd.push_back(d);
    }
  }
  if (ns.size() == 1 && ns[0] == 1) return traced(scope, Layout(IntTuple(1), IntTuple(0)));
  std::reverse(ns.begin(), ns.end());
  std::reverse(nd.begin(), nd.end());
  return traced(scope, layout_of(ns, nd));
}

namespace {
// coalesce that keeps the function outside the domain too: a trailing size-1 mode
// stands for an unbounded mode of its stride (CuTe's coalesce_x, used by composition).
Layout coalesce_x(const Layout& l) {
  Flat f = flat_of(l);
  if (f.s.back() != 1) return coalesce(l);
  if (tracing()) trace_note("last mode", "the last mode of A has size 1: its stride is kept (the last mode is unbounded), "
                          "so it is coalesced as size 2");
  f.s.back() = 2;
  return coalesce(layout_of(f.s, f.d));
}

template <class F>
Layout transform_with_profile(const Layout& l, const IntTuple& profile, F&& f, const char* op) {
  if (profile.is_leaf()) return f(l, profile);
  if (profile.rank() > l.rank())
    throw Error(std::string(op) + ": the profile " + to_string(profile) + " has more modes than the layout " +
                to_string(l));
  std::vector<Layout> modes;
  for (std::size_t i = 0; i < l.rank(); ++i)
    modes.push_back(i < profile.rank() ? transform_with_profile(l.mode(i), profile.elems()[i], f, op) : l.mode(i));
  return tuple_layout(modes);
}
}  // namespace

Layout coalesce(const Layout& l, const IntTuple& profile) {
  TraceScope scope("coalesce");
  if (scope) {
    scope.expr(call_text("coalesce", to_string(l), to_string(profile)));
    scope.note("by profile", "each mode of L at a leaf of " + to_string(profile) + " is coalesced on its own");
  }
  return traced(scope, transform_with_profile(l, profile, [](const Layout& m, const IntTuple&) { return coalesce(m); },
                                              "coalesce"));
}

Layout filter(const Layout& l) {
  TraceScope scope("filter");
  if (scope) scope.expr(call_text("filter", to_string(l)));
  // Zero-stride modes get size 1, then coalesce removes every size-1 mode.
  IntTuple s = l.shape;
  std::vector<std::int64_t> fs = leaves(l.shape), fd = leaves(l.stride);
  for (std::size_t i = 0; i < fs.size(); ++i)
    if (fd[i] == 0) fs[i] = 1;
  const Layout ones(unflatten(l.shape, fs), l.stride);
  if (scope) scope.note("stride-0 modes get size 1", to_string(ones), true);
  return traced(scope, coalesce(ones));
}

Layout filter(const Layout& l, const IntTuple& profile) {
  TraceScope scope("filter");
  if (scope) scope.expr(call_text("filter", to_string(l), to_string(profile)));
  return traced(scope, transform_with_profile(l, profile, [](const Layout& m, const IntTuple&) { return filter(m); },
                                              "filter"));
}

// ---------------------------------------------------------------- composition

namespace {

// Compose the (coalesced) lhs with one integer mode n:r of the rhs.
// usage[i] accumulates the largest digit each rhs mode puts into mode i of lhs,
// so that the caller can check that the rhs modes never carry into each other.
// `log` (null unless traced) receives CuTe's steps for this mode in words.
Layout compose_leaf(const Flat& a, std::int64_t n, std::int64_t r, std::vector<std::int64_t>& usage,
                    std::vector<std::string>* log) {
  if (r == 0) {
    if (log) log->push_back("stride 0: every index maps to A(0) -> " + mode_text(n, 0));
    return Layout(IntTuple(n), IntTuple(0));
  }
  if (r < 0) throw Error("composition: negative strides in the right operand are not supported");
  const std::size_t R = a.rank();
  if (R == 1) {
    const std::int64_t d = checked_mul(r, a.d[0], "composition stride");
    if (log) log->push_back("A has one mode " + mode_text(a.s[0], a.d[0]) + ": stride " + str(r) + "*" + str(a.d[0]) +
                            " -> " + mode_text(n, d));
    return Layout(IntTuple(n), IntTuple(d));
  }
  std::vector<std::int64_t> rs, rd;
  std::int64_t rest_shape = n, rest_stride = r;
  for (std::size_t i = 0; i + 1 < R; ++i) {
    const std::int64_t si = a.s[i];
    if (rest_shape > 1 && rest_stride < si && checked_mul(rest_stride, rest_shape - 1, "composition") < si) {
      // All of the rest lies inside this mode: n:r picks digits r*c < s_i, no division needed.
      usage[i] = checked_add(usage[i], rest_stride * (rest_shape - 1), "composition");
      rs.push_back(rest_shape);
      rd.push_back(checked_mul(rest_stride, a.d[i], "composition stride"));
      if (log)
        log->push_back("mode " + mode_text(si, a.d[i]) + " of A holds all of " + mode_text(rest_shape, rest_stride) +
                       " (" + str(rest_stride) + "*" + str(rest_shape - 1) + " < " + str(si) + ") -> " +
                       mode_text(rest_shape, rd.back()));
      rest_shape = 1;
      rest_stride = 1;
      continue;
    }
    // CuTe's stride divisibility condition holds for a size-1 leaf too (its static_assert
    // does not look at the shape): composition((2,1):(1,1), 1:3) does not compile in CuTe.
    if (rest_shape == 1 && rest_stride % si != 0 && rest_stride > si)
      throw Error("inadmissible composition: the stride " + str(r) + " of the right layout does not divide into " +
                  "the shape of the left layout (" + str(rest_stride) + " is neither a multiple of its mode of size " +
                  str(si) + " nor smaller than it)");
    if (rest_shape > 1 && si % rest_stride != 0 && rest_stride % si != 0)
      throw Error("inadmissible composition: the stride " + str(r) + " of the right layout does not divide into " +
                  "the shape of the left layout (" + str(rest_stride) + " and its mode of size " + str(si) +
                  " do not divide each other)");
    const std::int64_t next_shape = si % rest_stride == 0 ? si / rest_stride : 1;
    const std::int64_t next_stride = rest_stride % si == 0 ? rest_stride / si : 1;
    if (next_shape == 1 || rest_shape == 1) {
      if (log)
        log->push_back("mode " + mode_text(si, a.d[i]) + " of A: " +
                       (rest_shape == 1 ? std::string("nothing left to place")
                                        : "the stride " + str(rest_stride) + " steps over it (shape_div(" + str(si) +
                                              "," + str(rest_stride) + ") = 1)") +
                       "; stride left shape_div(" + str(rest_stride) + "," + str(si) + ") = " + str(next_stride));
      rest_stride = next_stride;
      continue;
    }
    const std::int64_t new_shape = std::min(next_shape, rest_shape);
    if (rest_shape % new_shape != 0)
      throw Error("inadmissible composition: the shape " + str(n) + " of the right layout does not divide into " +
                  "the shape of the left layout (" + str(rest_shape) + " is not a multiple of " + str(new_shape) +
                  ")");
    usage[i] = checked_add(usage[i], checked_mul(rest_stride, new_shape - 1, "composition"), "composition");
    rs.push_back(new_shape);
    rd.push_back(checked_mul(rest_stride, a.d[i], "composition stride"));
    if (log)
      log->push_back("mode " + mode_text(si, a.d[i]) + " of A: shape_div(" + str(si) + "," + str(rest_stride) +
                     ") = " + str(next_shape) + ", min with " + str(rest_shape) + " -> " +
                     mode_text(new_shape, rd.back()) + " (stride " + str(rest_stride) + "*" + str(a.d[i]) +
                     "); left " + str(rest_shape / new_shape) + " with stride shape_div(" + str(rest_stride) + "," +
                     str(si) + ") = " + str(next_stride));
    rest_shape /= new_shape;
    rest_stride = next_stride;
  }
  const std::int64_t last = checked_mul(rest_stride, a.d[R - 1], "composition stride");
  if (log && (rs.empty() || rest_shape != 1))
    log->push_back("last mode " + mode_text(a.s[R - 1], a.d[R - 1]) + " of A (unbounded) takes the rest -> " +
                   mode_text(rest_shape, last));
  if (rs.empty()) return Layout(IntTuple(rest_shape), IntTuple(last));
  if (rest_shape != 1) {
    rs.push_back(rest_shape);
    rd.push_back(last);
  }
  return layout_of(rs, rd);
}

Layout compose_tree(const Flat& a, const IntTuple& s, const IntTuple& d, std::vector<std::int64_t>& usage) {
  if (s.is_leaf()) {
    if (!tracing()) return compose_leaf(a, s.value(), d.value(), usage, nullptr);
    std::vector<std::string> log;
    // A failing mode still shows the steps that led to it.
    struct Flush {
      std::vector<std::string>& log;
      std::string head;
      ~Flush() {
        try {
          std::string text;
          for (const auto& l : log) text += (text.empty() ? "" : "; ") + l;
          trace_note(head, text);
        } catch (...) {  // a note is never worth a failure
        }
      }
    } flush{log, "mode " + mode_text(s.value(), d.value()) + " of B"};
    return compose_leaf(a, s.value(), d.value(), usage, &log);
  }
  std::vector<Layout> modes;
  for (std::size_t i = 0; i < s.rank(); ++i) modes.push_back(compose_tree(a, s.elems()[i], d.elems()[i], usage));
  return tuple_layout(modes);
}

}  // namespace

namespace {
void check_overlap(const Layout& a, const Layout& b, const Flat& fa, const std::vector<std::int64_t>& usage) {
  // B's modes must occupy disjoint digits of A's mixed radix (the last mode of A is
  // unbounded): otherwise their sum carries and composing mode by mode is not A o B.
  for (std::size_t i = 0; i + 1 < fa.rank(); ++i)
    if (usage[i] > fa.s[i] - 1)
      throw Error("inadmissible composition: the modes of " + to_string(b) + " overlap in the mixed radix of " +
                  to_string(a) + " (they share its mode " + str(fa.s[i]) + ":" + str(fa.d[i]) +
                  " of coalesce(A)), so composing mode by mode would not give A(B(i))");
}

// per_top_mode: check the carry rule within each top-level mode of B only. The divide
// family uses it: (tile, rest) may meet beyond the end of A when the tiler does not
// divide A, exactly as in CuTe, but each part is still A composed with it.
Layout composition_impl(const Layout& a, const Layout& b, bool per_top_mode) {
  const Flat fa = flat_of(coalesce_x(a));
  if (!per_top_mode || b.shape.is_leaf()) {
    std::vector<std::int64_t> usage(fa.rank(), 0);
    Layout r = compose_tree(fa, b.shape, b.stride, usage);
    check_overlap(a, b, fa, usage);
    if (tracing()) trace_note("overlap check", "the modes of B occupy disjoint digits of coalesce(A): admissible");
    return r;
  }
  std::vector<Layout> modes;
  for (std::size_t i = 0; i < b.rank(); ++i) {
    std::vector<std::int64_t> usage(fa.rank(), 0);
    const Layout bi = b.mode(i);
    modes.push_back(compose_tree(fa, bi.shape, bi.stride, usage));
    check_overlap(a, bi, fa, usage);
  }
  return tuple_layout(modes);
}
}  // namespace

Layout composition(const Layout& a, const Layout& b) {
  TraceScope scope("composition");
  if (scope) {
    scope.expr(call_text("composition", to_string(a), to_string(b)));
    scope.note("rule", "R(i) = A(B(i)): each mode of B is laid over coalesce(A), mode by mode (CuTe's shape_div "
                       "and modulus steps), then the modes of B must not overlap in A's mixed radix");
  }
  return traced(scope, composition_impl(a, b, false));
}

Layout composition(const Layout& a, const Tiler& t) {
  // An integer N composes as N:1 (CuTe's composition with an integral tiler), 1 included.
  if (t.is_layout && t.integral) return composition(a, Layout(t.layout.shape, IntTuple(1)));
  if (t.is_layout) return composition(a, t.layout);
  TraceScope scope("composition");
  if (scope) {
    scope.expr(call_text("composition", to_string(a), tiler_text(t)));
    scope.note("by mode", "a tiler composes mode i of A with its i-th layout; modes of A past the tiler's rank are "
                          "dropped");
  }
  if (t.rank() > a.rank())
    throw Error("composition: the tiler " + to_string(t) + " has more modes (" + str(t.rank()) +
                ") than the layout " + to_string(a) + " (" + str(a.rank()) + ")");
  // CuTe keeps only the modes the tiler reaches: the modes of A past the tiler's rank are
  // dropped (the divides keep them: they are built on logical_divide, not on this).
  std::vector<Layout> modes;
  for (std::size_t i = 0; i < t.rank(); ++i) modes.push_back(composition(a.mode(i), t.elems[i]));
  return traced(scope, tuple_layout(modes));
}

SwizzledLayout composition(const SwizzledLayout& a, const Layout& b) { return {a.swizzle, composition(a.layout, b), a.offset}; }
SwizzledLayout composition(const SwizzledLayout& a, const Tiler& t) { return {a.swizzle, composition(a.layout, t), a.offset}; }

// ---------------------------------------------------------------- complement

Layout complement(const Layout& l, std::int64_t cotarget) {
  TraceScope scope("complement");
  if (scope) scope.expr(call_text("complement", to_string(l), str(cotarget)));
  require_nonnegative_strides(l, "complement");
  const Layout fl = filter(l);
  Flat f = flat_of(fl);
  if (f.rank() == 1 && f.d[0] == 0) {  // nothing is reached but 0: the complement is all of [0, cotarget)
    if (scope) scope.note("image", "filter(L) reaches only offset 0: the complement is all of [0, " + str(cotarget) + ")");
    return traced(scope, coalesce(Layout(IntTuple(cotarget), IntTuple(cotarget == 1 ? 0 : 1))));
  }
  // Sort the modes by stride; each gap between consecutive strides becomes a mode.
  std::vector<std::size_t> order(f.rank());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return f.d[x] < f.d[y]; });
  if (scope) {
    std::vector<std::int64_t> ss, sd;
    for (auto k : order) ss.push_back(f.s[k]), sd.push_back(f.d[k]);
    scope.note("modes sorted by stride", modes_text(ss, sd));
  }
  std::vector<std::int64_t> rs, rd{1};
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::int64_t d = f.d[order[k]], s = f.s[order[k]];
    const std::int64_t gap = d / rd.back();
    if (gap == 0)
      throw Error("complement: the layout " + to_string(l) + " is not injective (its mode " + str(s) + ":" + str(d) +
                  " starts inside the span of the previous modes)");
    rs.push_back(gap);
    rd.push_back(checked_mul(d, s, "complement stride"));
    if (scope)
      scope.note("gap below " + mode_text(s, d), str(d) + " / " + str(rd[rd.size() - 2]) + " = " + str(gap) +
                                                     " -> mode " + mode_text(gap, rd[rd.size() - 2]) +
                                                     "; next stride " + str(d) + "*" + str(s) + " = " + str(rd.back()));
  }
  const std::int64_t rest = ceil_div(cotarget, rd.back());
  rs.push_back(rest);
  if (scope)
    scope.note("rest up to the cotarget", "ceil_div(" + str(cotarget) + ", " + str(rd.back()) + ") = " + str(rest) +
                                              " -> mode " + mode_text(rest, rd.back()));
  // rd already holds the stride of the rest mode as its last element.
  const Layout gaps = layout_of(rs, rd);
  if (scope) scope.note("gaps and rest, before coalesce", to_string(gaps), true);
  return traced(scope, coalesce(gaps));
}

Layout complement(const Layout& l) {
  std::int64_t cotarget = 0;
  {
    const TraceMute mute;  // complement repeats filter(L) itself
    cotarget = filter(l).cosize();
  }
  if (tracing()) trace_note("cotarget", "cosize(filter(L)) = " + str(cotarget));
  return complement(l, cotarget);
}

// ---------------------------------------------------------------- inverses

Layout right_inverse(const Layout& l) {
  TraceScope scope("right_inverse");
  if (scope) scope.expr(call_text("right_inverse", to_string(l)));
  const Layout cl = coalesce(l);
  Flat f = flat_of(cl);
  std::vector<std::int64_t> prefix(f.rank());
  std::int64_t p = 1;
  for (std::size_t i = 0; i < f.rank(); ++i) {
    prefix[i] = p;
    p = checked_mul(p, f.s[i], "right_inverse");
  }
  // CuTe orders the modes by stride with an exchange sort, which is not stable: of two
  // modes with the same stride a later one may come first, and the first one met is the one
  // followed (modes sharing a stride make the layout non-injective; CuTe's choice decides).
  std::vector<std::size_t> order(f.rank());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  for (std::size_t i = 0; i < order.size(); ++i)
    for (std::size_t j = i + 1; j < order.size(); ++j)
      if (f.d[order[j]] < f.d[order[i]]) std::swap(order[i], order[j]);
  // Follow the strides from 1: the mode with stride 1, then the one whose stride is the end
  // of that mode, and so on; those modes, at their positions in the domain, form the inverse.
  if (scope) {
    std::vector<std::int64_t> ss, sd;
    for (auto k : order) ss.push_back(f.s[k]), sd.push_back(f.d[k]);
    scope.note("modes sorted by stride", modes_text(ss, sd));
  }
  std::vector<std::int64_t> rs{1}, rd{0};
  std::int64_t next = 1;
  for (std::size_t i : order) {
    if (f.d[i] != next) continue;
    rs.push_back(f.s[i]);
    rd.push_back(prefix[i]);
    if (scope)
      scope.note("follow stride " + str(next), "mode " + mode_text(f.s[i], f.d[i]) + " at domain position " +
                                                   str(prefix[i]) + " -> inverse mode " + mode_text(f.s[i], prefix[i]));
    next = checked_mul(f.s[i], f.d[i], "right_inverse");
  }
  if (scope) scope.note("no mode has stride " + str(next), "the contiguous range ends at " + str(next));
  const Layout r = layout_of(rs, rd);
  if (scope) scope.note("before coalesce", to_string(r), true);
  return traced(scope, coalesce(r));
}

// CuTe's construction: walk the coalesced modes in the same (exchange-sort) order of their
// strides; each non-zero stride d becomes a mode of size d / (size so far) at the position of
// that mode in the domain, and the last mode met closes the layout with its own size.
Layout left_inverse(const Layout& l) {
  TraceScope scope("left_inverse");
  if (scope) scope.expr(call_text("left_inverse", to_string(l)));
  const Flat f = flat_of(coalesce(l));
  std::vector<std::int64_t> prefix(f.rank());
  std::int64_t p = 1;
  for (std::size_t i = 0; i < f.rank(); ++i) {
    prefix[i] = p;
    p = checked_mul(p, f.s[i], "left_inverse");
  }
  std::vector<std::size_t> order(f.rank());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  for (std::size_t i = 0; i < order.size(); ++i)
    for (std::size_t j = i + 1; j < order.size(); ++j)
      if (f.d[order[j]] < f.d[order[i]]) std::swap(order[i], order[j]);
  std::vector<std::int64_t> rs, rd{0};
  std::int64_t covered = 1;
  for (std::size_t i : order) {
    if (f.d[i] == 0) continue;
    if (f.d[i] % covered != 0 || f.d[i] / covered <= 0)
      throw Error("left_inverse: the stride " + str(f.d[i]) + " is not a positive multiple of the " + str(covered) +
                  " offsets below it (CuTe's divisibility condition: the layout is not injective)");
    rs.push_back(f.d[i] / covered);
    rd.push_back(prefix[i]);
    if (scope)
      scope.note("stride " + str(f.d[i]), str(f.d[i]) + " / " + str(covered) + " = " + str(rs.back()) +
                                              " -> mode " + mode_text(rs.back(), rd[rd.size() - 2]) +
                                              "; next stride " + str(prefix[i]));
    covered = checked_mul(covered, rs.back(), "left_inverse");
  }
  rs.push_back(f.s[order.back()]);
  const Layout r = layout_of(rs, rd);
  if (scope) {
    scope.note("closing mode", "the size " + str(rs.back()) + " of the last mode met, " +
                                   mode_text(f.s[order.back()], f.d[order.back()]));
    scope.note("before coalesce", to_string(r), true);
  }
  return traced(scope, coalesce(r));
}

// ---------------------------------------------------------------- divide family

namespace {

// logical_divide(A, B) = A o (B, complement(B, size(A))). The pair (tile, rest) may run
// past size(A) (a tiler that does not divide A, or strides that push its cosize beyond);
// CuTe then reads A beyond its domain: A_ext, A with its last mode continued without bound.
// CuTe composes the tile and the rest each on its own, so its result is A_ext o (tile, rest)
// only when a tile offset plus a rest offset never carries in A's other modes; otherwise it
// leaves A's domain inconsistently. That is the divide's admissibility rule (refused, as
// inadmissible compositions are). A last mode of size 1 has nothing to continue: there A's
// last mode of size > 1 may be the one continued instead (CuTe's walk keeps a part that fits
// inside that mode linear in it: a CuTe vector relies on it), and either reading admits.
namespace {
// Does composing (tile, rest) mode by mode with the flat A `fa` put digits that carry in a
// mode of fa other than the last? (A's last mode is unbounded: no carry out of it.)
std::size_t carrying_mode(const Flat& fa, const Layout& tile_rest) {
  std::vector<std::int64_t> usage(fa.rank(), 0);
  compose_tree(fa, tile_rest.shape, tile_rest.stride, usage);
  for (std::size_t i = 0; i + 1 < fa.rank(); ++i)
    if (usage[i] > fa.s[i] - 1) return i;
  return npos;
}
// The same divide read with A's trailing size-1 modes removed: its last mode of size > 1
// continues. True when that reading holds and gives CuTe's result r.
bool consistent_without_trailing_unit_modes(const Layout& l, const Layout& tile_rest, const Layout& r) {
  std::vector<std::int64_t> s = leaves(l.shape), d = leaves(l.stride);
  if (s.back() != 1) return false;  // the same reading as A's own last mode
  while (s.size() > 1 && s.back() == 1) s.pop_back(), d.pop_back();
  if (s.back() == 1) return false;  // every mode has size 1: A's own last mode continues
  try {
    const Flat fc = flat_of(coalesce(layout_of(s, d)));
    if (carrying_mode(fc, tile_rest) != npos) return false;
    std::vector<std::int64_t> usage(fc.rank(), 0);
    return coalesce(compose_tree(fc, tile_rest.shape, tile_rest.stride, usage)) == coalesce(r);
  } catch (const Error&) {
    return false;
  }
}
}  // namespace

// CuTe's logical_divide by a layout: A o (B, complement(B, size(A))). Each of the two modes
// is composed with A on its own (composition_impl's per_top_mode rule), which is
// make_layout(A o B, A o complement): the trace shows those two compositions.
Layout divide_by_layout(const Layout& l, const Layout& t) {
  TraceScope scope("logical_divide");
  if (scope) {
    scope.expr(call_text("logical_divide", to_string(l), to_string(t)));
    scope.note("rule", "A o (B, complement(B, size(A))): the tile B and the rest that repeats it over A");
    scope.note("size(A)", str(l.size()));
  }
  const Layout rest = complement(t, l.size());
  const Layout tile_rest = make_layout({t, rest});
  if (scope) {
    scope.note("concatenation (B, complement)", to_string(tile_rest), true);
    scope.note("composition", "A o (B, complement), each mode composed with A on its own");
  }
  // Each part on its own: composition's own rules (traced, as the two compositions eval spells).
  Layout r = scope ? make_layout({composition(l, t), composition(l, rest)}) : composition_impl(l, tile_rest, true);
  {
    // The admissibility check composes again: not steps of the derivation.
    const TraceMute mute;
    const Flat fa = flat_of(coalesce_x(l));
    const std::size_t i = carrying_mode(fa, tile_rest);
    if (i != npos && !consistent_without_trailing_unit_modes(l, tile_rest, r))
      throw Error("inadmissible logical_divide: the tile " + to_string(t) + " and the rest " + to_string(rest) +
                  " (its complement up to size " + str(l.size()) + ") carry into each other in the mode " +
                  str(fa.s[i]) + ":" + str(fa.d[i]) + " of " + to_string(l) +
                  ", so the result would leave A's domain inconsistently: it must equal A o (tile, rest) "
                  "with A's last mode (or, if it has size 1, its last mode of size > 1) continued without bound "
                  "(docs/notation.md, logical_divide)");
  }
  return traced(scope, std::move(r));
}

// zip2_by: at each terminal of the tiler the layout has a (tile, rest) pair; gather
// the tiles into mode 0 and the rests (then the modes the tiler did not reach) into mode 1.
void zip2_by(const IntTuple& x, const Tiler& g, IntTuple& first, IntTuple& second) {
  if (g.is_layout) {
    if (x.is_leaf() || x.rank() != 2) throw Error("internal: expected a (tile,rest) pair, got " + to_string(x));
    first = x.elems()[0];
    second = x.elems()[1];
    return;
  }
  if (x.is_leaf() || x.rank() < g.rank())
    throw Error("internal: tiler " + to_string(g) + " does not match " + to_string(x));
  std::vector<IntTuple> fs, ss;
  for (std::size_t i = 0; i < g.rank(); ++i) {
    IntTuple f, s;
    zip2_by(x.elems()[i], g.elems[i], f, s);
    fs.push_back(std::move(f));
    ss.push_back(std::move(s));
  }
  for (std::size_t i = g.rank(); i < x.rank(); ++i) ss.push_back(x.elems()[i]);
  first = IntTuple::tuple(std::move(fs));
  second = IntTuple::tuple(std::move(ss));
}

// The modes of a mode: a tuple of rank > 1 is unpacked, anything else stays whole
// (CuTe slices with repeat<R>(_), and repeat<1>(_) is a plain _).
void unpack_into(const Layout& m, std::vector<Layout>& out) {
  if (m.shape.is_tuple() && m.rank() > 1) {
    for (std::size_t i = 0; i < m.rank(); ++i) out.push_back(m.mode(i));
  } else {
    out.push_back(m);
  }
}

Layout unpack(const Layout& z, bool first, bool second) {
  std::vector<Layout> out;
  if (first) unpack_into(z.mode(0), out); else out.push_back(z.mode(0));
  if (second) unpack_into(z.mode(1), out); else out.push_back(z.mode(1));
  return tuple_layout(out);
}

void check_tiler_rank(const Layout& l, const Tiler& t, const char* op) {
  if (!t.is_layout && t.rank() > l.rank())
    throw Error(std::string(op) + ": the tiler " + to_string(t) + " has more modes (" + str(t.rank()) +
                ") than the layout " + to_string(l) + " (" + str(l.rank()) + ")");
}

}  // namespace

Layout tile_unzip(const Layout& l, const Tiler& t) {
  IntTuple s0, s1, d0, d1;
  zip2_by(l.shape, t, s0, s1);
  zip2_by(l.stride, t, d0, d1);
  const Layout r = make_layout({Layout(s0, d0), Layout(s1, d1)});
  if (tracing()) trace_note("zip: the tiles into mode 0, the rests into mode 1", to_string(r), true);
  return r;
}

Layout logical_divide(const Layout& l, const Tiler& t) {
  if (t.is_layout) return divide_by_layout(l, t.layout);
  TraceScope scope("logical_divide");
  if (scope) {
    scope.expr(call_text("logical_divide", to_string(l), tiler_text(t)));
    scope.note("by mode", "mode i of A divided by the tiler's i-th layout; modes past the tiler's rank kept");
  }
  check_tiler_rank(l, t, "logical_divide");
  std::vector<Layout> modes;
  for (std::size_t i = 0; i < l.rank(); ++i)
    modes.push_back(i < t.rank() ? logical_divide(l.mode(i), t.elems[i]) : l.mode(i));
  return traced(scope, tuple_layout(modes));
}

namespace {
// The zipped/tiled/flat forms: the logical form (divide or product), zipped, then unpacked.
Layout zipped_form(const char* op, const char* logical, Layout (*f)(const Layout&, const Tiler&), const Layout& l,
                   const Tiler& t) {
  TraceScope scope(op);
  if (scope) {
    scope.expr(call_text(op, to_string(l), tiler_text(t)));
    scope.note("rule", std::string(logical) + ", then the (tile, rest) pairs of each mode zipped into ((tiles),(rests))");
  }
  return traced(scope, tile_unzip(f(l, t), t));
}
Layout unpacked_form(const char* op, const char* zipped, Layout (*f)(const Layout&, const Tiler&), bool first,
                     const Layout& l, const Tiler& t) {
  TraceScope scope(op);
  if (scope) {
    scope.expr(call_text(op, to_string(l), tiler_text(t)));
    scope.note("rule", std::string(zipped) + (first ? ", both modes unpacked into top-level modes"
                                                    : ", the rest mode unpacked into top-level modes"));
  }
  return traced(scope, unpack(f(l, t), first, true));
}
}  // namespace

Layout zipped_divide(const Layout& l, const Tiler& t) {
  return zipped_form("zipped_divide", "logical_divide", logical_divide, l, t);
}
Layout tiled_divide(const Layout& l, const Tiler& t) {
  return unpacked_form("tiled_divide", "zipped_divide", zipped_divide, false, l, t);
}
Layout flat_divide(const Layout& l, const Tiler& t) {
  return unpacked_form("flat_divide", "zipped_divide", zipped_divide, true, l, t);
}

// ---------------------------------------------------------------- product family

Layout logical_product(const Layout& block, const Tiler& t) {
  TraceScope scope("logical_product");
  if (scope) scope.expr(call_text("logical_product", to_string(block), tiler_text(t)));
  if (t.is_layout) {
    if (scope) scope.note("rule", "(A, complement(A, size(A)*cosize(B)) o B): A, then B's layout of copies of A");
    const std::int64_t target = checked_mul(block.size(), t.layout.cosize(), "logical_product");
    if (scope)
      scope.note("size(A)*cosize(B)", str(block.size()) + "*" + str(t.layout.cosize()) + " = " + str(target));
    return traced(scope, make_layout({block, composition(complement(block, target), t.layout)}));
  }
  if (scope) scope.note("by mode", "mode i of A times the tiler's i-th layout; modes past the tiler's rank kept");
  check_tiler_rank(block, t, "logical_product");
  std::vector<Layout> modes;
  for (std::size_t i = 0; i < block.rank(); ++i)
    modes.push_back(i < t.rank() ? logical_product(block.mode(i), t.elems[i]) : block.mode(i));
  return traced(scope, tuple_layout(modes));
}

Layout zipped_product(const Layout& block, const Tiler& t) {
  return zipped_form("zipped_product", "logical_product", logical_product, block, t);
}
Layout tiled_product(const Layout& block, const Tiler& t) {
  return unpacked_form("tiled_product", "zipped_product", zipped_product, false, block, t);
}
Layout flat_product(const Layout& block, const Tiler& t) {
  return unpacked_form("flat_product", "zipped_product", zipped_product, true, block, t);
}

namespace {

// append<R>: pad with 1:0 modes up to rank R (an integer layout stays one when R == 1).
Layout pad_to_rank(const Layout& l, std::size_t R) {
  if (l.rank() == R) return l;
  std::vector<Layout> modes;
  for (std::size_t i = 0; i < l.rank(); ++i) modes.push_back(l.mode(i));
  while (modes.size() < R) modes.emplace_back(IntTuple(1), IntTuple(0));
  return tuple_layout(modes);
}

IntTuple zip_tuples(const IntTuple& a, const IntTuple& b) {
  if (a.is_leaf()) return IntTuple::tuple({IntTuple::tuple({a, b})});  // CuTe: zip of two integers is ((a,b))
  std::vector<IntTuple> out;
  for (std::size_t i = 0; i < a.rank(); ++i) out.push_back(IntTuple::tuple({a.elems()[i], b[i]}));
  return IntTuple::tuple(std::move(out));
}

Layout zip_layouts(const Layout& a, const Layout& b) {
  return Layout(zip_tuples(a.shape, b.shape), zip_tuples(a.stride, b.stride));
}

}  // namespace

namespace {
// blocked_product (block modes first) and raked_product (tiler modes first).
Layout zipped_by_rank(const char* op, const Layout& block, const Layout& tiler, bool block_first) {
  TraceScope scope(op);
  if (scope) {
    scope.expr(call_text(op, to_string(block), to_string(tiler)));
    scope.note("rule", std::string("logical_product(A, B) of A and B padded to the same rank with 1:0 modes, then ") +
                           (block_first ? "mode i zipped as (A_i, copies_i)" : "mode i zipped as (copies_i, A_i)"));
  }
  const std::size_t R = std::max(block.rank(), tiler.rank());
  const Layout pb = pad_to_rank(block, R);
  Layout pt = pad_to_rank(tiler, R);
  if (scope && (pb != block || pt != tiler))
    scope.note("padded to rank " + str(static_cast<std::int64_t>(R)), to_string(pb) + " and " + to_string(pt));
  const Layout r = logical_product(pb, Tiler::of_layout(std::move(pt)));
  return traced(scope, block_first ? zip_layouts(r.mode(0), r.mode(1)) : zip_layouts(r.mode(1), r.mode(0)));
}
}  // namespace

Layout blocked_product(const Layout& block, const Layout& tiler) {
  return zipped_by_rank("blocked_product", block, tiler, true);
}

Layout raked_product(const Layout& block, const Layout& tiler) {
  return zipped_by_rank("raked_product", block, tiler, false);
}

Layout tile_to_shape(const Layout& block, const IntTuple& target_shape, const IntTuple& order) {
  TraceScope scope("tile_to_shape");
  if (scope) {
    scope.expr(call_text("tile_to_shape", to_string(block),
                         to_string(target_shape) + (order.rank() == 0 ? "" : "," + to_string(order))));
    scope.note("rule", "blocked_product(A, copies: target / block mode by mode, walked in the order given)");
  }
  const std::size_t R = target_shape.rank();
  if (block.rank() > R)
    throw Error("tile_to_shape: the layout " + to_string(block) + " has more modes than the target shape " +
                to_string(target_shape));
  const Layout padded = pad_to_rank(block, R);
  std::vector<std::int64_t> ps;
  for (std::size_t i = 0; i < R; ++i) {
    const std::int64_t b = product(padded.shape[i]), t = product(target_shape[i]);
    if (t % b != 0)
      throw Error("tile_to_shape: the block shape " + to_string(padded.shape) + " does not divide the target shape " +
                  to_string(target_shape) + " (mode " + str(i) + ": " + str(b) + " does not divide " + str(t) + ")");
    ps.push_back(t / b);
  }
  // CuTe's product_each makes the product shape a tuple even for an integer target:
  // tile_to_shape(16:1, 16) is ((16,(1))):((1,(0))).
  IntTuple product_shape = unflatten(IntTuple::tuple(std::vector<IntTuple>(R, IntTuple(0))), ps);
  if (scope) scope.note("copies per mode (target / block)", to_string(product_shape), true);
  Layout copies = Layout::column_major(product_shape);
  if (order.rank() != 0) {
    // CuTe's make_ordered_layout (compact_order): mode k's stride is the product of the modes
    // of smaller order (equal orders start at the same stride); a size-1 mode gets 0.
    const std::vector<std::int64_t> o = leaves(order);
    if (o.size() != R || depth(order) > 1)
      throw Error("tile_to_shape: the order " + to_string(order) + " needs one integer per mode of the target shape " +
                  to_string(target_shape));
    std::vector<std::int64_t> d(R);
    for (std::size_t k = 0; k < R; ++k) {
      std::int64_t st = 1;
      for (std::size_t j = 0; j < R; ++j)
        if (o[j] < o[k]) st = checked_mul(st, ps[j], "compact stride");
      d[k] = ps[k] == 1 ? 0 : st;
    }
    copies = Layout(product_shape, unflatten(product_shape, d));
  }
  return traced(scope, blocked_product(padded, copies));
}

// ---------------------------------------------------------------- common vectors

namespace {
// The largest n <= limit whose indices [0, n) are a layout's prefix: a product of l's
// leading (coalesced) modes times part of the next one.
std::int64_t layout_prefix_size(const Layout& l, std::int64_t limit) {
  std::int64_t p = 1;
  for (const std::int64_t s : leaves(coalesce(l).shape)) {
    if (s > limit / p) return p * (limit / p);
    p *= s;
  }
  return p;
}

// l restricted to the indices [0, n), n as layout_prefix_size gives it: l's leading coalesced
// modes, the last one cut short (what composition(l, n:1) is when it is admissible).
Layout layout_prefix(const Layout& l, std::int64_t n) {
  const Layout c = coalesce(l);
  const std::vector<std::int64_t> s = leaves(c.shape), d = leaves(c.stride);
  std::vector<IntTuple> ps, pd;
  std::int64_t p = 1;
  for (std::size_t i = 0; i < s.size() && p < n; ++i) {
    const std::int64_t e = std::min(s[i], n / p);
    ps.push_back(IntTuple(e));
    pd.push_back(IntTuple(d[i]));
    p *= e;
  }
  if (ps.empty()) return Layout(IntTuple(1), IntTuple(0));
  if (ps.size() == 1) return Layout(ps[0], pd[0]);
  return Layout(IntTuple::tuple(ps), IntTuple::tuple(pd));
}

// How many leading indices i satisfy a(inv_b(i)) == i: the size of the first mode of
// coalesce(a o inv_b) when that mode has stride 1 (CuTe), else 1. When a o inv_b is
// inadmissible the prefix is found by walking the indices (it ends before any carry), then
// cut to the longest prefix of inv_b's domain that is a layout, which max_common_layout returns.
std::int64_t common_prefix(const Layout& a, const Layout& inv_b) {
  try {
    const Layout m0 = coalesce(composition(a, inv_b)).mode(0);
    if (m0.stride.is_leaf() && m0.stride.value() == 1) {
      if (tracing()) trace_note("first mode of coalesce(A o right_inverse(B))", to_string(m0) + ": stride 1, so " +
                                                                     to_string(m0.shape) + " elements agree");
      return product(m0.shape);
    }
    if (tracing()) trace_note("first mode of coalesce(A o right_inverse(B))", to_string(m0) + ": not stride 1, so 1");
    return 1;
  } catch (const OverflowError&) {
    throw;
  } catch (const Error&) {
    const std::int64_t n = inv_b.size();
    if (n > (std::int64_t{1} << 22)) throw;
    std::int64_t i = 1;
    while (i < n && a(inv_b(i)) == i) ++i;
    const std::int64_t cut = layout_prefix_size(inv_b, i);
    if (tracing()) trace_note("A o right_inverse(B) is refused", "walking the indices instead: A(right_inverse(B)(i)) == i for i < " +
                                                      str(i) + "; the longest of those prefixes that is a layout: " + str(cut));
    return cut;
  }
}
}  // namespace

std::int64_t max_common_vector(const Layout& a, const Layout& b) {
  TraceScope scope("max_common_vector");
  if (scope) {
    scope.expr(call_text("max_common_vector", to_string(a), to_string(b)));
    scope.note("rule", "how many leading indices of B map, through A o right_inverse(B), to themselves: the first "
                       "mode of coalesce(A o right_inverse(B)) when its stride is 1");
  }
  const std::int64_t n = common_prefix(a, right_inverse(b));
  if (scope) scope.close(str(n));
  return n;
}

Layout max_common_layout(const Layout& a, const Layout& b) {
  TraceScope scope("max_common_layout");
  if (scope) {
    scope.expr(call_text("max_common_layout", to_string(a), to_string(b)));
    scope.note("rule", "right_inverse(B) restricted to the n leading indices where A and B agree: "
                       "composition(right_inverse(B), n:1)");
  }
  const Layout inv_b = right_inverse(b);
  const std::int64_t n = common_prefix(a, inv_b);
  if (n == 1) return traced(scope, Layout(IntTuple(1), IntTuple(0)));
  try {
    return traced(scope, composition(inv_b, Layout(IntTuple(n), IntTuple(1))));
  } catch (const OverflowError&) {
    throw;
  } catch (const Error&) {
    // (n came from the walk: [0, n) ends inside one of inv_b's modes that n:1 does not divide)
    return traced(scope, layout_prefix(inv_b, n));
  }
}

// ---------------------------------------------------------------- upcast, downcast

Layout upcast(const Layout& l, std::int64_t n) {
  TraceScope scope("upcast");
  if (scope) scope.expr(call_text("upcast", to_string(l), str(n)));
  if (n <= 0) throw Error("upcast: the factor must be positive");
  std::vector<std::int64_t> s = leaves(l.shape), d = leaves(l.stride);
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (d[i] == 0) {
      if (scope) scope.note("mode " + mode_text(s[i], d[i]), "stride 0 stays");
      continue;
    }
    if (d[i] % n != 0 && n % d[i] != 0)
      throw Error("upcast: the stride " + str(d[i]) + " and the factor " + str(n) +
                  " do not divide each other (CuTe's divisibility condition)");
    const std::int64_t s0 = s[i], d0 = d[i];
    s[i] = shape_div(s[i], shape_div(n, checked_abs(d[i])));
    d[i] = shape_div(d[i], n);
    if (scope)
      scope.note("mode " + mode_text(s0, d0), "shape shape_div(" + str(s0) + ", shape_div(" + str(n) + "," +
                                                  str(checked_abs(d0)) + ")) = " + str(s[i]) + ", stride shape_div(" +
                                                  str(d0) + "," + str(n) + ") = " + str(d[i]));
  }
  return traced(scope, Layout(unflatten(l.shape, s), unflatten(l.stride, d)));
}

Layout downcast(const Layout& l, std::int64_t n) {
  TraceScope scope("downcast");
  if (scope) scope.expr(call_text("downcast", to_string(l), str(n)));
  if (n <= 0) throw Error("downcast: the factor must be positive");
  // CuTe's rule, mode by mode: a unit-stride mode gets N times as many elements, every
  // other stride is scaled by N (a layout without a unit-stride mode is not rejected).
  std::vector<std::int64_t> s = leaves(l.shape), d = leaves(l.stride);
  for (std::size_t i = 0; i < s.size(); ++i) {
    const std::int64_t s0 = s[i], d0 = d[i];
    if (d[i] == 1 || d[i] == -1) s[i] = checked_mul(s[i], n, "downcast");
    else d[i] = checked_mul(d[i], n, "downcast");
    if (scope)
      scope.note("mode " + mode_text(s0, d0), (d0 == 1 || d0 == -1 ? "unit stride: " + str(n) + " times the elements"
                                                                    : "stride times " + str(n)) +
                                                  " -> " + mode_text(s[i], d[i]));
  }
  return traced(scope, Layout(unflatten(l.shape, s), unflatten(l.stride, d)));
}

// ---------------------------------------------------------------- slicing

bool has_underscore(const IntTuple& c) {
  if (c.is_leaf()) return c.value() == kUnderscore;
  return std::any_of(c.elems().begin(), c.elems().end(), [](const IntTuple& e) { return has_underscore(e); });
}

namespace {
void slice_into(const IntTuple& c, const IntTuple& s, const IntTuple& d, std::vector<IntTuple>& os,
                std::vector<IntTuple>& od) {
  if (c.is_leaf()) {
    if (c.value() == kUnderscore) {
      os.push_back(s);
      od.push_back(d);
    }
    return;
  }
  if (s.is_leaf() || s.rank() != c.rank())
    throw Error("slice: the coordinate " + to_string(c) + " does not match the shape " + to_string(s));
  for (std::size_t i = 0; i < c.rank(); ++i) slice_into(c.elems()[i], s.elems()[i], d.elems()[i], os, od);
}

std::int64_t offset_of(const IntTuple& c, const IntTuple& s, const IntTuple& d) {
  if (c.is_leaf()) {
    if (c.value() == kUnderscore) return 0;
    return crd2idx(c, s, d);
  }
  if (s.is_leaf() || s.rank() != c.rank())
    throw Error("the coordinate " + to_string(c) + " does not match the shape " + to_string(s));
  std::int64_t off = 0;
  for (std::size_t i = 0; i < c.rank(); ++i)
    off = checked_add(off, offset_of(c.elems()[i], s.elems()[i], d.elems()[i]), "offset");
  return off;
}
}  // namespace

Layout slice(const IntTuple& coord, const Layout& l) {
  TraceScope scope("slice");
  if (scope) {
    scope.expr(call_text("slice", to_string(l), to_string(coord)));
    scope.note("rule", "keep the modes where the coordinate holds _, in order; the fixed modes' offset is dropped");
  }
  if (coord.is_leaf()) {
    if (coord.value() == kUnderscore) return traced(scope, Layout(l));
    throw Error("slice: the coordinate " + to_string(coord) + " keeps no mode (use _ for the modes to keep)");
  }
  std::vector<IntTuple> os, od;
  slice_into(coord, l.shape, l.stride, os, od);
  if (os.empty()) throw Error("slice: the coordinate keeps no mode (use _ for the modes to keep)");
  if (scope) {
    try {
      const TraceMute mute;
      scope.note("offset of the fixed modes (dropped)", str(offset_of(coord, l.shape, l.stride)));
    } catch (const Error&) {  // only a note: slice itself does not need the offset
    }
  }
  return traced(scope, Layout(IntTuple::tuple(std::move(os)), IntTuple::tuple(std::move(od))));
}

std::int64_t slice_offset(const IntTuple& coord, const Layout& l) { return offset_of(coord, l.shape, l.stride); }

}  // namespace tessera::rt
