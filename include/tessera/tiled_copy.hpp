// TiledCopy: a copy atom repeated over threads and values so that it moves a whole
// (M,N) tile.  LayoutCopy_TV is (thread index, value index) -> column-major index in the
// tile, expressed on the atom's reference side (RefLayout: source for most atoms, the
// registers for ldmatrix); the source/destination views follow from the atom's layouts:
//   ref2src = right_inverse(Ref) o Src   (source (thread, value) -> reference (thread, value))
//   tidfrg_S(L) = L's tiles re-indexed as (thread, (atom values, atom repeats), rest tiles)
// so that a thread's source values are what the instruction reads for it, and its
// destination values what the instruction writes for it.
#pragma once

#include "tessera/atom/copy.hpp"
#include "tessera/tiled_mma.hpp"

namespace tessera {

template <class TiledCopy_, class ThrIdx> struct ThrCopy;

template <class Atom, class LayoutCopy_TV, class ShapeTiler_MN>
struct TiledCopy : Atom {
  using AtomType = Atom;
  using TiledLayout_TV = LayoutCopy_TV;
  using Tiler_MN = ShapeTiler_MN;
  using AtomLayoutSrc = typename Atom::ValLayoutSrc;
  using AtomLayoutDst = typename Atom::ValLayoutDst;
  using AtomLayoutRef = typename Atom::ValLayoutRef;

  TESSERA_HOST_DEVICE static constexpr auto atom_num_thr() { return size<0>(AtomLayoutRef{}); }
  TESSERA_HOST_DEVICE static constexpr auto atom_num_val() { return size<1>(AtomLayoutRef{}); }
  TESSERA_HOST_DEVICE static constexpr auto num_threads() { return size<0>(TiledLayout_TV{}); }
  TESSERA_HOST_DEVICE static constexpr auto num_values() { return size<1>(TiledLayout_TV{}); }
  TESSERA_HOST_DEVICE static constexpr auto tile_shape() { return Tiler_MN{}; }

  static_assert(decltype(size<0>(TiledLayout_TV{}))::value % decltype(size<0>(AtomLayoutRef{}))::value == 0,
                "TiledCopy: the number of threads must be a multiple of the atom's threads");
  static_assert(decltype(size<1>(TiledLayout_TV{}))::value % decltype(size<1>(AtomLayoutRef{}))::value == 0,
                "TiledCopy: the values per thread must be a multiple of the atom's values");

  // zipped tiles ((tile modes), (rest)) -> (thread, (atom values, atom repeats), (rest)),
  // with (thread, value) on the side ref2trg leads to.
  template <class Zipped, class Ref2Trg>
  TESSERA_HOST_DEVICE static constexpr auto tile2thrfrg(Zipped const& zipped, Ref2Trg const& ref2trg) {
    // ((atom thread, atom value), (repeat thread, repeat value)) -> tile index
    auto atom_tv = zipped_divide(TiledLayout_TV{}, make_shape(atom_num_thr(), atom_num_val()));
    // ... with the atom part seen from the target side
    auto trg_tv = composition(atom_tv, make_tile(ref2trg, _));
    // ((atom thread, repeat thread), (atom value, repeat value)), threads as one mode
    auto thrval = coalesce(zip(trg_tv), make_shape(_1{}, make_shape(_1{}, _1{})));
    auto tv = composition(zipped, make_tile(thrval, _));
    return tv(make_coord(_, _), _);  // (thread, values, rest)
  }
  template <class L> TESSERA_HOST_DEVICE static constexpr auto tidfrg_S(L const& s) {
    return tile2thrfrg(zipped_divide(s, Tiler_MN{}), composition(right_inverse(AtomLayoutRef{}), AtomLayoutSrc{}));
  }
  template <class L> TESSERA_HOST_DEVICE static constexpr auto tidfrg_D(L const& d) {
    return tile2thrfrg(zipped_divide(d, Tiler_MN{}), composition(right_inverse(AtomLayoutRef{}), AtomLayoutDst{}));
  }

  // (thread, value) -> column-major index in the tile, source and destination side.
  TESSERA_HOST_DEVICE static constexpr auto get_layoutS_TV() {
    auto t = tidfrg_S(make_layout(Tiler_MN{}));
    return t(_, _, repeat<rank_v<Tiler_MN>>(_0{}));
  }
  TESSERA_HOST_DEVICE static constexpr auto get_layoutD_TV() {
    auto t = tidfrg_D(make_layout(Tiler_MN{}));
    return t(_, _, repeat<rank_v<Tiler_MN>>(_0{}));
  }

  template <class ThrIdx>
  TESSERA_HOST_DEVICE constexpr auto get_slice(ThrIdx const& thr_idx) const { return ThrCopy<TiledCopy, ThrIdx>{thr_idx}; }
  template <class ThrIdx>
  TESSERA_HOST_DEVICE constexpr auto get_thread_slice(ThrIdx const& thr_idx) const { return get_slice(thr_idx); }
};

// One thread's view: (values, rest M, rest N, ...) of a source or destination layout.
template <class TiledCopy_, class ThrIdx>
struct ThrCopy : TiledCopy_ {
  ThrIdx thr_idx_;
  TESSERA_HOST_DEVICE constexpr ThrCopy(ThrIdx const& t) : thr_idx_(t) {}
  template <class L> TESSERA_HOST_DEVICE constexpr auto partition_S_layout(L const& s) const {
    auto t = TiledCopy_::tidfrg_S(s);
    return slice_and_offset(make_coord(thr_idx_, _, repeat<rank_v<decltype(s.shape())>>(_)), t);
  }
  template <class L> TESSERA_HOST_DEVICE constexpr auto partition_D_layout(L const& d) const {
    auto t = TiledCopy_::tidfrg_D(d);
    return slice_and_offset(make_coord(thr_idx_, _, repeat<rank_v<decltype(d.shape())>>(_)), t);
  }
  // The same on tensors: the thread's (values, rest...) of a source / destination tensor.
  template <class It, class L> TESSERA_HOST_DEVICE constexpr auto partition_S(Tensor<It, L> const& s) const {
    static_assert(is_layout_v<L>, "partition_S: partition the tensor's Layout (not a swizzled ComposedLayout)");
    auto so = partition_S_layout(s.layout());
    return make_tensor(s.data() + get<1>(so), get<0>(so));
  }
  template <class It, class L> TESSERA_HOST_DEVICE constexpr auto partition_D(Tensor<It, L> const& d) const {
    static_assert(is_layout_v<L>, "partition_D: partition the tensor's Layout (not a swizzled ComposedLayout)");
    auto so = partition_D_layout(d.layout());
    return make_tensor(d.data() + get<1>(so), get<0>(so));
  }
};

// A tiled copy from a TV layout and its tile.
template <class Op, class T, class LayoutTV, class Tiler>
TESSERA_HOST_DEVICE constexpr auto make_tiled_copy_impl(Copy_Atom<Op, T> const&, LayoutTV const&, Tiler const&) {
  return TiledCopy<Copy_Atom<Op, T>, LayoutTV, Tiler>{};
}

// make_tiled_copy(atom, thr_layout, val_layout): threads laid out by thr_layout over the
// tile, each thread's values by val_layout (the tile is their raked product: thread t's
// values sit together, threads interleave by whole value blocks).
template <class Op, class T, class ThrLayout, class ValLayout = Layout<_1, _0>>
TESSERA_HOST_DEVICE constexpr auto make_tiled_copy(Copy_Atom<Op, T> const& atom, ThrLayout const& thr_layout,
                                                   ValLayout const& val_layout = {}) {
  // (m, n) -> thread index + num_threads * value index
  auto layout_mn = raked_product(thr_layout, val_layout);
  // (thread index, value index) -> column-major index in the tile
  auto layout_tv = composition(right_inverse(layout_mn),
                               make_layout(make_shape(size(thr_layout.shape()), size(val_layout.shape()))));
  auto tiler = product_each(layout_mn.shape());
  return make_tiled_copy_impl(atom, layout_tv, tiler);
}

// Copies whose destination (or source, for C) registers are exactly an MMA's fragments.
template <class Op, class T, class A, class L, class P>
TESSERA_HOST_DEVICE constexpr auto make_tiled_copy_A(Copy_Atom<Op, T> const& atom, TiledMMA<A, L, P> const& mma) {
  return make_tiled_copy_impl(atom, mma.get_layoutA_TV(), make_shape(mma.template tile_size_mnk<0>(), mma.template tile_size_mnk<2>()));
}
template <class Op, class T, class A, class L, class P>
TESSERA_HOST_DEVICE constexpr auto make_tiled_copy_B(Copy_Atom<Op, T> const& atom, TiledMMA<A, L, P> const& mma) {
  return make_tiled_copy_impl(atom, mma.get_layoutB_TV(), make_shape(mma.template tile_size_mnk<1>(), mma.template tile_size_mnk<2>()));
}
template <class Op, class T, class A, class L, class P>
TESSERA_HOST_DEVICE constexpr auto make_tiled_copy_C(Copy_Atom<Op, T> const& atom, TiledMMA<A, L, P> const& mma) {
  return make_tiled_copy_impl(atom, mma.get_layoutC_TV(), make_shape(mma.template tile_size_mnk<0>(), mma.template tile_size_mnk<1>()));
}

template <class A, class L, class T>
TESSERA_HOST_DEVICE constexpr auto size(TiledCopy<A, L, T> const&) { return TiledCopy<A, L, T>::num_threads(); }

}  // namespace tessera
