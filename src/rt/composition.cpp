// composition(A, B) = A o B: each mode of B laid over coalesce(A), then the admissibility
// check (B's modes must not overlap in A's mixed radix).
#include "tessera/rt/algebra.hpp"

#include <algorithm>

#include "algebra_detail.hpp"
#include "tessera/rt/checked.hpp"
#include "tessera/rt/error.hpp"

namespace tessera::rt {

using namespace detail;

namespace {

// Compose the (coalesced) lhs with one integer mode n:r of the rhs.
// usage[i] accumulates the largest digit each rhs mode puts into mode i of lhs,
// so that the caller can check that the rhs modes never carry into each other.
// `log` (null unless traced) receives CuTe's steps for this mode in words. Without `build`
// only `usage` is wanted: every check runs, no layout is made (an empty one is returned).
Layout compose_leaf(const Flat& a, std::int64_t n, std::int64_t r, Ints& usage, std::vector<std::string>* log,
                    bool build = true) {
  if (r == 0) {
    if (log) log->push_back("stride 0: every index maps to A(0) -> " + mode_text(n, 0));
    return build ? Layout(IntTuple(n), IntTuple(0)) : Layout();
  }
  if (r < 0) throw Error("composition: negative strides in the right operand are not supported");
  const std::size_t R = a.rank();
  if (R == 1) {
    const std::int64_t d = checked_mul(r, a.d[0], "composition stride");
    if (log) log->push_back("A has one mode " + mode_text(a.s[0], a.d[0]) + ": stride " + str(r) + "*" + str(a.d[0]) +
                            " -> " + mode_text(n, d));
    return build ? Layout(IntTuple(n), IntTuple(d)) : Layout();
  }
  Ints rs, rd;
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
  if (!build) return Layout();
  if (rs.empty()) return Layout(IntTuple(rest_shape), IntTuple(last));
  if (rest_shape != 1) {
    rs.push_back(rest_shape);
    rd.push_back(last);
  }
  return layout_of(rs, rd);
}

// One mode of B: its leaves composed one by one (a leaf: compose_leaf, with the trace's steps).
Layout compose_mode(const Flat& a, std::string_view n, std::span<const std::int64_t> s, std::span<const std::int64_t> d,
                    std::size_t& pos, std::size_t& leaf, Ints& usage) {
  if (n[pos] == IntTuple::kLeaf) {
    ++pos;
    const std::size_t k = leaf++;
    if (!tracing()) return compose_leaf(a, s[k], d[k], usage, nullptr);
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
    } flush{log, "mode " + mode_text(s[k], d[k]) + " of B"};
    return compose_leaf(a, s[k], d[k], usage, &log);
  }
  ++pos;  // '('
  ModeList modes;
  while (n[pos] != IntTuple::kClose) modes.push_back(compose_mode(a, n, s, d, pos, leaf, usage));
  ++pos;  // ')'
  return std::move(modes).layout();
}

}  // namespace

namespace detail {

Layout compose_tree(const Flat& a, const IntTuple& s, const IntTuple& d, Ints& usage) {
  std::size_t pos = 0, leaf = 0;
  return compose_mode(a, s.nesting(), s.leaf_values(), d.leaf_values(), pos, leaf, usage);
}

void compose_usage(const Flat& a, const IntTuple& s, const IntTuple& d, Ints& usage) {
  // The leaves in the order compose_tree meets them, each composed for its usage only.
  const std::span<const std::int64_t> sv = s.leaf_values(), dv = d.leaf_values();
  for (std::size_t k = 0; k < sv.size(); ++k) compose_leaf(a, sv[k], dv[k], usage, nullptr, false);
}

}  // namespace detail

namespace {
void check_overlap(const Layout& a, const Layout& b, const Flat& fa, const Ints& usage) {
  // B's modes must occupy disjoint digits of A's mixed radix (the last mode of A is
  // unbounded): otherwise their sum carries and composing mode by mode is not A o B.
  for (std::size_t i = 0; i + 1 < fa.rank(); ++i)
    if (usage[i] > fa.s[i] - 1)
      throw Error("inadmissible composition: the modes of " + to_string(b) + " overlap in the mixed radix of " +
                  to_string(a) + " (they share its mode " + str(fa.s[i]) + ":" + str(fa.d[i]) +
                  " of coalesce(A)), so composing mode by mode would not give A(B(i))");
}
}  // namespace

namespace detail {

// per_top_mode: check the carry rule within each top-level mode of B only. The divide
// family uses it: (tile, rest) may meet beyond the end of A when the tiler does not
// divide A, exactly as in CuTe, but each part is still A composed with it.
Layout composition_impl(const Layout& a, const Layout& b, bool per_top_mode) {
  Ints s, d;
  coalesce_x_modes(a, s, d);
  return composition_impl(Flat{s, d}, a, b, per_top_mode);
}

Layout composition_impl(const Flat& fa, const Layout& a, const Layout& b, bool per_top_mode) {
  if (!per_top_mode || b.shape.is_leaf()) {
    Ints usage(fa.rank(), 0);
    Layout r = compose_tree(fa, b.shape, b.stride, usage);
    check_overlap(a, b, fa, usage);
    if (tracing()) trace_note("overlap check", "the modes of B occupy disjoint digits of coalesce(A): admissible");
    return r;
  }
  ModeList modes;
  b.for_each_mode([&](const Layout& bi) {
    Ints usage(fa.rank(), 0);
    modes.push_back(compose_tree(fa, bi.shape, bi.stride, usage));
    check_overlap(a, bi, fa, usage);
  });
  return std::move(modes).layout();
}

Layout composition_of_pair(const Flat& fa, const Layout& a, const Layout& b0, const Layout& b1) {
  ModeList modes;
  for (const Layout* bi : {&b0, &b1}) {
    Ints usage(fa.rank(), 0);
    modes.push_back(compose_tree(fa, bi->shape, bi->stride, usage));
    check_overlap(a, *bi, fa, usage);
  }
  return std::move(modes).layout();
}

}  // namespace detail

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
  ModeList modes;
  std::size_t i = 0;
  a.for_each_mode([&](const Layout& m) {
    if (i < t.rank()) modes.push_back(composition(m, t.elems[i]));
    ++i;
  });
  return traced(scope, std::move(modes).layout());
}

SwizzledLayout composition(const SwizzledLayout& a, const Layout& b) { return {a.swizzle, composition(a.layout, b), a.offset}; }
SwizzledLayout composition(const SwizzledLayout& a, const Tiler& t) { return {a.swizzle, composition(a.layout, t), a.offset}; }

}  // namespace tessera::rt
