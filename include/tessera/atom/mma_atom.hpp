// MMA atoms = an instruction (tessera/atom/detail/mma_ops.hpp) + its traits:
//   ValTypeD/A/B/C     element types
//   Shape_MNK          the atom's (M,N,K) problem
//   ThrID              atom thread index -> thread index in the warp / warpgroup
//   ALayout            (thread, value) -> column-major index m + M*k in the (M,K) tile of A
//   BLayout            (thread, value) -> n + N*k in the (N,K) tile of B
//   CLayout            (thread, value) -> m + M*n in the (M,N) tile of C
// The layouts are written from the PTX ISA's fragment tables; tests/atoms checks each
// against an independent encoding of those tables for every (thread, value).
#pragma once

#include "tessera/atom/detail/mma_ops.hpp"
#include "tessera/atom/numeric.hpp"
#include "tessera/layout.hpp"

namespace tessera {

template <class Op> struct MMA_Traits;  // specialised per instruction

namespace detail {
// An operand the whole warpgroup reads from shared memory (wgmma: A of SS atoms, B): every
// thread's TV row is the whole tile, so no element belongs to one thread's registers.
template <class TV>
TESSERA_HOST_DEVICE constexpr bool operand_is_shared() {
  constexpr int64_t n_thr = decltype(size<0>(TV{}))::value;
  if constexpr (n_thr == 1) return false;
  else {
    for (int64_t t = 1; t < n_thr; ++t) if (TV{}(t, 0) != TV{}(0, 0)) return false;
    return true;
  }
}
}  // namespace detail

// The atom a TiledMMA is built from: traits plus the call that issues the instruction.
template <class Op>
struct MMA_Atom : MMA_Traits<Op> {
  using Traits = MMA_Traits<Op>;
  using Operation = Op;
  using typename Traits::ValTypeA;
  using typename Traits::ValTypeB;
  using typename Traits::ValTypeC;
  using typename Traits::ValTypeD;
  using typename Traits::Shape_MNK;
  using typename Traits::ThrID;
  using LayoutA_TV = typename Traits::ALayout;
  using LayoutB_TV = typename Traits::BLayout;
  using LayoutC_TV = typename Traits::CLayout;

  constexpr MMA_Atom() = default;
  TESSERA_HOST_DEVICE constexpr MMA_Atom(Op) {}

  static constexpr const char* name() { return Traits::name; }
  // Threads and values per thread of each operand.
  TESSERA_HOST_DEVICE static constexpr auto num_threads() { return size(ThrID{}.shape()); }
};

// The registers an instruction takes, as arrays: issue it.
template <class Op, class... Args>
TESSERA_HOST_DEVICE void mma_call(Op, Args&&... args) {
  Op::fma(static_cast<Args&&>(args)...);
}

}  // namespace tessera
