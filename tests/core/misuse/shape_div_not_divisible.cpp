// expect: shape_div: static values do not divide each other
#include <tessera/tessera.hpp>
using namespace tessera;
auto r = shape_div(make_shape(_6{}, _4{}), _4{});
