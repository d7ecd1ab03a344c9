#pragma once
// to_runtime for the static tier's swizzled layouts: ComposedLayout<Swizzle<B,M,S>, 0, L>
// (what composition(Swizzle, layout) builds) becomes rt::SwizzledLayout "Sw<B,M,S> o L".
// Kept apart from to_runtime.hpp so that its users do not pull in the composed-layout headers.
#include "tessera/rt/to_runtime.hpp"
#include "tessera/composed_layout.hpp"

namespace tessera::rt {

template <int B, int M, int S, class Offset, class Inner>
SwizzledLayout to_runtime(tessera::ComposedLayout<tessera::Swizzle<B, M, S>, Offset, Inner> const& l) {
  // The runtime notation has no offset term (Sw o off o L): a sliced composed layout with a
  // non-zero offset has no runtime counterpart.
  static_assert(tessera::is_constant_v<0, Offset>,
                "to_runtime: a swizzled layout with a non-zero offset (Sw o off o L) has no runtime form");
  return SwizzledLayout{Swizzle(B, M, S), to_runtime(l.inner())};
}

}  // namespace tessera::rt
