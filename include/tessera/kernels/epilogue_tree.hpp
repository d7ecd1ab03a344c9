// Epilogues users compose: the per-element epilogue of a GEMM as a compile-time tree of typed
// nodes (CUTLASS 3.x's epilogue visitor trees, written in tessera's terms). Leaves fetch the
// accumulator, C, scalars and row/column broadcasts; Compute nodes apply f32 ops; sinks store
// an intermediate beside D or reduce it (row, column, whole-problem); D is the root's value,
// rounded to D's element type. docs/gemm_epilogue.md ("Composing epilogues (trees)") has the
// worked example and the rules. For example
//
//   using namespace tessera::kernels::tree;
//   using PreActivation = AuxStore<bfloat16_t,                      // z stored beside D
//       Compute<plus, Compute<multiplies, Compute<multiplies, Compute<multiplies, Scalar<>, Accumulator>,
//                                                  ColumnBroadcast<float>>, RowBroadcast<float>>,
//               RowBroadcast<bfloat16_t>>>;                          // z = alpha acc s_m[m] s_n[n] + bias[n]
//   using Tree = ScalarReduction<absolute_maximum, Compute<relu, PreActivation>>;   // D = relu(z), amax(D)
//
// The tree's Arguments nest as its types: Compute's are its children's in order, a sink's are
// its own and then its child's.
//
// Host side: can_implement (the first refusal, naming the node by its position: "root.0.1"),
// workspace_size, to_underlying_arguments; evaluate_tile runs a tree over one tile on the host,
// element by element (a frame of one element each: the direct evaluation), visiting only
// elements inside the problem; the SM90 tree epilogues (kernels/collective/sm90_epilogue_tree.cuh)
// visit a thread's elements within its frame (tree/fragment.hpp: wgmma_frame).
#pragma once

#include "tessera/kernels/epilogue_tree/compute.hpp"
#include "tessera/kernels/epilogue_tree/leaves.hpp"
#include "tessera/kernels/epilogue_tree/menu.hpp"
#include "tessera/kernels/epilogue_tree/node.hpp"
#include "tessera/kernels/epilogue_tree/sinks.hpp"

namespace tessera::kernels::tree {

// The whole tree's checks, with the root's position named "root".
template <class Tree>
GemmResult can_implement(TreeShape const& s, typename Tree::Arguments const& a) {
  if (s.m <= 0 || s.n <= 0 || s.l <= 0)
    return {GemmStatus::InvalidSize, "epilogue tree: the problem's M, N and L are positive (" + std::to_string(s.m) + ", " +
                                         std::to_string(s.n) + ", " + std::to_string(s.l) + ")"};
  return Tree::can_implement(s, a, "root");
}

// One tile of D on the host: the tile at (tile_m, tile_n) of (BM, BN) elements in batch l; for
// each of its elements inside the problem, d(m, n, value) with value = the tree at (m, n, l)
// over acc(m, n). Elements past M or N (a residue tile) are not visited: no leaf reads and no
// sink writes there. Each element is its own frame: the nodes' per-tile work (loads, reductions'
// combines) runs per element, the reference the per-thread frames of the kernels must equal.
template <class Tree, class Acc, class Store>
void evaluate_tile(typename Tree::Params const& p, TreeShape const& s, std::int64_t tile_m, std::int64_t tile_n, std::int64_t l,
                   std::int64_t bm, std::int64_t bn, Acc const& acc, Store const& d) {
  for (std::int64_t j = 0; j < bn; ++j)
    for (std::int64_t i = 0; i < bm; ++i) {
      const TreeCoord c{tile_m * bm + i, tile_n * bn + j, l};
      if (!inside(s, c)) continue;
      const TileFrame<1, 1> f = element_frame(s, c);
      typename Tree::template State<1, 1> state{};
      Tree::begin_tile(p, state, f);
      d(c.m, c.n, Tree::visit(p, state, c, acc(c.m, c.n)));
      Tree::end_tile(p, state, f);
    }
}

}  // namespace tessera::kernels::tree
