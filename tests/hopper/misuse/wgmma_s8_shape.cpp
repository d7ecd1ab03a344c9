// expect: wgmma m64nNk32 on .s8/.u8: N must be 8, 16, 24, 32 or a multiple of 16 up to 256
#include <tessera/atom/mma_sm90_8bit.hpp>
using namespace tessera;
// N = 40 exists for e4m3/e5m2 but not for the integer types
constexpr auto bytes = sizeof(SM90_64xNx32_S32U8S8_RS<40>);
