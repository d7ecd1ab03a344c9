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

namespace detail {

// Walk the flat modes from the back, merging s0:d0 into s1:d1 when s0*d0 == d1,
// skipping size-1 modes; an all-ones layout becomes 1:0 (CuTe's bw_coalesce).
void coalesce_modes(std::span<const std::int64_t> fs, std::span<const std::int64_t> fd, Ints& ns, Ints& nd,
                    TraceScope* scope) {
  const std::size_t R = fs.size();
  ns.assign(1, fs[R - 1]);  // stored reversed: back() is the front
  nd.assign(1, fd[R - 1]);
  for (std::size_t k = R - 1; k-- > 0;) {
    const std::int64_t s = fs[k], d = fd[k];
    if (s == 1) {
      if (scope) scope->note("drop", mode_text(s, d) + " (size 1)");
      continue;
    }
    if (ns.size() == 1 && ns.back() == 1) {
      if (scope) scope->note("drop", mode_text(ns.back(), nd.back()) + " (size 1)");
      ns.back() = s;
      nd.back() = d;
    } else if (checked_mul(s, d, "coalesce") == nd.back()) {
      const std::int64_t merged = checked_mul(s, ns.back(), "coalesce");
      if (scope)
        scope->note("merge", mode_text(s, d) + " with " + mode_text(ns.back(), nd.back()) + " (" + str(s) + "*" +
                                 str(d) + " = " + str(nd.back()) + ") -> " + mode_text(merged, d));
      ns.back() = merged;
      nd.back() = d;
    } else {
      ns.push_back(s);
      nd.push_back(d);
    }
  }
  if (ns.size() == 1 && ns[0] == 1) {
    nd[0] = 0;
    return;
  }
  std::reverse(ns.begin(), ns.end());
  std::reverse(nd.begin(), nd.end());
}

void coalesced_modes(const Layout& l, Ints& s, Ints& d) {
  if (tracing()) {
    const Layout c = coalesce(l);
    s = Ints(c.shape.leaf_values());
    d = Ints(c.stride.leaf_values());
    return;
  }
  coalesce_modes(l.shape.leaf_values(), l.stride.leaf_values(), s, d, nullptr);
}

namespace {
// Flat modes layout_of accepts without a word: positive sizes whose product fits.
bool plainly_a_layout(std::span<const std::int64_t> s) {
  std::int64_t size = 1;
  for (const std::int64_t x : s)
    if (x < 1 || __builtin_mul_overflow(size, x, &size)) return false;
  return !s.empty();
}
}  // namespace

Layout coalesce_of_modes(std::span<const std::int64_t> s, std::span<const std::int64_t> d) {
  // (modes that would not make a layout take layout_of, which says why)
  if (tracing() || !plainly_a_layout(s)) return coalesce(layout_of(s, d));
  Ints ns, nd;
  coalesce_modes(s, d, ns, nd, nullptr);
  return layout_of(ns, nd);
}

}  // namespace detail

Layout coalesce(const Layout& l) {
  TraceScope scope("coalesce");
  if (scope) {
    scope.expr(call_text("coalesce", to_string(l)));
    scope.note("flat modes", modes_text(l.shape.leaf_values(), l.stride.leaf_values()));
  }
  Ints ns, nd;
  coalesce_modes(l.shape.leaf_values(), l.stride.leaf_values(), ns, nd, scope ? &scope : nullptr);
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

void coalesce_x_modes(const Layout& l, Ints& s, Ints& d) {
  if (tracing()) {
    const Layout c = coalesce_x(l);
    s = Ints(c.shape.leaf_values());
    d = Ints(c.stride.leaf_values());
    return;
  }
  if (l.shape.leaf_values().back() != 1) return coalesce_modes(l.shape.leaf_values(), l.stride.leaf_values(), s, d, nullptr);
  Ints x(l.shape.leaf_values());
  x.back() = 2;
  // the layout coalesce_x makes, which must be one (its size doubled may not fit)
  if (!plainly_a_layout(x)) (void)layout_of(x, l.stride.leaf_values());
  coalesce_modes(x, l.stride.leaf_values(), s, d, nullptr);
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
