// The TMA boxes over a shared-memory tile (`tessera tma -o`): cell (m, n) shows the box, the
// copy, that fills it.
#pragma once

#include "tessera/analysis/tma_runtime.hpp"
#include "tessera/rt/composed_layout.hpp"
#include "tessera/viz/model.hpp"

namespace tessera::viz {

// Throws viz::Error unless the smem tile has rank 2.
Diagram tma_boxes_diagram(const rt::SwizzledLayout& smem, const tma::Arguments& a);

}  // namespace tessera::viz
