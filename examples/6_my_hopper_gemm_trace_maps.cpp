// 6. The expected maps of your Hopper GEMM's trace (6_my_hopper_gemm_trace.hpp), from the
// kernel's own objects: a stage tile's one TMA box, (box, element) -> the tile coordinate
// whose offset in the stage (before the swizzle) is the element's offset in the box:
// right_inverse of the stage's layout; and the TiledMma's C map over the CTA's tile.
#include <ostream>

#include "6_my_hopper_gemm_trace.hpp"

namespace my_hopper_gemm {
namespace {
template <class Stage, class Elements>
std::string box_tv(Stage const& stage, Elements elements) {
  return to_string(composition(right_inverse(stage.inner()), make_layout(make_shape(_1{}, elements))));
}
}  // namespace

void write_trace_maps(std::ostream& os) {
  os << "map " << trace_map_name(tma_a) << " " << to_string(make_shape(bM, bK)) << " "
     << box_tv(StageA{}, C<stage_a_elements>{}) << "\n";
  os << "map " << trace_map_name(tma_b) << " " << to_string(make_shape(bN, bK)) << " "
     << box_tv(StageB{}, C<stage_b_elements>{}) << "\n";
  os << "map " << trace_map_name(mma_c) << " " << to_string(make_shape(bM, bN)) << " "
     << to_string(TiledMma::get_layoutC_TV(make_shape(bM, bN))) << "\n";
}

}  // namespace my_hopper_gemm
