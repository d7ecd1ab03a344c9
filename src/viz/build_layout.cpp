#include "tessera/viz/build_layout.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "tessera/viz/colors.hpp"
#include "tessera/viz/error.hpp"

namespace tessera::viz {

ModeTree mode_tree(const rt::IntTuple& shape) {
  if (shape.is_leaf()) return ModeTree::leaf(shape.value());
  std::vector<ModeTree> c;
  for (const rt::IntTuple& e : shape.elems()) c.push_back(mode_tree(e));
  return ModeTree::tuple(std::move(c));
}

namespace {
std::string coordinate_text(std::int64_t i, const rt::IntTuple& shape) { return rt::to_string(rt::idx2crd(i, shape)); }

// CuTe's num_digits: 1 for anything below 10, including zero and negatives.
int digits(std::int64_t x) { return x > 0 ? static_cast<int>(std::to_string(x).size()) : 1; }

// CuTe's cosize: the last offset plus one, L(size-1)+1 (smaller than the span for negative strides).
std::int64_t cute_cosize(const rt::Layout& l) {
  const std::int64_t last = l(l.size() - 1);
  return last == INT64_MAX ? last : last + 1;
}

// Checks the rank and returns the (rows, cols) modes' shapes.
std::pair<rt::IntTuple, rt::IntTuple> grid_modes(const rt::Layout& l) {
  const std::string s = rt::to_string(l);
  if (l.shape.is_tuple() && l.rank() == 0) throw Error("cannot draw " + s + ": the layout has no modes");
  if (l.rank() > 2)
    throw Error("cannot draw " + s + ": it has rank " + std::to_string(l.rank()) +
                "; a diagram has rows and columns, so group the modes into two first, e.g. (a,(b,c)):(x,(y,z)) "
                "instead of (a,b,c):(x,y,z)");
  if (l.rank() == 1) {
    // Rank 1: one row. An integer shape is its own mode; (8) is a 1-tuple whose mode is 8.
    return {rt::IntTuple(1), l.shape.is_leaf() ? l.shape : l.shape[0]};
  }
  return {l.shape[0], l.shape[1]};
}
}  // namespace

void check_drawable(const rt::Layout& l) { (void)grid_modes(l); }

Panel layout_panel(const GridFunction& f) {
  const std::int64_t rows = rt::product(f.row_shape), cols = rt::product(f.col_shape);
  Panel p(rows, cols);
  p.title = f.title;
  p.rows.headers = index_headers(rows);
  p.cols.headers = index_headers(cols);
  p.rows.line_level = boundary_levels(mode_tree(f.row_shape));
  p.cols.line_level = boundary_levels(mode_tree(f.col_shape));
  p.text_min_width = digits(f.cosize);
  p.text_fixed_width = true;
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t c = 0; c < cols; ++c) {
      const std::int64_t v = f.value(r, c);
      Cell& cell = p.at(r, c);
      cell.present = true;
      cell.offset = v;
      cell.label = std::to_string(v);
      const std::string coord = f.single_row ? coordinate_text(c, f.col_shape)
                                             : "(" + coordinate_text(r, f.row_shape) + "," +
                                                   coordinate_text(c, f.col_shape) + ")";
      cell.tooltip = "(" + std::to_string(r) + "," + std::to_string(c) + ") coord " + coord + " index " +
                     std::to_string(v);
    }
  }
  return p;
}

// The grid of `fn`, a function of the 1-D index with `modes`' shape (a layout, or the layout
// under a swizzle): cell (r, c) holds fn(r + rows * c).
template <class Fn>
GridFunction grid_over(const rt::Layout& modes, std::string title, Fn fn, std::int64_t cosize) {
  auto [rs, cs] = grid_modes(modes);
  const std::int64_t rows = rt::product(rs);
  GridFunction f;
  f.title = std::move(title);
  f.row_shape = rs;
  f.col_shape = cs;
  f.value = [fn, rows](std::int64_t r, std::int64_t c) { return fn(r + rows * c); };
  f.cosize = cosize;
  f.single_row = modes.rank() == 1;
  return f;
}

GridFunction grid_function(const rt::Layout& l) { return grid_over(l, rt::to_string(l), l, cute_cosize(l)); }

GridFunction grid_function(const rt::SwizzledLayout& s) {
  GridFunction f = grid_over(s.layout, rt::to_string(s), s, s.cosize());
  f.chunk_elements = std::int64_t{1} << s.swizzle.base;
  f.chunk_name = "2^" + std::to_string(s.swizzle.base) + "-element unit that Sw<" + std::to_string(s.swizzle.bits) +
                 "," + std::to_string(s.swizzle.base) + "," + std::to_string(s.swizzle.shift) + "> permutes";
  return f;
}

Diagram layout_diagram(const GridFunction& f, ColorBy by) {
  Diagram d;
  d.panels.push_back(layout_panel(f));
  if (f.chunk_elements > 0) {
    d.natural_color = ColorBy::chunk;
    d.chunk_elements = f.chunk_elements;
    d.chunk_name = f.chunk_name;
  }
  apply_colors(d, by);
  return d;
}

Diagram layout_diagram(const rt::Layout& l) { return layout_diagram(grid_function(l)); }

Diagram layout_diagram(const rt::SwizzledLayout& l) { return layout_diagram(grid_function(l)); }

}  // namespace tessera::viz
