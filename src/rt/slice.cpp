// slice: the sub-layout of the modes where a coordinate holds '_', and the offset of the fixed part.
#include "tessera/rt/algebra.hpp"

#include <algorithm>

#include "algebra_detail.hpp"
#include "tessera/rt/checked.hpp"
#include "tessera/rt/error.hpp"

namespace tessera::rt {

using namespace detail;

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
