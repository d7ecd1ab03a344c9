// Diagrams shared by the golden-file and image tests: built from runtime layouts
// directly, so these tests do not depend on the parser.
#pragma once

#include <string>
#include <vector>

#include "tessera/rt/layout.hpp"
#include "tessera/viz/build_layout.hpp"
#include "tessera/viz/arrange.hpp"
#include "tessera/viz/build_tv.hpp"

namespace viz_cases {

using tessera::rt::IntTuple;
using tessera::rt::Layout;
namespace viz = tessera::viz;

inline IntTuple T(std::initializer_list<IntTuple> e) { return IntTuple::tuple(e); }

struct Case {
  std::string name;
  viz::Diagram diagram;
};

// (2,3):(3,1) row-major: its print_layout table is written out by hand in the tests.
inline Layout row_major_2x3() { return Layout(T({2, 3}), T({3, 1})); }
// README's running example (Story 1): hierarchical columns, boundary every 2 columns.
inline Layout hier_8x8() { return Layout(T({8, T({2, 4})}), T({2, T({1, 16})})); }
// Hierarchical rows ((2,2),4) and columns (2,2).
inline Layout hier_rows() { return Layout(T({T({T({2, 2}), 4}), T({2, 2})}), T({T({T({1, 2}), 4}), T({16, 32})})); }
// SM80 m16n8k8 C fragment: (thread,value) -> (m,n) in a column-major 16x8 tile.
inline Layout sm80_c_tv() { return Layout(T({T({4, 8}), T({2, 2})}), T({T({32, 1}), T({16, 8})})); }

// SM80 m16n8k8 (F16 in, F32 out) operands: A (16x8, M x K) has the C fragment's layout,
// B is (N,K) = (8,8) with lane -> (n = lane/4, k = 2*(lane%4) + v).
inline Layout sm80_b_tv() { return Layout(T({T({4, 8}), 2}), T({T({16, 1}), 8})); }

inline viz::Diagram sm80_mma() {
  auto panel = [](const Layout& tv, const viz::TvTile& tile, const std::string& name) {
    const viz::TvFunction f = viz::tv_of_layout(tv);
    viz::Panel p = viz::tv_panel(f, tile, viz::invert_tv(f, tile));
    p.title = name + " " + p.title;
    return p;
  };
  return viz::mma_arrangement(panel(sm80_c_tv(), viz::tile_of_shape(T({16, 8})), "A"),
                              panel(sm80_b_tv(), viz::transposed(viz::tile_of_shape(T({8, 8}))), "B"),
                              panel(sm80_c_tv(), viz::tile_of_shape(T({16, 8})), "C"));
}

inline std::vector<Case> all() {
  std::vector<Case> cs;
  cs.push_back({"row_major_2x3", viz::layout_diagram(row_major_2x3())});
  cs.push_back({"hier_8x8", viz::layout_diagram(hier_8x8())});
  cs.push_back({"hier_rows", viz::layout_diagram(hier_rows())});
  cs.push_back({"rank1", viz::layout_diagram(Layout(IntTuple(8), IntTuple(3)))});
  cs.push_back({"swizzled", viz::layout_diagram(tessera::rt::SwizzledLayout{tessera::rt::Swizzle(2, 0, 2),
                                                                           Layout(T({4, 4}), T({4, 1}))})});
  cs.push_back({"tv_sm80_c", viz::tv_diagram(viz::tv_of_layout(sm80_c_tv()), viz::tile_of_shape(T({16, 8})))});
  // 4 threads x 2 values over a 2x4 tile, t+v: cells 1..3 held twice, 5..7 by nobody.
  cs.push_back({"tv_overlap", viz::tv_diagram(viz::tv_of_layout(Layout(T({4, 2}), T({1, 1}))),
                                              viz::tile_of_shape(T({2, 4})))});
  // A verifier-style diff: two panels side by side, mismatching cells in red, a title.
  {
    viz::Panel expected = viz::layout_diagram(Layout(T({2, 2}), T({1, 2}))).panels[0];
    viz::Panel actual = viz::layout_diagram(Layout(T({2, 2}), T({2, 1}))).panels[0];
    expected.title = "expected";
    actual.title = "actual";
    viz::Diagram d = viz::diff_diagram(expected, actual);
    d.title = "expected vs actual <&>";
    cs.push_back({"diff_two_panels", d});
  }
  cs.push_back({"mma_sm80_16x8x8", sm80_mma()});
  return cs;
}

}  // namespace viz_cases
