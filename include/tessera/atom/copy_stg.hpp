// STG_U32x4: one thread stores 16 bytes from four 32-bit registers to global memory with
// one instruction (st.global.v4.b32, SASS STG.E.128).
//
// Why an atom of its own: UniversalCopy<uint128_t> moves a {uint64, uint64} word, and nvcc
// is free to split the store; in the SM80 epilogue it emitted two 8-byte stores (or four
// 4-byte ones, depending on how the packed values reached it), each a separate sector write.
// The instruction is fixed here.  The destination must be global memory and 16-byte aligned
// (the caller's vector check); the source values are gathered into the four registers in
// their 1-D order, as for stmatrix.  Same layouts as UniversalCopy<uint128_t>: one thread,
// 128 bits in, the same 128 bits out.  On the host it copies (copy()'s emulation).
#pragma once

#include <cstdint>

#include "tessera/atom/copy_atom.hpp"
#include "tessera/atom/detail/arch.hpp"

namespace tessera {

struct STG_U32x4 {
  using SRegisters = uint32_t[4];
  using DRegisters = uint128_t[1];
  static constexpr bool stores_global = true;
  TESSERA_HOST_DEVICE static void copy(SRegisters const& src, uint128_t& gmem_dst) {
#if defined(__CUDA_ARCH__)
    asm volatile("st.global.v4.b32 [%0], {%1, %2, %3, %4};\n" ::"l"(&gmem_dst), "r"(src[0]), "r"(src[1]), "r"(src[2]),
                 "r"(src[3])
                 : "memory");
#else
    __builtin_memcpy(static_cast<void*>(&gmem_dst), &src[0], 16);  // (the host stand-in: 16 bytes into the 128-bit value)
#endif
  }
};

namespace stg {
using ThrID = Layout<_1, _0>;
using Bits128 = Layout<tuple<_1, _128>, tuple<_0, _1>>;  // (thread, bit) -> bit
}  // namespace stg
TESSERA_COPY_TRAITS(STG_U32x4, stg::ThrID, stg::Bits128, stg::Bits128, stg::Bits128);

}  // namespace tessera
