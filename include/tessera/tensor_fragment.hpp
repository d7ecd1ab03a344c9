#pragma once
// Register fragments: tensors that own their elements (an ArrayEngine), made from a
// static, compact layout.
//   make_tensor<T>(layout | shape)   owning tensor; layout static and compact (every offset
//                                    in [0, cosize) is an image): cosize(layout) values of T
//   make_fragment_like(layout)       a compact layout of the same shape for registers:
//                                    mode 0 column-major (it is what one instruction takes,
//                                    so its values stay together), keeping mode 0's static
//                                    0 strides (broadcast values need no register); the
//                                    other modes after it, ordered like the source's strides
//                                    (column-major when those are not static)
//   make_fragment_like<T>(tensor)    owning tensor over that layout (T defaults to the
//                                    tensor's element type)
//   fill(tensor, v), clear(tensor)   (tessera/algorithm/fill.hpp)
#include "check.hpp"
#include "tensor.hpp"
#include "algorithm/fill.hpp"

namespace tessera {

template <class T, class L>
TESSERA_HOST_DEVICE constexpr auto make_tensor(L const& layout_or_shape) {
  if constexpr (!is_layout_v<L>) {
    static_assert(!is_composed_layout_v<L>, "tessera::make_tensor<T>: a register fragment takes a plain Layout, not a swizzled one");
    return make_tensor<T>(make_layout(layout_or_shape));
  } else {
    static_assert(is_static_v<L>, "tessera::make_tensor<T>(layout): an owning tensor needs a static layout (its cosize is the number of elements it holds)");
    if constexpr (is_static_v<L>) {  // (no follow-up errors after the one above)
      static_assert(is_compact(L{}), "tessera::make_tensor<T>(layout): an owning tensor needs a compact layout (every offset in [0, cosize) is an image: no unused elements)");
      constexpr auto n = std::size_t(decltype(cosize(L{}))::value);
      return Tensor<ArrayEngine<T, n>, L>{ArrayEngine<T, n>{}, layout_or_shape};
    }
  }
}

template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto make_fragment_like(Layout<S, D> const& l) {
  constexpr int R = Layout<S, D>::rank;
  if constexpr (R > 1 && is_static_v<S>) {
    auto m0 = get<0>(l);
    auto mode0 = make_layout(m0.shape(), compact_col_major(filter_zeros(m0).shape()));
    auto rest = take<1, R>(l);
    auto ordered = [&] {
      if constexpr (is_static_v<decltype(rest.stride())>) return make_ordered_layout(rest.shape(), rest.stride());
      else return make_layout(rest.shape());
    }();
    auto c0 = cosize(mode0);
    auto scaled = make_layout(ordered.shape(), transform_leaf(ordered.stride(), [&](auto const& d) { return d * c0; }));
    return prepend(scaled, mode0);
  } else {
    return make_layout(l.shape());
  }
}
// A swizzle addresses memory: registers only need the shape.
template <class O, class F, class I>
TESSERA_HOST_DEVICE constexpr auto make_fragment_like(ComposedLayout<O, F, I> const& l) { return make_fragment_like(l.inner()); }

template <class T = void, class E, class L>
TESSERA_HOST_DEVICE constexpr auto make_fragment_like(Tensor<E, L> const& t) {
  using V = std::conditional_t<std::is_void_v<T>, std::remove_cvref_t<decltype(t.data()[0])>, T>;
  return make_tensor<V>(make_fragment_like(t.layout()));
}

}  // namespace tessera
