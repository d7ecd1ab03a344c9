// The epilogue activations by their definitions, in double: the oracle of the element-wise
// test (tests/kernels/epilogue_ops_test.cpp) and of the fused GEMM's GPU check (sm90_gemm_check.hpp).
#pragma once

#include <cmath>

#include "tessera/kernels/gemm_arguments.hpp"

namespace tessera::kernels::reference {

inline double activate(Activation a, double x) {
  switch (a) {
    case Activation::ReLU: return x > 0 ? x : 0;
    case Activation::GELU: return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
    case Activation::GELUTanh: return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
    case Activation::SiLU: return x / (1 + std::exp(-x));
    default: return x;
  }
}

}  // namespace tessera::kernels::reference
