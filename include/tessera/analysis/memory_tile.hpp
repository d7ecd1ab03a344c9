// What the bank (shared memory) and coalescing (global memory) analyses both read: a tile of
// memory given by a parsed layout, and how a warp's threads touch it (a TV map).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "tessera/analysis/warp_accesses.hpp"
#include "tessera/rt/layout.hpp"
#include "tessera/rt/tiled.hpp"

namespace tessera::analysis {

// A tile of memory: (m, n) of an (M, N) tile -> element offset, possibly swizzled.
struct MemoryTile {
  std::string text;
  rt::IntTuple row_shape, col_shape;                  // its two modes (rank 1: row_shape = 1)
  std::function<std::int64_t(std::int64_t)> offset;  // column-major tile index -> element offset
  std::int64_t rows() const;
  std::int64_t cols() const;
};
// Throws rt::Error unless the layout has one or two modes; `memory` names it in the message
// ("shared-memory", "global-memory").
MemoryTile memory_tile(const rt::Layout& l, const std::string& memory);
MemoryTile memory_tile(const rt::SwizzledLayout& l, const std::string& memory);

// How threads touch the tile: a TV map over a (tile_m, tile_n) copy tile, `vec` values per
// access, and which threads access memory.
struct TvAccess {
  std::string text;
  rt::Layout tv;  // (thread, value) -> column-major index of the copy tile
  std::int64_t tile_m = 0, tile_n = 0;
  int vec = 1;
  std::function<bool(std::int64_t)> active;  // empty: every thread
};
// A raw TV layout over a (tile_m, tile_n) tile (the memory tile's (M, N) when it covers it).
TvAccess access_of_tv(const rt::Layout& tv, std::int64_t tile_m, std::int64_t tile_n, int vec);
// A tiled copy's source or destination side: its TV map over the copy's tiler, the atom's
// vector on that side, and the lanes that supply an address (not those whose atom address
// repeats an earlier lane's, as ldmatrix .x1/.x2's upper lanes do).
TvAccess access_of_copy_side(const rt::TiledCopy& copy, bool source);

// Throws rt::Error unless each thread's values are a whole number of accesses and the memory
// tile a whole number of copy tiles; `memory` names it ("shared-memory", "global-memory").
void check_access_fits(const MemoryTile& tile, const TvAccess& access, const std::string& memory);
// The shape the walk (warp_accesses.hpp) reads: the access over the tile, `element_bits` wide.
TvAccessShape access_shape(const MemoryTile& tile, const TvAccess& access, int element_bits);
// " (thread T, value V)" naming where an analysis stopped; empty when thread < 0.
std::string at_thread_value(std::int64_t thread, std::int64_t value);

}  // namespace tessera::analysis
