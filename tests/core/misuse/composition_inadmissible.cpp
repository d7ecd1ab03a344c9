// expect: inadmissible composition
// docs/notation.md: B's two modes overlap in A's mixed radix, so no mode-by-mode result is A o B.
#include <tessera/tessera.hpp>
using namespace tessera;
auto r = composition(make_layout(make_shape(_2{}, _2{}), make_stride(_1{}, _6{})), make_layout(make_shape(_2{}, _2{}), make_stride(_1{}, _1{})));
