// The contract the SM80 tensor-op and SIMT collectives and kernels keep with the layer above
// them (host code, no CUDA), the SM90 one's (sm90_contract.hpp) for kernels whose launch
// parameter is one Problem (kernel/problem.cuh):
//
//   struct Arguments;                              what a caller gives: pointers, strides, scalars
//   static Arguments arguments_of(GemmArguments);  the same read off tessera's host API
//   static GemmResult can_implement(problem, args);            success, or the reason it refuses
//   static std::size_t get_workspace_size(problem, args);      device scratch it needs (bytes)
//   static Params to_underlying_arguments(problem, args, workspace, status);
//                                                  its part of the Problem, computed on the host
//
// The mainloops keep it in their parts (CollectiveMmaSm80Parts, CollectiveMmaSimtParts: plain
// C++, so host code reads it without the device code), the epilogues in EpilogueSm80Contract
// below, which EpilogueSmem16 and EpilogueSimt derive from. A kernel composes them
// (kernel/sm80_kernel_contract.hpp) and the device adapter (device/gemm_adapter.cuh) calls
// only the kernel's. `problem` is (M, N, K, L); arguments reach a collective after
// check_arguments (gemm_arguments.hpp: sizes, null pointers, element alignment, leading
// dimensions, overflow), whose rules hold for every kernel and are not repeated here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "tessera/atom/numeric.hpp"
#include "tessera/kernels/gemm_arguments.hpp"
#include "../kernel/problem.cuh"
#include "../kernel/problem_shape.hpp"

namespace tessera::kernels {

// The host API's element enumerator of the element types these collectives take.
template <class T>
inline constexpr Element element_enum = std::is_same_v<T, float> ? Element::F32 : std::is_same_v<T, bfloat16_t> ? Element::BF16 : Element::F16;

// The SM80 epilogue's name of its D element type (EpilogueSmem16<.., Tag>), and the type.
struct bf16_tag;
struct f16_tag;
template <class Tag>
struct ElementOfTag;
template <>
struct ElementOfTag<bf16_tag> {
  using type = bfloat16_t;
};
template <>
struct ElementOfTag<f16_tag> {
  using type = half_t;
};
template <class Tag>
using element_of_tag_t = typename ElementOfTag<Tag>::type;

// What the device adapter learns of the GPU for the kernel: the CTAs of it the GPU holds at
// once (SMs x CTAs per SM; 0 if unknown), the slots a split of the last wave fills.
struct Sm80HardwareInfo {
  int slots = 0;
};

// ---- the mainloops' contract: A and B
struct Sm80MainloopArguments {
  Element element = Element::F32;  // A's and B's (checked against the build's)
  Operand a, b;                    // A (M x K) and B (K x N): pointer, major, ld, batch stride (elements)
};
inline Sm80MainloopArguments sm80_mainloop_arguments(GemmArguments const& g) { return {g.element, g.a, g.b}; }
// The mainloop's part of the Problem.
struct Sm80MainloopParams {
  MatrixArg a, b;
};

namespace sm80_contract_detail {
inline std::int64_t m_of(GemmProblemShape const& p) { return get<0>(p); }
inline std::int64_t n_of(GemmProblemShape const& p) { return get<1>(p); }
inline std::int64_t k_of(GemmProblemShape const& p) { return get<2>(p); }
inline std::int64_t l_of(GemmProblemShape const& p) { return get<3>(p); }

// The operands' element type and majors a mainloop was built for (A is K-major when row-major
// (M x K); B (K x N) when column-major), and, for copies of `vector` elements, their rule
// (detail::check_vectors: select_kernel applies the same).
inline GemmResult check_operands(GemmProblemShape const& problem, Sm80MainloopArguments const& args, Element built, bool a_k_major,
                                 bool b_k_major, int vector) {
  using detail::fail;
  if (args.element != built)
    return fail(GemmStatus::Unsupported, std::string("element = ") + to_string(args.element) + ": this kernel takes " + to_string(built) +
                                             " inputs, not " + to_string(args.element));
  if ((args.a.major == Major::Row) != a_k_major)
    return fail(GemmStatus::Unsupported, std::string("A.major: this kernel reads A ") +
                                             (a_k_major ? "K-major (row-major)" : "M-major (column-major)") + "; A is " +
                                             (args.a.major == Major::Row ? "row-major" : "column-major"));
  if ((args.b.major == Major::Col) != b_k_major)
    return fail(GemmStatus::Unsupported, std::string("B.major: this kernel reads B ") +
                                             (b_k_major ? "K-major (column-major)" : "N-major (row-major)") + "; B is " +
                                             (args.b.major == Major::Row ? "row-major" : "column-major"));
  if (vector > 1) {
    const int bytes = element_bytes(built);
    const std::int64_t m = m_of(problem), n = n_of(problem), k = k_of(problem), l = l_of(problem);
    if (auto r = detail::check_operand_vectors("A", args.a, m, "M", k, "K", l, vector, bytes); !r) return r;
    if (auto r = detail::check_operand_vectors("B", args.b, k, "K", n, "N", l, vector, bytes); !r) return r;
  }
  return {};
}
inline Sm80MainloopParams mainloop_params(Sm80MainloopArguments const& args) {
  return {{args.a.ptr, args.a.ld, args.a.batch_stride, args.a.major == Major::Row},
          {args.b.ptr, args.b.ld, args.b.batch_stride, args.b.major == Major::Row}};
}
}  // namespace sm80_contract_detail

// ---- the epilogues' contract: C and D
struct Sm80EpilogueArguments {
  Element output = Element::F32;  // D's (and C's) element type
  void* d = nullptr;
  std::int64_t ldd = 0, batch_stride_d = 0;
  Operand c;  // C: read where beta != 0; its major is D's too
  float alpha = 1.0f, beta = 0.0f;
  Activation activation = Activation::Identity;
  Bias bias = Bias::None;
};
inline Sm80EpilogueArguments sm80_epilogue_arguments(GemmArguments const& g) {
  return {output_element(g), g.d, g.ldd, g.batch_stride_d, g.c, g.alpha, g.beta, g.epilogue.activation, g.epilogue.bias};
}
// The epilogue's part of the Problem.
struct Sm80EpilogueParams {
  MatrixArg c, d;  // c.ptr null where beta == 0 (C is not read)
  float alpha = 1.0f, beta = 0.0f;
  bool d_vector_ok = false;  // D and C take the epilogue's vector stores (and loads)
};

// The contract of an epilogue that writes D = alpha * acc + beta * C in ElementD, with
// `Vector`-element (16-byte) stores where D and C allow them and element stores elsewhere:
// it refuses what it does not compute (another D type, a bias, an activation: the sm90
// kernels fuse those), and decides on the host whether the vector stores apply.
template <class ElementD_, int Vector_>
struct EpilogueSm80Contract {
  using ElementD = ElementD_;
  static constexpr int Vector = Vector_;
  static_assert(Vector * int(sizeof(ElementD)) == 16, "EpilogueSm80Contract: the vector stores move 16 bytes");

  using Arguments = Sm80EpilogueArguments;
  static Arguments arguments_of(GemmArguments const& g) { return sm80_epilogue_arguments(g); }
  static GemmResult can_implement(GemmProblemShape const&, Arguments const& a) {
    using detail::fail;
    if (a.activation != Activation::Identity || a.bias != Bias::None || a.output != element_enum<ElementD>)
      return fail(GemmStatus::Unsupported, std::string("epilogue: this kernel runs no fused epilogue (bias ") + to_string(a.bias) +
                                               ", activation " + to_string(a.activation) + ", D in " + to_string(a.output) +
                                               "; it writes D in " + to_string(element_enum<ElementD>) + "): the sm90 kernel does");
    return {};
  }
  static std::size_t get_workspace_size(GemmProblemShape const&, Arguments const&) { return 0; }
  // D and C as the kernel reads them, and whether the vector stores apply: 16-byte aligned D
  // and C, leading dimensions and batch strides whole vectors, and a contiguous extent that
  // vectors tile exactly (a vector is stored whole or not at all).
  static Sm80EpilogueParams to_underlying_arguments(GemmProblemShape const& problem, Arguments const& a, void* /*workspace*/,
                                                    GemmResult& /*status*/) {
    using namespace sm80_contract_detail;
    const bool row = a.c.major == Major::Row;
    Sm80EpilogueParams e;
    e.c = {a.beta != 0.0f ? a.c.ptr : nullptr, a.c.ld, a.c.batch_stride, row};
    e.d = {a.d, a.ldd, a.batch_stride_d, row};
    e.alpha = a.alpha;
    e.beta = a.beta;
    const std::int64_t m = m_of(problem), n = n_of(problem), l = l_of(problem);
    const char* extent = row ? "N" : "M";
    const std::int64_t contiguous = row ? n : m;
    const int bytes = int(sizeof(ElementD));
    e.d_vector_ok = bool(detail::check_vectors("D", a.d, a.ldd, a.batch_stride_d, l, extent, contiguous, Vector, bytes)) &&
                    (e.c.ptr == nullptr ||
                     bool(detail::check_vectors("C", a.c.ptr, a.c.ld, a.c.batch_stride, l, extent, contiguous, Vector, bytes)));
    return e;
  }
};

}  // namespace tessera::kernels
