// expect: crd2idx: coordinate rank does not match the shape rank
#include <tessera/tessera.hpp>
using namespace tessera;
auto r = make_layout(make_shape(_2{}, _4{}))(make_coord(1, 2, 3));
