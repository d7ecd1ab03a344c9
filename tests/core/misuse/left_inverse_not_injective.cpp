// expect: left_inverse: divisibility condition violated
#include <tessera/tessera.hpp>
using namespace tessera;
auto r = left_inverse(make_layout(make_shape(_2{}, _2{}), make_stride(_2{}, _3{})));
