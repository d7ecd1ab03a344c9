// upcast and downcast: a layout reinterpreted for elements N times wider or narrower.
#include "tessera/rt/algebra.hpp"

#include "algebra_detail.hpp"
#include "tessera/rt/checked.hpp"
#include "tessera/rt/error.hpp"

namespace tessera::rt {

using namespace detail;

Layout upcast(const Layout& l, std::int64_t n) {
  TraceScope scope("upcast");
  if (scope) scope.expr(call_text("upcast", to_string(l), str(n)));
  if (n <= 0) throw Error("upcast: the factor must be positive");
  Ints s(l.shape.leaf_values()), d(l.stride.leaf_values());
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
  Ints s(l.shape.leaf_values()), d(l.stride.leaf_values());
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

}  // namespace tessera::rt
