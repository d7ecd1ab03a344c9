// expect: make_gmma_descriptor: wgmma reads MN-major operands of 16-bit elements only
#include <tessera/atom/gmma_descriptor.hpp>
using namespace tessera;
auto d = GMMA::make_gmma_descriptor<GMMA::Major::MN, 32>(GMMA::Layout_MN_SW128_Atom<float>{}, 0);
