// expect: make_gmma_descriptor: the swizzle must be GMMA's
#include <tessera/atom/gmma_descriptor.hpp>
using namespace tessera;
// Sw<3,4,3> is the 128B swizzle in bytes; on 16-bit elements it is Sw<3,3,3>.
auto d = GMMA::make_gmma_descriptor<GMMA::Major::K, 16>(
    composition(Swizzle<3, 4, 3>{}, make_layout(make_shape(_64{}, _16{}), make_stride(_64{}, _1{}))), 0);
