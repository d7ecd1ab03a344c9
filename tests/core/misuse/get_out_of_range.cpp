// expect: get: index out of range
#include <tessera/tessera.hpp>
using namespace tessera;
auto r = get<2>(make_shape(_2{}, _4{}));
