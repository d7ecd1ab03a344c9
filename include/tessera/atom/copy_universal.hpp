// UniversalCopy<S, D>: one thread moves one S into one D (plain load/store of 8..128 bits).
#pragma once

#include "tessera/atom/copy_atom.hpp"

namespace tessera {

template <class S, class D = S>
struct UniversalCopy {
  static_assert(sizeof(S) == sizeof(D), "UniversalCopy: source and destination widths differ");
  using SRegisters = S[1];
  using DRegisters = D[1];
  TESSERA_HOST_DEVICE static constexpr void copy(S const& src, D& dst) { dst = src; }
};

template <class S, class D>
struct Copy_Traits<UniversalCopy<S, D>> {
  static constexpr const char* name = "UniversalCopy";
  static constexpr int bits = sizeof_bits_v<S>;
  using ThrID = Layout<_1, _0>;
  using SrcLayout = Layout<tuple<_1, C<bits>>, tuple<_0, _1>>;
  using DstLayout = Layout<tuple<_1, C<bits>>, tuple<_0, _1>>;
  using RefLayout = SrcLayout;
};

}  // namespace tessera
