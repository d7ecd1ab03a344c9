// expect: make_fragment_B: this atom reads B from shared memory
#include <tessera/tiled_mma.hpp>
using namespace tessera;
auto f = partition_fragment_B(make_tiled_mma(SM90_64x8x16_F32F16F16_SS{}), make_shape(_8{}, _16{}));
