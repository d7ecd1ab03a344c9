// expect: wgmma on .s8/.u8 cannot negate an operand (imm-scale-a/b exist for floating-point types only)
#include <tessera/atom/mma_sm90_8bit.hpp>
using namespace tessera;
// integer wgmma with ScaleIn::Neg on A
constexpr auto bytes = sizeof(SM90_64xNx32_S32S8S8_SS<64, GMMA::Major::K, GMMA::Major::K, GMMA::ScaleIn::Neg>);
