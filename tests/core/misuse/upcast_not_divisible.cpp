// expect: upcast: stride and N do not divide each other
#include <tessera/tessera.hpp>
using namespace tessera;
auto r = upcast<4>(make_layout(make_shape(_8{}, _2{}), make_stride(_1{}, _6{})));
