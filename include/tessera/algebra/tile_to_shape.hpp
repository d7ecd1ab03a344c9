#pragma once
// tile_to_shape(block, target, order): repeat block (blocked_product) until it has the
// target shape; order says which target modes the repetition walks first. As in current
// CuTe (4.x; CuTe 3.8 dropped 3.7's final coalesce), the result is the blocked product
// itself: mode i is (block mode i, copies along i), e.g. tile_to_shape((8,64):(64,1),
// (128,64,3)) is ((8,16),(64,1),(1,3)):((64,512),(1,0),(0,8192)).
//
// tile_to_shape_coalesced is CuTe 3.7's answer, kept by name: the same product coalesced
// mode by mode (profile = the product shape), so each target mode is as flat as its block
// allows: (128,64,3):(64,1,8192) above. Each mode is the same function of its 1-D index.
#include "coalesce.hpp"
#include "product.hpp"

namespace tessera {

namespace detail {
// The block padded to the target's rank and the copies per mode (target / block, a tuple
// even for an integer target: CuTe's product_each wraps it).
template <class S, class D, class T>
TESSERA_HOST_DEVICE constexpr auto tile_to_shape_parts(Layout<S, D> const& block, T const& trg_shape) {
  constexpr int R = rank_v<T>;
  static_assert(rank_v<S> <= R, "tessera::tile_to_shape: the block has more modes than the target shape");
  auto padded = append<R>(block);
  auto block_shape = product_each(wrap(padded.shape()));
  auto target_shape = product_each(wrap(trg_shape));
  if constexpr (is_static_v<decltype(target_shape)> && is_static_v<decltype(block_shape)>) {
    static_assert(decltype(equal(transform(wrap(target_shape), wrap(block_shape), [](auto a, auto b) { return a % b; }),
                                 repeat_like(wrap(target_shape), C<0>{})))::value,
                  "tessera::tile_to_shape: the block shape does not divide the target shape");
  }
  return make_tuple(padded, ceil_div(target_shape, block_shape));
}
// The copies walked in `order` (CuTe's compact_order, which tile_to_shape's make_ordered_layout
// is): copy mode k's stride is the product of the copy modes of smaller order, so equal orders
// start at the same stride (unlike tessera's make_ordered_layout, which breaks ties by
// position); a size-1 mode gets 0. LayoutLeft / LayoutRight: column- / row-major.
template <class S, class O> TESSERA_HOST_DEVICE constexpr auto copies_in_order(S const& shape, O const& order) {
  if constexpr (std::is_same_v<O, LayoutLeft> || std::is_same_v<O, LayoutRight>) {
    return make_layout(shape, O{});
  } else {
    auto fo = flatten_to_tuple(order);
    constexpr std::size_t N = rank_v<S>;
    static_assert(rank_v<decltype(fo)> == N, "tessera::tile_to_shape: the order needs one entry per target mode");
    auto strides = [&]<std::size_t... I>(std::index_sequence<I...>) {
      return make_tuple([&](auto i) {
        constexpr std::size_t k = decltype(i)::value;
        auto st = [&]<std::size_t... J>(std::index_sequence<J...>) {
          return (C<1>{} * ... * conditional_return<(std::remove_cvref_t<decltype(get<J>(fo))>::value <
                                                     std::remove_cvref_t<decltype(get<k>(fo))>::value)>(get<J>(shape), C<1>{}));
        }(std::make_index_sequence<N>{});
        return conditional_return<is_constant_v<1, decltype(get<k>(shape))>>(C<0>{}, st);
      }(C<I>{})...);
    }(std::make_index_sequence<N>{});
    return make_layout(shape, strides);
  }
}
}  // namespace detail

template <class S, class D, class T, class O = LayoutLeft>
TESSERA_HOST_DEVICE constexpr auto tile_to_shape(Layout<S, D> const& block, T const& trg_shape, O const& order = {}) {
  auto parts = detail::tile_to_shape_parts(block, trg_shape);
  return blocked_product(get<0>(parts), detail::copies_in_order(get<1>(parts), order));
}

template <class S, class D, class T, class O = LayoutLeft>
TESSERA_HOST_DEVICE constexpr auto tile_to_shape_coalesced(Layout<S, D> const& block, T const& trg_shape,
                                                           O const& order = {}) {
  auto parts = detail::tile_to_shape_parts(block, trg_shape);
  return coalesce(blocked_product(get<0>(parts), detail::copies_in_order(get<1>(parts), order)), get<1>(parts));
}

}  // namespace tessera
