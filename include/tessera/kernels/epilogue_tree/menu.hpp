// The fixed epilogue menu (EpilogueArguments: alpha, beta, a bias along one mode, an
// activation) as trees, so that the menu is a special case of a tree:
//   LinearCombination<T>                    alpha * acc + beta * C
//   LinearCombinationBias<T, Bias, Act>     act(alpha * acc + beta * C + bias)
//                                           Bias: RowBroadcast<T> (bias[n]) or ColumnBroadcast<T> (bias[m])
//   BiasActivation<T, Bias, Act>            act(alpha * acc + bias)            (beta = 0: C not read)
//   QuantizedOutputAmax<T>                  FP8 output: clamp(scale_d * z, -448, 448), rounded to
//                                           D = e4m3, with amax = max |z| over the problem, for
//                                           z = alpha * (acc * (scale_a * scale_b)) + beta * C
// Each computes what epilogue::value<Act>(alpha, acc, beta, c, bias) computes, in its order of
// operations (kernels_epilogue_tree_test holds them bit-equal on the host).
#pragma once

#include "tessera/kernels/epilogue_tree/compute.hpp"
#include "tessera/kernels/epilogue_tree/leaves.hpp"
#include "tessera/kernels/epilogue_tree/sinks.hpp"

namespace tessera::kernels::tree {

template <class T>
using LinearCombination = Compute<multiply_add, Scalar<float>, Accumulator, Compute<multiplies, Scalar<float>, SourceC<T>>>;

template <class T, class Bias, Activation Act = Activation::Identity>
using LinearCombinationBias = Compute<activation_op<Act>, Compute<plus, LinearCombination<T>, Bias>>;

template <class T, class Bias, Activation Act = Activation::Identity>
using BiasActivation = Compute<activation_op<Act>, Compute<multiply_add, Scalar<float>, Accumulator, Bias>>;

// FP8 inputs to an e4m3 D (GemmArguments::scale_d, amax_d; cuBLASLt's D_SCALE_POINTER and
// AMAX_D_POINTER):
//   z      = alpha * (acc * (scale_a * scale_b)) + beta * C    (the FP8 epilogue's order: the
//            accumulator times the scales' product, then the menu's alpha acc + beta C)
//   amax  := max |z| over every element and batch (before scale_d and the rounding)
//   value  = clamp(z * scale_d, -448, 448)                      (e4m3's largest finite value:
//            saturated as PTX's cvt.rn.satfinite; NaN stays NaN; +-inf gives +-448)
// D is the value rounded to e4m3 (nearest even: exact in [-448, 448], so the clamp makes the
// rounding the same on the host as the device's satfinite conversion). C (beta = 0: may be null)
// and the amax (null: none) are optional at run time, so one kernel serves every call.
template <class T>
using ScaledLinearCombination =
    Compute<multiply_add, Scalar<float>, Compute<multiplies, Accumulator, Compute<multiplies, Scalar<float>, Scalar<float>>>,
            Compute<multiplies, Scalar<float>, SourceC<T, Presence::Optional>>>;
template <class T>
using QuantizedOutputAmax =
    Compute<clamp,
            Compute<multiplies, ScalarReduction<absolute_maximum, ScaledLinearCombination<T>, Presence::Optional>, Scalar<float>>,
            Constant<-448>, Constant<448>>;

// Arguments of QuantizedOutputAmax<T> from the GEMM's fields: alpha, beta (host values), the
// scales (device pointers, null: 1), C of (M, N) with strides (stride_m, stride_n) and
// batch_stride (elements; null: not read), the amax output (null: none; one for all batches).
template <class T>
typename QuantizedOutputAmax<T>::Arguments quantized_output_amax_arguments(float alpha, const float* scale_a, const float* scale_b,
                                                                           float beta, const T* c, std::int64_t stride_m,
                                                                           std::int64_t stride_n, std::int64_t batch_stride,
                                                                           const float* scale_d, float* amax) {
  typename ScaledLinearCombination<T>::Arguments z{{alpha}, {{}, {{1.0f, scale_a, 0}, {1.0f, scale_b, 0}}},
                                                   {{beta}, {c, stride_m, stride_n, batch_stride}}};
  return {{{amax, 0, z}, {1.0f, scale_d, 0}}, {}, {}};
}

// Arguments of LinearCombination<T> from the menu's values: C of (M, N) with strides
// (stride_m, stride_n) and batch_stride (elements).
template <class T>
typename LinearCombination<T>::Arguments linear_combination_arguments(float alpha, float beta, const T* c, std::int64_t stride_m,
                                                                       std::int64_t stride_n, std::int64_t batch_stride) {
  return {{alpha}, {}, {{beta}, {c, stride_m, stride_n, batch_stride}}};
}

}  // namespace tessera::kernels::tree
