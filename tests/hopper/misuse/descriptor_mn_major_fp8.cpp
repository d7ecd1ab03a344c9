// expect: make_gmma_descriptor: wgmma reads MN-major operands of 16-bit elements only
#include <tessera/atom/gmma_descriptor.hpp>
using namespace tessera;
// an MN-major tile of 8-bit elements: no wgmma can read it
auto d = GMMA::make_gmma_descriptor<GMMA::Major::MN, 8>(GMMA::make_smem_layout<8, GMMA::Major::MN, 128>(make_shape(_128{}, _32{})), 0);
