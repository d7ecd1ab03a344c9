// What the SM90 TMA-store epilogue reads and writes, as TMA sees it (host code without CUDA,
// so that CI tests it: hopper_sm90_epilogue_operands_test). D, and C when beta != 0, are
// (M, N[, L]) tensors of the kernel's D major (its staging tile's), with D's element type:
//
//   Sm90EpilogueOperands o = sm90_epilogue_operands(g, d_bytes, fused_instance);
//   o.status      ok: TMA stores D (and loads C if o.load_c); else why the direct epilogue runs
//   o.modes       2, or 3 with batches
//   o.extent      (M, N, L)                the same for D and C
//   o.d_stride    (1, ldd, batch_stride_d) elements; row-major (ldd, 1, batch_stride_d)
//   o.c_stride    (1, ldc, batch_stride_c) elements (load_c only); row-major (ldc, 1, ...)
//
// The rules: D of the kernel's major (the dispatch orients the problem: as_column_major_d, or
// as_row_major_d for the kernels built with a row-major D), D and C 16-byte aligned, their ld and batch strides whole 16 bytes
// (TMA's global address and strides), D's contiguous extent (M, or N of a row-major D) whole 16
// bytes (a TMA store writes whole 16-byte chunks: it would write past D); beta != 0 only on the plain (not fused) instance and a
// problem without bias or activation (the fused instances stage act(alpha acc + bias) and
// take beta == 0). C may be D itself (same pointer and strides): each part of C is read into
// shared memory before that part of D is stored.
// g: the problem as the kernels see it (as_column_major_d), past check_arguments.
#pragma once

#include <cstdint>

#include <tessera/kernels/gemm_arguments.hpp>

namespace tessera::kernels::sm90 {

// What every SM90 epilogue takes (its Arguments, or their base): D, C, the scalars and the
// fusion, in the kernel's orientation (D column-major after as_column_major_d).
struct Sm90EpilogueArguments {
  Element output = Element::F32;  // D's, C's and the bias's element type (the epilogue's ElementD)
  void* d = nullptr;
  std::int64_t ldd = 0, batch_stride_d = 0;
  Operand c;  // C: read where beta != 0; its major is D's too
  float alpha = 1.0f, beta = 0.0f;
  // FP8 scales (device pointers): per-tensor (null: 1), or rowwise (scale_a[m], scale_b[n] of
  // this D), times alpha; none for block scales (the mainloop applies those).
  const float* scale_a = nullptr;
  const float* scale_b = nullptr;
  bool scale_vectors = false;  // rowwise
  // e4m3 D (GemmArguments::scale_d, amax_d): D's quantization scale (null: 1) and the amax
  // output (null: none); only the quantized-output tree epilogue takes them
  const float* scale_d = nullptr;
  float* amax_d = nullptr;
  Activation activation = Activation::Identity;
  Bias bias = Bias::None;
  const void* bias_ptr = nullptr;  // D's element type, one vector for every batch
};
inline Sm90EpilogueArguments sm90_epilogue_arguments(const GemmArguments& g) {
  Sm90EpilogueArguments e;
  e.output = output_element(g);
  e.d = g.d;
  e.ldd = g.ldd;
  e.batch_stride_d = g.batch_stride_d;
  e.c = g.c;
  e.alpha = g.alpha;
  e.beta = g.beta;
  if (g.scale_mode != ScaleMode::Block) {
    e.scale_a = g.scale_a;
    e.scale_b = g.scale_b;
  }
  e.scale_vectors = g.scale_mode == ScaleMode::Rowwise;
  e.scale_d = g.scale_d;
  e.amax_d = g.amax_d;
  e.activation = g.epilogue.activation;
  e.bias = g.epilogue.bias;
  e.bias_ptr = g.epilogue.bias_ptr;
  return e;
}

struct Sm90EpilogueOperands {
  GemmResult status;
  bool load_c = false;  // beta != 0: C comes by TMA
  int modes = 2;
  std::int64_t extent[3] = {0, 0, 1};
  std::int64_t d_stride[3] = {1, 0, 0};
  std::int64_t c_stride[3] = {1, 0, 0};
};

// (m, n, batch): the problem's extents; d_bytes: D's (and C's) element size; fused_instance:
// the kernel is a fused TMA-store instance (EpilogueTmaStoreFused), which stores
// act(alpha acc + bias) with beta == 0 only.
inline Sm90EpilogueOperands sm90_epilogue_operands(std::int64_t m, std::int64_t n, std::int64_t batch, const Sm90EpilogueArguments& g,
                                                   int d_bytes, bool fused_instance, Major d_major = Major::Col) {
  Sm90EpilogueOperands o;
  auto refuse = [&](const char* why) {
    o.status = {GemmStatus::Unsupported, why};
    o.load_c = false;
    return o;
  };
  const std::int64_t per16 = 16 / d_bytes;  // elements in 16 bytes
  const bool batched = batch > 1;
  auto aligned16 = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  if (g.c.major != d_major)
    return refuse(d_major == Major::Col ? "the TMA-store epilogue of this kernel stages a column-major D"
                                        : "the TMA-store epilogue of this kernel stages a row-major D");
  // (element strides of D's rows and columns)
  const bool row = d_major == Major::Row;
  if (!aligned16(g.d) || g.ldd % per16 != 0 || (batched && g.batch_stride_d % per16 != 0))
    return refuse("the TMA-store epilogue needs a 16-byte aligned D, ld and batch stride");
  // A TMA store writes whole 16-byte chunks of the tensor's innermost dimension: past a
  // contiguous extent that is not whole 16 bytes it also writes the rest of the last chunk, the
  // caller's elements beyond D (ld's padding, or a wider tensor D is a slice of). There the
  // direct epilogue stores element by element.
  if ((row ? n : m) % per16 != 0)
    return refuse(row ? "the TMA-store epilogue writes whole 16 bytes of a row: N is not a multiple of 16 bytes of D"
                      : "the TMA-store epilogue writes whole 16 bytes of a column: M is not a multiple of 16 bytes of D");
  o.modes = batched ? 3 : 2;
  o.extent[0] = m, o.extent[1] = n, o.extent[2] = batch;
  o.d_stride[0] = row ? g.ldd : 1, o.d_stride[1] = row ? 1 : g.ldd, o.d_stride[2] = g.batch_stride_d;
  if (g.beta == 0.0f) return o;
  if (fused_instance) return refuse("a fused TMA-store kernel takes beta == 0 only (C runs on the plain kernel)");
  // (bias or activation: the device epilogue's fused(); an f32 D is not fused here)
  if (g.activation != Activation::Identity || g.bias != Bias::None)
    return refuse("beta != 0 through TMA loads of C on the plain epilogue only (no bias or activation)");
  if (g.c.ptr == nullptr) return refuse("beta != 0 without C");
  if (!aligned16(g.c.ptr) || g.c.ld % per16 != 0 || (batched && g.c.batch_stride % per16 != 0))
    return refuse("the TMA loads of C need a 16-byte aligned C, ld and batch stride");
  o.load_c = true;
  o.c_stride[0] = row ? g.c.ld : 1, o.c_stride[1] = row ? 1 : g.c.ld, o.c_stride[2] = g.c.batch_stride;
  return o;
}
inline Sm90EpilogueOperands sm90_epilogue_operands(const GemmArguments& g, int d_bytes, bool fused_instance,
                                                   Major d_major = Major::Col) {
  return sm90_epilogue_operands(g.m, g.n, g.batch, sm90_epilogue_arguments(g), d_bytes, fused_instance, d_major);
}

}  // namespace tessera::kernels::sm90
