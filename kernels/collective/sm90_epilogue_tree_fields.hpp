// Where an SM90 tree epilogue's tree arguments come from (the Fields policy of
// CollectiveEpilogueSm90Tree, the third parameter of the builder's EpilogueTree schedule):
//   TreeFromCaller        the caller sets the tree's Arguments (args.epilogue.tree) and the GEMM's
//                         menu fields stay at their defaults (they are nodes of the tree): a tree
//                         composed by its user
//   QuantizedOutputFields<T>  the prebuilt tree tree::QuantizedOutputAmax<T> (epilogue_tree/menu.hpp)
//                         filled from the GEMM's own fields: alpha, beta, C, scale_a, scale_b,
//                         scale_d, amax_d, so that tessera::gemm runs it behind GemmArguments
// A policy says which menu fields it takes (check: the refusal of the others), builds the tree's
// Arguments, and names the float the launch sets to 0 first (reset: a reduction's output that
// the call must write afresh; null: none). Host code without CUDA (CI tests it).
#pragma once

#include <string>
#include <type_traits>

#include <tessera/kernels/epilogue_tree/menu.hpp>
#include <tessera/kernels/gemm_arguments.hpp>

#include "sm90_epilogue_operands.hpp"

namespace tessera::kernels::sm90 {

struct TreeFromCaller {
  template <class Tree>
  static typename Tree::Arguments arguments(Sm90EpilogueArguments const&) {
    return {};
  }
  static GemmResult check(Sm90EpilogueArguments const& a) {
    if (a.alpha != 1.0f || a.beta != 0.0f || a.bias != Bias::None || a.activation != Activation::Identity || a.scale_a != nullptr ||
        a.scale_b != nullptr || a.scale_d != nullptr || a.amax_d != nullptr)
      return {GemmStatus::Unsupported,
              "the tree epilogue computes D from its tree: alpha, beta, bias, activation and the FP8 scales are nodes of the tree "
              "(Scalar, SourceC, RowBroadcast/ColumnBroadcast, Compute, ScalarReduction), not epilogue fields"};
    return {};
  }
  static float* reset(Sm90EpilogueArguments const&) { return nullptr; }
};

// T: C's element type (D's). The kernels' view of the problem (as_column_major_d): C's major
// gives its strides; the tree has no row or column vectors, so the transposition changes nothing else.
template <class T>
struct QuantizedOutputFields {
  using Tree = tree::QuantizedOutputAmax<T>;
  template <class Tree_>
  static typename Tree::Arguments arguments(Sm90EpilogueArguments const& a) {
    static_assert(std::is_same_v<Tree_, Tree>, "QuantizedOutputFields fills tree::QuantizedOutputAmax<T>");
    const bool row = a.c.major == Major::Row;
    const T* c = a.beta != 0.0f ? static_cast<const T*>(a.c.ptr) : nullptr;  // (beta = 0: C is not read)
    return tree::quantized_output_amax_arguments<T>(a.alpha, a.scale_a, a.scale_b, a.beta, c, row ? a.c.ld : 1, row ? 1 : a.c.ld,
                                                    a.c.batch_stride, a.scale_d, a.amax_d);
  }
  static GemmResult check(Sm90EpilogueArguments const& a) {
    if (a.bias != Bias::None || a.activation != Activation::Identity)
      return {GemmStatus::Unsupported, "the quantized-output epilogue (e4m3 D) runs no bias or activation"};
    if (a.scale_vectors)
      return {GemmStatus::Unsupported, "the quantized-output epilogue (e4m3 D) takes per-tensor scales only (scale_mode = per-tensor)"};
    return {};
  }
  // (cuBLASLt's AMAX_D_POINTER: each call writes its own D's amax)
  static float* reset(Sm90EpilogueArguments const& a) { return a.amax_d; }
};

// The tree epilogues (sm90_epilogue_tree.cuh, sm90_epilogue_tree_tma.cuh), declared here with
// their default Fields (and one staging slot: cooperative kernels; the ping-pong kernel's two
// consumers take a slot each) so that the builder and their users name them alike.
template <class ElementD, class Tree, class Fields = TreeFromCaller>
struct CollectiveEpilogueSm90Tree;
template <class ElementD, int BM, int BN, int ConsumerWarpgroups, class Tree, class Fields = TreeFromCaller, int Slots = 1>
struct CollectiveEpilogueSm90TreeTmaStore;

}  // namespace tessera::kernels::sm90
