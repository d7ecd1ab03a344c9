// expect: wgmma on 8-bit types (e4m3, e5m2, s8, u8) needs K-major A and B (the PTX ISA transposes 16-bit operands only)
#include <tessera/atom/mma_sm90_8bit.hpp>
using namespace tessera;
// an s8 wgmma atom with an MN-major A
constexpr auto bytes = sizeof(SM90_64xNx32_S32S8S8_SS<64, GMMA::Major::MN, GMMA::Major::K>);
