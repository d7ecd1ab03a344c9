// Builder: a tiled copy as two panels over its (M,N) tile, source then destination: each
// cell shows the thread T and value V that reads it (source) or writes it (destination).
#pragma once

#include <string>

#include "tessera/rt/layout.hpp"
#include "tessera/viz/model.hpp"

namespace tessera::viz {

struct CopyTvLayouts {
  std::string name;       // e.g. "SM75_U32x4_LDSM_N (16-bit)"
  rt::Layout src_tv, dst_tv;  // (thread, value) -> column-major index of the tile
  rt::IntTuple tile;      // (M,N)
};

// Throws viz::Error if a layout sends a pair outside the tile.
Diagram copy_diagram(const CopyTvLayouts& copy);

}  // namespace tessera::viz
