// Uses the static tier through tessera::tessera; checks happen at compile time and run time.
#include <cstdio>

#include "tessera/check.hpp"
#include "tessera/tessera.hpp"

using namespace tessera;

int main() {
  constexpr auto tile = make_layout(make_shape(_4{}, _8{}), LayoutRight{});  // (4,8):(8,1)
  static_assert(is_bijective(tile));
  constexpr auto d = logical_divide(tile, make_shape(_2{}, _4{}));
  static_assert(decltype(size(d))::value == 32);
  int64_t sum = 0;
  for (int i = 0; i < 32; ++i) sum += d(i);
  std::printf("sum of offsets %lld\n", static_cast<long long>(sum));
  return sum == 31 * 32 / 2 ? 0 : 1;  // a bijection onto [0,32)
}
