// 5. The expected maps of your GEMM's trace (5_my_gemm_trace.hpp), from the kernel's own
// objects: the cp.async tiled copy over the (bM, bK) tile, (thread, (copy values, repeats)),
// numbered as its partitions number values, and the tiled MMA over the CTA's tile
// (TiledMma::get_layoutX_TV(tile)), numbered as partition_fragment numbers them.
#include <ostream>
#include <string>

#include "5_my_gemm_trace.hpp"

namespace my_gemm {
namespace {
template <class Tile>
std::string copy_tv(Tile const& tile) {
  return to_string(group<1, 3>(G2S::tidfrg_S(make_layout(tile))));
}
}  // namespace

void write_trace_maps(std::ostream& os) {
  const auto tA = make_shape(bM, bK);
  const auto tB = make_shape(bN, bK);
  const auto tC = make_shape(bM, bN);
  os << "map " << trace_map_name(g2s_a) << " " << to_string(tA) << " " << copy_tv(tA) << "\n";
  os << "map " << trace_map_name(g2s_b) << " " << to_string(tB) << " " << copy_tv(tB) << "\n";
  os << "map " << trace_map_name(mma_a) << " " << to_string(tA) << " " << to_string(TiledMma::get_layoutA_TV(tA)) << "\n";
  os << "map " << trace_map_name(mma_b) << " " << to_string(tB) << " " << to_string(TiledMma::get_layoutB_TV(tB)) << "\n";
  os << "map " << trace_map_name(mma_c) << " " << to_string(tC) << " " << to_string(TiledMma::get_layoutC_TV(tC)) << "\n";
}

}  // namespace my_gemm
