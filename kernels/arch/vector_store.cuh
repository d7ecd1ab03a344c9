// 16-byte global store as one instruction.  nvcc split `*reinterpret_cast<uint4*>(p) = v`
// in the epilogue into four 4-byte STG.E (sm_90 SASS), which wrote each 32-byte sector in
// four pieces (ncu: 4.2 M store sectors for 1 M written at 4096^3); st.global.v4 is STG.128.
#pragma once

#include <cstdint>

namespace tessera::kernels::arch {

__device__ __forceinline__ void st_global_16(void* p, std::uint32_t x, std::uint32_t y, std::uint32_t z,
                                             std::uint32_t w) {
  asm volatile("st.global.v4.b32 [%0], {%1, %2, %3, %4};\n" ::"l"(p), "r"(x), "r"(y), "r"(z), "r"(w) : "memory");
}

}  // namespace tessera::kernels::arch
