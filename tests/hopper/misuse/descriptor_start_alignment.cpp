// expect: make_gmma_descriptor: the tile must start on a 16-byte boundary
#include <tessera/atom/gmma_descriptor.hpp>
using namespace tessera;
// a K-major 128B tile sliced 4 bf16 elements (8 bytes) into its rows
auto d = GMMA::make_gmma_descriptor<GMMA::Major::K, 16>(
    make_composed_layout(Swizzle<3, 3, 3>{}, _4{}, make_layout(make_shape(_64{}, _16{}), make_stride(_64{}, _1{}))), 0);
