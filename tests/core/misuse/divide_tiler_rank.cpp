// expect: logical_divide: the tiler has more modes than the layout
#include <tessera/tessera.hpp>
using namespace tessera;
auto r = logical_divide(make_layout(make_shape(_8{}, _4{})), make_shape(_2{}, _2{}, _2{}));
