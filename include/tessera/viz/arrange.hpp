// Several panels in one diagram: the arrangements the MMA/copy builders and the
// verifier use. Panels keep their cells; only slots, alignment and titles change.
#pragma once

#include <string>
#include <vector>

#include "tessera/viz/build_tv.hpp"
#include "tessera/viz/error.hpp"
#include "tessera/viz/model.hpp"

namespace tessera::viz {

// Panels left to right in one row (e.g. a copy's source and destination).
Diagram side_by_side(std::vector<Panel> panels);

// Panels in reading order, `columns` to a row (a derivation's steps, a diff's operands).
Diagram grid_of(std::vector<Panel> panels, int columns);

// An MMA's operands in CuTe's arrangement: B (drawn K x N) above C, A (M x K) left
// of C, so A's rows line up with C's rows and B's columns with C's columns.
Diagram mma_arrangement(Panel a, Panel b, Panel c);

// The same tile seen with rows and columns swapped: cell (k,n) of the result is
// cell (n,k) of `t`. For drawing B, whose tile is (N,K), as K x N above C.
TvTile transposed(const TvTile& t);

// A verifier diff: `expected` and `actual` side by side; every cell of `actual`
// whose labels differ from `expected` (or that is present in only one) is marked
// Highlight::mismatch. Panels must have the same grid. Returns the mismatch count
// through `mismatches` when given.
Diagram diff_diagram(Panel expected, Panel actual, std::int64_t* mismatches = nullptr);

}  // namespace tessera::viz
