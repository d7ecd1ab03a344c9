// coalesce: the same function on [0, size) with as few modes as possible; flatten; and
// coalesce_x, composition's variant that keeps the function past the domain's end.
#include "tessera/rt/algebra.hpp"

#include <algorithm>

#include "algebra_detail.hpp"
#include "tessera/rt/checked.hpp"
#include "tessera/rt/error.hpp"

namespace tessera::rt {

using namespace detail;

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
    scope.note("flat modes", modes_text(l.shape.leaf_values(), l.stride.leaf_values()));
  }
  const Flat f = flat_of(l);
  const std::size_t R = f.rank();
  Ints ns{f.s[R - 1]}, nd{f.d[R - 1]};  // stored reversed: back() is the front
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

namespace detail {

// coalesce that keeps the function outside the domain too: a trailing size-1 mode
// stands for an unbounded mode of its stride (CuTe's coalesce_x, used by composition).
Layout coalesce_x(const Layout& l) {
  if (l.shape.leaf_values().back() != 1) return coalesce(l);
  if (tracing()) trace_note("last mode", "the last mode of A has size 1: its stride is kept (the last mode is unbounded), "
                          "so it is coalesced as size 2");
  Ints s(l.shape.leaf_values());
  s.back() = 2;
  return coalesce(layout_of(s, l.stride.leaf_values()));
}

}  // namespace detail

Layout coalesce(const Layout& l, const IntTuple& profile) {
  TraceScope scope("coalesce");
  if (scope) {
    scope.expr(call_text("coalesce", to_string(l), to_string(profile)));
    scope.note("by profile", "each mode of L at a leaf of " + to_string(profile) + " is coalesced on its own");
  }
  return traced(scope, transform_with_profile(l, profile, [](const Layout& m, const IntTuple&) { return coalesce(m); },
                                              "coalesce"));
}

}  // namespace tessera::rt
