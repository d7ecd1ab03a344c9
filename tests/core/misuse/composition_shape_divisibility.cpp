// expect: shape divisibility condition violated
// B = 3:2 takes 2 of A's first mode (size 4 / stride 2); 3 is not a multiple of 2.
#include <tessera/tessera.hpp>
using namespace tessera;
auto r = composition(make_layout(make_shape(_4{}, _3{}), make_stride(_1{}, _5{})), make_layout(_3{}, _2{}));
