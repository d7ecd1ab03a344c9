// TiledMMA: an MMA atom repeated over threads (atom layout, M x N x K atoms) and over
// values (a permutation / tile per mode), with the thread-value maps of the whole tile.
//
// For each operand X in {A, B, C} (tile modes A: (M,K), B: (N,K), C: (M,N)):
//   thrfrg_X(L)    any layout L over X's modes -> ((ThrV,(Thr0,Thr1)), (FrgV,(Rest0,Rest1)))
//                  1. permute:      logical_divide(L, (Perm0, Perm1))
//                  2. atom tiles:   zipped_divide(., (Atom0, Atom1)) -> ((Atom0,Atom1),(Rest0,Rest1))
//                  3. atom TV:      mode 0 composed with the atom's X layout -> ((ThrV,FrgV),Rest)
//                  4. atom threads: Rest divided by the atom layout's extents in its two modes
//   get_layoutX_TV  thrfrg_X of the tile, its thread mode re-indexed by thread index
//                  (thread index -> (v,m,n,k) by the inverse of the thread layout, then
//                  the coordinate that X does not see is dropped: A ignores n, B ignores m,
//                  C ignores k -- so A is replicated over N-atoms and B over M-atoms).
// Thread index -> (v, m, n, k): thr_layout_vmnk = tiled_product(atom ThrID, atom layout).
#pragma once

#include "tessera/atom/mma.hpp"
#include "tessera/tessera.hpp"

namespace tessera {

namespace detail {
// The size of a permutation mode: `_` means "atom extent x number of atoms".
template <class Perm, class AtomExtent, class NumAtoms>
TESSERA_HOST_DEVICE constexpr auto perm_size(Perm const& p, AtomExtent const& a, NumAtoms const& n) {
  if constexpr (is_underscore_v<Perm>) return a * n;
  else if constexpr (is_layout_v<Perm>) return size(p.shape());
  else return p;  // an integer N stands for N:1
}
// A tiler mode from a permutation entry: `_` stays `_` (no permutation).
template <class Perm>
TESSERA_HOST_DEVICE constexpr auto perm_tile(Perm const& p) {
  if constexpr (is_underscore_v<Perm> || is_layout_v<Perm>) return p;
  else return make_layout(p);
}
}  // namespace detail

template <class TiledMMA_, class ThrCoord> struct ThrMMA;

template <class Atom, class AtomLayoutMNK, class PermutationMNK>
struct TiledMMA : Atom {
  using AtomType = Atom;
  using AtomShape_MNK = typename Atom::Shape_MNK;
  using AtomThrID = typename Atom::ThrID;
  using AtomLayoutA_TV = typename Atom::ALayout;
  using AtomLayoutB_TV = typename Atom::BLayout;
  using AtomLayoutC_TV = typename Atom::CLayout;
  static_assert(rank_v<decltype(AtomLayoutMNK{}.shape())> == 3, "TiledMMA: the atom layout must have 3 modes (M,N,K)");
  static_assert(rank_v<PermutationMNK> == 3, "TiledMMA: the permutation must have 3 modes (M,N,K)");

  // (V, M, N, K) -> thread index.
  using ThrLayoutVMNK = decltype(tiled_product(AtomThrID{}, AtomLayoutMNK{}));

  TESSERA_HOST_DEVICE constexpr TiledMMA() = default;

  TESSERA_HOST_DEVICE static constexpr auto get_thr_layout_vmnk() { return ThrLayoutVMNK{}; }
  TESSERA_HOST_DEVICE static constexpr auto num_threads() { return size(ThrLayoutVMNK{}.shape()); }
  // Extent of the whole tile in mode I (M, N or K).
  template <int I>
  TESSERA_HOST_DEVICE static constexpr auto tile_size_mnk() {
    return detail::perm_size(get<I>(PermutationMNK{}), get<I>(AtomShape_MNK{}), size<I>(AtomLayoutMNK{}));
  }
  TESSERA_HOST_DEVICE static constexpr auto get_tile_size() {
    return make_shape(tile_size_mnk<0>(), tile_size_mnk<1>(), tile_size_mnk<2>());
  }

 private:
  // Steps 1-4 above for the operand whose tile modes are (I0, I1) of (M,N,K).
  template <int I0, int I1, class AtomTV, class L>
  TESSERA_HOST_DEVICE static constexpr auto thrfrg(L const& l, AtomTV const& atom_tv) {
    static_assert(rank_v<decltype(l.shape())> >= 2, "TiledMMA: partitioned layouts have (at least) two modes");
    auto permuted = logical_divide(l, make_tile(detail::perm_tile(get<I0>(PermutationMNK{})),
                                                detail::perm_tile(get<I1>(PermutationMNK{}))));
    auto atom_tiles = zipped_divide(permuted, make_tile(make_layout(get<I0>(AtomShape_MNK{})),
                                                        make_layout(get<I1>(AtomShape_MNK{}))));
    auto tv = composition(atom_tiles, make_tile(atom_tv, _));
    auto thr_tile = make_tile(_, make_tile(make_layout(size<I0 + 1>(ThrLayoutVMNK{})),
                                           make_layout(size<I1 + 1>(ThrLayoutVMNK{}))));
    return zipped_divide(tv, thr_tile);
  }
  // thread index -> index into thrfrg's thread mode (V, Thr0, Thr1), dropping the third.
  template <int I0, int I1>
  TESSERA_HOST_DEVICE static constexpr auto thridx_to_thrfrg() {
    auto V = size<0>(ThrLayoutVMNK{});
    auto T0 = size<I0 + 1>(ThrLayoutVMNK{});
    auto vmnk = make_shape(V, size<1>(ThrLayoutVMNK{}), size<2>(ThrLayoutVMNK{}), size<3>(ThrLayoutVMNK{}));
    // stride of each of (v, m, n, k) in the (V, Thr0, Thr1) index; 0 for the dropped mode
    auto stride_of = [&](auto mode) {
      constexpr int J = decltype(mode)::value;
      if constexpr (J == 0) return C<1>{};
      else if constexpr (J == I0 + 1) return V;
      else if constexpr (J == I1 + 1) return V * T0;
      else return C<0>{};
    };
    auto drop = make_layout(vmnk, make_stride(stride_of(C<0>{}), stride_of(C<1>{}), stride_of(C<2>{}), stride_of(C<3>{})));
    return composition(drop, right_inverse(ThrLayoutVMNK{}));
  }

 public:
  template <class L> TESSERA_HOST_DEVICE static constexpr auto thrfrg_A(L const& a) { return thrfrg<0, 2>(a, AtomLayoutA_TV{}); }
  template <class L> TESSERA_HOST_DEVICE static constexpr auto thrfrg_B(L const& b) { return thrfrg<1, 2>(b, AtomLayoutB_TV{}); }
  template <class L> TESSERA_HOST_DEVICE static constexpr auto thrfrg_C(L const& c) { return thrfrg<0, 1>(c, AtomLayoutC_TV{}); }

  // (thread index, value) -> column-major index in the (M,K) / (N,K) / (M,N) tile.
  TESSERA_HOST_DEVICE static constexpr auto get_layoutA_TV() {
    auto ref = make_layout(make_shape(tile_size_mnk<0>(), tile_size_mnk<2>()));
    return composition(thrfrg_A(ref), make_tile(thridx_to_thrfrg<0, 2>(), _));
  }
  TESSERA_HOST_DEVICE static constexpr auto get_layoutB_TV() {
    auto ref = make_layout(make_shape(tile_size_mnk<1>(), tile_size_mnk<2>()));
    return composition(thrfrg_B(ref), make_tile(thridx_to_thrfrg<1, 2>(), _));
  }
  TESSERA_HOST_DEVICE static constexpr auto get_layoutC_TV() {
    auto ref = make_layout(make_shape(tile_size_mnk<0>(), tile_size_mnk<1>()));
    return composition(thrfrg_C(ref), make_tile(thridx_to_thrfrg<0, 1>(), _));
  }

  // (v, m, n, k) of a thread index.
  template <class ThrIdx>
  TESSERA_HOST_DEVICE static constexpr auto thr_vmnk(ThrIdx const& thr_idx) {
    auto flat = make_shape(size<0>(ThrLayoutVMNK{}), size<1>(ThrLayoutVMNK{}), size<2>(ThrLayoutVMNK{}),
                           size<3>(ThrLayoutVMNK{}));
    return idx2crd(right_inverse(ThrLayoutVMNK{})(thr_idx), flat);
  }

  template <class ThrIdx>
  TESSERA_HOST_DEVICE constexpr auto get_slice(ThrIdx const& thr_idx) const {
    auto c = thr_vmnk(thr_idx);
    return ThrMMA<TiledMMA, decltype(c)>{c};
  }
  template <class ThrIdx>
  TESSERA_HOST_DEVICE constexpr auto get_thread_slice(ThrIdx const& thr_idx) const { return get_slice(thr_idx); }

  // Issue the atom's instruction (register arrays as the instruction takes them).
  template <class... Args>
  TESSERA_HOST_DEVICE static void call(Args&&... args) {
    Atom::Operation::fma(static_cast<Args&&>(args)...);
  }
};

// One thread's view: partitions of A, B, C layouts (offset + the thread's values).
template <class TiledMMA_, class ThrCoord>
struct ThrMMA : TiledMMA_ {
  ThrCoord thr_vmnk_;  // (v, m, n, k)
  TESSERA_HOST_DEVICE constexpr ThrMMA(ThrCoord const& c) : thr_vmnk_(c) {}

  // Result of partitioning a layout: the thread's values (FrgV, (Rest0, Rest1)) and the
  // offset of the thread's first element.  partition_* of a Tensor wraps this.
  template <class L> TESSERA_HOST_DEVICE constexpr auto partition_A_layout(L const& a) const {
    auto t = TiledMMA_::thrfrg_A(a);
    auto crd = make_coord(make_coord(get<0>(thr_vmnk_), make_coord(get<1>(thr_vmnk_), get<3>(thr_vmnk_))), _);
    return slice_and_offset(crd, t);
  }
  template <class L> TESSERA_HOST_DEVICE constexpr auto partition_B_layout(L const& b) const {
    auto t = TiledMMA_::thrfrg_B(b);
    auto crd = make_coord(make_coord(get<0>(thr_vmnk_), make_coord(get<2>(thr_vmnk_), get<3>(thr_vmnk_))), _);
    return slice_and_offset(crd, t);
  }
  template <class L> TESSERA_HOST_DEVICE constexpr auto partition_C_layout(L const& c) const {
    auto t = TiledMMA_::thrfrg_C(c);
    auto crd = make_coord(make_coord(get<0>(thr_vmnk_), make_coord(get<1>(thr_vmnk_), get<2>(thr_vmnk_))), _);
    return slice_and_offset(crd, t);
  }

  // The same on tensors: the thread's elements of A, B, C, (FrgV, (Rest0, Rest1)).
  template <class It, class L> TESSERA_HOST_DEVICE constexpr auto partition_A(Tensor<It, L> const& a) const {
    static_assert(is_layout_v<L>, "partition_A: partition the tensor's Layout (not a swizzled ComposedLayout)");
    auto so = partition_A_layout(a.layout());
    return make_tensor(a.data() + get<1>(so), get<0>(so));
  }
  template <class It, class L> TESSERA_HOST_DEVICE constexpr auto partition_B(Tensor<It, L> const& b) const {
    static_assert(is_layout_v<L>, "partition_B: partition the tensor's Layout (not a swizzled ComposedLayout)");
    auto so = partition_B_layout(b.layout());
    return make_tensor(b.data() + get<1>(so), get<0>(so));
  }
  template <class It, class L> TESSERA_HOST_DEVICE constexpr auto partition_C(Tensor<It, L> const& c) const {
    static_assert(is_layout_v<L>, "partition_C: partition the tensor's Layout (not a swizzled ComposedLayout)");
    auto so = partition_C_layout(c.layout());
    return make_tensor(c.data() + get<1>(so), get<0>(so));
  }
};

// make_tiled_mma(atom, atom_layout_MNK = 1x1x1, permutation_MNK = (_,_,_))
template <class Op, class AL = Layout<tuple<_1, _1, _1>, tuple<_0, _0, _0>>,
          class Perm = tuple<Underscore, Underscore, Underscore>>
TESSERA_HOST_DEVICE constexpr auto make_tiled_mma(MMA_Atom<Op> const&, AL const& atom_layout = {}, Perm const& perm = {}) {
  static_assert(is_layout_v<AL>, "make_tiled_mma: the atom layout must be a Layout over (M,N,K)");
  auto al3 = append<3>(atom_layout, Layout<_1, _0>{});
  auto perm3 = append<3>(perm, _);
  return TiledMMA<MMA_Atom<Op>, decltype(al3), decltype(perm3)>{};
}
template <class Op, class... Args>
  requires(!is_layout_v<Op>)
TESSERA_HOST_DEVICE constexpr auto make_tiled_mma(Op const&, Args const&... args) {
  return make_tiled_mma(MMA_Atom<Op>{}, args...);
}

template <class A, class L, class P>
TESSERA_HOST_DEVICE constexpr auto size(TiledMMA<A, L, P> const&) { return TiledMMA<A, L, P>::num_threads(); }

}  // namespace tessera
