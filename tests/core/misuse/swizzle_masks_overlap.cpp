// expect: Swizzle: |S| (shift) must be >= B
#include <tessera/tessera.hpp>
using namespace tessera;
auto r = Swizzle<3, 0, 2>{}(5);
