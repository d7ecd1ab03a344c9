#include "tessera/viz/build_copy.hpp"

#include "tessera/viz/arrange.hpp"
#include "tessera/viz/build_tv.hpp"

namespace tessera::viz {

Diagram copy_diagram(const CopyTvLayouts& copy) {
  const TvTile tile = tile_of_shape(copy.tile);
  std::int64_t repeated = 0, uncovered = 0;
  auto panel = [&](const char* name, const rt::Layout& l) {
    const TvFunction tv = tv_of_layout(l);
    const TvInverse inv = invert_tv(tv, tile);
    repeated += inv.repeated;
    uncovered += inv.uncovered;
    Panel p = tv_panel(tv, tile, inv);
    p.title = std::string(name) + " " + p.title;
    return p;
  };
  Diagram d = side_by_side({panel("source", copy.src_tv), panel("destination", copy.dst_tv)});
  d.title = copy.name;
  d.notes.push_back("cell: thread T, value V that reads it (source) or writes it (destination)");
  if (uncovered) d.notes.push_back(std::to_string(uncovered) + " cell(s) moved by no thread: blank");
  if (repeated)
    d.notes.push_back(std::to_string(repeated) + " cell(s) touched by several (thread,value) pairs: red outline, first shown");
  return d;
}

}  // namespace tessera::viz
