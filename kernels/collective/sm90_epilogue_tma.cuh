// Collective epilogue, SM90, through shared memory and TMA stores: each consumer warpgroup
// writes its 64 x BN/2 half of the tile (f32 -> element, alpha applied) into a 128B-swizzled
// column-major staging tile (the MN-major GMMA atom tiled: a column is one 128-byte swizzle
// row, so a warp's 2-byte writes land in distinct banks), then one thread stores the whole
// half with one TMA copy; TMA clips what lies past M and N. Where this does not apply (beta
// != 0, D not 16-byte aligned, row-major D) the direct epilogue runs.
// Where each accumulator goes is the TiledMma's C partition of a CTA-tile view of the two
// staging buffers: ((64, W), (BN/2, 2)) : ((1, buffer), (64, 0)) under the swizzle, the
// N-halves sharing one buffer (written one after the other).
#pragma once

#include <cuda.h>

#include <cstdint>

#include <tessera/algorithm/copy_tma.hpp>
#include <tessera/algorithm/detail/static_for.hpp>
#include <tessera/atom/gmma_layout.hpp>
#include <tessera/tensor.hpp>
#include <tessera/tiled_mma.hpp>

#include "../arch/sm90_convert.cuh"
#include "sm90_epilogue.cuh"

namespace tessera::kernels::sm90 {

template <class ElementD, int BM, int BN, int ConsumerWarpgroups>
struct CollectiveEpilogueSm90TmaStore {
  using Direct = CollectiveEpilogueSm90Direct<ElementD>;
  static constexpr int Bits = sizeof_bits_v<ElementD>;
  static constexpr int Half = BN / 2;
  static_assert(BM == 64 * ConsumerWarpgroups, "each consumer warpgroup holds 64 rows of the tile");
  static_assert(Bits == 16, "the staging tile is the 16-bit MN-major 128B GMMA atom");
  // One warpgroup's staging tile: (64, BN/2) of D, column-major, 128B swizzle.
  static constexpr auto staging = GMMA::make_smem_layout<Bits, GMMA::Major::MN, 128>(make_shape(_64{}, C<Half>{}));
  static constexpr int staging_elements = int(cosize(staging.inner()));
  static constexpr int staging_bytes = staging_elements * Bits / 8;
  static_assert(staging_bytes % 1024 == 0, "staging buffers start on the swizzle's 1 KiB repeat");

  struct SharedStorage {
    alignas(1024) unsigned char d[ConsumerWarpgroups][staging_bytes];
  };
  struct Params {
    typename Direct::Params direct;
    CUtensorMap map_d;
    TmaStore<1> tma_d;
    bool use_tma = false;
  };

  __device__ __forceinline__ static void warpgroup_barrier(int wg) {
    asm volatile("bar.sync %0, 128;\n" ::"r"(1 + wg) : "memory");
  }

  template <class TiledMma, class TileShape, class Acc>
  __device__ __forceinline__ static void store(Params const& p, SharedStorage& s, TiledMma const& tiled, TileShape const& tile_mn,
                                               int thread, int64_t tile_m, int64_t tile_n, int64_t l, Acc const& acc) {
    if (!p.use_tma) {
      Direct::store(p.direct, tiled, tile_mn, thread, tile_m, tile_n, l, acc);
      return;
    }
    const int wg = thread / 128;
    const bool leader = thread % 128 == 0;
    using View = Layout<tuple<tuple<_64, C<ConsumerWarpgroups>>, tuple<C<Half>, _2>>,
                        tuple<tuple<_1, C<staging_elements>>, tuple<_64, _0>>>;
    const auto sD = make_tensor(reinterpret_cast<ElementD*>(&s.d[0][0]),
                                make_composed_layout(Swizzle<3, 3, 3>{}, C<0>{}, View{}));
    auto tCsD = tiled.get_slice(thread).partition_C(sD);
    constexpr int groups = int(size<0, 2>(tCsD));  // the C fragment's values are (2, 2, BN/8)
    static_assert(groups * 4 == int(sizeof(Acc) / sizeof(float)), "one accumulator per C fragment value");
    const uint32_t buffer = uint32_t(__cvta_generic_to_shared(&s.d[wg][0]));
    const float alpha = p.direct.alpha;
    // Compile-time indices throughout (static_for): with run-time ones the accumulators went
    // to local memory (measured: 1572 LDL/STL in the SASS, 0.76x cuBLAS at 8192^3).
    tessera::detail::static_for<2>([&](auto H) {
      constexpr int h = int(decltype(H)::value);
      if (leader) tma_store_wait<0>();  // the previous store has read the buffer
      warpgroup_barrier(wg);
      tessera::detail::static_for<groups / 2>([&](auto J) {
        constexpr int j = h * (groups / 2) + int(decltype(J)::value);
        auto dj = tCsD(make_coord(make_coord(_, _, C<j>{}), _0{}, _0{}));
        tessera::detail::static_for<4>([&](auto V) {
          constexpr int v = int(decltype(V)::value);
          dj(C<v>{}) = arch::from_f32<ElementD>(alpha * acc[4 * j + v]);
        });
      });
      fence_proxy_async();  // generic-proxy writes, read next by the TMA (async proxy)
      warpgroup_barrier(wg);
      if (leader) {
        const tma::Coord origin{{int32_t(tile_m * BM + 64 * wg), int32_t(tile_n * BN + Half * h), int32_t(l)}};
        copy(p.tma_d.with(&p.map_d), buffer, origin);
        tma_store_commit();
      }
    });
  }

  // Before the CTA leaves: the last stores have read shared memory.
  __device__ __forceinline__ static void finish(Params const& p, int thread) {
    if (p.use_tma && thread % 128 == 0) tma_store_wait<0>();
  }
};

}  // namespace tessera::kernels::sm90
