// Builder: a thread-value (TV) layout drawn over the (M,N) tile it indexes.
// The TV layout maps (thread t, value v) -> an index of the tile; the tile maps
// (m,n) -> index (column-major for a plain shape, or any injective rank-2 layout).
// Cell (m,n) shows T<t> / V<v> for the pair(s) landing on it: the inverse map.
// Colour follows the thread; uncovered cells stay blank; cells hit more than
// once get a red outline and list every pair in the tooltip.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tessera/rt/layout.hpp"
#include "tessera/viz/error.hpp"
#include "tessera/viz/model.hpp"

namespace tessera::viz {

// The tile a TV layout indexes.
struct TvTile {
  std::string text;                      // "(16,8)" or the tile layout, for titles and messages
  rt::IntTuple row_shape, col_shape;     // modes of the tile (M and N, possibly hierarchical)
  std::function<std::int64_t(std::int64_t m, std::int64_t n)> index;  // (m,n) -> tile index
  std::int64_t rows() const;
  std::int64_t cols() const;
};
// (M,N) or hierarchical ((2,8),8): column-major; a rank-1 shape N is one row of N.
TvTile tile_of_shape(const rt::IntTuple& shape);
// A rank-1 or rank-2 layout (m,n) -> index; must be injective (checked by invert_tv).
TvTile tile_of_layout(const rt::Layout& tile);

// A TV map: (t,v) -> tile index over threads x values.
struct TvFunction {
  std::string text;                      // the TV layout, for the panel title
  rt::IntTuple thr_shape, val_shape;     // the thread mode and the value mode
  std::function<std::int64_t(std::int64_t t, std::int64_t v)> index;
  std::int64_t threads() const;
  std::int64_t values() const;
};
// A rank-2 layout ((thread modes),(value modes)). Throws viz::Error otherwise.
TvFunction tv_of_layout(const rt::Layout& tv);

struct TvHit {
  std::int64_t thread = 0, value = 0;
  friend bool operator==(const TvHit&, const TvHit&) = default;
};

// The inverse map: for each tile cell (row-major), the (t,v) pairs that land on it,
// in the order CuTe enumerates the TV layout (thread fastest, then value).
struct TvInverse {
  std::int64_t rows = 0, cols = 0;
  std::vector<std::vector<TvHit>> hits;
  std::int64_t uncovered = 0;  // cells with no pair
  std::int64_t repeated = 0;   // cells with more than one pair
  const std::vector<TvHit>& at(std::int64_t m, std::int64_t n) const {
    return hits[static_cast<std::size_t>(m * cols + n)];
  }
};
// Throws viz::Error when a pair maps outside the tile or the tile is not injective.
TvInverse invert_tv(const TvFunction& tv, const TvTile& tile);

Panel tv_panel(const TvFunction& tv, const TvTile& tile, const TvInverse& inv);
// One-panel diagram, with legend notes for blank and repeated cells.
Diagram tv_diagram(const TvFunction& tv, const TvTile& tile);

}  // namespace tessera::viz
