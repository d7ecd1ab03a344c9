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
//   copy_static<Boxes>(SM90_TMA_LOAD{}, map, barrier, origin, smem_address[, cta_mask])   the
//       boxes known at compile time (Boxes::value, a constexpr tma::TileBoxes): every corner,
//       dim, shift and offset an immediate, only the origin in registers (a producer's k-loop)
// One thread issues them (TMA copies are not per-thread).
#include <type_traits>
#include <utility>

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

namespace detail {
// Box Q of Boxes::value: its coordinate along every TMA dim D from the tile's origin.
template <class Boxes, int Q, int... D>
TESSERA_HOST_DEVICE inline void tma_static_box_coord(tma::Coord const& origin, int32_t (&c)[tma::kMaxRank], std::integer_sequence<int, D...>) {
  constexpr auto b = Boxes::value;
  ((c[D] = D < b.rank ? ((origin.c[b.mode_of_dim[D]] >> b.shift[D]) & b.mask[D]) + b.corner[Q][D] : 0), ...);
}
template <class Boxes, class Op, int... Q, class... Mask>
TESSERA_DEVICE void tma_static_copy(std::integer_sequence<int, Q...>, void const* map, uint32_t mbarrier, tma::Coord const& origin,
                                    uint32_t smem, Mask... cta_mask) {
  constexpr auto b = Boxes::value;
  int32_t c[sizeof...(Q) > 0 ? sizeof...(Q) : 1][tma::kMaxRank];
  ((tma_static_box_coord<Boxes, Q>(origin, c[Q], std::make_integer_sequence<int, tma::kMaxRank>{}),
    Op::copy(map, mbarrier, cta_mask..., smem + b.smem_offset_bytes[Q], b.rank, c[Q])),
   ...);
}
}  // namespace detail

// Boxes known at compile time: `Boxes::value` is a constexpr tma::TileBoxes (a kernel's
// arrangement of its static smem tile). The copies unroll over the boxes and dims with every
// box property a constant, so the issuing thread does no loads (no parameter or local-memory
// reads) between a stage's release and its copies: only the origin's registers and adds.
template <class Boxes, class Op, class... Mask>
TESSERA_DEVICE void copy_static(Op, void const* map, uint32_t mbarrier, tma::Coord const& origin, uint32_t smem, Mask... cta_mask) {
  static_assert(Boxes::value.ok(), "copy_static: the boxes must be copyable (TileBoxes::ok())");
  static_assert(sizeof...(Mask) == (std::is_same_v<Op, SM90_TMA_LOAD_MULTICAST> ? 1 : 0),
                "copy_static: a multicast load takes the cluster's CTA mask, a load none");
  detail::tma_static_copy<Boxes, Op>(std::make_integer_sequence<int, Boxes::value.count>{}, map, mbarrier, origin, smem, cta_mask...);
}

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
