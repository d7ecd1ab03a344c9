// filter: drop stride-0 and size-1 modes, then coalesce.
#include "tessera/rt/algebra.hpp"

#include "algebra_detail.hpp"
#include "tessera/rt/checked.hpp"
#include "tessera/rt/error.hpp"

namespace tessera::rt {

using namespace detail;

Layout filter(const Layout& l) {
  TraceScope scope("filter");
  if (scope) scope.expr(call_text("filter", to_string(l)));
  // Zero-stride modes get size 1, then coalesce removes every size-1 mode.
  Ints fs(l.shape.leaf_values());
  const std::span<const std::int64_t> fd = l.stride.leaf_values();
  for (std::size_t i = 0; i < fs.size(); ++i)
    if (fd[i] == 0) fs[i] = 1;
  const Layout ones(IntTuple::with_leaves(l.shape, fs), l.stride);
  if (scope) scope.note("stride-0 modes get size 1", to_string(ones), true);
  return traced(scope, coalesce(ones));
}

Layout filter(const Layout& l, const IntTuple& profile) {
  TraceScope scope("filter");
  if (scope) scope.expr(call_text("filter", to_string(l), to_string(profile)));
  return traced(scope, transform_with_profile(l, profile, [](const Layout& m, const IntTuple&) { return filter(m); },
                                              "filter"));
}

}  // namespace tessera::rt
