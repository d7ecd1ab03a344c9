#pragma once
// copy() through TMA atoms, and the proxy fence that orders generic-proxy shared-memory
// accesses with the async proxy (TMA, wgmma).
//   copy(tma_load.with(map, barrier), origin, smem_address)   every box of the tile whose
//       gmem origin (per gmem mode) is `origin`, into the tile at `smem_address`; the copies
//       complete on the barrier, which must expect tma_load.tx_bytes() (arrive_expect_tx)
//   copy(tma_load_multicast.with(map, barrier, cta_mask), origin, smem_address)   the same
//       into every CTA of the cluster in cta_mask (same offsets)
//   copy(tma_store.with(map), smem_address, origin)           the reverse; then
//       tma_store_commit() and tma_store_wait<N>()
// One thread issues them (TMA copies are not per-thread).
#include "tessera/atom/copy_sm90_tma.hpp"

namespace tessera {

namespace detail {
// Box q's coordinates per TMA dim from the tile's origin per gmem mode. Every index is static
// (the loops unroll; the mode is picked by comparison): the origin and the coordinates stay in
// registers, not in a local-memory array indexed at run time, and a divided mode's part is a
// shift and a mask. The producer runs this for every box of every k-tile.
template <class B>
TESSERA_HOST_DEVICE inline void tma_box_coord(B const& boxes, tma::Coord const& origin, int q, int32_t (&c)[tma::kMaxRank]) {
#pragma unroll
  for (int d = 0; d < tma::kMaxRank; ++d) {
    const int mode = boxes.mode_of_dim[d];
    int32_t o = 0;
#pragma unroll
    for (int m = 0; m < tma::kMaxRank; ++m) o = mode == m ? origin.c[m] : o;
    c[d] = d < boxes.rank ? ((o >> boxes.shift[d]) & boxes.mask[d]) + boxes.corner[q][d] : 0;
  }
}
}  // namespace detail

template <int MaxBoxes>
TESSERA_DEVICE void copy(TmaBound<SM90_TMA_LOAD, MaxBoxes> const& tma, tma::Coord const& origin, uint32_t smem) {
  auto const& b = *tma.boxes;
  for (int q = 0; q < b.count; ++q) {
    int32_t c[tma::kMaxRank];
    detail::tma_box_coord(b, origin, q, c);
    SM90_TMA_LOAD::copy(tma.map, tma.mbarrier, smem + b.smem_offset_bytes[q], b.rank, c);
  }
}

// Multicast: the same boxes into every CTA of tma.cta_mask (same smem offset, same barrier offset).
template <int MaxBoxes>
TESSERA_DEVICE void copy(TmaBound<SM90_TMA_LOAD_MULTICAST, MaxBoxes> const& tma, tma::Coord const& origin, uint32_t smem) {
  auto const& b = *tma.boxes;
  for (int q = 0; q < b.count; ++q) {
    int32_t c[tma::kMaxRank];
    detail::tma_box_coord(b, origin, q, c);
    SM90_TMA_LOAD_MULTICAST::copy(tma.map, tma.mbarrier, tma.cta_mask, smem + b.smem_offset_bytes[q], b.rank, c);
  }
}

template <int MaxBoxes>
TESSERA_DEVICE void copy(TmaBound<SM90_TMA_STORE, MaxBoxes> const& tma, uint32_t smem, tma::Coord const& origin) {
  auto const& b = *tma.boxes;
  for (int q = 0; q < b.count; ++q) {
    int32_t c[tma::kMaxRank];
    detail::tma_box_coord(b, origin, q, c);
    SM90_TMA_STORE::copy(tma.map, smem + b.smem_offset_bytes[q], b.rank, c);
  }
}

// fence.proxy.async: shared memory written by ordinary stores that TMA or wgmma reads next
// (each writing thread, before the barrier that publishes it).
TESSERA_DEVICE void fence_proxy_async() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}

}  // namespace tessera
