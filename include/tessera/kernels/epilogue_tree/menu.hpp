// The fixed epilogue menu (EpilogueArguments: alpha, beta, a bias along one mode, an
// activation) as trees, so that the menu is a special case of a tree:
//   LinearCombination<T>                    alpha * acc + beta * C
//   LinearCombinationBias<T, Bias, Act>     act(alpha * acc + beta * C + bias)
//                                           Bias: RowBroadcast<T> (bias[n]) or ColumnBroadcast<T> (bias[m])
//   BiasActivation<T, Bias, Act>            act(alpha * acc + bias)            (beta = 0: C not read)
// Each computes what epilogue::value<Act>(alpha, acc, beta, c, bias) computes, in its order of
// operations (kernels_epilogue_tree_test holds them bit-equal on the host).
#pragma once

#include "tessera/kernels/epilogue_tree/compute.hpp"
#include "tessera/kernels/epilogue_tree/leaves.hpp"

namespace tessera::kernels::tree {

template <class T>
using LinearCombination = Compute<multiply_add, Scalar<float>, Accumulator, Compute<multiplies, Scalar<float>, SourceC<T>>>;

template <class T, class Bias, Activation Act = Activation::Identity>
using LinearCombinationBias = Compute<activation_op<Act>, Compute<plus, LinearCombination<T>, Bias>>;

template <class T, class Bias, Activation Act = Activation::Identity>
using BiasActivation = Compute<activation_op<Act>, Compute<multiply_add, Scalar<float>, Accumulator, Bias>>;

// Arguments of LinearCombination<T> from the menu's values: C of (M, N) with strides
// (stride_m, stride_n) and batch_stride (elements).
template <class T>
typename LinearCombination<T>::Arguments linear_combination_arguments(float alpha, float beta, const T* c, std::int64_t stride_m,
                                                                       std::int64_t stride_n, std::int64_t batch_stride) {
  return {{alpha}, {}, {{beta}, {c, stride_m, stride_n, batch_stride}}};
}

}  // namespace tessera::kernels::tree
