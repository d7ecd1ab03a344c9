// Element types of the narrow formats that only matrix instructions read: OCP microscaling
// (MX) FP4/FP6 and the scale-factor formats (PTX .e2m1, .e3m2, .e2m3, .ue8m0, .ue4m3), and
// AMD CDNA3's FP8 (MI300's "fp8"/"bf8": E4M3 and E5M2 with bias 8 and 16, no infinities, one
// NaN: the FNUZ variants, which differ from OCP's .e4m3/.e5m2). Storage tags with their width
// in bits: tessera draws and analyses the atoms that take them (their TV layouts) and converts
// no values of these types.
#pragma once

#include <cstdint>
#include <type_traits>

#include "tessera/atom/numeric.hpp"

namespace tessera {

#define TESSERA_NARROW_TYPE(NAME, BITS)                                    \
  struct NAME {                                                           \
    uint8_t bits = 0;                                                     \
  };                                                                      \
  template <> struct sizeof_bits<NAME> : std::integral_constant<int, BITS> {};
TESSERA_NARROW_TYPE(float_e2m1_t, 4)      // FP4: sign, 2 exponent bits, 1 mantissa bit
TESSERA_NARROW_TYPE(float_e3m2_t, 6)      // FP6
TESSERA_NARROW_TYPE(float_e2m3_t, 6)      // FP6
TESSERA_NARROW_TYPE(float_ue8m0_t, 8)     // scale factor: a power of two (MX)
TESSERA_NARROW_TYPE(float_ue4m3_t, 8)     // scale factor: unsigned e4m3 (NVFP4)
TESSERA_NARROW_TYPE(float_e4m3fnuz_t, 8)  // AMD CDNA3 "fp8"
TESSERA_NARROW_TYPE(float_e5m2fnuz_t, 8)  // AMD CDNA3 "bf8"
#undef TESSERA_NARROW_TYPE

}  // namespace tessera
