// Copy atoms = an instruction (tessera/atom/detail/copy_ops.hpp) + its traits:
//   ThrID       atom thread index -> thread index in the warp
//   SrcLayout   (thread, value) -> bit of the source data the atom moves
//   DstLayout   (thread, value) -> bit of the same data as the destination holds it
//   RefLayout   the side a TiledCopy's value layout is expressed in (Src or Dst)
// Layouts are in bits, so one definition serves every element width: Copy_Atom<Op, T>
// re-expresses them in elements of T (upcast by sizeof_bits<T>).
#pragma once

#include "tessera/atom/detail/copy_ops.hpp"
#include "tessera/atom/numeric.hpp"
#include "tessera/algebra/upcast.hpp"
#include "tessera/layout.hpp"

namespace tessera {

template <class Op> struct Copy_Traits;  // specialised per instruction

// The one way to declare a copy instruction's traits (ldmatrix, stmatrix, ...): the op, the
// atom's thread layout, its source and destination layouts in bits, and which of the two a
// tiled copy's value layout is expressed in. The name is the op's own, spelled once.
#define TESSERA_COPY_TRAITS(OP, THR_ID, SRC, DST, REF) \
  template <>                                          \
  struct Copy_Traits<OP> {                             \
    static constexpr const char* name = #OP;           \
    using ThrID = THR_ID;                              \
    using SrcLayout = SRC;                             \
    using DstLayout = DST;                             \
    using RefLayout = REF;                             \
  }

template <class Op, class ValType>
struct Copy_Atom : Copy_Traits<Op> {
  using Traits = Copy_Traits<Op>;
  using Operation = Op;
  using ValueType = ValType;
  using typename Traits::ThrID;
  static constexpr int value_bits = sizeof_bits_v<ValType>;
  static_assert(value_bits > 0, "Copy_Atom: value type has no width");

  // (thread, value) -> element index, values counted in elements of ValType.
  using ValLayoutSrc = decltype(upcast<value_bits>(typename Traits::SrcLayout{}));
  using ValLayoutDst = decltype(upcast<value_bits>(typename Traits::DstLayout{}));
  using ValLayoutRef = decltype(upcast<value_bits>(typename Traits::RefLayout{}));

  constexpr Copy_Atom() = default;
  TESSERA_HOST_DEVICE constexpr Copy_Atom(Op) {}

  static constexpr const char* name() { return Traits::name; }
  TESSERA_HOST_DEVICE static constexpr auto num_threads() { return size(ThrID{}.shape()); }
  TESSERA_HOST_DEVICE static constexpr auto num_val_src() { return size<1>(ValLayoutSrc{}); }
  TESSERA_HOST_DEVICE static constexpr auto num_val_dst() { return size<1>(ValLayoutDst{}); }
};

}  // namespace tessera
