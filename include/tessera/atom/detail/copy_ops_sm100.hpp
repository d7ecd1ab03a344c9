// The instruction side of tessera's tensor-memory copy atoms: tcgen05.ld and tcgen05.st (PTX
// ISA, tcgen05 "Data Movement Shape" and tcgen05.ld / tcgen05.st). A warp moves data between
// its registers and the 32 lanes of tensor memory its warp id selects (warp w % 4: lanes
// 32(w%4) .. 32(w%4)+31); every thread gives the same tensor-memory address (lane << 16 |
// column). The layouts (which register holds which lane and column) live in
// tessera/atom/copy_sm100.hpp.
//
// Each op: SRegisters / DRegisters = the tensor-memory address (uint32_t[1]) on the tensor-memory
// side and R 32-bit registers on the other, R = .num times 1 (.32x32b, .16x64b, .16x32bx2),
// 2 (.16x128b) or 4 (.16x256b). .16x32bx2 reads its second 16 lanes' data .num columns further
// on (immHalfSplitoff = .num), as CuTe does, so one lane row of the atom is 2 * .num columns.
#pragma once

#include <cstdint>

#include "tessera/atom/detail/arch.hpp"
#include "tessera/atom/detail/mma_ops_sm100.hpp"

namespace tessera {

// "{%F, ..., %F+R-1}": the vector operand of R registers starting at operand F (0 for ld, 1 for st).
#define TESSERA_TMEM_VEC_0_1 "{%0}"
#define TESSERA_TMEM_VEC_0_2 "{%0, %1}"
#define TESSERA_TMEM_VEC_0_4 "{%0, %1, %2, %3}"
#define TESSERA_TMEM_VEC_0_8 "{%0, %1, %2, %3, %4, %5, %6, %7}"
#define TESSERA_TMEM_VEC_0_16 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}"
#define TESSERA_TMEM_VEC_0_32 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}"
#define TESSERA_TMEM_VEC_0_64 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}"
#define TESSERA_TMEM_VEC_0_128 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}"
#define TESSERA_TMEM_VEC_1_1 "{%1}"
#define TESSERA_TMEM_VEC_1_2 "{%1, %2}"
#define TESSERA_TMEM_VEC_1_4 "{%1, %2, %3, %4}"
#define TESSERA_TMEM_VEC_1_8 "{%1, %2, %3, %4, %5, %6, %7, %8}"
#define TESSERA_TMEM_VEC_1_16 "{%1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16}"
#define TESSERA_TMEM_VEC_1_32 "{%1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32}"
#define TESSERA_TMEM_VEC_1_64 "{%1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64}"
#define TESSERA_TMEM_VEC_1_128 "{%1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127, %128}"
// The registers as asm operands: "=r"(d[0]), ... (ld) or "r"(s[0]), ... (st).
#define TESSERA_TMEM_OPS_1(C, x) C(x[0])
#define TESSERA_TMEM_OPS_2(C, x) TESSERA_TMEM_OPS_1(C, x), TESSERA_TMEM_OPS_1(C, (x + 1))
#define TESSERA_TMEM_OPS_4(C, x) TESSERA_TMEM_OPS_2(C, x), TESSERA_TMEM_OPS_2(C, (x + 2))
#define TESSERA_TMEM_OPS_8(C, x) TESSERA_TMEM_OPS_4(C, x), TESSERA_TMEM_OPS_4(C, (x + 4))
#define TESSERA_TMEM_OPS_16(C, x) TESSERA_TMEM_OPS_8(C, x), TESSERA_TMEM_OPS_8(C, (x + 8))
#define TESSERA_TMEM_OPS_32(C, x) TESSERA_TMEM_OPS_16(C, x), TESSERA_TMEM_OPS_16(C, (x + 16))
#define TESSERA_TMEM_OPS_64(C, x) TESSERA_TMEM_OPS_32(C, x), TESSERA_TMEM_OPS_32(C, (x + 32))
#define TESSERA_TMEM_OPS_128(C, x) TESSERA_TMEM_OPS_64(C, x), TESSERA_TMEM_OPS_64(C, (x + 64))
#define TESSERA_TMEM_OUT(x) "=r"(x)
#define TESSERA_TMEM_IN(x) "r"(x)


#if defined(TESSERA_TCGEN05_ENABLED)
#define TESSERA_TMEM_LD(NAME, PTX, REGS, SPLIT)                                                        \
  struct NAME {                                                                                       \
    using SRegisters = uint32_t[1];                                                                   \
    using DRegisters = uint32_t[REGS];                                                                \
    TESSERA_DEVICE static void copy(uint32_t const& tmem_src, DRegisters& dst) {                      \
      asm volatile(PTX " " TESSERA_TMEM_VEC_0_##REGS ", [%" #REGS "]" SPLIT ";\n"                     \
                   : TESSERA_TMEM_OPS_##REGS(TESSERA_TMEM_OUT, dst)                                   \
                   : "r"(tmem_src));                                                                  \
    }                                                                                                 \
  };
#define TESSERA_TMEM_ST(NAME, PTX, REGS, SPLIT)                                                        \
  struct NAME {                                                                                       \
    using SRegisters = uint32_t[REGS];                                                                \
    using DRegisters = uint32_t[1];                                                                   \
    TESSERA_DEVICE static void copy(SRegisters const& src, uint32_t const& tmem_dst) {                \
      asm volatile(PTX " [%0]" SPLIT ", " TESSERA_TMEM_VEC_1_##REGS ";\n"                              \
                   :                                                                                  \
                   : "r"(tmem_dst), TESSERA_TMEM_OPS_##REGS(TESSERA_TMEM_IN, src));                   \
    }                                                                                                 \
  };
#else
#define TESSERA_TMEM_LD(NAME, PTX, REGS, SPLIT)                                          \
  struct NAME {                                                                         \
    using SRegisters = uint32_t[1];                                                     \
    using DRegisters = uint32_t[REGS];                                                  \
    TESSERA_DEVICE static void copy(uint32_t const&, DRegisters&) {                     \
      detail::mma_unsupported(PTX " needs sm_100a");                                    \
    }                                                                                   \
  };
#define TESSERA_TMEM_ST(NAME, PTX, REGS, SPLIT)                                          \
  struct NAME {                                                                         \
    using SRegisters = uint32_t[REGS];                                                  \
    using DRegisters = uint32_t[1];                                                     \
    TESSERA_DEVICE static void copy(SRegisters const&, uint32_t const&) {               \
      detail::mma_unsupported(PTX " needs sm_100a");                                    \
    }                                                                                   \
  };
#endif

// SM100_TMEM_LOAD_<lanes>dp<bits>b<num>x[_16b] and SM100_TMEM_STORE_...: CuTe's names (16dp32b
// is the ISA's .16x32bx2); _16b: .pack::16b (ld) / .unpack::16b (st), each 32-bit register
// holding two 16-bit values from adjacent columns.
TESSERA_TMEM_LD(SM100_TMEM_LOAD_32dp32b1x, "tcgen05.ld.sync.aligned.32x32b.x1.b32", 1, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_32dp32b1x, "tcgen05.st.sync.aligned.32x32b.x1.b32", 1, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_32dp32b1x_16b, "tcgen05.ld.sync.aligned.32x32b.x1.pack::16b.b32", 1, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_32dp32b1x_16b, "tcgen05.st.sync.aligned.32x32b.x1.unpack::16b.b32", 1, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_32dp32b2x, "tcgen05.ld.sync.aligned.32x32b.x2.b32", 2, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_32dp32b2x, "tcgen05.st.sync.aligned.32x32b.x2.b32", 2, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_32dp32b2x_16b, "tcgen05.ld.sync.aligned.32x32b.x2.pack::16b.b32", 2, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_32dp32b2x_16b, "tcgen05.st.sync.aligned.32x32b.x2.unpack::16b.b32", 2, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_32dp32b4x, "tcgen05.ld.sync.aligned.32x32b.x4.b32", 4, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_32dp32b4x, "tcgen05.st.sync.aligned.32x32b.x4.b32", 4, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_32dp32b4x_16b, "tcgen05.ld.sync.aligned.32x32b.x4.pack::16b.b32", 4, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_32dp32b4x_16b, "tcgen05.st.sync.aligned.32x32b.x4.unpack::16b.b32", 4, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_32dp32b8x, "tcgen05.ld.sync.aligned.32x32b.x8.b32", 8, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_32dp32b8x, "tcgen05.st.sync.aligned.32x32b.x8.b32", 8, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_32dp32b8x_16b, "tcgen05.ld.sync.aligned.32x32b.x8.pack::16b.b32", 8, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_32dp32b8x_16b, "tcgen05.st.sync.aligned.32x32b.x8.unpack::16b.b32", 8, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_32dp32b16x, "tcgen05.ld.sync.aligned.32x32b.x16.b32", 16, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_32dp32b16x, "tcgen05.st.sync.aligned.32x32b.x16.b32", 16, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_32dp32b16x_16b, "tcgen05.ld.sync.aligned.32x32b.x16.pack::16b.b32", 16, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_32dp32b16x_16b, "tcgen05.st.sync.aligned.32x32b.x16.unpack::16b.b32", 16, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_32dp32b32x, "tcgen05.ld.sync.aligned.32x32b.x32.b32", 32, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_32dp32b32x, "tcgen05.st.sync.aligned.32x32b.x32.b32", 32, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_32dp32b32x_16b, "tcgen05.ld.sync.aligned.32x32b.x32.pack::16b.b32", 32, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_32dp32b32x_16b, "tcgen05.st.sync.aligned.32x32b.x32.unpack::16b.b32", 32, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_32dp32b64x, "tcgen05.ld.sync.aligned.32x32b.x64.b32", 64, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_32dp32b64x, "tcgen05.st.sync.aligned.32x32b.x64.b32", 64, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_32dp32b64x_16b, "tcgen05.ld.sync.aligned.32x32b.x64.pack::16b.b32", 64, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_32dp32b64x_16b, "tcgen05.st.sync.aligned.32x32b.x64.unpack::16b.b32", 64, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_32dp32b128x, "tcgen05.ld.sync.aligned.32x32b.x128.b32", 128, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_32dp32b128x, "tcgen05.st.sync.aligned.32x32b.x128.b32", 128, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_32dp32b128x_16b, "tcgen05.ld.sync.aligned.32x32b.x128.pack::16b.b32", 128, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_32dp32b128x_16b, "tcgen05.st.sync.aligned.32x32b.x128.unpack::16b.b32", 128, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp64b1x, "tcgen05.ld.sync.aligned.16x64b.x1.b32", 1, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp64b1x, "tcgen05.st.sync.aligned.16x64b.x1.b32", 1, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp64b1x_16b, "tcgen05.ld.sync.aligned.16x64b.x1.pack::16b.b32", 1, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp64b1x_16b, "tcgen05.st.sync.aligned.16x64b.x1.unpack::16b.b32", 1, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp64b2x, "tcgen05.ld.sync.aligned.16x64b.x2.b32", 2, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp64b2x, "tcgen05.st.sync.aligned.16x64b.x2.b32", 2, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp64b2x_16b, "tcgen05.ld.sync.aligned.16x64b.x2.pack::16b.b32", 2, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp64b2x_16b, "tcgen05.st.sync.aligned.16x64b.x2.unpack::16b.b32", 2, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp64b4x, "tcgen05.ld.sync.aligned.16x64b.x4.b32", 4, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp64b4x, "tcgen05.st.sync.aligned.16x64b.x4.b32", 4, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp64b4x_16b, "tcgen05.ld.sync.aligned.16x64b.x4.pack::16b.b32", 4, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp64b4x_16b, "tcgen05.st.sync.aligned.16x64b.x4.unpack::16b.b32", 4, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp64b8x, "tcgen05.ld.sync.aligned.16x64b.x8.b32", 8, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp64b8x, "tcgen05.st.sync.aligned.16x64b.x8.b32", 8, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp64b8x_16b, "tcgen05.ld.sync.aligned.16x64b.x8.pack::16b.b32", 8, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp64b8x_16b, "tcgen05.st.sync.aligned.16x64b.x8.unpack::16b.b32", 8, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp64b16x, "tcgen05.ld.sync.aligned.16x64b.x16.b32", 16, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp64b16x, "tcgen05.st.sync.aligned.16x64b.x16.b32", 16, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp64b16x_16b, "tcgen05.ld.sync.aligned.16x64b.x16.pack::16b.b32", 16, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp64b16x_16b, "tcgen05.st.sync.aligned.16x64b.x16.unpack::16b.b32", 16, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp64b32x, "tcgen05.ld.sync.aligned.16x64b.x32.b32", 32, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp64b32x, "tcgen05.st.sync.aligned.16x64b.x32.b32", 32, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp64b32x_16b, "tcgen05.ld.sync.aligned.16x64b.x32.pack::16b.b32", 32, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp64b32x_16b, "tcgen05.st.sync.aligned.16x64b.x32.unpack::16b.b32", 32, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp64b64x, "tcgen05.ld.sync.aligned.16x64b.x64.b32", 64, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp64b64x, "tcgen05.st.sync.aligned.16x64b.x64.b32", 64, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp64b64x_16b, "tcgen05.ld.sync.aligned.16x64b.x64.pack::16b.b32", 64, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp64b64x_16b, "tcgen05.st.sync.aligned.16x64b.x64.unpack::16b.b32", 64, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp64b128x, "tcgen05.ld.sync.aligned.16x64b.x128.b32", 128, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp64b128x, "tcgen05.st.sync.aligned.16x64b.x128.b32", 128, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp64b128x_16b, "tcgen05.ld.sync.aligned.16x64b.x128.pack::16b.b32", 128, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp64b128x_16b, "tcgen05.st.sync.aligned.16x64b.x128.unpack::16b.b32", 128, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp128b1x, "tcgen05.ld.sync.aligned.16x128b.x1.b32", 2, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp128b1x, "tcgen05.st.sync.aligned.16x128b.x1.b32", 2, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp128b1x_16b, "tcgen05.ld.sync.aligned.16x128b.x1.pack::16b.b32", 2, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp128b1x_16b, "tcgen05.st.sync.aligned.16x128b.x1.unpack::16b.b32", 2, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp128b2x, "tcgen05.ld.sync.aligned.16x128b.x2.b32", 4, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp128b2x, "tcgen05.st.sync.aligned.16x128b.x2.b32", 4, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp128b2x_16b, "tcgen05.ld.sync.aligned.16x128b.x2.pack::16b.b32", 4, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp128b2x_16b, "tcgen05.st.sync.aligned.16x128b.x2.unpack::16b.b32", 4, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp128b4x, "tcgen05.ld.sync.aligned.16x128b.x4.b32", 8, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp128b4x, "tcgen05.st.sync.aligned.16x128b.x4.b32", 8, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp128b4x_16b, "tcgen05.ld.sync.aligned.16x128b.x4.pack::16b.b32", 8, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp128b4x_16b, "tcgen05.st.sync.aligned.16x128b.x4.unpack::16b.b32", 8, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp128b8x, "tcgen05.ld.sync.aligned.16x128b.x8.b32", 16, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp128b8x, "tcgen05.st.sync.aligned.16x128b.x8.b32", 16, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp128b8x_16b, "tcgen05.ld.sync.aligned.16x128b.x8.pack::16b.b32", 16, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp128b8x_16b, "tcgen05.st.sync.aligned.16x128b.x8.unpack::16b.b32", 16, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp128b16x, "tcgen05.ld.sync.aligned.16x128b.x16.b32", 32, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp128b16x, "tcgen05.st.sync.aligned.16x128b.x16.b32", 32, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp128b16x_16b, "tcgen05.ld.sync.aligned.16x128b.x16.pack::16b.b32", 32, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp128b16x_16b, "tcgen05.st.sync.aligned.16x128b.x16.unpack::16b.b32", 32, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp128b32x, "tcgen05.ld.sync.aligned.16x128b.x32.b32", 64, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp128b32x, "tcgen05.st.sync.aligned.16x128b.x32.b32", 64, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp128b32x_16b, "tcgen05.ld.sync.aligned.16x128b.x32.pack::16b.b32", 64, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp128b32x_16b, "tcgen05.st.sync.aligned.16x128b.x32.unpack::16b.b32", 64, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp128b64x, "tcgen05.ld.sync.aligned.16x128b.x64.b32", 128, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp128b64x, "tcgen05.st.sync.aligned.16x128b.x64.b32", 128, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp128b64x_16b, "tcgen05.ld.sync.aligned.16x128b.x64.pack::16b.b32", 128, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp128b64x_16b, "tcgen05.st.sync.aligned.16x128b.x64.unpack::16b.b32", 128, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp256b1x, "tcgen05.ld.sync.aligned.16x256b.x1.b32", 4, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp256b1x, "tcgen05.st.sync.aligned.16x256b.x1.b32", 4, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp256b1x_16b, "tcgen05.ld.sync.aligned.16x256b.x1.pack::16b.b32", 4, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp256b1x_16b, "tcgen05.st.sync.aligned.16x256b.x1.unpack::16b.b32", 4, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp256b2x, "tcgen05.ld.sync.aligned.16x256b.x2.b32", 8, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp256b2x, "tcgen05.st.sync.aligned.16x256b.x2.b32", 8, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp256b2x_16b, "tcgen05.ld.sync.aligned.16x256b.x2.pack::16b.b32", 8, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp256b2x_16b, "tcgen05.st.sync.aligned.16x256b.x2.unpack::16b.b32", 8, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp256b4x, "tcgen05.ld.sync.aligned.16x256b.x4.b32", 16, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp256b4x, "tcgen05.st.sync.aligned.16x256b.x4.b32", 16, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp256b4x_16b, "tcgen05.ld.sync.aligned.16x256b.x4.pack::16b.b32", 16, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp256b4x_16b, "tcgen05.st.sync.aligned.16x256b.x4.unpack::16b.b32", 16, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp256b8x, "tcgen05.ld.sync.aligned.16x256b.x8.b32", 32, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp256b8x, "tcgen05.st.sync.aligned.16x256b.x8.b32", 32, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp256b8x_16b, "tcgen05.ld.sync.aligned.16x256b.x8.pack::16b.b32", 32, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp256b8x_16b, "tcgen05.st.sync.aligned.16x256b.x8.unpack::16b.b32", 32, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp256b16x, "tcgen05.ld.sync.aligned.16x256b.x16.b32", 64, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp256b16x, "tcgen05.st.sync.aligned.16x256b.x16.b32", 64, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp256b16x_16b, "tcgen05.ld.sync.aligned.16x256b.x16.pack::16b.b32", 64, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp256b16x_16b, "tcgen05.st.sync.aligned.16x256b.x16.unpack::16b.b32", 64, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp256b32x, "tcgen05.ld.sync.aligned.16x256b.x32.b32", 128, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp256b32x, "tcgen05.st.sync.aligned.16x256b.x32.b32", 128, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp256b32x_16b, "tcgen05.ld.sync.aligned.16x256b.x32.pack::16b.b32", 128, "")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp256b32x_16b, "tcgen05.st.sync.aligned.16x256b.x32.unpack::16b.b32", 128, "")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp32b1x, "tcgen05.ld.sync.aligned.16x32bx2.x1.b32", 1, ", 1")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp32b1x, "tcgen05.st.sync.aligned.16x32bx2.x1.b32", 1, ", 1")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp32b1x_16b, "tcgen05.ld.sync.aligned.16x32bx2.x1.pack::16b.b32", 1, ", 1")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp32b1x_16b, "tcgen05.st.sync.aligned.16x32bx2.x1.unpack::16b.b32", 1, ", 1")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp32b2x, "tcgen05.ld.sync.aligned.16x32bx2.x2.b32", 2, ", 2")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp32b2x, "tcgen05.st.sync.aligned.16x32bx2.x2.b32", 2, ", 2")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp32b2x_16b, "tcgen05.ld.sync.aligned.16x32bx2.x2.pack::16b.b32", 2, ", 2")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp32b2x_16b, "tcgen05.st.sync.aligned.16x32bx2.x2.unpack::16b.b32", 2, ", 2")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp32b4x, "tcgen05.ld.sync.aligned.16x32bx2.x4.b32", 4, ", 4")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp32b4x, "tcgen05.st.sync.aligned.16x32bx2.x4.b32", 4, ", 4")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp32b4x_16b, "tcgen05.ld.sync.aligned.16x32bx2.x4.pack::16b.b32", 4, ", 4")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp32b4x_16b, "tcgen05.st.sync.aligned.16x32bx2.x4.unpack::16b.b32", 4, ", 4")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp32b8x, "tcgen05.ld.sync.aligned.16x32bx2.x8.b32", 8, ", 8")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp32b8x, "tcgen05.st.sync.aligned.16x32bx2.x8.b32", 8, ", 8")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp32b8x_16b, "tcgen05.ld.sync.aligned.16x32bx2.x8.pack::16b.b32", 8, ", 8")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp32b8x_16b, "tcgen05.st.sync.aligned.16x32bx2.x8.unpack::16b.b32", 8, ", 8")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp32b16x, "tcgen05.ld.sync.aligned.16x32bx2.x16.b32", 16, ", 16")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp32b16x, "tcgen05.st.sync.aligned.16x32bx2.x16.b32", 16, ", 16")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp32b16x_16b, "tcgen05.ld.sync.aligned.16x32bx2.x16.pack::16b.b32", 16, ", 16")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp32b16x_16b, "tcgen05.st.sync.aligned.16x32bx2.x16.unpack::16b.b32", 16, ", 16")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp32b32x, "tcgen05.ld.sync.aligned.16x32bx2.x32.b32", 32, ", 32")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp32b32x, "tcgen05.st.sync.aligned.16x32bx2.x32.b32", 32, ", 32")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp32b32x_16b, "tcgen05.ld.sync.aligned.16x32bx2.x32.pack::16b.b32", 32, ", 32")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp32b32x_16b, "tcgen05.st.sync.aligned.16x32bx2.x32.unpack::16b.b32", 32, ", 32")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp32b64x, "tcgen05.ld.sync.aligned.16x32bx2.x64.b32", 64, ", 64")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp32b64x, "tcgen05.st.sync.aligned.16x32bx2.x64.b32", 64, ", 64")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp32b64x_16b, "tcgen05.ld.sync.aligned.16x32bx2.x64.pack::16b.b32", 64, ", 64")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp32b64x_16b, "tcgen05.st.sync.aligned.16x32bx2.x64.unpack::16b.b32", 64, ", 64")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp32b128x, "tcgen05.ld.sync.aligned.16x32bx2.x128.b32", 128, ", 128")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp32b128x, "tcgen05.st.sync.aligned.16x32bx2.x128.b32", 128, ", 128")
TESSERA_TMEM_LD(SM100_TMEM_LOAD_16dp32b128x_16b, "tcgen05.ld.sync.aligned.16x32bx2.x128.pack::16b.b32", 128, ", 128")
TESSERA_TMEM_ST(SM100_TMEM_STORE_16dp32b128x_16b, "tcgen05.st.sync.aligned.16x32bx2.x128.unpack::16b.b32", 128, ", 128")

#undef TESSERA_TMEM_LD
#undef TESSERA_TMEM_ST
#undef TESSERA_TMEM_OUT
#undef TESSERA_TMEM_IN
#undef TESSERA_TMEM_VEC_0_1
#undef TESSERA_TMEM_VEC_0_2
#undef TESSERA_TMEM_VEC_0_4
#undef TESSERA_TMEM_VEC_0_8
#undef TESSERA_TMEM_VEC_0_16
#undef TESSERA_TMEM_VEC_0_32
#undef TESSERA_TMEM_VEC_0_64
#undef TESSERA_TMEM_VEC_0_128
#undef TESSERA_TMEM_VEC_1_1
#undef TESSERA_TMEM_VEC_1_2
#undef TESSERA_TMEM_VEC_1_4
#undef TESSERA_TMEM_VEC_1_8
#undef TESSERA_TMEM_VEC_1_16
#undef TESSERA_TMEM_VEC_1_32
#undef TESSERA_TMEM_VEC_1_64
#undef TESSERA_TMEM_VEC_1_128
#undef TESSERA_TMEM_OPS_1
#undef TESSERA_TMEM_OPS_2
#undef TESSERA_TMEM_OPS_4
#undef TESSERA_TMEM_OPS_8
#undef TESSERA_TMEM_OPS_16
#undef TESSERA_TMEM_OPS_32
#undef TESSERA_TMEM_OPS_64
#undef TESSERA_TMEM_OPS_128

}  // namespace tessera
