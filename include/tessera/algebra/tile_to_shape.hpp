#pragma once
// tile_to_shape(block, target, order): repeat block (blocked_product) until it has the
// target shape; order says which target modes the repetition walks first. As in CuTe,
// the blocked product is then coalesced mode by mode (profile = the product shape), so
// each target mode is as flat as its block allows: ((2,2),(3,3)):((3,6),(1,12)) becomes
// (4,(3,3)):(3,(1,12)). Each mode is the same function of its 1-D index as before.
#include "coalesce.hpp"
#include "product.hpp"

namespace tessera {

template <class S, class D, class T, class O = LayoutLeft>
TESSERA_HOST_DEVICE constexpr auto tile_to_shape(Layout<S, D> const& block, T const& trg_shape, O const& order = {}) {
  constexpr int R = rank_v<T>;
  static_assert(rank_v<S> <= R, "tessera::tile_to_shape: the block has more modes than the target shape");
  auto padded = append<R>(block);
  // CuTe's product_each wraps an integer: the product shape is a tuple even for an integer
  // target, so the final coalesce goes mode by mode (tile_to_shape(16:1, 16) is (16):(1)).
  auto block_shape = product_each(wrap(padded.shape()));
  auto target_shape = product_each(wrap(trg_shape));
  if constexpr (is_static_v<decltype(target_shape)> && is_static_v<decltype(block_shape)>) {
    static_assert(decltype(equal(transform(wrap(target_shape), wrap(block_shape), [](auto a, auto b) { return a % b; }),
                                 repeat_like(wrap(target_shape), C<0>{})))::value,
                  "tessera::tile_to_shape: the block shape does not divide the target shape");
  }
  auto product_shape = ceil_div(target_shape, block_shape);
  return coalesce(blocked_product(padded, make_ordered_layout(product_shape, order)), product_shape);
}

}  // namespace tessera
