// CuTe's C++ spelling of tessera's values (cute_type.hpp).
#include "cute_type.hpp"

#include <algorithm>
#include <iterator>
#include <limits>

namespace tessera::cli {

namespace {

// The integers for which CuTe (include/cute/numeric/integral_constant.hpp) names an alias
// _N (_mN for -N). Others are written Int<N>: a user pasting the type needs no alias of ours.
constexpr std::int64_t kCuteAliases[] = {
    -32, -24, -16, -12, -10, -9, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 24,
    32, 40, 48, 56, 64, 72, 80, 88, 96, 104, 112, 120, 128, 136, 144, 152, 160, 168, 176, 184, 192, 200, 208, 216,
    224, 232, 240, 248, 256, 384, 512, 768, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288};

std::string layout_args(const rt::Layout& l) {
  return cute_int_tuple(l.shape, "Shape") + "," + cute_int_tuple(l.stride, "Stride");
}

}  // namespace

std::string cute_int(std::int64_t v) {
  if (std::binary_search(std::begin(kCuteAliases), std::end(kCuteAliases), v))
    return v < 0 ? "_m" + std::to_string(-v) : "_" + std::to_string(v);
  // CuTe's Int<N> takes an int; C<N> takes any integer (its type is N's: long beyond int).
  if (v >= std::numeric_limits<int>::min() && v <= std::numeric_limits<int>::max())
    return "Int<" + std::to_string(v) + ">";
  if (v == std::numeric_limits<std::int64_t>::min()) return "C<(-9223372036854775807-1)>";  // no such literal
  return "C<" + std::to_string(v) + "l>";
}

std::string cute_int_tuple(const rt::IntTuple& t, const char* tuple_name) {
  if (t.is_leaf()) return cute_int(t.value());
  std::string s = std::string(tuple_name) + "<";
  for (std::size_t i = 0; i < t.elems().size(); ++i) s += (i ? "," : "") + cute_int_tuple(t.elems()[i], tuple_name);
  return s + ">";
}

std::string cute_type(const rt::Layout& l) { return "Layout<" + layout_args(l) + ">"; }

std::string cute_type(const rt::Swizzle& s) {
  return "Swizzle<" + std::to_string(s.bits) + "," + std::to_string(s.base) + "," + std::to_string(s.shift) + ">";
}

std::string cute_type(const rt::SwizzledLayout& s) {
  return "ComposedLayout<" + cute_type(s.swizzle) + "," + cute_int(s.offset) + "," + cute_type(s.layout) + ">";
}

std::string cute_type(const rt::LayoutAfterSwizzle& s) {
  return "ComposedLayout<" + cute_type(s.layout) + "," + cute_int(s.offset) + "," + cute_type(s.swizzle) + ">";
}

std::string cute_type(const rt::Tiler& t) {
  if (t.is_layout) return cute_type(t.layout);
  std::string s = "Tile<";
  for (std::size_t i = 0; i < t.elems.size(); ++i) s += (i ? "," : "") + cute_type(t.elems[i]);
  return s + ">";
}

std::string cute_type(const rt::Value& v) {
  using K = rt::Value::Kind;
  switch (v.kind()) {
    case K::IntTuple: return cute_int_tuple(v.tuple(), "Shape");
    case K::Layout: return cute_type(v.layout());
    case K::Swizzled: return cute_type(v.swizzled());
    case K::Swizzle: return cute_type(v.swizzle());
    case K::LayoutAfterSwizzle: return cute_type(v.after_swizzle());
    case K::Tiler: return cute_type(v.tiler());
  }
  return {};
}

}  // namespace tessera::cli
