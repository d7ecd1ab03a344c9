// A thread's partition of a swizzled tile, addressed as a register plus an immediate.
//
//   fold_swizzle<o_bits>(t)        t = (ptr, Sw o (o + L)) with L static (a partition of a
//                                  swizzled tensor): the same tensor, whose element at offset
//                                  d = L(c) is ptr[(sw(o) ^ X) + A] with (X, A) =
//                                  swizzle_fold(Sw, d, o_bits) (tessera/swizzle.hpp) -- sw(o)
//                                  computed once, X = 0 for the offsets that pass through the
//                                  swizzle (an immediate), one XOR otherwise.  o_bits: every
//                                  bit the run-time offset o may have (below).  Offsets that
//                                  are not static or share a bit with o_bits take the
//                                  swizzle at run time: the result is the same tensor in
//                                  every case, only the address arithmetic differs.
//   partition_S_offset_bits(tiled_copy, L), partition_D_offset_bits(...)
//                                  the bits of the run-time offset of partition_S / _D of a
//                                  plain layout L (a swizzled tile's inner layout), OR-ed over
//                                  the copy's threads: the o_bits of their partitions.
//   fold_partition_S(thr_copy, t), fold_partition_D(thr_copy, t)
//                                  partition_S / _D of a swizzled tensor (offset 0, static
//                                  inner layout), folded; of a plain tensor, as it is.
// Why: the partitions of a swizzled smem tile (cp.async destinations, ldmatrix sources)
// otherwise evaluate the swizzle (add, and, shift, xor) for every instruction; tensor-core
// mainloops issue one ldmatrix per few MMAs and cannot afford it.
#pragma once

#include "tessera/swizzle.hpp"
#include "tessera/tensor.hpp"
#include "tessera/tiled_copy.hpp"

namespace tessera {

// The iterator of a folded swizzled partition: the tile's pointer, the thread's run-time
// offset o (before the swizzle), sw(o), and the offset D the view was sliced by (static as
// long as the slicing coordinates are).  Offsets are int: shared-memory tiles.
template <class T, class Sw, int64_t OBits, class D = C<0>>
struct SwizzleFoldIterator {
  T* ptr;
  int o;
  int sw_o;
  D d0;

  template <class I> TESSERA_HOST_DEVICE TESSERA_INLINE constexpr T& operator[](I const& i) const {
    auto d = d0 + i;
    if constexpr (is_static_v<decltype(d)>) {
      constexpr SwizzleFold f = swizzle_fold(Sw{}, int64_t(decltype(d)::value), OBits);
      if constexpr (!f.valid) return ptr[int(Sw::apply(int64_t(o) + decltype(d)::value))];
      else if constexpr (f.xor_part == 0) return ptr[sw_o + int(f.add_part)];
      else return ptr[(sw_o ^ int(f.xor_part)) + int(f.add_part)];
    } else {
      return ptr[int(Sw::apply(int64_t(o) + to_i64(d)))];
    }
  }
  TESSERA_HOST_DEVICE TESSERA_INLINE constexpr T& operator*() const { return (*this)[C<0>{}]; }
};
template <class T, class Sw, int64_t OBits, class D, class I>
TESSERA_HOST_DEVICE TESSERA_INLINE constexpr auto operator+(SwizzleFoldIterator<T, Sw, OBits, D> const& it, I const& i) {
  using D2 = decltype(it.d0 + i);
  return SwizzleFoldIterator<T, Sw, OBits, D2>{it.ptr, it.o, it.sw_o, it.d0 + i};
}

template <int64_t OBits, class T, class Sw, class Off, class L>
TESSERA_HOST_DEVICE TESSERA_INLINE constexpr auto fold_swizzle(Tensor<T*, ComposedLayout<Sw, Off, L>> const& t) {
  static_assert(is_swizzle_v<Sw>, "fold_swizzle: the tensor's layout must be a Swizzle composed with a layout");
  static_assert(is_static_v<L>, "fold_swizzle: the layout under the swizzle must be static (a thread's partition of a static tile)");
  const int o = int(to_i64(t.layout().offset()));
  using It = SwizzleFoldIterator<T, Sw, OBits>;
  return make_tensor(It{t.data(), o, int(Sw::apply(int64_t(o))), C<0>{}}, t.layout().inner());
}

namespace detail {
template <bool Source, class TiledCopy_, class L>
TESSERA_HOST_DEVICE constexpr int64_t partition_offset_bits(L const& l) {
  static_assert(is_layout_v<L>, "partition_offset_bits: give the plain layout under the swizzle");
  // Each thread's offset is its slice of the one thread-fragment layout (what
  // ThrCopy::partition_S/D_layout compute per thread): derived once, sliced per thread.
  auto const frg = [&] {
    if constexpr (Source) return TiledCopy_::tidfrg_S(l);
    else return TiledCopy_::tidfrg_D(l);
  }();
  int64_t bits = 0;
  for (int t = 0; t < int(decltype(TiledCopy_::num_threads())::value); ++t)
    bits |= int64_t(to_i64(get<1>(detail::thread_slice(make_coord(t, _, repeat<rank_v<decltype(l.shape())>>(_)), frg))));
  return bits;
}
}  // namespace detail
template <class TiledCopy_, class L>
TESSERA_HOST_DEVICE constexpr int64_t partition_S_offset_bits(TiledCopy_ const&, L const& l) {
  return detail::partition_offset_bits<true, TiledCopy_>(l);
}
template <class TiledCopy_, class L>
TESSERA_HOST_DEVICE constexpr int64_t partition_D_offset_bits(TiledCopy_ const&, L const& l) {
  return detail::partition_offset_bits<false, TiledCopy_>(l);
}

// partition_S / partition_D of a swizzled tensor whose inner layout L is static, folded: the
// o_bits are those of every thread of the copy over L.
template <class TiledCopy_, class ThrIdx, class T, class Sw, class Off, class L>
  requires is_constant_v<0, Off>
TESSERA_HOST_DEVICE TESSERA_INLINE constexpr auto fold_partition_S(ThrCopy<TiledCopy_, ThrIdx> const& thr,
                                                                   Tensor<T*, ComposedLayout<Sw, Off, L>> const& t) {
  constexpr int64_t bits = detail::partition_offset_bits<true, TiledCopy_>(L{});
  return fold_swizzle<bits>(thr.partition_S(t));
}
template <class TiledCopy_, class ThrIdx, class T, class Sw, class Off, class L>
  requires is_constant_v<0, Off>
TESSERA_HOST_DEVICE TESSERA_INLINE constexpr auto fold_partition_D(ThrCopy<TiledCopy_, ThrIdx> const& thr,
                                                                   Tensor<T*, ComposedLayout<Sw, Off, L>> const& t) {
  constexpr int64_t bits = detail::partition_offset_bits<false, TiledCopy_>(L{});
  return fold_swizzle<bits>(thr.partition_D(t));
}

// A plain (unswizzled) tile needs no folding: its partitions already are a pointer plus a
// static layout.
template <class TiledCopy_, class ThrIdx, class It, class LS, class LD>
TESSERA_HOST_DEVICE TESSERA_INLINE constexpr auto fold_partition_S(ThrCopy<TiledCopy_, ThrIdx> const& thr,
                                                                   Tensor<It, Layout<LS, LD>> const& t) {
  return thr.partition_S(t);
}
template <class TiledCopy_, class ThrIdx, class It, class LS, class LD>
TESSERA_HOST_DEVICE TESSERA_INLINE constexpr auto fold_partition_D(ThrCopy<TiledCopy_, ThrIdx> const& thr,
                                                                   Tensor<It, Layout<LS, LD>> const& t) {
  return thr.partition_D(t);
}

}  // namespace tessera
