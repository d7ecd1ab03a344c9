// expect: inadmissible divide
// docs/notation.md (logical divide): (tile, rest) = (2:4, 4:1) runs past size(A) = 6, and a tile
// offset (4) plus a rest offset (2) carries in A's mode 6:4, whose continuation is 1:15, not 6:4's.
#include <tessera/tessera.hpp>
using namespace tessera;
auto r = logical_divide(make_layout(make_shape(_6{}, _1{}), make_stride(_4{}, _15{})), make_layout(_2{}, _4{}));
