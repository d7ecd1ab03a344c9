// expect: make_gmma_descriptor: the tile must be (MN, K) with K * element bits == 256
#include <tessera/atom/gmma_descriptor.hpp>
using namespace tessera;
// the whole 128B atom (8 x 64 bf16) is four wgmma K blocks, not one
auto d = GMMA::make_gmma_descriptor<GMMA::Major::K, 16>(GMMA::Layout_K_SW128_Atom<bfloat16_t>{}, 0);
