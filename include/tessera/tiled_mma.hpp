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

#include "tessera/algebra/coalesce.hpp"
#include "tessera/algebra/composition.hpp"
#include "tessera/algebra/divide.hpp"
#include "tessera/algebra/inverse.hpp"
#include "tessera/algebra/product.hpp"
#include "tessera/algebra/upcast.hpp"
#include "tessera/atom/gmma_descriptor_iterator.hpp"
#include "tessera/atom/mma.hpp"
#include "tessera/composed_layout.hpp"
#include "tessera/layout.hpp"
#include "tessera/tensor.hpp"
#include "tessera/tensor_fragment.hpp"

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
// A thread's slice of a partitioned layout, as (sub-layout, offset of its origin).  A
// swizzled (composed) layout keeps the offset inside: the swizzle acts on the whole
// offset, so the origin cannot move into the pointer.
template <class Crd, class L>
TESSERA_HOST_DEVICE constexpr auto thread_slice(Crd const& crd, L const& l) {
  if constexpr (is_composed_layout_v<L>) return make_tuple(l(crd), C<0>{});
  else return slice_and_offset(crd, l);
}
// Partitions act on a layout's domain only: a swizzle on top stays where it is.
// A static layout's partition is static too: its only value is R{}, returned without
// calling f, so the chain of divides and compositions behind f is instantiated for its type
// but never emitted as code (host code at -O0, and the device functions NVVM optimises one
// by one before inlining them).
template <class L, class F>
TESSERA_HOST_DEVICE constexpr auto on_domain(L const& l, F&& f) {
  if constexpr (is_composed_layout_v<L>) {
    return make_composed_layout(l.outer(), l.offset(), on_domain(l.inner(), f));
  } else {
    using R = decltype(f(l));
    if constexpr (stateless_v<L> && stateless_v<R>) return R{};
    else return f(l);
  }
}
// The layout of a partitioned tensor, or a partitioned layout itself.
template <class X>
TESSERA_HOST_DEVICE constexpr auto layout_of(X const& x) {
  if constexpr (is_tensor_v<X>) return x.layout(); else return x;
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

  constexpr TiledMMA() = default;

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
    auto tv = compose_atom_tv(atom_tiles, atom_tv);
    auto thr_tile = make_tile(_, make_tile(make_layout(size<I0 + 1>(ThrLayoutVMNK{})),
                                           make_layout(size<I1 + 1>(ThrLayoutVMNK{}))));
    return zipped_divide(tv, thr_tile);
  }
  // Step 3. An operand read from shared memory (thread stride 0: every thread sees the whole
  // atom tile) goes through its value mode alone, the thread mode (all strides 0) put in front
  // after: the same layout, without checking the composition at threads x values points.
  template <class Tiles, class AtomTV>
  TESSERA_HOST_DEVICE static constexpr auto compose_atom_tv(Tiles const& atom_tiles, AtomTV const& atom_tv) {
    if constexpr (detail::operand_is_shared<AtomTV>()) {
      auto values = composition(atom_tiles, make_tile(layout<1>(atom_tv), _));
      auto v = layout<0>(values);
      return replace<0>(values, make_layout(make_shape(shape<0>(atom_tv), v.shape()), make_stride(stride<0>(atom_tv), v.stride())));
    } else {
      return composition(atom_tiles, make_tile(atom_tv, _));
    }
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
  // (Swizzled layouts too: the partition re-indexes the inner layout's domain.)
  template <class L> TESSERA_HOST_DEVICE static constexpr auto thrfrg_A(L const& a) {
    return detail::on_domain(a, [](auto const& l) { return thrfrg<0, 2>(l, AtomLayoutA_TV{}); });
  }
  template <class L> TESSERA_HOST_DEVICE static constexpr auto thrfrg_B(L const& b) {
    return detail::on_domain(b, [](auto const& l) { return thrfrg<1, 2>(l, AtomLayoutB_TV{}); });
  }
  template <class L> TESSERA_HOST_DEVICE static constexpr auto thrfrg_C(L const& c) {
    return detail::on_domain(c, [](auto const& l) { return thrfrg<0, 1>(l, AtomLayoutC_TV{}); });
  }

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

  // The same maps over a larger (M,K) / (N,K) / (M,N) tile that the tiled MMA repeats over
  // (a CTA's tile): value v numbers a thread's fragment as partition_fragment_A/B/C do,
  // (atom values, M or N repeat, K or N repeat) column-major.  What a trace of a kernel's
  // whole fragments is checked against (examples/5_my_gemm_trace.hpp).
  template <class TileMK> TESSERA_HOST_DEVICE static constexpr auto get_layoutA_TV(TileMK const& mk) {
    return composition(thrfrg_A(make_layout(mk)), make_tile(thridx_to_thrfrg<0, 2>(), _));
  }
  template <class TileNK> TESSERA_HOST_DEVICE static constexpr auto get_layoutB_TV(TileNK const& nk) {
    return composition(thrfrg_B(make_layout(nk)), make_tile(thridx_to_thrfrg<1, 2>(), _));
  }
  template <class TileMN> TESSERA_HOST_DEVICE static constexpr auto get_layoutC_TV(TileMN const& mn) {
    return composition(thrfrg_C(make_layout(mn)), make_tile(thridx_to_thrfrg<0, 1>(), _));
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

  // Fragments for partition_X's result ((V, M, K) / (V, N, K) / (V, M, N)):
  //  - an operand in registers (a tensor or its layout): an owning tensor of the atom's value
  //    type with the same shape, made compact by make_fragment_like (mode 0 = one
  //    instruction's registers);
  //  - an operand the atom reads from shared memory (wgmma's A of SS atoms, B): a descriptor
  //    fragment (1, M, K, ...) of the partitioned smem tensor, made from its address and layout
  //    (GMMA::make_descriptor_fragment), so the tensor itself, not its layout.
  template <class P> TESSERA_HOST_DEVICE static constexpr auto make_fragment_A(P const& partitioned) {
    if constexpr (detail::operand_is_shared<AtomLayoutA_TV>()) {
      static_assert(is_tensor_v<P>,
                    "make_fragment_A: this atom reads A from shared memory (wgmma SS): its fragment is descriptors "
                    "made from the shared-memory tensor's address, so give partition_A(sA) (or partition_fragment_A(sA)), "
                    "not a layout or a shape");
      return make_descriptor_fragment<typename Atom::ValTypeA, Atom::major_A, AtomLayoutA_TV>(partitioned);
    } else {
      return make_fragment<typename Atom::ValTypeA, AtomLayoutA_TV>(detail::layout_of(partitioned));
    }
  }
  template <class P> TESSERA_HOST_DEVICE static constexpr auto make_fragment_B(P const& partitioned) {
    if constexpr (detail::operand_is_shared<AtomLayoutB_TV>()) {
      static_assert(is_tensor_v<P>,
                    "make_fragment_B: this atom reads B from shared memory (wgmma): its fragment is descriptors "
                    "made from the shared-memory tensor's address, so give partition_B(sB) (or partition_fragment_B(sB)), "
                    "not a layout or a shape");
      return make_descriptor_fragment<typename Atom::ValTypeB, Atom::major_B, AtomLayoutB_TV>(partitioned);
    } else {
      return make_fragment<typename Atom::ValTypeB, AtomLayoutB_TV>(detail::layout_of(partitioned));
    }
  }
  template <class P> TESSERA_HOST_DEVICE static constexpr auto make_fragment_C(P const& partitioned) {
    return make_fragment<typename Atom::ValTypeC, AtomLayoutC_TV>(detail::layout_of(partitioned));
  }

 private:
  template <class T, class AtomTV, class L> TESSERA_HOST_DEVICE static constexpr auto make_fragment(L const& l) {
    static_assert(rank_v<decltype(shape(l))> >= 3, "make_fragment_X: expects partition_X's (V, rest, rest) layout (rank >= 3)");
    static_assert(decltype(size<0>(l))::value == decltype(size<1>(AtomTV{}))::value,
                  "make_fragment_X: mode 0 must hold one atom's values of the operand (size<0> == the atom's values per thread)");
    return make_tensor<T>(make_fragment_like(l));
  }
  template <class T, GMMA::Major MJ, class AtomTV, class Tn>
  TESSERA_HOST_DEVICE static constexpr auto make_descriptor_fragment(Tn const& t) {
    using Element = std::remove_cvref_t<decltype(*t.data())>;
    constexpr bool same_width = sizeof_bits_v<Element> == sizeof_bits_v<T>;
    constexpr bool one_tile = decltype(size<0>(t.layout()))::value == decltype(size<1>(AtomTV{}))::value;
    static_assert(same_width, "make_fragment_A/B: the shared-memory tensor's elements must be as wide as the atom's operand type");
    static_assert(one_tile, "make_fragment_A/B: mode 0 must be one atom's operand tile (partition_A/B's result)");
    if constexpr (same_width && one_tile) return GMMA::make_descriptor_fragment<MJ>(t);
  }

 public:
  // Issue the atom's instruction (register arrays as the instruction takes them).
  template <class... Args>
  TESSERA_HOST_DEVICE static void call(Args&&... args) {
    Atom::Operation::fma(static_cast<Args&&>(args)...);
  }
};

// One thread's view: its partitions of A, B, C, shaped like CuTe's (V, M, K) /
// (V, N, K) / (V, M, N): V = one atom's values, then the atom repeats along each mode.
template <class TiledMMA_, class ThrCoord>
struct ThrMMA : TiledMMA_ {
  ThrCoord thr_vmnk_;  // (v, m, n, k)
  TESSERA_HOST_DEVICE constexpr ThrMMA(ThrCoord const& c) : thr_vmnk_(c) {}

 private:
  // Thread coordinate (v, (t0, t1)) in thrfrg's thread mode; all values, repeats as modes.
  template <int I0, int I1, class T>
  TESSERA_HOST_DEVICE constexpr auto slice_thread(T const& t) const {
    constexpr int RR = rank_v<decltype(shape<1, 1>(t))>;
    auto crd = make_coord(make_coord(get<0>(thr_vmnk_), make_coord(get<I0>(thr_vmnk_), get<I1>(thr_vmnk_))),
                          make_coord(_, repeat<RR>(_)));
    return detail::thread_slice(crd, t);
  }
  template <class Tn, class SO> TESSERA_HOST_DEVICE static constexpr auto view(Tn const& t, SO const& so) {
    return make_tensor(t.data() + get<1>(so), get<0>(so));
  }

 public:
  // Result of partitioning a layout: the thread's values (V, Rest0, Rest1) and the
  // offset of the thread's first element (0 for a swizzled layout, which keeps it).
  // partition_* of a Tensor wraps this.
  template <class L> TESSERA_HOST_DEVICE constexpr auto partition_A_layout(L const& a) const { return slice_thread<1, 3>(TiledMMA_::thrfrg_A(a)); }
  template <class L> TESSERA_HOST_DEVICE constexpr auto partition_B_layout(L const& b) const { return slice_thread<2, 3>(TiledMMA_::thrfrg_B(b)); }
  template <class L> TESSERA_HOST_DEVICE constexpr auto partition_C_layout(L const& c) const { return slice_thread<1, 2>(TiledMMA_::thrfrg_C(c)); }

  // The same on tensors (pointer, identity or swizzled): the thread's elements.
  template <class It, class L> TESSERA_HOST_DEVICE constexpr auto partition_A(Tensor<It, L> const& a) const { return view(a, partition_A_layout(a.layout())); }
  template <class It, class L> TESSERA_HOST_DEVICE constexpr auto partition_B(Tensor<It, L> const& b) const { return view(b, partition_B_layout(b.layout())); }
  template <class It, class L> TESSERA_HOST_DEVICE constexpr auto partition_C(Tensor<It, L> const& c) const { return view(c, partition_C_layout(c.layout())); }

  // Fragments for the thread's partition of a tensor: registers shaped like it, or (an
  // operand the atom reads from shared memory) the descriptors of the partitioned smem tensor.
  template <class It, class L> TESSERA_HOST_DEVICE constexpr auto partition_fragment_A(Tensor<It, L> const& a) const {
    if constexpr (detail::operand_is_shared<typename TiledMMA_::AtomLayoutA_TV>()) return TiledMMA_::make_fragment_A(partition_A(a));
    else return TiledMMA_::make_fragment_A(get<0>(partition_A_layout(a.layout())));
  }
  template <class It, class L> TESSERA_HOST_DEVICE constexpr auto partition_fragment_B(Tensor<It, L> const& b) const {
    if constexpr (detail::operand_is_shared<typename TiledMMA_::AtomLayoutB_TV>()) return TiledMMA_::make_fragment_B(partition_B(b));
    else return TiledMMA_::make_fragment_B(get<0>(partition_B_layout(b.layout())));
  }
  template <class It, class L> TESSERA_HOST_DEVICE constexpr auto partition_fragment_C(Tensor<It, L> const& c) const {
    return TiledMMA_::make_fragment_C(get<0>(partition_C_layout(c.layout())));
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

// A thread's fragment for a tile of the given shape ((M,K), (N,K), (M,N)) without a
// tensor to partition: every thread's partition has the same shape.
template <class A, class L, class P, class Shape>
TESSERA_HOST_DEVICE constexpr auto partition_fragment_A(TiledMMA<A, L, P> const& mma, Shape const& shape_mk) {
  return TiledMMA<A, L, P>::make_fragment_A(get<0>(mma.get_slice(0).partition_A_layout(make_layout(shape_mk))));
}
template <class A, class L, class P, class Shape>
TESSERA_HOST_DEVICE constexpr auto partition_fragment_B(TiledMMA<A, L, P> const& mma, Shape const& shape_nk) {
  return TiledMMA<A, L, P>::make_fragment_B(get<0>(mma.get_slice(0).partition_B_layout(make_layout(shape_nk))));
}
template <class A, class L, class P, class Shape>
TESSERA_HOST_DEVICE constexpr auto partition_fragment_C(TiledMMA<A, L, P> const& mma, Shape const& shape_mn) {
  return TiledMMA<A, L, P>::make_fragment_C(get<0>(mma.get_slice(0).partition_C_layout(make_layout(shape_mn))));
}

}  // namespace tessera
