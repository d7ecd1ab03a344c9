// The TMA boxes over a shared-memory tile (`tessera tma -o`, Python's `tma(...).draw()`):
// each cell labelled with the box (copy) that fills it and coloured by box, its tooltip
// adding the smem offset and the box's coordinate.
#pragma once

#include "tessera/analysis/tma_runtime.hpp"
#include "tessera/rt/composed_layout.hpp"
#include "tessera/viz/model.hpp"

namespace tessera::viz {

// `bits`: the element width, for colouring by bank or chunk. Throws viz::Error unless the
// smem tile has rank 2.
Diagram tma_boxes_diagram(const rt::SwizzledLayout& smem, int bits, const tma::Arguments& a);

}  // namespace tessera::viz
