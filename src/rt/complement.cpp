// complement(A, M): the offsets in [0, M) that A does not reach, as an ordered, coalesced layout.
#include "tessera/rt/algebra.hpp"

#include <algorithm>

#include "algebra_detail.hpp"
#include "tessera/rt/checked.hpp"
#include "tessera/rt/error.hpp"

namespace tessera::rt {

using namespace detail;

namespace {

// CuTe's complement walks filter(L)'s strides, which it needs non-negative; a size-1 mode is
// filtered away whatever its stride (complement(1:-16, 1) is CuTe's 1:0), as in the static tier.
void require_nonnegative_strides(const Layout& l, const char* op) {
  const auto s = l.shape.leaf_values(), d = l.stride.leaf_values();
  for (std::size_t k = 0; k < d.size(); ++k)
    if (d[k] < 0 && s[k] > 1)
      throw Error(std::string(op) + ": negative strides are not supported (" + to_string(l) + " has the mode " +
                  std::to_string(s[k]) + ":" + std::to_string(d[k]) + ")");
}

}  // namespace

Layout complement(const Layout& l, std::int64_t cotarget) {
  TraceScope scope("complement");
  if (scope) scope.expr(call_text("complement", to_string(l), str(cotarget)));
  require_nonnegative_strides(l, "complement");
  // filter(L)'s flat modes (the traced step while a trace is open; its loop alone otherwise).
  Ints fs, fd;
  if (scope) {
    const Layout fl = filter(l);
    fs = Ints(fl.shape.leaf_values());
    fd = Ints(fl.stride.leaf_values());
  } else {
    Ints ones(l.shape.leaf_values());
    const std::span<const std::int64_t> d = l.stride.leaf_values();
    for (std::size_t i = 0; i < ones.size(); ++i)
      if (d[i] == 0) ones[i] = 1;
    coalesce_modes(ones, d, fs, fd, nullptr);
  }
  const Flat f{fs, fd};
  if (f.rank() == 1 && f.d[0] == 0) {  // nothing is reached but 0: the complement is all of [0, cotarget)
    if (scope) scope.note("image", "filter(L) reaches only offset 0: the complement is all of [0, " + str(cotarget) + ")");
    return traced(scope, coalesce(Layout(IntTuple(cotarget), IntTuple(cotarget == 1 ? 0 : 1))));
  }
  // Sort the modes by stride; each gap between consecutive strides becomes a mode.
  // (stable: an insertion sort, which needs no buffer)
  Indices order(f.rank());
  for (std::size_t i = 0; i < order.size(); ++i) {
    std::size_t j = i;
    for (; j > 0 && f.d[i] < f.d[order[j - 1]]; --j) order[j] = order[j - 1];
    order[j] = i;
  }
  if (scope) {
    Ints ss, sd;
    for (auto k : order) ss.push_back(f.s[k]), sd.push_back(f.d[k]);
    scope.note("modes sorted by stride", modes_text(ss, sd));
  }
  Ints rs, rd{1};
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
  if (!scope) return coalesce_of_modes(rs, rd);
  const Layout gaps = layout_of(rs, rd);
  scope.note("gaps and rest, before coalesce", to_string(gaps), true);
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

}  // namespace tessera::rt
