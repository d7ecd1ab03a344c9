// Builder: an MMA atom or tiled MMA as CuTe's print_latex draws it: A (M x K) left of C,
// B drawn K x N (transposed) above C, C (M x N); every cell labelled T<thread> V<value>
// and coloured by thread. The TV layouts map (thread, value) to the column-major index of
// (m,k), (n,k) and (m,n) in the tile.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "tessera/rt/layout.hpp"
#include "tessera/viz/model.hpp"

namespace tessera::viz {

struct MmaTvLayouts {
  std::string name;                  // e.g. "SM80_16x8x16_F32F16F16F32_TN 2x2x1"
  rt::Layout a_tv, b_tv, c_tv;
  std::int64_t m = 0, n = 0, k = 0;  // the tile
  // When set, the layouts' thread mode is an atom-thread id and cells are labelled with
  // thread_id(id) (e.g. SM70's quad-pair: ids 0..7 are lanes 0-3, 16-19).
  std::function<std::int64_t(std::int64_t)> thread_id;
  // Threads per atom (0: unknown): cells of different atoms get a boundary.
  std::int64_t atom_threads = 0;
};

// A and B are replicated over the atoms of the other mode (and an smem operand of wgmma
// over all threads): those cells show the first (thread,value) and list all in the tooltip,
// without the red "held twice" outline. C must be a bijection: repeats keep the outline.
// Throws viz::Error if a layout sends a pair outside its tile.
Diagram mma_diagram(const MmaTvLayouts& mma);

}  // namespace tessera::viz
