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

namespace detail {
template <class T, class K> TESSERA_HOST_DEVICE constexpr auto scale_leaves(T const& t, K const& k) {
  if constexpr (is_tuple_v<T>) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) { return make_tuple(scale_leaves(get<I>(t), k)...); }(seq_of<T>{});
  } else {
    return t * k;
  }
}
// retile: the blocks of the copy's value grid along each tile mode, then 1 for the
// fragment's further modes; each fragment mode must hold whole blocks.
template <int N, class F, class Grid>
TESSERA_HOST_DEVICE constexpr auto retile_grid(F const& f, Grid const& grid) {
  constexpr int RT = rank_v<Grid>;
  return [&]<std::size_t... K>(std::index_sequence<K...>) {
    static_assert(((K >= RT || decltype(size<1 + K>(f))::value % std::remove_cvref_t<decltype(get<(K < RT ? K : 0)>(grid))>::value == 0) && ...),
                  "retile: a fragment mode is not a whole number of the copy's value blocks along that tile mode");
    return make_shape(conditional_return<(K < RT)>(get<(K < RT ? K : 0)>(grid), C<1>{})...);
  }(std::make_index_sequence<N>{});
}
}  // namespace detail

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
  // (Swizzled layouts too: the partition re-indexes the inner layout's domain.)
  template <class L> TESSERA_HOST_DEVICE static constexpr auto tidfrg_S(L const& s) {
    return detail::on_domain(s, [](auto const& l) {
      return tile2thrfrg(zipped_divide(l, Tiler_MN{}), composition(right_inverse(AtomLayoutRef{}), AtomLayoutSrc{}));
    });
  }
  template <class L> TESSERA_HOST_DEVICE static constexpr auto tidfrg_D(L const& d) {
    return detail::on_domain(d, [](auto const& l) {
      return tile2thrfrg(zipped_divide(l, Tiler_MN{}), composition(right_inverse(AtomLayoutRef{}), AtomLayoutDst{}));
    });
  }

  // retile(fragment): the same registers, re-grouped in this copy's value order,
  // (CPY_V = (atom values, instructions), rest...), for a fragment (V, rest...) whose
  // mode 0 holds the thread's first V values of the tile (value ids 0..V-1 of
  // TiledLayout_TV) and whose rest modes run over the blocks of V values as they lie in
  // the tile, then over further tiles -- e.g. an MMA fragment when this copy is
  // make_tiled_copy_A/B/C of that MMA.  Mapping of a copy value j of one tile:
  //   block(x) = (thread + NT * value)(x) / (NT * V)   tile position -> its value block:
  //              upcast of the tile's inverse TV map; its shape is the grid of blocks
  //   j = v + V * b  ->  fragment (v, grid coordinate of block b)
  // The result views the fragment's storage (retile_S and retile_D are the same map,
  // on the reference side of the copy).
  template <class FragLayout> TESSERA_HOST_DEVICE static constexpr auto retile_layout(FragLayout const& f) {
    constexpr int R = rank_v<decltype(shape(f))>;
    constexpr int RT = rank_v<Tiler_MN>;
    static_assert(R >= 1 + RT, "retile: the fragment must be (V, one mode per tile mode, ...): rank >= 1 + rank of the copy's tile");
    constexpr int64_t V = decltype(size<0>(f))::value;
    constexpr int64_t NT = decltype(num_threads())::value;
    constexpr int64_t NV = decltype(num_values())::value;
    static_assert(NV % V == 0, "retile: the fragment's mode 0 (V values) must divide the copy's values per thread");
    if constexpr (NV % V == 0) return retile_layout_impl<R, RT, V, NT, NV>(f);
  }
  template <int R, int RT, int64_t V, int64_t NT, int64_t NV, class FragLayout>
  TESSERA_HOST_DEVICE static constexpr auto retile_layout_impl(FragLayout const& f) {
    auto tile_to_tv = composition(right_inverse(TiledLayout_TV{}), make_layout(Tiler_MN{}));
    auto block = upcast<NT * V>(tile_to_tv);
    auto block_inv = right_inverse(block);
    static_assert(decltype(size(block_inv))::value == NV / V,
                  "retile: the copy's blocks of V values do not form a grid over its tile (the fragment's rest modes cannot address them)");
    // copy value j -> column-major index into the fragment's (V, grid...) tile
    auto value_to_frg = make_layout(make_shape(C<V>{}, block_inv.shape()),
                                    make_stride(C<1>{}, detail::scale_leaves(block_inv.stride(), C<V>{})));
    auto grouped = logical_divide(value_to_frg, make_layout(atom_num_val()));  // (atom values, instructions)
    auto frg_tile = prepend(detail::retile_grid<R - 1>(f, product_each(block.shape())), C<V>{});
    auto tiled = zipped_divide(f, frg_tile);  // ((V, grid..), (1, rest..))
    auto regrouped = composition(tiled, make_tile(grouped, _));
    return regrouped(make_coord(_, prepend(repeat<R - 1>(_), C<0>{})));  // (CPY_V, rest..)
  }
  template <class Frag> TESSERA_HOST_DEVICE static constexpr auto retile(Frag&& frag) {
    static_assert(is_tensor_v<Frag>, "retile: expects a tensor (a register fragment or a view of one)");
    static_assert(!(std::remove_cvref_t<Frag>::owns_storage && std::is_rvalue_reference_v<Frag&&>),
                  "retile: the fragment is a temporary; the result would view storage that is gone");
    return make_tensor(frag.data(), retile_layout(frag.layout()));
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
    return detail::thread_slice(make_coord(thr_idx_, _, repeat<rank_v<decltype(s.shape())>>(_)), t);
  }
  template <class L> TESSERA_HOST_DEVICE constexpr auto partition_D_layout(L const& d) const {
    auto t = TiledCopy_::tidfrg_D(d);
    return detail::thread_slice(make_coord(thr_idx_, _, repeat<rank_v<decltype(d.shape())>>(_)), t);
  }
  // The same on tensors (pointer, identity or swizzled): the thread's (values, rest...).
  template <class It, class L> TESSERA_HOST_DEVICE constexpr auto partition_S(Tensor<It, L> const& s) const {
    auto so = partition_S_layout(s.layout());
    return make_tensor(s.data() + get<1>(so), get<0>(so));
  }
  template <class It, class L> TESSERA_HOST_DEVICE constexpr auto partition_D(Tensor<It, L> const& d) const {
    auto so = partition_D_layout(d.layout());
    return make_tensor(d.data() + get<1>(so), get<0>(so));
  }
  // A fragment (e.g. an MMA's) seen in this copy's value order: same registers.
  template <class Frag> TESSERA_HOST_DEVICE constexpr auto retile_S(Frag&& frag) const { return TiledCopy_::retile(static_cast<Frag&&>(frag)); }
  template <class Frag> TESSERA_HOST_DEVICE constexpr auto retile_D(Frag&& frag) const { return TiledCopy_::retile(static_cast<Frag&&>(frag)); }
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
