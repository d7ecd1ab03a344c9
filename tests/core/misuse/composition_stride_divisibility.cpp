// expect: stride divisibility condition violated
// B's stride 6 is neither a multiple of nor smaller than A's first mode (size 4).
#include <tessera/tessera.hpp>
using namespace tessera;
auto r = composition(make_layout(make_shape(_4{}, _3{}), make_stride(_1{}, _5{})), make_layout(_2{}, _6{}));
