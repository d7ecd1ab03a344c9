#pragma once
// to_runtime for the static tier's swizzled layouts: ComposedLayout<Swizzle<B,M,S>, off, L>
// becomes rt::SwizzledLayout "Sw<B,M,S> o off o L".
// Kept apart from to_runtime.hpp so that its users do not pull in the composed-layout headers.
#include "tessera/rt/to_runtime.hpp"
#include "tessera/composed_layout.hpp"

namespace tessera::rt {

template <int B, int M, int S, class Offset, class Inner>
SwizzledLayout to_runtime(tessera::ComposedLayout<tessera::Swizzle<B, M, S>, Offset, Inner> const& l) {
  return SwizzledLayout{Swizzle(B, M, S), to_runtime(l.inner()), static_cast<std::int64_t>(tessera::to_i64(l.offset()))};
}

}  // namespace tessera::rt
