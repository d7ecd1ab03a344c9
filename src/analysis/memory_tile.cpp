#include "tessera/analysis/memory_tile.hpp"

#include <vector>

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

TvAccess access_of_copy_side(const rt::TiledCopy& copy, bool source) {
  const rt::Layout& side = source ? copy.atom.src : copy.atom.dst;
  TvAccess a;
  a.text = copy.atom.atom->name + (source ? " source" : " destination");
  a.tv = source ? copy.layout_s_tv : copy.layout_d_tv;
  a.tile_m = rt::product(copy.tiler[0]);
  a.tile_n = copy.tiler.rank() > 1 ? rt::product(copy.tiler[1]) : 1;
  a.vec = int(side.mode(1).size());
  const std::int64_t atom_threads = side.mode(0).size();
  std::vector<bool> lane_active(std::size_t(atom_threads), true);
  for (std::int64_t l = 0; l < atom_threads; ++l)
    for (std::int64_t k = 0; k < l; ++k)
      if (side(k) == side(l)) lane_active[std::size_t(l)] = false;
  a.active = [lane_active, atom_threads](std::int64_t t) { return bool(lane_active[std::size_t(t % atom_threads)]); };
  return a;
}

void check_access_fits(const MemoryTile& tile, const TvAccess& access, const std::string& memory) {
  const std::int64_t values = access.tv.mode(1).size();
  if (access.vec < 1 || values % access.vec != 0)
    throw rt::Error("each thread holds " + std::to_string(values) + " values, not a multiple of " +
                    std::to_string(access.vec) + " per access");
  if (access.tile_m <= 0 || access.tile_n <= 0 || tile.rows() % access.tile_m != 0 || tile.cols() % access.tile_n != 0)
    throw rt::Error("the " + memory + " tile " + tile.text + " is " + std::to_string(tile.rows()) + "x" +
                    std::to_string(tile.cols()) + ", not a whole number of " + std::to_string(access.tile_m) + "x" +
                    std::to_string(access.tile_n) + " copy tiles");
}

TvAccessShape access_shape(const MemoryTile& tile, const TvAccess& access, int element_bits) {
  TvAccessShape s;
  s.threads = access.tv.mode(0).size();
  s.values = access.tv.mode(1).size();
  s.vec = access.vec;
  s.element_bits = element_bits;
  s.tile_m = access.tile_m;
  s.tile_n = access.tile_n;
  s.memory_m = tile.rows();
  s.memory_n = tile.cols();
  return s;
}

std::string at_thread_value(std::int64_t thread, std::int64_t value) {
  if (thread < 0) return {};
  return " (thread " + std::to_string(thread) + (value >= 0 ? ", value " + std::to_string(value) : std::string()) + ")";
}

}  // namespace tessera::analysis
