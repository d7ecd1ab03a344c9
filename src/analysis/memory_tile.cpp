#include "tessera/analysis/memory_tile.hpp"

#include "tessera/rt/error.hpp"
#include "tessera/rt/eval.hpp"

namespace tessera::analysis {

namespace {
std::pair<rt::IntTuple, rt::IntTuple> two_modes(const rt::Layout& l, const std::string& memory) {
  if (l.shape.is_leaf()) return {rt::IntTuple(1), l.shape};
  if (l.rank() == 1) return {rt::IntTuple(1), l.shape[0]};
  if (l.rank() != 2)
    throw rt::Error("the " + memory + " tile " + rt::to_string(l) + " has rank " + std::to_string(l.rank()) +
                    ": give one or two modes (M,N)");
  return {l.shape[0], l.shape[1]};
}
}  // namespace

std::int64_t MemoryTile::rows() const { return rt::product(row_shape); }
std::int64_t MemoryTile::cols() const { return rt::product(col_shape); }

MemoryTile memory_tile(const rt::Layout& l, const std::string& memory) {
  auto [r, c] = two_modes(l, memory);
  return MemoryTile{rt::to_string(l), r, c, [l](std::int64_t i) { return l(i); }};
}
MemoryTile memory_tile(const rt::SwizzledLayout& l, const std::string& memory) {
  auto [r, c] = two_modes(l.layout, memory);
  return MemoryTile{rt::to_string(rt::Value::of(l)), r, c, [l](std::int64_t i) { return l(i); }};
}

TvAccess access_of_tv(const rt::Layout& tv, std::int64_t tile_m, std::int64_t tile_n, int vec) {
  if (tv.rank() != 2 || tv.shape.is_leaf())
    throw rt::Error("a TV layout has two modes, (threads,values) -> tile index; " + rt::to_string(tv) + " has rank " +
                    std::to_string(tv.rank()));
  return TvAccess{rt::to_string(tv), tv, tile_m, tile_n, vec, {}};
}

}  // namespace tessera::analysis
