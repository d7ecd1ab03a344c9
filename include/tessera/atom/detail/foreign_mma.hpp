// The instruction side of atoms tessera describes but does not issue: another vendor's matrix
// instructions (AMD MFMA/WMMA, Intel DPAS) and NVIDIA ones whose inline PTX tessera does not
// carry yet. Their traits (TV layouts) are complete; calling fma stops loudly, as an NVIDIA
// atom does on a target without its instruction.
#pragma once

#include "tessera/atom/detail/arch.hpp"

// Inside namespace tessera: the operation NAME, whose fma reports WHY and stops.
#define TESSERA_DESCRIBED_MMA(NAME, WHY)                                    \
  struct NAME {                                                            \
    template <class... Args>                                               \
    TESSERA_HOST_DEVICE static void fma(Args&&...) {                       \
      detail::mma_unsupported(#NAME ": " WHY);                             \
    }                                                                      \
  };
