#pragma once
// SM90 TMA copy atoms: cp.async.bulk.tensor between global memory, named by a tensor map
// (cuTensorMapEncodeTiled, arguments from tma_arguments.hpp), and shared memory.
//   SM90_TMA_LOAD   gmem box -> smem, completing on an mbarrier: the copy takes its bytes
//                   off the barrier's transaction count as it lands (complete_tx)
//   SM90_TMA_STORE  smem box -> gmem, completing in a bulk async-group (tma_store_commit /
//                   tma_store_wait<N>)
// A tile of the smem layout is whole boxes (tma::make_arguments checks it); TileBoxes lists,
// once on the host, where each box of a tile starts in gmem (from the tile's origin) and in
// smem (from the tile's start), and the bytes a tile brings: the expect-tx count. The
// algorithm copy(tma.with(map, barrier), origin, smem_address) issues one instruction per box
// (tessera/algorithm/copy_tma.hpp).
#include <cstdint>
#include <utility>

#include "tessera/atom/detail/arch.hpp"
#include "tessera/atom/tma_arguments.hpp"

namespace tessera {

namespace tma {

// A tile's boxes (at most MaxBoxes; a kernel keeps this in its parameters).
template <int MaxBoxes>
struct TileBoxes {
  static_assert(MaxBoxes >= 1, "tma::TileBoxes: at least one box");
  Rule rule = Rule::ok;        // the derivation's rule; ok when the tile is copyable
  bool fits = true;            // false: the tile needs more than MaxBoxes copies
  int rank = 0;                // TMA dims
  int count = 0;               // copies per tile
  uint32_t tx_bytes = 0;       // bytes one tile brings: what the barrier expects
  int mode_of_dim[kMaxRank] = {};
  // Divided modes (Arguments::divisor, sub_extent) as a shift and a mask: a coordinate c of
  // mode mode_of_dim[d] is (c >> shift[d]) & mask[d] along dim d (powers of two only: the
  // producer computes it every k-tile, without a division).
  int32_t shift[kMaxRank] = {};
  int32_t mask[kMaxRank] = {-1, -1, -1, -1, -1};
  int32_t corner[MaxBoxes][kMaxRank] = {};   // box start, per TMA dim, from the tile's origin
  uint32_t smem_offset_bytes[MaxBoxes] = {}; // box start in smem, from the tile's start (unswizzled)
  TESSERA_HOST_DEVICE constexpr bool ok() const { return rule == Rule::ok && fits; }
};

// The boxes of `a` (derived for the static smem tile `smem`): corner q in TMA dim order,
// box q's start = the tile's offset at that corner. The smem offset is the layout's before
// the swizzle: TMA swizzles on the absolute address, as the layout does on the offset from a
// buffer that starts on the swizzle's repeat.
template <int MaxBoxes, class Smem>
TESSERA_HOST_DEVICE constexpr TileBoxes<MaxBoxes> make_tile_boxes(Arguments const& a, Smem const& smem) {
  TileBoxes<MaxBoxes> t;
  t.rule = a.rule;
  if (a.rule != Rule::ok) return t;
  if (a.boxes > MaxBoxes) { t.fits = false; return t; }
  auto inner = [&]() {
    if constexpr (is_composed_layout_v<Smem>) return smem.inner();
    else return smem;
  }();
  using Inner = std::remove_cvref_t<decltype(inner)>;
  constexpr int TR = Inner::rank;
  t.rank = a.rank;
  t.count = int(a.boxes);
  t.tx_bytes = uint32_t(a.box_bytes * a.boxes);
  for (int d = 0; d < a.rank; ++d) {
    t.mode_of_dim[d] = a.mode_of_dim[d];
    int s = 0;
    while ((int64_t(1) << s) < a.divisor[d]) ++s;
    const bool pow2 = (int64_t(1) << s) == a.divisor[d] && (a.sub_extent[d] & (a.sub_extent[d] - 1)) == 0;
    if (!pow2) { t.fits = false; return t; }
    t.shift[d] = s;
    t.mask[d] = a.sub_extent[d] != 0 ? int32_t(a.sub_extent[d] - 1) : -1;
  }
  for (int64_t q = 0; q < a.boxes; ++q) {
    int64_t by_mode[kMaxModes] = {}, rest = q;
    for (int d = 0; d < a.rank; ++d) {
      const int64_t c = (rest % a.boxes_per_dim[d]) * a.box_dim[d];
      rest /= a.boxes_per_dim[d];
      t.corner[q][d] = int32_t(c);
      by_mode[a.mode_of_dim[d]] += c * a.divisor[d];
    }
    const int64_t offset = [&]<int... I>(std::integer_sequence<int, I...>) {
      return (int64_t(0) + ... + int64_t(to_i64(layout<I>(Inner{})(by_mode[I]))));
    }(std::make_integer_sequence<int, TR>{});
    t.smem_offset_bytes[q] = uint32_t(offset * a.element_bytes);
  }
  return t;
}

// A tile's origin in the global tensor, per gmem mode (elements).
struct Coord {
  int32_t c[kMaxRank] = {};
};

}  // namespace tma

// The instructions. `tensor_map`: the generic address of the CUtensorMap (a __grid_constant__
// kernel parameter or global memory); coordinates per TMA dim, in elements (signed: boxes
// may start before 0 or run past the end; TMA fills what lies outside with zeros).
struct SM90_TMA_LOAD {
  TESSERA_DEVICE static void copy(void const* tensor_map, uint32_t mbarrier, uint32_t smem, int rank, const int32_t* c) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    const uint64_t map = reinterpret_cast<uint64_t>(tensor_map);
    if (rank == 2) {
      asm volatile(
          "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];\n" ::"r"(smem),
          "l"(map), "r"(mbarrier), "r"(c[0]), "r"(c[1])
          : "memory");
    } else if (rank == 3) {
      asm volatile(
          "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5}], [%2];\n" ::"r"(
              smem),
          "l"(map), "r"(mbarrier), "r"(c[0]), "r"(c[1]), "r"(c[2])
          : "memory");
    } else if (rank == 4) {
      asm volatile(
          "cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5, %6}], [%2];\n" ::"r"(
              smem),
          "l"(map), "r"(mbarrier), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])
          : "memory");
    } else if (rank == 5) {
      asm volatile(
          "cp.async.bulk.tensor.5d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5, %6, %7}], [%2];\n" ::"r"(
              smem),
          "l"(map), "r"(mbarrier), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4])
          : "memory");
    } else {
      detail::mma_unsupported("SM90_TMA_LOAD: rank 2 to 5");
    }
#else
    (void)tensor_map; (void)mbarrier; (void)smem; (void)rank; (void)c;
    detail::mma_unsupported("SM90_TMA_LOAD needs sm_90");
#endif
  }
};

// The same box written to the same shared-memory offset of every CTA of the cluster named in
// `cta_mask`, completing on the barrier at the same offset in each of them.
struct SM90_TMA_LOAD_MULTICAST {
  TESSERA_DEVICE static void copy(void const* tensor_map, uint32_t mbarrier, uint16_t cta_mask, uint32_t smem, int rank,
                                  const int32_t* c) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    const uint64_t map = reinterpret_cast<uint64_t>(tensor_map);
    if (rank == 2) {
      asm volatile(
          "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
          " [%0], [%1, {%4, %5}], [%2], %3;\n" ::"r"(smem),
          "l"(map), "r"(mbarrier), "h"(cta_mask), "r"(c[0]), "r"(c[1])
          : "memory");
    } else if (rank == 3) {
      asm volatile(
          "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
          " [%0], [%1, {%4, %5, %6}], [%2], %3;\n" ::"r"(smem),
          "l"(map), "r"(mbarrier), "h"(cta_mask), "r"(c[0]), "r"(c[1]), "r"(c[2])
          : "memory");
    } else if (rank == 4) {
      asm volatile(
          "cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
          " [%0], [%1, {%4, %5, %6, %7}], [%2], %3;\n" ::"r"(smem),
          "l"(map), "r"(mbarrier), "h"(cta_mask), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])
          : "memory");
    } else if (rank == 5) {
      asm volatile(
          "cp.async.bulk.tensor.5d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
          " [%0], [%1, {%4, %5, %6, %7, %8}], [%2], %3;\n" ::"r"(smem),
          "l"(map), "r"(mbarrier), "h"(cta_mask), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4])
          : "memory");
    } else {
      detail::mma_unsupported("SM90_TMA_LOAD_MULTICAST: rank 2 to 5");
    }
#else
    (void)tensor_map; (void)mbarrier; (void)cta_mask; (void)smem; (void)rank; (void)c;
    detail::mma_unsupported("SM90_TMA_LOAD_MULTICAST needs sm_90");
#endif
  }
};

struct SM90_TMA_STORE {
  TESSERA_DEVICE static void copy(void const* tensor_map, uint32_t smem, int rank, const int32_t* c) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    const uint64_t map = reinterpret_cast<uint64_t>(tensor_map);
    if (rank == 2) {
      asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];\n" ::"l"(map), "r"(smem),
                   "r"(c[0]), "r"(c[1])
                   : "memory");
    } else if (rank == 3) {
      asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%2, %3, %4}], [%1];\n" ::"l"(map), "r"(smem),
                   "r"(c[0]), "r"(c[1]), "r"(c[2])
                   : "memory");
    } else {
      detail::mma_unsupported("SM90_TMA_STORE: rank 2 or 3");
    }
#else
    (void)tensor_map; (void)smem; (void)rank; (void)c;
    detail::mma_unsupported("SM90_TMA_STORE needs sm_90");
#endif
  }
};

// Bulk async-groups of TMA stores: commit the issued stores as a group; wait until at most N
// groups still read their shared memory.
TESSERA_DEVICE void tma_store_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
#endif
}
template <int N>
TESSERA_DEVICE void tma_store_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(N) : "memory");
#endif
}

// A TMA copy of one smem tile: the atom, the tile's boxes and, bound on the device, the tensor
// map (and for loads the barrier the copies complete on).
template <class Op, int MaxBoxes>
struct TmaBound {
  tma::TileBoxes<MaxBoxes> const* boxes;
  void const* map;
  uint32_t mbarrier;       // loads only
  uint16_t cta_mask = 0;   // multicast loads only
};
template <class Op, int MaxBoxes>
struct TmaCopy {
  tma::TileBoxes<MaxBoxes> boxes;
  TESSERA_HOST_DEVICE constexpr uint32_t tx_bytes() const { return boxes.tx_bytes; }
  // Loads: the map and the mbarrier (shared-memory address) the copies complete on.
  TESSERA_HOST_DEVICE constexpr TmaBound<Op, MaxBoxes> with(void const* map, uint32_t mbarrier = 0, uint16_t cta_mask = 0) const {
    return {&boxes, map, mbarrier, cta_mask};
  }
};
template <int MaxBoxes> using TmaLoad = TmaCopy<SM90_TMA_LOAD, MaxBoxes>;
template <int MaxBoxes> using TmaStore = TmaCopy<SM90_TMA_STORE, MaxBoxes>;
template <int MaxBoxes> using TmaLoadMulticast = TmaCopy<SM90_TMA_LOAD_MULTICAST, MaxBoxes>;

// The atom for a static smem tile over a gmem layout (flat modes, element strides): the
// arguments (for the tensor map) and the boxes; check `args.rule` / `boxes.ok()`.
template <class Op, int MaxBoxes, int Bits, class GS, class GD, class Smem>
TESSERA_HOST_DEVICE constexpr TmaCopy<Op, MaxBoxes> make_tma_copy(tma::Arguments& args, Layout<GS, GD> const& gmem,
                                                                  Smem const& smem_tile) {
  args = tma::make_arguments<Bits>(gmem, smem_tile);
  TmaCopy<Op, MaxBoxes> t;
  t.boxes = tma::make_tile_boxes<MaxBoxes>(args, smem_tile);
  return t;
}

}  // namespace tessera
