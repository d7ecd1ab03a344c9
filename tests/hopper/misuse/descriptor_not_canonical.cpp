// expect: make_gmma_descriptor: the layout is not GMMA's canonical layout
#include <tessera/atom/gmma_descriptor.hpp>
using namespace tessera;
// 16-bit rows padded to 24 elements (48 bytes): not 8-row x 16-byte core matrices.
auto d = GMMA::make_gmma_descriptor<GMMA::Major::K, 16>(make_layout(make_shape(_64{}, _16{}), make_stride(_24{}, _1{})), _0{}, 0);
