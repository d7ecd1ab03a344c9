// cp.async (SM80+): one thread copies 4, 8 or 16 bytes global -> shared.
#pragma once

#include "tessera/atom/copy_atom.hpp"

namespace tessera {

template <int Bytes>
struct Copy_Traits<SM80_CP_ASYNC_CACHEALWAYS<Bytes>> {
  static constexpr const char* name = "SM80_CP_ASYNC_CACHEALWAYS";
  using ThrID = Layout<_1, _0>;
  using SrcLayout = Layout<tuple<_1, C<8 * Bytes>>, tuple<_0, _1>>;
  using DstLayout = Layout<tuple<_1, C<8 * Bytes>>, tuple<_0, _1>>;
  using RefLayout = SrcLayout;
};

template <int Bytes>
struct Copy_Traits<SM80_CP_ASYNC_CACHEGLOBAL<Bytes>> {
  static constexpr const char* name = "SM80_CP_ASYNC_CACHEGLOBAL";
  using ThrID = Layout<_1, _0>;
  using SrcLayout = Layout<tuple<_1, C<8 * Bytes>>, tuple<_0, _1>>;
  using DstLayout = Layout<tuple<_1, C<8 * Bytes>>, tuple<_0, _1>>;
  using RefLayout = SrcLayout;
};

}  // namespace tessera
