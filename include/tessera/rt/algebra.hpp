#pragma once
// CuTe's layout algebra on runtime values. Parsed integers count as static, so the
// results are CuTe's static results to the letter (see tests/runtime/conformance).
// Inadmissible inputs throw rt::Error with a message naming the rule; overflow
// throws rt::OverflowError.
#include <cstdint>
#include <vector>

#include "tessera/rt/error.hpp"
#include "tessera/rt/layout.hpp"

namespace tessera::rt {

// shape_div(a, b): a / b where one divides the other (1 when b is the larger).
std::int64_t shape_div(std::int64_t a, std::int64_t b);
IntTuple shape_div(const IntTuple& a, const IntTuple& b);
std::int64_t ceil_div(std::int64_t a, std::int64_t b);

// The layout with each leaf as its own top-level mode.
Layout flatten(const Layout& l);
// Merge adjacent modes that continue each other; drop size-1 modes. Same function on [0,size).
Layout coalesce(const Layout& l);
// Coalesce each mode at the terminals of the profile (extra modes stay as they are).
Layout coalesce(const Layout& l, const IntTuple& profile);
// Remove stride-0 and size-1 modes, then coalesce.
Layout filter(const Layout& l);
Layout filter(const Layout& l, const IntTuple& profile);

// R = A o B with R(i) == A(B(i)). B a layout, a tiler (by-mode), or a shape (N -> N:1).
Layout composition(const Layout& a, const Layout& b);
Layout composition(const Layout& a, const Tiler& b);
SwizzledLayout composition(const SwizzledLayout& a, const Layout& b);
SwizzledLayout composition(const SwizzledLayout& a, const Tiler& b);

// The layout of the offsets in [0, cotarget) that `l` does not reach, ordered.
Layout complement(const Layout& l, std::int64_t cotarget);
Layout complement(const Layout& l);

Layout right_inverse(const Layout& l);
Layout left_inverse(const Layout& l);

// Divide family (tiler: a layout, or one layout per mode).
Layout logical_divide(const Layout& l, const Tiler& t);
Layout zipped_divide(const Layout& l, const Tiler& t);
Layout tiled_divide(const Layout& l, const Tiler& t);
Layout flat_divide(const Layout& l, const Tiler& t);
// Product family.
Layout logical_product(const Layout& block, const Tiler& t);
Layout zipped_product(const Layout& block, const Tiler& t);
Layout tiled_product(const Layout& block, const Tiler& t);
Layout flat_product(const Layout& block, const Tiler& t);
Layout blocked_product(const Layout& block, const Layout& tiler);
Layout raked_product(const Layout& block, const Layout& tiler);
// Repeat `block` until it has the target shape: blocked_product(block, copies), the copies
// (target / block per mode) walked in `order` (CuTe's make_ordered_layout: smallest first, equal
// orders at the same stride; empty = column-major). Current CuTe's answer, uncoalesced (docs/notation.md).
Layout tile_to_shape(const Layout& block, const IntTuple& target_shape, const IntTuple& order = IntTuple::tuple(std::vector<IntTuple>{}));

std::int64_t max_common_vector(const Layout& a, const Layout& b);
Layout max_common_layout(const Layout& a, const Layout& b);

// Reinterpret for elements N times wider (upcast) or narrower (downcast).
Layout upcast(const Layout& l, std::int64_t n);
Layout downcast(const Layout& l, std::int64_t n);

// Slicing: `coord` may hold kUnderscore leaves; the result keeps the modes under `_`.
inline constexpr std::int64_t kUnderscore = INT64_MIN;
bool has_underscore(const IntTuple& coord);
Layout slice(const IntTuple& coord, const Layout& l);
// The offset of the fixed part of the coordinate (underscores count as 0).
std::int64_t slice_offset(const IntTuple& coord, const Layout& l);

// Split a layout along the modes of a tiler result: used by zipped/tiled/flat variants.
Layout tile_unzip(const Layout& l, const Tiler& t);

}  // namespace tessera::rt
