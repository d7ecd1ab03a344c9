// right_inverse and left_inverse: CuTe's walks over the coalesced modes by increasing stride.
#include "tessera/rt/algebra.hpp"

#include <utility>

#include "algebra_detail.hpp"
#include "tessera/rt/checked.hpp"
#include "tessera/rt/error.hpp"

namespace tessera::rt {

using namespace detail;

namespace {

// Each coalesced mode's position in the domain: the product of the sizes before it.
Ints domain_positions(const Flat& f, const char* op) {
  Ints prefix(f.rank());
  std::int64_t p = 1;
  for (std::size_t i = 0; i < f.rank(); ++i) {
    prefix[i] = p;
    p = checked_mul(p, f.s[i], op);
  }
  return prefix;
}

// The modes in CuTe's order of their strides. CuTe orders them with an exchange sort, which is
// not stable: of two modes with the same stride a later one may come first, and the inverses
// follow the first one met (modes sharing a stride make the layout non-injective; CuTe's
// choice decides).
Indices by_stride(const Flat& f) {
  Indices order(f.rank());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  for (std::size_t i = 0; i < order.size(); ++i)
    for (std::size_t j = i + 1; j < order.size(); ++j)
      if (f.d[order[j]] < f.d[order[i]]) std::swap(order[i], order[j]);
  return order;
}

}  // namespace

Layout right_inverse(const Layout& l) {
  TraceScope scope("right_inverse");
  if (scope) scope.expr(call_text("right_inverse", to_string(l)));
  Ints cs, cd;
  coalesced_modes(l, cs, cd);
  const Flat f{cs, cd};
  const Ints prefix = domain_positions(f, "right_inverse");
  const Indices order = by_stride(f);
  // Follow the strides from 1: the mode with stride 1, then the one whose stride is the end
  // of that mode, and so on; those modes, at their positions in the domain, form the inverse.
  if (scope) {
    Ints ss, sd;
    for (auto k : order) ss.push_back(f.s[k]), sd.push_back(f.d[k]);
    scope.note("modes sorted by stride", modes_text(ss, sd));
  }
  Ints rs{1}, rd{0};
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
  if (!scope) return coalesce_of_modes(rs, rd);
  scope.note("no mode has stride " + str(next), "the contiguous range ends at " + str(next));
  const Layout r = layout_of(rs, rd);
  scope.note("before coalesce", to_string(r), true);
  return traced(scope, coalesce(r));
}

// CuTe's construction: walk the coalesced modes in the same (exchange-sort) order of their
// strides; each non-zero stride d becomes a mode of size d / (size so far) at the position of
// that mode in the domain, and the last mode met closes the layout with its own size.
Layout left_inverse(const Layout& l) {
  TraceScope scope("left_inverse");
  if (scope) scope.expr(call_text("left_inverse", to_string(l)));
  Ints cs, cd;
  coalesced_modes(l, cs, cd);
  const Flat f{cs, cd};
  const Ints prefix = domain_positions(f, "left_inverse");
  const Indices order = by_stride(f);
  Ints rs, rd{0};
  std::int64_t covered = 1;
  for (std::size_t i : order) {
    if (f.d[i] == 0) continue;
    if (f.d[i] % covered != 0 || f.d[i] / covered <= 0)
      throw Error("left_inverse: the stride " + str(f.d[i]) + " is not a positive multiple of the " + str(covered) +
                  " offsets below it (CuTe's divisibility condition on the strides in order)");
    rs.push_back(f.d[i] / covered);
    rd.push_back(prefix[i]);
    if (scope)
      scope.note("stride " + str(f.d[i]), str(f.d[i]) + " / " + str(covered) + " = " + str(rs.back()) +
                                              " -> mode " + mode_text(rs.back(), rd[rd.size() - 2]) +
                                              "; next stride " + str(prefix[i]));
    covered = checked_mul(covered, rs.back(), "left_inverse");
  }
  rs.push_back(f.s[order.back()]);
  if (!scope) return coalesce_of_modes(rs, rd);
  const Layout r = layout_of(rs, rd);
  scope.note("closing mode", "the size " + str(rs.back()) + " of the last mode met, " +
                                 mode_text(f.s[order.back()], f.d[order.back()]));
  scope.note("before coalesce", to_string(r), true);
  return traced(scope, coalesce(r));
}

}  // namespace tessera::rt
