// Host-side description of one (batched) GEMM and its argument checks.
//
//   D[l](m,n) = act(alpha * scale_a * scale_b * sum_k A[l](m,k) * B[l](k,n) + beta * C[l](m,n) + bias)
//
// (scale_a, scale_b: FP8 inputs' dequantization scales, 1 unless given: per tensor, or per row
// of A and column of B, or per block of K: GemmArguments::scale_mode)
// with the optional fused epilogue (GemmArguments::epilogue: a bias vector broadcast along
// rows or columns, an activation, D's element type; tessera/kernels/epilogue_ops.hpp).
//
// This header needs no CUDA: the checks run (and are tested) on any machine.
// Majors follow the math, not BLAS letters: A is M x K, B is K x N, C/D are M x N,
// and each operand says which of its two modes is contiguous.  BLAS letters map as
//   A 'N' = Major::M (column-major MxK)   A 'T' = Major::K (row-major MxK)
//   B 'N' = Major::K (column-major KxN)   B 'T' = Major::N (row-major KxN)
// so "TN" is the layout where both A and B are K-major.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "tessera/kernels/epilogue_ops.hpp"

namespace tessera::kernels {

// E4M3 and E5M2: the 8-bit floats of Hopper's wgmma (OCP FP8: e4m3 with no infinities, max
// 448; e5m2 IEEE-like, max 57344), as inputs; E4M3 also as D of FP8 inputs (with scale_d and
// amax_d: GemmArguments), e5m2 never as D.
enum class Element { F32, F16, BF16, E4M3, E5M2 };

// How FP8 inputs' dequantization scales (GemmArguments::scale_a, scale_b: f32 in device
// memory, read when the kernel runs) are laid out:
//   PerTensor  one f32 each (nullptr: 1): D = alpha sa sb sum_k A(m,k) B(k,n)  (cuBLASLt, torch's
//              tensorwise _scaled_mm)
//   Rowwise    scale_a[M] (one per row of A), scale_b[N] (one per column of B), both given, one
//              pair of vectors for every batch: D(m,n) = alpha scale_a[m] scale_b[n] sum_k A B
//              (torch._scaled_mm's rowwise scales); applied by the epilogue
//   Block      DeepSeek-V3's: A's per row and 128-element group of K, B's per 128 x 128 block
//              (128 columns n, 128 k), kb = k / 128, KB = ceil(K / 128):
//                sa(m, kb) = scale_a[kb * ld_scale_a + m]   (M-major: a k-group's M scales
//                                                            are contiguous, for TMA)
//                sb(nb, kb) = scale_b[nb * KB + kb]          (nb = n / 128)
//              D(m,n) = alpha sum_kb sa(m,kb) sb(n/128,kb) sum_{k in group kb} A(m,k) B(k,n),
//              each group's partial sum promoted into f32 registers (Hopper's FP8 wgmma
//              accumulates with fewer mantissa bits than an f32 add); e4m3 x e4m3, D bf16
//              row-major, one batch.
enum class ScaleMode { PerTensor, Rowwise, Block };

inline const char* to_string(ScaleMode s) {
  switch (s) {
    case ScaleMode::PerTensor: return "per-tensor";
    case ScaleMode::Rowwise: return "rowwise";
    case ScaleMode::Block: return "block";
  }
  return "unknown scale mode";
}

// The K group of ScaleMode::Block's scales (DeepSeek-V3's 1x128 and 128x128 quantization).
inline constexpr std::int64_t scale_block = 128;

// Which mode of a matrix has stride 1.  Row = second mode contiguous, Col = first.
enum class Major { Row, Col };

enum class GemmStatus {
  Success,
  InvalidSize,         // M, N, K or L <= 0, or beyond what the grid can address
  NullPointer,         // A, B or D missing, or C missing while beta != 0
  InvalidLeadingDim,   // a leading dimension smaller than its contiguous extent
  InvalidBatchStride,  // negative stride, or D batches that overlap
  Misaligned,          // a pointer or leading dimension the element type cannot address
  Overflow,            // an extent or offset does not fit in 64-bit indices
  Unsupported,         // a combination no kernel implements
  NoDevice,            // no CUDA device / driver
  LaunchFailed,        // the kernel launch reported an error
};

inline const char* to_string(GemmStatus s) {
  switch (s) {
    case GemmStatus::Success: return "success";
    case GemmStatus::InvalidSize: return "invalid size";
    case GemmStatus::NullPointer: return "null pointer";
    case GemmStatus::InvalidLeadingDim: return "invalid leading dimension";
    case GemmStatus::InvalidBatchStride: return "invalid batch stride";
    case GemmStatus::Misaligned: return "misaligned operand";
    case GemmStatus::Overflow: return "index overflow";
    case GemmStatus::Unsupported: return "unsupported";
    case GemmStatus::NoDevice: return "no CUDA device";
    case GemmStatus::LaunchFailed: return "launch failed";
  }
  return "unknown status";
}

inline bool is_fp8(Element e) { return e == Element::E4M3 || e == Element::E5M2; }
inline int element_bytes(Element e) { return e == Element::F32 ? 4 : is_fp8(e) ? 1 : 2; }
inline const char* to_string(Element e) {
  switch (e) {
    case Element::F32: return "f32";
    case Element::F16: return "f16";
    case Element::BF16: return "bf16";
    case Element::E4M3: return "e4m3";
    case Element::E5M2: return "e5m2";
  }
  return "unknown element";
}

// One matrix operand: pointer, which mode is contiguous, leading dimension (the stride of
// the other mode, in elements) and the distance between consecutive batches (elements).
struct Operand {
  const void* ptr = nullptr;
  Major major = Major::Row;
  std::int64_t ld = 0;
  std::int64_t batch_stride = 0;
};

// What runs after the accumulation, per element of D (epilogue_ops.hpp):
//   D = act(alpha * acc + beta * C + bias),  rounded to `output` (C is read in that type too).
// bias: a vector in D's element type (nn.Linear's convention), one for all batches; PerRow
// reads bias[m] (length M), PerColumn bias[n] (length N).  Anything but the defaults is a
// "fused epilogue": the sm_90 kernel runs it (bf16/f16 inputs on an sm_90 GPU); elsewhere
// tessera::gemm answers Unsupported.
struct EpilogueArguments {
  Activation activation = Activation::Identity;
  Bias bias = Bias::None;
  const void* bias_ptr = nullptr;
  std::optional<Element> output;  // C's and D's element type; empty: the inputs' `element` (FP8 inputs: bf16)
};

// A is `element`, B `element_b` (default: `element`); C and D are epilogue.output (default:
// `element` too, bf16 for FP8 inputs as torch._scaled_mm; f32 for the SIMT kernel, f16/bf16
// for the tensor-core kernels, accumulation always in f32).  C and D share a major.
//
// FP8 (element E4M3 or E5M2): A and B may be different 8-bit types (element_b: e4m3 x e5m2
// and e5m2 x e4m3, as in the backward pass), each with an optional per-tensor scale read from
// device memory when the kernel runs (scale_a, scale_b: one f32 each, nullptr = 1), so that
//   D = act(alpha * (*scale_a) * (*scale_b) * sum_k A(m,k) B(k,n) + beta * C + bias)
// as cuBLASLt's A/B_SCALE_POINTER and torch._scaled_mm's per-tensor scales.  The sm_90 kernel
// alone runs FP8 (A and B K-major, "TN": 8-bit wgmma reads no transposed operand; every A/B
// pointer, leading dimension and batch stride a multiple of 16 bytes); D is bf16, f16 or f32,
// or e4m3 (per-tensor scales), quantized as cuBLASLt's D_SCALE_POINTER / AMAX_D_POINTER and
// torch._scaled_mm's scale_result with a float8 out_dtype:
//   z = alpha * (*scale_a) * (*scale_b) * sum_k A(m,k) B(k,n) + beta * C(m,n)    (f32)
//   D(m,n) = e4m3(clamp(z * (*scale_d), -448, 448))  round to nearest even, saturated to e4m3's
//            largest finite 448 (PTX cvt.rn.satfinite: infinities give +-448, NaN stays NaN)
//   *amax_d = max over every (m, n) and batch of |z|: taken BEFORE scale_d and before the
//            rounding (the value the next step's scale is computed from). The library sets
//            *amax_d to 0 in the stream before the kernel (the caller need not reset it), so
//            each call writes the amax of its own D; exact and the same in every run (atomic
//            max of the bits of non-negative floats: order-independent). A NaN z gives a NaN
//            amax (NaN's bits exceed infinity's).
// C, when beta != 0, is e4m3 too (D's type, as every D type).
struct GemmArguments {
  std::int64_t m = 0, n = 0, k = 0, batch = 1;
  Element element = Element::F32;
  std::optional<Element> element_b;  // B's element type where it is not A's (FP8 only)
  Operand a, b, c;
  void* d = nullptr;
  std::int64_t ldd = 0;
  std::int64_t batch_stride_d = 0;
  float alpha = 1.0f, beta = 0.0f;
  // FP8 inputs only: device pointers to A's and B's scales (4-byte aligned f32), laid out as
  // scale_mode says (PerTensor: one each, nullptr = 1; Rowwise: vectors of M and N; Block:
  // (m, k-group) and (n-block, k-group) matrices).
  const float* scale_a = nullptr;
  const float* scale_b = nullptr;
  ScaleMode scale_mode = ScaleMode::PerTensor;
  // ScaleMode::Block: the distance between scale_a's k-groups (elements, >= M, a multiple of 4:
  // 16 bytes for TMA); 0: M rounded up to a multiple of 4 (DeepGEMM's TMA-aligned layout).
  std::int64_t ld_scale_a = 0;
  // e4m3 D only (FP8 inputs, per-tensor scales): the device pointer to D's quantization scale
  // (one f32, multiplied into D before the rounding; nullptr: 1) and to the f32 that receives
  // max |z|, D's values before that scale and the rounding (nullptr: not computed; set to 0 by
  // the library before the kernel, so it must not be scale_d itself). Both 4-byte aligned; see above.
  const float* scale_d = nullptr;
  float* amax_d = nullptr;
  EpilogueArguments epilogue;
  // f32 inputs only: allow TF32 math (inputs read with a 10-bit mantissa, f32 accumulation),
  // which lets tessera::gemm run them on the sm_90 tensor cores (wgmma m64nNk8; A and B
  // K-major, i.e. TN). Without it f32 stays exact-f32 on the SIMT kernel.
  bool allow_tf32 = false;
  // Optional device scratch for split-K (gemm_workspace_size says how much a problem can
  // use; 16-byte aligned).  When a problem's last wave of tiles would leave most SMs idle,
  // the tensor-core kernel cuts those tiles along K and adds the slices here.  Without it
  // (or when it is too small) nothing is split; the result is the same either way.  Calls
  // that run at the same time need separate workspaces.
  void* workspace = nullptr;
  std::size_t workspace_bytes = 0;
};

struct GemmResult {
  GemmStatus status = GemmStatus::Success;
  std::string message;  // what is wrong and where; empty on success
  explicit operator bool() const { return status == GemmStatus::Success; }
};

// B's element type.
inline Element element_b(const GemmArguments& g) { return g.element_b.value_or(g.element); }
// D's (and C's) element type: epilogue.output, else the inputs' type (bf16 for FP8 inputs).
inline Element output_element(const GemmArguments& g) {
  return g.epilogue.output.value_or(is_fp8(g.element) ? Element::BF16 : g.element);
}

// ld_scale_a as the kernels read it (ScaleMode::Block): the caller's, or M rounded up to 4.
inline std::int64_t block_scale_ld(const GemmArguments& g) { return g.ld_scale_a != 0 ? g.ld_scale_a : (g.m + 3) / 4 * 4; }

// Whose view of a problem a GemmArguments holds: the caller's, or the SM90 kernels' (the
// dispatch's as_column_major_d: D column-major, a row-major D's problem transposed with A's and
// B's roles and scales swapped). check_arguments reads the block scales' rules in the view it is
// told; every other rule reads the same in both.
enum class ArgumentsView { Caller, Kernel };

// Whether the epilogue does more than alpha/beta in the inputs' type (only the sm_90 kernel
// runs that; FP8 inputs always count: their D is never their type).
inline bool is_fused(const GemmArguments& g) {
  return g.epilogue.activation != Activation::Identity || g.epilogue.bias != Bias::None || output_element(g) != g.element ||
         is_fp8(g.element);  // (an e4m3 D of e4m3 inputs is the inputs' type, and quantized)
}

// Kernel configuration the device adapter picks for valid arguments.
enum class GemmKernel {
  SimtF32,        // FP32 FFMA, 128x128x8 CTA tile, cp.async 4-byte copies
  TensorOpVec8,   // F16/BF16 mma.sync 16x8x16, 128x256x32 CTA tile, 16-byte cp.async, ldmatrix, 4 stages
  TensorOpScalar, // same MMA path, element-wise copies: for leading dims/pointers not 16B aligned
  Sm90TmaWgmma,   // sm_90 only: BF16/F16, A and B K-major, TMA + wgmma, warp-specialized, persistent,
                  // 128x256x64 CTA tile, clusters of 2 along M sharing B by TMA multicast;
                  // F32 with allow_tf32 (TN only): tf32 wgmma, 128x256x32 tile, f32 output;
                  // E4M3/E5M2 (TN only): 8-bit wgmma, 128x256x128 tile, per-tensor scales
};

inline const char* to_string(GemmKernel k) {
  switch (k) {
    case GemmKernel::SimtF32: return "simt_f32_128x128x8";
    case GemmKernel::TensorOpVec8: return "tensorop_128x256x32_vec8";
    case GemmKernel::TensorOpScalar: return "tensorop_128x256x32_scalar";
    case GemmKernel::Sm90TmaWgmma: return "sm90_tma_wgmma_128x256x64_c2";
  }
  return "unknown kernel";
}

namespace detail {

inline bool mul_ok(std::int64_t a, std::int64_t b, std::int64_t& out) {
  return !__builtin_mul_overflow(a, b, &out);
}
inline bool add_ok(std::int64_t a, std::int64_t b, std::int64_t& out) {
  return !__builtin_add_overflow(a, b, &out);
}

inline GemmResult fail(GemmStatus s, std::string msg) { return {s, std::move(msg)}; }

// Largest element offset touched inside one batch of a rows x cols matrix (+1), i.e.
// the span one batch needs; false on overflow.
inline bool matrix_span(std::int64_t rows, std::int64_t cols, Major major, std::int64_t ld,
                        std::int64_t& span) {
  std::int64_t outer = major == Major::Row ? rows : cols;
  std::int64_t inner = major == Major::Row ? cols : rows;
  std::int64_t t;
  return mul_ok(outer - 1, ld, t) && add_ok(t, inner, span);
}

inline GemmResult check_operand(const char* name, const char* rows_name, std::int64_t rows,
                                const char* cols_name, std::int64_t cols, Major major,
                                std::int64_t ld, std::int64_t batch, std::int64_t batch_stride,
                                bool is_output) {
  const std::int64_t contiguous = major == Major::Row ? cols : rows;
  const char* contiguous_name = major == Major::Row ? cols_name : rows_name;
  if (ld < contiguous)
    return fail(GemmStatus::InvalidLeadingDim,
                std::string("ld") + name + " = " + std::to_string(ld) + " is smaller than " +
                    contiguous_name + " = " + std::to_string(contiguous) + " (the contiguous extent of " +
                    (major == Major::Row ? "row" : "column") + "-major " + name + ")");
  std::int64_t span = 0;
  if (!matrix_span(rows, cols, major, ld, span))
    return fail(GemmStatus::Overflow, std::string(name) + ": (extent-1)*ld" + name +
                                          " overflows 64-bit offsets");
  if (batch > 1) {
    if (batch_stride < 0)
      return fail(GemmStatus::InvalidBatchStride,
                  std::string("batch_stride_") + name + " = " + std::to_string(batch_stride) +
                      " is negative");
    std::int64_t last = 0, end = 0;
    if (!mul_ok(batch - 1, batch_stride, last) || !add_ok(last, span, end))
      return fail(GemmStatus::Overflow, std::string(name) + ": (L-1)*batch_stride_" + name +
                                            " + matrix span overflows 64-bit offsets");
    if (is_output && batch_stride < span)
      return fail(GemmStatus::InvalidBatchStride,
                  std::string("batch_stride_") + name + " = " + std::to_string(batch_stride) +
                      " is smaller than one batch's span " + std::to_string(span) +
                      ": batches of the output would overlap");
  }
  return {};
}

// The epilogue's own arguments: known enumerators, a bias pointer exactly when a bias mode.
inline GemmResult check_epilogue(const GemmArguments& g) {
  const auto& e = g.epilogue;
  if (static_cast<unsigned>(e.activation) > static_cast<unsigned>(Activation::SiLU))
    return fail(GemmStatus::Unsupported, "epilogue.activation = " + std::to_string(static_cast<unsigned>(e.activation)) +
                                             " is not an Activation");
  if (static_cast<unsigned>(e.bias) > static_cast<unsigned>(Bias::PerColumn))
    return fail(GemmStatus::Unsupported, "epilogue.bias = " + std::to_string(static_cast<unsigned>(e.bias)) + " is not a Bias mode");
  if (e.output && static_cast<unsigned>(*e.output) > static_cast<unsigned>(Element::E5M2))
    return fail(GemmStatus::Unsupported, "epilogue.output = " + std::to_string(static_cast<unsigned>(*e.output)) +
                                             " is not an Element");
  if (e.output == Element::E5M2)
    return fail(GemmStatus::Unsupported, "epilogue.output = e5m2: no kernel writes an e5m2 D (an FP8 D is e4m3; e5m2 is an input type)");
  if (e.bias != Bias::None && e.bias_ptr == nullptr)
    return fail(GemmStatus::NullPointer, std::string("the bias is a null pointer while epilogue.bias = ") + to_string(e.bias) +
                                             (e.bias == Bias::PerRow ? " (a vector of M elements)" : " (a vector of N elements)"));
  if (e.bias == Bias::None && e.bias_ptr != nullptr)
    return fail(GemmStatus::Unsupported, "epilogue.bias_ptr is set while epilogue.bias = none: say Bias::PerRow (bias[m], length M) "
                                         "or Bias::PerColumn (bias[n], length N)");
  return {};
}

// D in e4m3 (quantized output) and its scale_d / amax_d: FP8 inputs with per-tensor scales, no
// bias or activation (the quantized-output tree has neither), both pointers f32-aligned; and
// scale_d / amax_d only with an e4m3 D (the other D types are not quantized).
inline GemmResult check_quantized_output(const GemmArguments& g) {
  const bool e4m3_d = g.epilogue.output == Element::E4M3;
  if (!e4m3_d) {
    if (g.scale_d != nullptr || g.amax_d != nullptr)
      return fail(GemmStatus::Unsupported, std::string("scale_d/amax_d quantize an e4m3 D (epilogue.output = e4m3); D here is ") +
                                               to_string(output_element(g)));
    return {};
  }
  if (!is_fp8(g.element))
    return fail(GemmStatus::Unsupported, std::string("epilogue.output = e4m3 needs FP8 inputs (e4m3, e5m2); A is ") + to_string(g.element));
  if (g.scale_mode != ScaleMode::PerTensor)
    return fail(GemmStatus::Unsupported, std::string("epilogue.output = e4m3 runs per-tensor scales only (scale_mode = ") +
                                             to_string(g.scale_mode) + ")");
  if (g.epilogue.bias != Bias::None || g.epilogue.activation != Activation::Identity)
    return fail(GemmStatus::Unsupported, "epilogue.output = e4m3 runs no bias or activation (D = e4m3(scale_d (alpha sa sb A B + beta C)))");
  for (auto [name, p] : {std::pair{"scale_d", static_cast<const void*>(g.scale_d)}, std::pair{"amax_d", static_cast<const void*>(g.amax_d)}})
    if (reinterpret_cast<std::uintptr_t>(p) % 4 != 0)
      return fail(GemmStatus::Misaligned, std::string(name) + " = " + std::to_string(reinterpret_cast<std::uintptr_t>(p)) +
                                              " is not aligned to its 4-byte f32");
  // (the library zeroes *amax_d before the kernel reads the scales)
  if (g.amax_d != nullptr)
    for (auto [name, p] : {std::pair{"scale_a", g.scale_a}, std::pair{"scale_b", g.scale_b}, std::pair{"scale_d", g.scale_d}})
      if (p == g.amax_d)
        return fail(GemmStatus::Unsupported, std::string("amax_d is ") + name +
                                                 ": the library sets *amax_d to 0 before the kernel, which then reads the scale");
  return {};
}

// The scale modes beyond per-tensor: FP8 inputs, both vectors given; Block as its kernel
// runs it (e4m3 x e4m3, bf16 D row-major, one batch, scale_a's leading dimension). In the
// kernels' view (ArgumentsView::Kernel) the block rules read the problem as the kernel runs it:
// D column-major, the transposed problem (scale_b the caller's A scales, leading dimension
// ld_scale_a over the caller's M, now N; scale_a the caller's B blocks, over the caller's N, now
// M), or D row-major, the caller's own (the kernel with the tokens along its tile's M).
inline GemmResult check_scale_mode(const GemmArguments& g, ArgumentsView view = ArgumentsView::Caller) {
  if (static_cast<unsigned>(g.scale_mode) > static_cast<unsigned>(ScaleMode::Block))
    return fail(GemmStatus::Unsupported, "scale_mode = " + std::to_string(static_cast<unsigned>(g.scale_mode)) + " is not a ScaleMode");
  if (g.scale_mode == ScaleMode::PerTensor) return {};
  const std::string mode = to_string(g.scale_mode);
  if (!is_fp8(g.element))
    return fail(GemmStatus::Unsupported, "scale_mode = " + mode + " dequantizes FP8 inputs; A is " + to_string(g.element));
  const bool block = g.scale_mode == ScaleMode::Block;
  if (g.scale_a == nullptr)
    return fail(GemmStatus::NullPointer, "scale_a is a null pointer while scale_mode = " + mode +
                                             (block ? " (an M x ceil(K/128) f32 matrix, M-major)" : " (a vector of M f32)"));
  if (g.scale_b == nullptr)
    return fail(GemmStatus::NullPointer, "scale_b is a null pointer while scale_mode = " + mode +
                                             (block ? " (a ceil(N/128) x ceil(K/128) f32 matrix, row-major)" : " (a vector of N f32)"));
  if (!block) {
    if (g.ld_scale_a != 0)
      return fail(GemmStatus::Unsupported, "ld_scale_a = " + std::to_string(g.ld_scale_a) + " is set while scale_mode = rowwise (it "
                                                                                             "is the block scales' leading dimension)");
    return {};
  }
  if (g.element != Element::E4M3 || element_b(g) != Element::E4M3)
    return fail(GemmStatus::Unsupported, std::string("scale_mode = block runs e4m3 x e4m3 only (A is ") + to_string(g.element) +
                                             ", B " + to_string(element_b(g)) + ")");
  if (output_element(g) != Element::BF16)
    return fail(GemmStatus::Unsupported, std::string("scale_mode = block writes D in bf16 only (epilogue.output = ") +
                                             to_string(output_element(g)) + ")");
  // (the kernels' view: transposed where its D is column-major)
  const bool kernel_view = view == ArgumentsView::Kernel && g.c.major == Major::Col;
  if (view != ArgumentsView::Kernel && g.c.major != Major::Row)
    return fail(GemmStatus::Unsupported, "scale_mode = block needs a row-major D (C's major): A's row scales are per row of D, "
                                         "B's 128x128 blocks per block of its columns");
  if (g.batch != 1)
    return fail(GemmStatus::Unsupported, "scale_mode = block runs one batch (L = " + std::to_string(g.batch) + ")");
  // (the caller's M and A's row scales: N and scale_b in the kernels' view)
  const std::int64_t rows = kernel_view ? g.n : g.m, cols = kernel_view ? g.m : g.n;
  const float* row_scales = kernel_view ? g.scale_b : g.scale_a;
  const std::int64_t ld = block_scale_ld(g), kb = (g.k + scale_block - 1) / scale_block;
  if (ld < rows)
    return fail(GemmStatus::InvalidLeadingDim, "ld_scale_a = " + std::to_string(ld) + " is smaller than M = " + std::to_string(rows));
  if (ld % 4 != 0)
    return fail(GemmStatus::Misaligned, "ld_scale_a = " + std::to_string(ld) +
                                            " is not a multiple of 4 (a k-group's scales start on 16 bytes for TMA)");
  if (reinterpret_cast<std::uintptr_t>(row_scales) % 16 != 0)
    return fail(GemmStatus::Misaligned, "scale_a = " + std::to_string(reinterpret_cast<std::uintptr_t>(row_scales)) +
                                            " is not 16-byte aligned (block scales of A are copied by TMA)");
  std::int64_t span = 0;
  if (!mul_ok(ld, kb, span) || !mul_ok((cols + scale_block - 1) / scale_block, kb, span))
    return fail(GemmStatus::Overflow, "the block scales' extents overflow 64-bit offsets");
  return {};
}

// The input types and scales: known enumerators; A and B of different types only as two FP8
// types; scales only with FP8 inputs (their dequantization), 4-byte aligned.
inline GemmResult check_inputs(const GemmArguments& g, ArgumentsView view) {
  for (auto [name, e] : {std::pair{"element", g.element}, std::pair{"element_b", element_b(g)}})
    if (static_cast<unsigned>(e) > static_cast<unsigned>(Element::E5M2))
      return fail(GemmStatus::Unsupported, std::string(name) + " = " + std::to_string(static_cast<unsigned>(e)) + " is not an Element");
  const Element eb = element_b(g);
  if (eb != g.element && !(is_fp8(g.element) && is_fp8(eb)))
    return fail(GemmStatus::Unsupported, std::string("A is ") + to_string(g.element) + " and B (element_b) " + to_string(eb) +
                                             ": A and B may differ only as two FP8 types (e4m3, e5m2)");
  if (!is_fp8(g.element) && (g.scale_a != nullptr || g.scale_b != nullptr))
    return fail(GemmStatus::Unsupported, std::string("scale_a/scale_b dequantize FP8 inputs; with ") + to_string(g.element) +
                                             " inputs fold a scale into alpha");
  for (auto [name, p] : {std::pair{"scale_a", g.scale_a}, std::pair{"scale_b", g.scale_b}})
    if (reinterpret_cast<std::uintptr_t>(p) % 4 != 0)
      return fail(GemmStatus::Misaligned, std::string(name) + " = " + std::to_string(reinterpret_cast<std::uintptr_t>(p)) +
                                              " is not aligned to its 4-byte f32");
  return check_scale_mode(g, view);
}

// FP8's layout rules (the sm_90 kernel's, the only one that runs FP8): 8-bit wgmma reads A
// and B K-major only (A row-major, B column-major: "TN"), and TMA copies them, which needs
// 16-byte aligned pointers, leading dimensions and batch strides (bytes = elements here).
inline GemmResult check_fp8_operands(const GemmArguments& g) {
  if (!is_fp8(g.element)) return {};
  if (g.a.major != Major::Row)
    return fail(GemmStatus::Unsupported, std::string("A (") + to_string(g.element) +
                                             ") is column-major (M-major): 8-bit wgmma reads K-major operands only, so FP8 "
                                             "needs A row-major (M x K, K contiguous) and B column-major (TN)");
  if (g.b.major != Major::Col)
    return fail(GemmStatus::Unsupported, std::string("B (") + to_string(element_b(g)) +
                                             ") is row-major (N-major): 8-bit wgmma reads K-major operands only, so FP8 "
                                             "needs A row-major and B column-major (K x N, K contiguous: TN)");
  for (auto [name, o] : {std::pair{"A", &g.a}, std::pair{"B", &g.b}}) {
    if (reinterpret_cast<std::uintptr_t>(o->ptr) % 16 != 0)
      return fail(GemmStatus::Misaligned, std::string(name) + " = " + std::to_string(reinterpret_cast<std::uintptr_t>(o->ptr)) +
                                              " is not 16-byte aligned (FP8 operands are copied by TMA)");
    if (o->ld % 16 != 0)
      return fail(GemmStatus::Misaligned, std::string("ld") + name + " = " + std::to_string(o->ld) +
                                              " is not a multiple of 16 (FP8 rows must start on 16 bytes for TMA)");
    if (g.batch > 1 && o->batch_stride % 16 != 0)
      return fail(GemmStatus::Misaligned, std::string("batch_stride_") + name + " = " + std::to_string(o->batch_stride) +
                                              " is not a multiple of 16 (FP8 batches must start on 16 bytes for TMA)");
  }
  return {};
}

}  // namespace detail

// Checks everything that can be checked without a device.  The message names the
// offending argument and its value.
inline GemmResult check_arguments(const GemmArguments& g, ArgumentsView view = ArgumentsView::Caller) {
  using detail::fail;
  if (g.m <= 0 || g.n <= 0 || g.k <= 0 || g.batch <= 0)
    return fail(GemmStatus::InvalidSize,
                "sizes must be positive: M = " + std::to_string(g.m) + ", N = " + std::to_string(g.n) +
                    ", K = " + std::to_string(g.k) + ", L = " + std::to_string(g.batch));
  // The grid puts the batch on gridDim.z (at most 65535) and the tiles of one batch on
  // gridDim.x; tile counts beyond 2^31-1 cannot be launched.
  if (g.batch > 65535)
    return fail(GemmStatus::InvalidSize,
                "L = " + std::to_string(g.batch) + " exceeds the 65535 batches one launch addresses");
  if (g.m > (std::int64_t(1) << 40) || g.n > (std::int64_t(1) << 40))
    return fail(GemmStatus::InvalidSize, "M or N beyond 2^40 cannot be tiled by one grid");
  // The mainloops count K in 32-bit integers (registers are their scarcest resource).
  if (g.k > (std::int64_t(1) << 31) - 64)
    return fail(GemmStatus::InvalidSize, "K = " + std::to_string(g.k) + " exceeds 2^31 - 64, the largest K the mainloops count");
  if (g.a.ptr == nullptr) return fail(GemmStatus::NullPointer, "A is a null pointer");
  if (g.b.ptr == nullptr) return fail(GemmStatus::NullPointer, "B is a null pointer");
  if (g.d == nullptr) return fail(GemmStatus::NullPointer, "D is a null pointer");
  if (g.beta != 0.0f && g.c.ptr == nullptr)
    return fail(GemmStatus::NullPointer, "C is a null pointer while beta = " + std::to_string(g.beta) +
                                             " != 0");
  if (auto r = detail::check_inputs(g, view); !r) return r;
  if (auto r = detail::check_epilogue(g); !r) return r;
  if (auto r = detail::check_quantized_output(g); !r) return r;
  const Element out = output_element(g);
  for (auto [name, p, e] : {std::tuple{"A", g.a.ptr, g.element}, std::tuple{"B", g.b.ptr, element_b(g)},
                            std::tuple{"C", g.c.ptr, out}, std::tuple{"D", static_cast<const void*>(g.d), out},
                            std::tuple{"bias", g.epilogue.bias_ptr, out}}) {
    const auto bytes = static_cast<std::uintptr_t>(element_bytes(e));
    if (p != nullptr && reinterpret_cast<std::uintptr_t>(p) % bytes != 0)
      return fail(GemmStatus::Misaligned, std::string(name) + " = " + std::to_string(reinterpret_cast<std::uintptr_t>(p)) +
                                              " is not aligned to its " + std::to_string(bytes) +
                                              "-byte " + to_string(e) + " elements");
  }
  if (g.workspace_bytes > 0 && g.workspace == nullptr)
    return fail(GemmStatus::NullPointer,
                "workspace is a null pointer while workspace_bytes = " + std::to_string(g.workspace_bytes));
  if (reinterpret_cast<std::uintptr_t>(g.workspace) % 16 != 0)
    return fail(GemmStatus::Misaligned, "workspace = " + std::to_string(reinterpret_cast<std::uintptr_t>(g.workspace)) +
                                            " is not 16-byte aligned");
  if (auto r = detail::check_operand("A", "M", g.m, "K", g.k, g.a.major, g.a.ld, g.batch,
                                     g.a.batch_stride, false); !r) return r;
  if (auto r = detail::check_operand("B", "K", g.k, "N", g.n, g.b.major, g.b.ld, g.batch,
                                     g.b.batch_stride, false); !r) return r;
  if (g.c.ptr != nullptr)
    if (auto r = detail::check_operand("C", "M", g.m, "N", g.n, g.c.major, g.c.ld, g.batch,
                                       g.c.batch_stride, false); !r) return r;
  if (auto r = detail::check_operand("D", "M", g.m, "N", g.n, g.c.major, g.ldd, g.batch,
                                     g.batch_stride_d, true); !r) return r;
  return detail::check_fp8_operands(g);
}

namespace detail {
// The rule of vector copies (and vector stores) of a matrix, `vector` elements of
// `element_bytes` each: every vector starts at a multiple of its size (pointer, ld and, with
// L > 1, the batch stride), and none straddles the contiguous extent (a vector is predicated
// as a whole at the matrix's edge). The reason names the offending field and its value.
inline GemmResult check_vectors(const char* name, const void* ptr, std::int64_t ld, std::int64_t batch_stride,
                                std::int64_t batch, const char* extent, std::int64_t contiguous, int vector,
                                int element_bytes) {
  const std::int64_t v = vector;
  auto why = [&] { return " (this kernel's copies move " + std::to_string(v) + "-element vectors)"; };
  const auto bytes = std::uintptr_t(v) * std::uintptr_t(element_bytes);
  if (reinterpret_cast<std::uintptr_t>(ptr) % bytes != 0)
    return fail(GemmStatus::Misaligned, std::string(name) + " = " + std::to_string(reinterpret_cast<std::uintptr_t>(ptr)) +
                                            " is not " + std::to_string(bytes) + "-byte aligned" + why());
  if (ld % v != 0)
    return fail(GemmStatus::Misaligned, std::string("ld") + name + " = " + std::to_string(ld) + " is not a multiple of " +
                                            std::to_string(v) + why());
  if (contiguous % v != 0)
    return fail(GemmStatus::Misaligned, std::string(extent) + " = " + std::to_string(contiguous) + ", the contiguous extent of " +
                                            name + ", is not a multiple of " + std::to_string(v) +
                                            " (a vector would straddle the matrix edge)");
  if (batch > 1 && batch_stride % v != 0)
    return fail(GemmStatus::Misaligned, std::string("batch_stride_") + name + " = " + std::to_string(batch_stride) +
                                            " is not a multiple of " + std::to_string(v) + why());
  return {};
}
// An operand's vectors: A (M x K: K contiguous when row-major) or B (K x N: N contiguous when
// row-major).
inline GemmResult check_operand_vectors(const char* name, const Operand& o, std::int64_t rows, const char* rows_name,
                                        std::int64_t cols, const char* cols_name, std::int64_t batch, int vector,
                                        int element_bytes) {
  const bool row = o.major == Major::Row;
  return check_vectors(name, o.ptr, o.ld, o.batch_stride, batch, row ? cols_name : rows_name, row ? cols : rows, vector,
                       element_bytes);
}
}  // namespace detail

// The kernel the device adapter runs for arguments that passed check_arguments, before it
// looks at the device (on an sm_90 GPU, tessera::gemm runs Sm90TmaWgmma instead where that
// kernel takes the arguments): the 16-byte-copy tensor-op kernel where its copies' rule
// (detail::check_vectors, the one its mainloop's can_implement applies) holds for A and B.
inline GemmKernel select_kernel(const GemmArguments& g) {
  if (g.element == Element::F32) return GemmKernel::SimtF32;
  const int bytes = element_bytes(g.element), v = 16 / bytes;
  const bool vec = detail::check_operand_vectors("A", g.a, g.m, "M", g.k, "K", g.batch, v, bytes) &&
                   detail::check_operand_vectors("B", g.b, g.k, "K", g.n, "N", g.batch, v, bytes);
  return vec ? GemmKernel::TensorOpVec8 : GemmKernel::TensorOpScalar;
}

}  // namespace tessera::kernels
