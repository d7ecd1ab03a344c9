#pragma once
// The verifier's picture: a map's expected tile (what TV says) beside the observed tile
// (what the records say), drawn with viz's diff arrangement; cells whose (thread,value)
// holders differ are red. Separate from tessera::verify so kernels' tests need no viz.
#include <cstdint>

#include "tessera/verify/trace.hpp"
#include "tessera/viz/model.hpp"

namespace tessera::verify {

// Largest tile drawn (cells); larger tiles throw viz::Error (a 256x256 tile is unreadable).
inline constexpr std::int64_t kMaxDiagramCells = 65536;

// Expected (TV over the tile) and observed (records of `m` in `t`) panels side by side.
// A cell is a mismatch when the (thread,value) pairs recorded there differ from those TV
// puts there. Records outside the tile or TV's domain are not drawn (a note counts them).
// Returns the number of mismatching cells through `mismatching_cells` when given.
// Throws viz::Error when the tile exceeds kMaxDiagramCells.
viz::Diagram diff_diagram(const Trace& t, const Map& m, std::int64_t* mismatching_cells = nullptr);

}  // namespace tessera::verify
