// composition(A, B) = A o B: each leaf of B walked over coalesce(A) as CuTe walks it, with
// CuTe's divisibility conditions, then rule 1 (docs/notation.md): R(i) == A(B(i)) at every index.
#include "tessera/rt/algebra.hpp"

#include <algorithm>
#include <functional>

#include "algebra_detail.hpp"
#include "tessera/rt/checked.hpp"
#include "tessera/rt/error.hpp"

namespace tessera::rt {

using namespace detail;

namespace {

constexpr const char* kCompositionRule =
    "R(i) = A(B(i)): each mode of B is laid over coalesce(A), mode by mode (CuTe's shape_div and modulus steps), "
    "then the modes of B must not overlap in A's mixed radix";

// Compose the (coalesced) lhs with one integer mode n:r of the rhs: CuTe's walk, its stride
// and shape divisibility conditions (rules 2 and 3 of docs/notation.md) checked as CuTe's
// static_asserts state them.
// usage.digits accumulates the largest digit each rhs mode puts into mode i of lhs, so that
// the caller can check that the rhs modes never carry into each other (rule 1, in O(rank)).
// That digit argument holds where each step splits B's index into digits of A's modes: a
// positive stride that divides the mode, or a rest that fits inside it. CuTe's walk also takes
// a positive stride below a mode's size that does not divide it (its ceil_div step) and a
// negative stride (its signum); there usage.pointwise is set and the caller checks rule 1
// point by point.
// `log` (null unless traced) receives CuTe's steps for this mode in words. Without `build`
// only `usage` is wanted: every check runs, no layout is made (an empty one is returned).
Layout compose_leaf(const Flat& a, std::int64_t n, std::int64_t r, Usage& usage, std::vector<std::string>* log,
                    bool build = true) {
  if (r == 0) {
    if (log) log->push_back("stride 0: every index maps to A(0) -> " + mode_text(n, 0));
    return build ? Layout(IntTuple(n), IntTuple(0)) : Layout();
  }
  const std::size_t R = a.rank();
  // (One mode of A is linear without bound: any stride, a negative one included, composes exactly.)
  if (R > 1 && r < 0) usage.pointwise = true;
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
    // CuTe's stride divisibility condition (it does not look at the shape: it holds for a
    // size-1 leaf too, composition((2,1):(1,1), 1:3) does not compile in CuTe).
    if (!(rest_stride < si || rest_stride % si == 0))
      throw Error("inadmissible composition: the stride " + str(r) + " of the right layout does not divide into " +
                  "the shape of the left layout (" + str(rest_stride) + " is neither a multiple of its mode of size " +
                  str(si) + " nor smaller than it)");
    const std::int64_t magnitude = rest_stride < 0 ? -rest_stride : rest_stride;
    const std::int64_t next_shape = (si + magnitude - 1) / magnitude;  // ceil_div(s_i, |stride|)
    const std::int64_t next_stride = ((magnitude + si - 1) / si) * (rest_stride < 0 ? -1 : 1);
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
                  ", what its stride " + str(rest_stride) + " leaves of A's mode of size " + str(si) + ")");
    const bool digits = rest_stride > 0 && (si % rest_stride == 0 || new_shape == rest_shape);
    if (digits)
      usage.digits[i] = checked_add(usage.digits[i], checked_mul(rest_stride, new_shape - 1, "composition"), "composition");
    else
      usage.pointwise = true;
    rs.push_back(new_shape);
    rd.push_back(checked_mul(rest_stride, a.d[i], "composition stride"));
    if (log && digits && new_shape == rest_shape && rest_stride < si)
      log->push_back("mode " + mode_text(si, a.d[i]) + " of A holds all of " + mode_text(rest_shape, rest_stride) +
                     " (" + str(rest_stride) + "*" + str(rest_shape - 1) + " < " + str(si) + ") -> " +
                     mode_text(rest_shape, rd.back()));
    else if (log && digits)
      log->push_back("mode " + mode_text(si, a.d[i]) + " of A: shape_div(" + str(si) + "," + str(rest_stride) +
                     ") = " + str(next_shape) + ", min with " + str(rest_shape) + " -> " +
                     mode_text(new_shape, rd.back()) + " (stride " + str(rest_stride) + "*" + str(a.d[i]) +
                     "); left " + str(rest_shape / new_shape) + " with stride shape_div(" + str(rest_stride) + "," +
                     str(si) + ") = " + str(next_stride));
    else if (log)
      log->push_back("mode " + mode_text(si, a.d[i]) + " of A: ceil_div(" + str(si) + "," + str(magnitude) +
                     ") = " + str(next_shape) + ", min with " + str(rest_shape) + " -> " +
                     mode_text(new_shape, rd.back()) + " (stride " + str(rest_stride) + "*" + str(a.d[i]) +
                     "); left " + str(rest_shape / new_shape) + " with stride " + str(next_stride) +
                     " (not a split into digits of A: rule 1 is checked point by point)");
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
                    std::size_t& pos, std::size_t& leaf, Usage& usage) {
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

Layout compose_tree(const Flat& a, const IntTuple& s, const IntTuple& d, Usage& usage) {
  std::size_t pos = 0, leaf = 0;
  return compose_mode(a, s.nesting(), s.leaf_values(), d.leaf_values(), pos, leaf, usage);
}

void compose_usage(const Flat& a, const IntTuple& s, const IntTuple& d, Usage& usage) {
  // The leaves in the order compose_tree meets them, each composed for its usage only.
  const std::span<const std::int64_t> sv = s.leaf_values(), dv = d.leaf_values();
  for (std::size_t k = 0; k < sv.size(); ++k) compose_leaf(a, sv[k], dv[k], usage, nullptr, false);
}

std::int64_t evaluate_extended(std::span<const std::int64_t> s, std::span<const std::int64_t> d, std::int64_t x) {
  std::int64_t off = 0;
  const std::size_t last = s.size() - 1;
  for (std::size_t k = 0; k < last; ++k) {
    off += (x % s[k]) * d[k];
    x /= s[k];
  }
  return checked_add(off, checked_mul(x, d[last], "composition check"), "composition check");
}

std::int64_t first_mismatch(const Layout& r, const Layout& b,
                            const std::function<bool(std::int64_t, std::int64_t)>& agrees) {
  // R's flat modes enumerate B's indices in the same (colexicographic) order as B's flat modes
  // (each leaf of B became modes of R whose sizes multiply to it): two odometers in step.
  const std::span<const std::int64_t> rs = r.shape.leaf_values(), rd = r.stride.leaf_values();
  const std::span<const std::int64_t> bs = b.shape.leaf_values(), bd = b.stride.leaf_values();
  Ints rc(rs.size(), 0), bc(bs.size(), 0);
  std::int64_t ro = 0, bo = 0;
  const std::int64_t n = b.size();
  // The walk is as long as B: past a budget it would run for hours (B of 2^57 indices), so a
  // result that only this walk could confirm is refused, not returned unchecked.
  if (n > kPointwiseBudget)
    throw Error("inadmissible: the result must be checked point by point here (the walk of " + to_string(b) +
                " does not split into digits of the layout it reads), over " + str(n) + " indices: more than the " +
                str(kPointwiseBudget) + " tessera checks, so it is refused rather than returned unchecked");
  for (std::int64_t i = 0; i < n; ++i) {
    if (!agrees(ro, bo)) return i;
    for (std::size_t k = 0; k < rs.size(); ++k) {
      if (++rc[k] < rs[k]) { ro += rd[k]; break; }
      ro -= (rs[k] - 1) * rd[k];
      rc[k] = 0;
    }
    for (std::size_t k = 0; k < bs.size(); ++k) {
      if (++bc[k] < bs[k]) { bo += bd[k]; break; }
      bo -= (bs[k] - 1) * bd[k];
      bc[k] = 0;
    }
  }
  return -1;
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
// Rule 1 point by point, where B's walk is not a split into digits of A (usage.pointwise):
// R(i) == A(B(i)) at every index i of B, A read past its domain as CuTe reads an integer
// (its last mode continued; C++'s truncating division for a negative index, as CuTe's).
void check_pointwise(const Layout& a, const Layout& b, const Layout& r) {
  const std::span<const std::int64_t> as = a.shape.leaf_values(), ad = a.stride.leaf_values();
  std::int64_t want = 0, got = 0, at = 0;
  const std::int64_t i = first_mismatch(r, b, [&](std::int64_t ro, std::int64_t bo) {
    got = ro, at = bo, want = evaluate_extended(as, ad, bo);
    return ro == want;
  });
  if (i >= 0)
    throw Error("inadmissible composition: CuTe's mode-by-mode result " + to_string(r) + " gives " + str(got) +
                " at index " + str(i) + " of " + to_string(b) + ", where A(B(" + str(i) + ")) = A(" + str(at) +
                ") = " + str(want) +
                (at >= 0 && at < a.size() ? std::string() : " (A read past its size as CuTe reads it: its last mode continued)") +
                ", so it is not A o B");
}
void check_rule1(const Layout& a, const Layout& b, const Layout& r, const Flat& fa, const Usage& usage) {
  if (usage.pointwise) check_pointwise(a, b, r);
  else check_overlap(a, b, fa, usage.digits);
}
}  // namespace

namespace detail {

Layout composition_impl(const Layout& a, const Layout& b) {
  Ints s, d;
  coalesce_x_modes(a, s, d);
  const Flat fa{s, d};
  Usage usage(fa.rank());
  Layout r = compose_tree(fa, b.shape, b.stride, usage);
  check_rule1(a, b, r, fa, usage);
  if (tracing())
    trace_note(usage.pointwise ? "rule 1" : "overlap check",
               usage.pointwise ? "R(i) == A(B(i)) at every index of B: admissible"
                               : "the modes of B occupy disjoint digits of coalesce(A): admissible");
  return r;
}

Layout composition_part_traced(const Layout& a, const Layout& b, Usage& usage) {
  Ints s, d;
  Layout r;
  Usage own(0);
  bool alone = true;  // is A o part admissible on its own (then traced as composition traces it)?
  {
    const TraceMute mute;
    coalesce_x_modes(a, s, d);
    own.digits.assign(s.size(), 0);
    r = compose_tree(Flat{s, d}, b.shape, b.stride, own);
    try {
      check_rule1(a, b, r, Flat{s, d}, own);
    } catch (const Error&) {
      alone = false;
    }
  }
  if (usage.digits.empty()) usage.digits.assign(s.size(), 0);
  for (std::size_t i = 0; i < s.size(); ++i) usage.digits[i] = checked_add(usage.digits[i], own.digits[i], "composition");
  usage.pointwise = usage.pointwise || own.pointwise;
  if (alone) return composition(a, b);
  // Only the whole divide is admissible (A read with its last mode of size > 1 continued): the
  // part is CuTe's walk, shown as a note (a step's expression must evaluate on its own).
  trace_note("CuTe's walk of " + call_text("composition", to_string(a), to_string(b)) +
                 " (not admissible on its own: the divide checks its whole result)",
             to_string(r));
  return r;
}

Layout composition_of_pair(const Flat& fa, const Layout& b0, const Layout& b1, Usage& usage) {
  ModeList modes;
  modes.push_back(compose_tree(fa, b0.shape, b0.stride, usage));
  modes.push_back(compose_tree(fa, b1.shape, b1.stride, usage));
  return std::move(modes).layout();
}

}  // namespace detail

Layout composition(const Layout& a, const Layout& b) {
  TraceScope scope("composition");
  if (scope) {
    scope.expr(call_text("composition", to_string(a), to_string(b)));
    scope.note("rule", kCompositionRule);
  }
  return traced(scope, composition_impl(a, b));
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
