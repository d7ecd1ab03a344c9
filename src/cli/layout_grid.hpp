// The layout grids explain and diff draw (tessera/viz/layout_grid.hpp), under the CLI's names.
#pragma once

#include "tessera/viz/layout_grid.hpp"

namespace tessera::cli {

using viz::base_layout;
using viz::grid_of_value;
using viz::grouped_for_drawing;
using viz::is_layout_value;
using viz::value_at;

}  // namespace tessera::cli
