// expect: shape and stride must be congruent
#include <tessera/tessera.hpp>
using namespace tessera;
auto r = make_layout(make_shape(_2{}, _4{}), make_stride(_1{}, make_stride(_2{}, _4{})));
