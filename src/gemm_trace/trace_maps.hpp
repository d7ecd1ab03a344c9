// Host side of trace mode: the `map` lines of a kernel configuration, from the same
// TiledMMA / TiledCopy objects the kernel partitions with (to_runtime of their TV layouts),
// and the conversion of records into a tessera::verify::Trace.  Host only.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tessera/kernels/partitions.hpp"
#include "tessera/rt/to_runtime.hpp"
#include "kernel/trace_policy.cuh"
#include "tessera/verify/trace.hpp"

namespace tessera::kernels::trace {

template <class Tile, class TV>
verify::Map make_map(Map m, TV const& tv) {
  return verify::make_map(name(m), rt::to_runtime(Tile{}), rt::to_runtime(tv));
}

// A tiled copy's (thread, value) -> tile index over a whole tile it repeats over:
// (thread, (copy values, repeats)), numbered as the kernel's partitions number values.
template <class Tile, class TiledCopy_>
auto copy_tv_over(TiledCopy_ const&) {
  return group<1, 3>(TiledCopy_::tidfrg_S(make_layout(Tile{})));
}

// The maps of a tensor-core configuration (partitions.hpp TensorOpPartition).
template <class P>
std::vector<verify::Map> tensorop_maps() {
  using T = typename P::TiledMma;
  return {
      make_map<typename P::G2S_A::Tile>(Map::g2s_a, copy_tv_over<typename P::G2S_A::Tile>(typename P::G2S_A::Tiled{})),
      make_map<typename P::G2S_B::Tile>(Map::g2s_b, copy_tv_over<typename P::G2S_B::Tile>(typename P::G2S_B::Tiled{})),
      make_map<typename P::TileA>(Map::s2r_a, P::S2R_A::get_layoutD_TV()),
      make_map<typename P::TileB>(Map::s2r_b, P::S2R_B::get_layoutD_TV()),
      make_map<typename P::TileA>(Map::mma_a, T::get_layoutA_TV()),
      make_map<typename P::TileB>(Map::mma_b, T::get_layoutB_TV()),
      make_map<typename P::TileC>(Map::mma_c, T::get_layoutC_TV()),
  };
}

// The maps of a SIMT configuration (partitions.hpp SimtPartition), operand majors given.
template <class P, bool AKMajor, bool BKMajor>
std::vector<verify::Map> simt_maps() {
  using T = typename P::TiledMma;
  using GA = typename P::template G2S<P::BM, AKMajor>;
  using GB = typename P::template G2S<P::BN, BKMajor>;
  return {
      make_map<typename GA::Tile>(Map::g2s_a, copy_tv_over<typename GA::Tile>(typename GA::Tiled{})),
      make_map<typename GB::Tile>(Map::g2s_b, copy_tv_over<typename GB::Tile>(typename GB::Tiled{})),
      make_map<typename P::TileA>(Map::s2r_a, P::S2R_A::get_layoutD_TV()),
      make_map<typename P::TileB>(Map::s2r_b, P::S2R_B::get_layoutD_TV()),
      make_map<typename P::TileA>(Map::mma_a, T::get_layoutA_TV()),
      make_map<typename P::TileB>(Map::mma_b, T::get_layoutB_TV()),
      make_map<typename P::TileC>(Map::mma_c, T::get_layoutC_TV()),
  };
}

// Records as the device buffer holds them (5 ints each) -> verify records.
inline std::vector<verify::Record> to_records(const int* recs, std::int64_t n) {
  std::vector<verify::Record> out;
  out.reserve(std::size_t(n));
  for (std::int64_t i = 0; i < n; ++i) {
    const int* r = recs + 5 * i;
    verify::Record x;
    x.map = r[0] >= 0 && r[0] < int(Map::count) ? name(Map(r[0])) : "unknown-map-" + std::to_string(r[0]);
    x.thread = r[1];
    x.value = r[2];
    x.row = r[3];
    x.col = r[4];
    out.push_back(std::move(x));
  }
  return out;
}

}  // namespace tessera::kernels::trace
