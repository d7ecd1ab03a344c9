// What explain and diff draw: a layout value (plain or swizzled) as the grid a panel draws,
// and the 1-D function it is (index -> offset).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tessera/rt/eval.hpp"
#include "tessera/viz/build_layout.hpp"

namespace tessera::viz {

// Drawings past cell_limit cells need an explicit request (the CLI's --force, Python's
// force=True); none past hard_cell_limit is drawn.
inline constexpr std::int64_t cell_limit = 65536;
inline constexpr std::int64_t hard_cell_limit = std::int64_t{1} << 20;

}  // namespace tessera::viz

namespace tessera::viz {

// Rank > 2 is drawn as (mode 0, (the other modes)): the same function of the colexicographic
// index, with rows and columns (render asks the user to group the modes; explain and diff
// draw whatever a step gives).
inline rt::Layout grouped_for_drawing(const rt::Layout& l) {
  if (!l.shape.is_tuple() || l.rank() <= 2) return l;
  std::vector<rt::IntTuple> s, d;
  for (std::size_t i = 1; i < l.rank(); ++i) {
    s.push_back(l.shape[i]);
    d.push_back(l.stride[i]);
  }
  return rt::Layout(rt::IntTuple::tuple({l.shape[0], rt::IntTuple::tuple(std::move(s))}),
                    rt::IntTuple::tuple({l.stride[0], rt::IntTuple::tuple(std::move(d))}));
}

inline bool is_layout_value(const rt::Value& v) {
  return v.kind() == rt::Value::Kind::Layout || v.kind() == rt::Value::Kind::Swizzled;
}

// The layout under a value that is a layout or a swizzled layout.
inline const rt::Layout& base_layout(const rt::Value& v) {
  return v.kind() == rt::Value::Kind::Layout ? v.layout() : v.swizzled().layout;
}

// The grid of a layout or swizzled layout (nullopt for other values or a rank-0 layout).
inline std::optional<GridFunction> grid_of_value(const rt::Value& v) {
  if (!is_layout_value(v)) return std::nullopt;
  const rt::Layout& l = base_layout(v);
  if (l.shape.is_tuple() && l.rank() == 0) return std::nullopt;
  GridFunction f;
  if (v.kind() == rt::Value::Kind::Layout) {
    f = grid_function(grouped_for_drawing(v.layout()));
  } else {
    rt::SwizzledLayout s = v.swizzled();
    s.layout = grouped_for_drawing(s.layout);
    f = grid_function(s);
  }
  f.title = rt::to_string(v);
  return f;
}

// The value at 1-D index i (colexicographic over the shape).
inline std::int64_t value_at(const rt::Value& v, std::int64_t i) {
  return v.kind() == rt::Value::Kind::Layout ? v.layout()(i) : v.swizzled()(i);
}

}  // namespace tessera::viz
