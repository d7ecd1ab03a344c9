// Collective epilogue, SM90: D = alpha * acc + beta * C from the consumer warpgroups'
// wgmma accumulators straight to global memory, f32 -> the output element type, stores
// predicated on the problem's extent (residue tiles). Which (m, n) each accumulator holds is
// the TiledMma's C partition of the tile (partition_C over the output and over the identity
// tensor): no index arithmetic here beyond what the algebra returns.
#pragma once

#include <cstdint>

#include <tessera/tensor.hpp>
#include <tessera/tiled_mma.hpp>

namespace tessera::kernels::sm90 {

template <class ElementD>
struct CollectiveEpilogueSm90Direct {
  struct Params {
    ElementD* d = nullptr;
    const ElementD* c = nullptr;  // null: beta is not applied (C is not read)
    int64_t d_stride_m = 0, d_stride_n = 0, d_batch_stride = 0;
    int64_t c_stride_m = 0, c_stride_n = 0, c_batch_stride = 0;
    int64_t m = 0, n = 0;
    float alpha = 1.0f, beta = 0.0f;
  };

  // thread: the consumer thread's index in the TiledMma (0 .. size(TiledMma) - 1); acc: its
  // accumulators, in the order of the C fragment (value i is register i).
  template <class TiledMma, class TileShape, class Acc>
  __device__ __forceinline__ static void store(Params const& p, TiledMma const& tiled, TileShape const& tile_mn, int thread, int64_t tile_m,
                               int64_t tile_n, int64_t l, Acc const& acc) {
    const auto shape_mn = make_shape(p.m, p.n);
    const auto gD = make_tensor(p.d + l * p.d_batch_stride, make_layout(shape_mn, make_stride(p.d_stride_m, p.d_stride_n)));
    const auto cD = make_identity_tensor(shape_mn);
    const auto crd = make_coord(tile_m, tile_n);
    const auto thr = tiled.get_slice(thread);
    auto tCgD = thr.partition_C(local_tile(gD, tile_mn, crd));  // (V, MMA_M, MMA_N) -> D element
    const auto tCcD = thr.partition_C(local_tile(cD, tile_mn, crd));  // -> its (m, n)
    static_assert(decltype(size(tCgD))::value == sizeof(Acc) / sizeof(float), "one accumulator per C fragment value");
    const bool with_c = p.c != nullptr;
    if (with_c) {
      const auto gC = make_tensor(p.c + l * p.c_batch_stride, make_layout(shape_mn, make_stride(p.c_stride_m, p.c_stride_n)));
      const auto tCgC = thr.partition_C(local_tile(gC, tile_mn, crd));
#pragma unroll
      for (int i = 0; i < int(size(tCgD)); ++i) {
        const auto mn = tCcD(i);
        if (get<0>(mn) < p.m && get<1>(mn) < p.n)
          tCgD(i) = ElementD(p.alpha * acc[i] + p.beta * float(tCgC(i)));
      }
    } else {
#pragma unroll
      for (int i = 0; i < int(size(tCgD)); ++i) {
        const auto mn = tCcD(i);
        if (get<0>(mn) < p.m && get<1>(mn) < p.n) tCgD(i) = ElementD(p.alpha * acc[i]);
      }
    }
  }
};

}  // namespace tessera::kernels::sm90
