// expect: tile_to_shape: the block shape does not divide the target shape
#include <tessera/tessera.hpp>
using namespace tessera;
auto r = tile_to_shape(make_layout(make_shape(_2{}, _3{})), make_shape(_8{}, _8{}));
