// slice: the sub-layout of the modes where a coordinate holds '_', and the offset of the fixed part.
#include "tessera/rt/algebra.hpp"

#include <algorithm>

#include "algebra_detail.hpp"
#include "tessera/rt/checked.hpp"
#include "tessera/rt/error.hpp"

namespace tessera::rt {

using namespace detail;

bool has_underscore(const IntTuple& c) {
  const std::span<const std::int64_t> v = c.leaf_values();
  return std::find(v.begin(), v.end(), kUnderscore) != v.end();
}

namespace {
void slice_into(const IntTuple& c, const IntTuple& s, const IntTuple& d, IntTuple& os, IntTuple& od) {
  if (c.is_leaf()) {
    if (c.value() == kUnderscore) {
      os.push_back(s);
      od.push_back(d);
    }
    return;
  }
  if (s.is_leaf() || s.rank() != c.rank())
    throw Error("slice: the coordinate " + to_string(c) + " does not match the shape " + to_string(s));
  auto si = s.elems().begin(), di = d.elems().begin();
  for (const IntTuple& ci : c.elems()) slice_into(ci, *si++, *di++, os, od);
}

std::int64_t offset_of(const IntTuple& c, const IntTuple& s, const IntTuple& d) {
  if (c.is_leaf()) {
    if (c.value() == kUnderscore) return 0;
    return crd2idx(c, s, d);
  }
  if (s.is_leaf() || s.rank() != c.rank())
    throw Error("the coordinate " + to_string(c) + " does not match the shape " + to_string(s));
  std::int64_t off = 0;
  auto si = s.elems().begin(), di = d.elems().begin();
  for (const IntTuple& ci : c.elems()) off = checked_add(off, offset_of(ci, *si++, *di++), "offset");
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
  IntTuple os = IntTuple::tuple({}), od = IntTuple::tuple({});
  slice_into(coord, l.shape, l.stride, os, od);
  if (os.rank() == 0) throw Error("slice: the coordinate keeps no mode (use _ for the modes to keep)");
  if (scope) {
    try {
      const TraceMute mute;
      scope.note("offset of the fixed modes (dropped)", str(offset_of(coord, l.shape, l.stride)));
    } catch (const Error&) {  // only a note: slice itself does not need the offset
    }
  }
  return traced(scope, Layout(std::move(os), std::move(od)));
}

std::int64_t slice_offset(const IntTuple& coord, const Layout& l) { return offset_of(coord, l.shape, l.stride); }

}  // namespace tessera::rt
