// Builder: a plain layout (rank 1 or 2) as a grid of cells, coloured by index.
// Mode 0 gives the rows and mode 1 the columns; hierarchical modes are walked
// colexicographically (CuTe's order), their sub-mode boundaries drawn thicker.
// A rank-1 layout is drawn as one row of N cells.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "tessera/rt/layout.hpp"
#include "tessera/viz/error.hpp"
#include "tessera/viz/model.hpp"

namespace tessera::viz {

// Mode tree of an IntTuple shape (an integer is a leaf).
ModeTree mode_tree(const rt::IntTuple& shape);

// A function of (row, col) drawn as a grid: the common ground of plain and swizzled layouts.
struct GridFunction {
  std::string title;                 // printed above the grid (CuTe prints the layout)
  rt::IntTuple row_shape, col_shape; // the two modes (rank-1 layouts: row_shape = 1)
  std::function<std::int64_t(std::int64_t row, std::int64_t col)> value;
  std::int64_t cosize = 0;           // CuTe's cosize, sets the text table's width
  bool single_row = false;           // a rank-1 layout: the coordinate is the column's alone
  // A swizzled layout: the swizzle moves units of 2^M elements, 2^B of them per period;
  // colouring by chunk shows those units (0: the 16-byte chunk).
  std::int64_t chunk_elements = 0;
  std::string chunk_name;
};

Panel layout_panel(const GridFunction& f);

// Throws viz::Error unless the layout has rank 1 or 2 (rank > 2: group modes first).
void check_drawable(const rt::Layout& l);

// The grid a layout draws as, without building the diagram (for size checks).
// Throws viz::Error for rank 0 or rank > 2 (group modes first).
GridFunction grid_function(const rt::Layout& l);
GridFunction grid_function(const rt::SwizzledLayout& l);

// The one-panel diagram of a grid, coloured by `by` (automatic: by the swizzle's chunk for a
// swizzled layout, else by offset).
Diagram layout_diagram(const GridFunction& f, ColorBy by = ColorBy::automatic);

// One-panel diagrams of a layout.
Diagram layout_diagram(const rt::Layout& l);
Diagram layout_diagram(const rt::SwizzledLayout& l);

}  // namespace tessera::viz
