// Host side of trace mode: the `map` lines of a kernel configuration, from the same
// TiledMMA / TiledCopy objects the kernel partitions with (to_runtime of their TV layouts),
// and the conversion of records into a tessera::verify::Trace.  Host only.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "tessera/kernels/partitions.hpp"
#include "tessera/rt/algebra.hpp"
#include "tessera/rt/to_runtime.hpp"
#include "kernel/trace_policy.cuh"
#include "tessera/verify/trace.hpp"
#include "sm90_trace_configs.hpp"

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

// A tile's TV map (thread, value) -> index in the BM x BN tile, over a whole M x N problem of
// such tiles: (thread, (value, (tile_m, tile_n))) -> index in M x N (column-major), value v of
// tile (i, j) numbered v + values * (i + tiles_m * j), as the recording epilogue numbers them.
inline verify::Map problem_map(Map m, const rt::Layout& tile_tv, int bm, int bn, int problem_m, int problem_n) {
  const rt::Layout embed(rt::IntTuple::tuple({bm, bn}), rt::IntTuple::tuple({1, problem_m}));  // tile index -> problem index
  const rt::Layout tv = rt::composition(embed, tile_tv);
  const rt::Layout tiles(rt::IntTuple::tuple({problem_m / bm, problem_n / bn}),
                         rt::IntTuple::tuple({bm, std::int64_t(problem_m) * bn}));
  return verify::make_map(name(m), rt::IntTuple::tuple({problem_m, problem_n}),
                          rt::make_layout({tv.mode(0), rt::make_layout({tv.mode(1), tiles})}));
}

// (tile, k-iteration) pairs, each once: tile.k over (tiles, k-tiles), one "thread", value
// tile + tiles * kt (the recording epilogue's KIterations records).
inline verify::Map tile_k_map(int tiles, int k_tiles) {
  return verify::make_map(name(Map::tile_k), rt::IntTuple::tuple({tiles, k_tiles}),
                          rt::Layout(rt::IntTuple::tuple({1, std::int64_t(tiles) * k_tiles}), rt::IntTuple::tuple({0, 1})));
}

// The maps of an SM90 configuration (sm90_trace_configs.hpp): its TiledMma's C map over the
// problem; with stream_k, tile.k.
template <Sm90Config Id>
std::vector<verify::Map> sm90_config_maps_of() {
  const Sm90TraceConfig& c = sm90_trace_config(Id);
  std::vector<verify::Map> maps{
      problem_map(Map::mma_c, rt::to_runtime(Sm90ConfigMma<Id>::type::get_layoutC_TV()), c.bm, c.bn, c.m, c.n)};
  if (c.stream_k) maps.push_back(tile_k_map(tiles_of(c), k_tiles_of(c)));
  return maps;
}
inline std::vector<verify::Map> sm90_config_maps(Sm90Config id) {
  switch (id) {
    case Sm90Config::fp8_128x256: return sm90_config_maps_of<Sm90Config::fp8_128x256>();
    case Sm90Config::bf16_128x128: return sm90_config_maps_of<Sm90Config::bf16_128x128>();
    case Sm90Config::bf16_64x128_pingpong: return sm90_config_maps_of<Sm90Config::bf16_64x128_pingpong>();
    case Sm90Config::stream_k: return sm90_config_maps_of<Sm90Config::stream_k>();
    case Sm90Config::count: break;
  }
  throw std::invalid_argument("unknown SM90 trace configuration");
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
