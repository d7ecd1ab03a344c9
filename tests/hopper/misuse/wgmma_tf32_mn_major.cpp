// expect: wgmma on tf32 needs K-major A and B (the PTX ISA transposes 16-bit operands only)
#include <tessera/atom/mma_sm90.hpp>
using namespace tessera;
// a tf32 wgmma atom with an MN-major A: the ISA has no transpose for 32-bit operands
constexpr auto bytes = sizeof(SM90_64xNx8_F32TF32TF32_SS<64, GMMA::Major::MN, GMMA::Major::K>);
