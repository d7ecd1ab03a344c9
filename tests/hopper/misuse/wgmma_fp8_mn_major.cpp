// expect: wgmma on 8-bit types (e4m3, e5m2, s8, u8) needs K-major A and B (the PTX ISA transposes 16-bit operands only)
#include <tessera/atom/mma_sm90_8bit.hpp>
using namespace tessera;
// an e4m3 wgmma atom with an MN-major B: the ISA has no transpose for 8-bit operands
constexpr auto bytes = sizeof(SM90_64xNx32_F32E4M3E4M3_SS<64, GMMA::Major::K, GMMA::Major::MN>);
