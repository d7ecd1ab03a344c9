#pragma once
// tile_to_shape of a swizzled layout Sw o off o L: the swizzle stays outside and L is
// tiled: Sw o off o tile_to_shape(L, shape, order) (CuTe's definition on ComposedLayout).
// It is the function one expects (each block a swizzled copy of the atom) only when the
// blocks land on multiples of the swizzle's period, i.e. when cosize(L) is a multiple of
// Sw::size(); that is checked for static layouts, since the GMMA atoms and every swizzled
// smem tile are static.
// (Written for the Hopper smem atoms. It takes the swizzled case only, so that a general
// ComposedLayout overload added to composed_layout.hpp later is less specialised than this
// one and both can coexist.)
#include "../composed_layout.hpp"
#include "tile_to_shape.hpp"

namespace tessera {

template <int B, int M, int S, class F, class I, class T, class O = LayoutLeft>
TESSERA_HOST_DEVICE constexpr auto tile_to_shape(ComposedLayout<Swizzle<B, M, S>, F, I> const& block, T const& trg_shape,
                                                 O const& order = {}) {
  if constexpr (is_static_v<I>) {
    static_assert(decltype(cosize(I{}))::value % decltype(Swizzle<B, M, S>::size())::value == 0,
                  "tessera::tile_to_shape: the swizzled block's cosize must be a multiple of the swizzle's "
                  "period (2^(M+B+|S|)), or the copies of the block would not be swizzled alike");
  }
  return make_composed_layout(block.outer(), block.offset(), tile_to_shape(block.inner(), trg_shape, order));
}

}  // namespace tessera
