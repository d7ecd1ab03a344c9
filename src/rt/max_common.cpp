// max_common_vector and max_common_layout: how many leading elements two layouts agree on,
// and the layout of those elements.
#include "tessera/rt/algebra.hpp"

#include <algorithm>

#include "algebra_detail.hpp"
#include "tessera/rt/checked.hpp"
#include "tessera/rt/error.hpp"

namespace tessera::rt {

using namespace detail;

namespace {
// The largest n <= limit whose indices [0, n) are a layout's prefix: a product of l's
// leading (coalesced) modes times part of the next one.
std::int64_t layout_prefix_size(const Layout& l, std::int64_t limit) {
  std::int64_t p = 1;
  const Layout c = coalesce(l);
  for (const std::int64_t s : c.shape.leaf_values()) {
    if (s > limit / p) return p * (limit / p);
    p *= s;
  }
  return p;
}

// l restricted to the indices [0, n), n as layout_prefix_size gives it: l's leading coalesced
// modes, the last one cut short (what composition(l, n:1) is when it is admissible).
Layout layout_prefix(const Layout& l, std::int64_t n) {
  const Layout c = coalesce(l);
  const std::span<const std::int64_t> s = c.shape.leaf_values(), d = c.stride.leaf_values();
  Ints ps, pd;
  std::int64_t p = 1;
  for (std::size_t i = 0; i < s.size() && p < n; ++i) {
    const std::int64_t e = std::min(s[i], n / p);
    ps.push_back(e);
    pd.push_back(d[i]);
    p *= e;
  }
  if (ps.empty()) return Layout(IntTuple(1), IntTuple(0));
  return layout_of(ps, pd);
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

}  // namespace tessera::rt
