// tessera grouped GEMM, host API (the MoE expert layers' GEMM): G independent problems
//
//   D_g = alpha * A_g B_g + beta * C_g      g = 0 .. G-1,  A_g M_g x K_g,  B_g K_g x N_g
//
// in one launch of a persistent SM90 kernel whose CTAs walk every group's output tiles
// (docs/gemm_grouped.md). Two forms:
//   PtrArray    device arrays of G shapes (M_g, N_g, K_g), pointers A_g, B_g, C_g, D_g and
//               leading dimensions: every group its own tensors;
//   Contiguous  torch._grouped_mm's 2D x 3D case: one A (tokens x K, row-major) of all tokens
//               sorted by expert, device offsets offs[g] = end of group g's rows (cumulative,
//               int32), one weight tensor (G, N, K) (B_g column-major, K-major) or (G, K, N)
//               (B_g row-major), one D (tokens x N, row-major): group g is rows
//               [offs[g-1], offs[g]) (offs[-1] = 0) of A, C and D.
// bf16 or f16 inputs, f32 accumulation, D (and C) in the inputs' type; A_g, C_g, D_g
// row-major; B_g column-major (weight (N, K), "TN") or row-major (weight (K, N)).
// Empty groups (M_g or N_g = 0) contribute nothing; K_g = 0 gives D_g = beta C_g (alpha times
// the empty sum), C not read when beta = 0.
//
// The per-group values are device data: the host checks what it sees (the form's pointers,
// G, the element types, the contiguous form's uniform leading dimensions and alignment); a
// group that the device finds TMA cannot read (grouped_group_admissible: a pointer or leading
// dimension not on 16 bytes, a leading dimension shorter than its row, rows of the contiguous
// form outside A) is left out, its D untouched.
//
// Fused epilogue (GemmGroupedArguments::activation, ::bias: tessera::gemm's Activation and Bias):
//   D_g = act(alpha * A_g B_g + bias_g)        bias_g[n]: a vector of N_g elements in D's type
// the bias per column of D_g (nn.Linear's, one per output feature), given per group: the
// ptr-array form's device array ptr_array.bias of G pointers (a null entry: group g has none), the
// contiguous form's contiguous.bias, (G, N) with rows bias_stride apart. bf16 with weights
// (G, N, K) (b_major Col) and beta = 0 only (check_grouped_arguments says why otherwise).
//
// This header needs no CUDA: the checks and the lowering of the contiguous form run (and
// are tested) on any machine.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "tessera/config.hpp"
#include "tessera/kernels/gemm_arguments.hpp"

struct CUstream_st;

namespace tessera::kernels {

// One group's problem (device memory: 12 bytes, the layout the kernel reads).
struct GemmGroupShape {
  std::int32_t m = 0, n = 0, k = 0;
};

enum class GroupedForm { PtrArray, Contiguous };

// G entries each (device memory). c may be null (or any entry null) where beta = 0.
struct GemmGroupedPtrArray {
  const GemmGroupShape* shapes = nullptr;
  const void* const* a = nullptr;  // A_g: M_g x K_g, row-major, lda[g]
  const void* const* b = nullptr;  // B_g: K_g x N_g, major b_major, ldb[g]
  const void* const* c = nullptr;  // C_g: M_g x N_g, row-major, ldc[g]
  void* const* d = nullptr;        // D_g: M_g x N_g, row-major, ldd[g]
  const std::int64_t* lda = nullptr;
  const std::int64_t* ldb = nullptr;
  const std::int64_t* ldc = nullptr;  // null where beta = 0
  const std::int64_t* ldd = nullptr;
  // bias_g (GemmGroupedArguments::bias = PerColumn): N_g elements of D's type, 2-byte aligned; a
  // null entry adds nothing to group g. The array itself is read only with a bias.
  const void* const* bias = nullptr;
};

struct GemmGroupedContiguous {
  std::int64_t tokens = 0;  // rows of A, C and D (the last offset may be smaller: rows past it are not written)
  std::int64_t n = 0, k = 0;
  const std::int32_t* offs = nullptr;  // device, G cumulative ends of the groups' rows
  const void* a = nullptr;             // tokens x K, row-major, lda
  const void* b = nullptr;             // (G, N, K) (b_major Col) or (G, K, N) (b_major Row), dense
  const void* c = nullptr;             // tokens x N, row-major, ldc (beta != 0)
  void* d = nullptr;                   // tokens x N, row-major, ldd
  std::int64_t lda = 0, ldc = 0, ldd = 0;  // 0: dense (K, N, N)
  // (G, N) of D's type (GemmGroupedArguments::bias = PerColumn): group g's bias is row g, at
  // bias + g * bias_stride elements (0: dense, N).
  const void* bias = nullptr;
  std::int64_t bias_stride = 0;
};

// The most groups one call takes (the workspace holds a record per group).
inline constexpr std::int64_t gemm_grouped_max_groups = 65536;

struct GemmGroupedArguments {
  std::int64_t groups = 0;  // G, on the host
  Element element = Element::BF16;  // A's, B's, C's and D's: BF16 or F16
  Major b_major = Major::Col;       // B_g's: Col (weight (N, K), K-major) or Row (weight (K, N))
  float alpha = 1.0f, beta = 0.0f;
  GroupedForm form = GroupedForm::PtrArray;
  GemmGroupedPtrArray ptr_array;
  GemmGroupedContiguous contiguous;
  // The fused epilogue, D_g = act(alpha A_g B_g + bias_g): tessera::gemm's activations and its
  // per-column bias (the form's bias vectors). Identity without bias: the plain epilogue.
  Activation activation = Activation::Identity;
  Bias bias = Bias::None;
  // Device scratch of gemm_grouped_workspace_size(args) bytes (128-byte aligned): the groups'
  // sizes and tensor maps, written by the call. Calls that run at the same time need their own.
  void* workspace = nullptr;
  std::size_t workspace_bytes = 0;
};

// ---- the workspace: G sizes (GemmGroupShape, as the kernel runs the group: (N_g, M_g, K_g),
// D_g^T), then G records of a group's tensor maps (CUtensorMap, 128 bytes, 64-byte aligned),
// written on the device: the mainloop's loads of the kernel's A' = B_g and B' = A_g, the
// epilogue's TMA stores of D_g^T and loads of C_g^T (beta != 0), and bias_g's address (the
// fused epilogue's). The kernel's collectives own
// these bytes (its can_implement checks a caller's workspace against them); they are published
// here so that a caller sizes the workspace without CUDA.
struct GemmGroupRecord {
  alignas(128) unsigned char map_a[128];
  alignas(64) unsigned char map_b[128];
  alignas(64) unsigned char map_d[128];
  alignas(64) unsigned char map_c[128];
  // bias_g as prepare resolved it from the caller's form (null: none, or a refused group): the
  // fused epilogue reads it here and nowhere else.
  const void* bias;
};
static_assert(sizeof(GemmGroupRecord) % 128 == 0, "records keep the tensor maps' alignment");
inline constexpr std::size_t grouped_round128(std::size_t bytes) { return (bytes + 127) / 128 * 128; }
inline constexpr std::size_t grouped_records_offset(std::int64_t groups) {
  return grouped_round128(std::size_t(groups) * sizeof(GemmGroupShape));
}
inline constexpr std::size_t grouped_workspace_bytes(std::int64_t groups) {
  return groups <= 0 ? 0 : grouped_records_offset(groups) + std::size_t(groups) * sizeof(GemmGroupRecord);
}

// ---- one group's operands, whichever the form (what the device's lowering writes)
struct GroupedProblem {
  std::int64_t m = 0, n = 0, k = 0;
  const void* a = nullptr;
  const void* b = nullptr;
  const void* c = nullptr;
  void* d = nullptr;
  std::int64_t lda = 0, ldb = 0, ldc = 0, ldd = 0;
  const void* bias = nullptr;  // N elements (the fused epilogue's bias_g; null: none)
};

// Group g of the contiguous form: rows [begin, end) of A, C, D and weight g. begin = offs[g-1]
// (0 for g = 0), end = offs[g]. Rows outside [0, tokens] or running backwards give an empty group
// (m = 0) with its pointers null.
TESSERA_HOST_DEVICE inline GroupedProblem lower_contiguous_group(GemmGroupedContiguous const& f, Major b_major, int element_bytes,
                                                                    std::int64_t g, std::int64_t begin, std::int64_t end) {
  GroupedProblem p;
  p.n = f.n;
  p.k = f.k;
  p.lda = f.lda > 0 ? f.lda : f.k;
  p.ldc = f.ldc > 0 ? f.ldc : f.n;
  p.ldd = f.ldd > 0 ? f.ldd : f.n;
  p.ldb = b_major == Major::Col ? f.k : f.n;  // weight g dense: (N, K) or (K, N)
  if (begin < 0 || end < begin || end > f.tokens) return p;
  p.m = end - begin;
  const auto at = [&](const void* base, std::int64_t elements) -> const unsigned char* {
    return base == nullptr ? nullptr : static_cast<const unsigned char*>(base) + elements * element_bytes;
  };
  p.a = at(f.a, begin * p.lda);
  p.b = at(f.b, g * f.n * f.k);
  p.c = at(f.c, begin * p.ldc);
  p.d = const_cast<unsigned char*>(at(f.d, begin * p.ldd));
  p.bias = at(f.bias, g * (f.bias_stride > 0 ? f.bias_stride : f.n));
  return p;
}

// Whether the kernel takes group p (device side, on the values it reads): an empty group
// always (nothing to do); else D, and for K > 0 A and B, present, 16-byte aligned with
// leading dimensions of whole 16 bytes (TMA's rule: the loads of A and B, the stores of D and
// the loads of C) at least their rows' extents, C present where beta != 0, extents below 2^31;
// N a whole 16 bytes of D (a TMA store writes whole 16-byte chunks of a row: past an N that is
// not, it would write the caller's elements beyond D_g); a bias (read element by element) on
// its element's 2 bytes.
TESSERA_HOST_DEVICE inline bool grouped_group_admissible(GroupedProblem const& p, Major b_major, int element_bytes, bool beta) {
  if (p.m <= 0 || p.n <= 0) return true;
  const auto aligned = [](const void* q) { return q != nullptr && reinterpret_cast<std::uintptr_t>(q) % 16 == 0; };
  const std::int64_t per16 = 16 / element_bytes, limit = std::int64_t(1) << 31;
  if (p.m >= limit || p.n >= limit || p.k >= limit) return false;
  if (!aligned(p.d) || p.ldd < p.n || p.ldd % per16 != 0 || p.n % per16 != 0) return false;
  if (reinterpret_cast<std::uintptr_t>(p.bias) % std::uintptr_t(element_bytes) != 0) return false;
  if (beta && (!aligned(p.c) || p.ldc < p.n || p.ldc % per16 != 0)) return false;
  if (p.k <= 0) return true;
  if (!aligned(p.a) || p.lda < p.k || p.lda % per16 != 0) return false;
  const std::int64_t b_row = b_major == Major::Col ? p.k : p.n;
  return aligned(p.b) && p.ldb >= b_row && p.ldb % per16 == 0;
}

// Whether the call runs the fused epilogue (a kernel per activation) rather than the plain one.
inline bool grouped_fused(GemmGroupedArguments const& g) { return g.activation != Activation::Identity || g.bias != Bias::None; }

// The fused epilogue's own checks. What the fused kernels take, and why the rest is refused:
//   bias  PerColumn alone: the bias of an MoE expert's linear layer is per output feature
//         (bias_g[n]); a per-token (PerRow) bias has no such use. The form's bias pointer is
//         given exactly when bias = PerColumn (as tessera::gemm's bias_ptr).
//   bf16  one kernel per activation is compiled for bf16 only (compile time: each is a full
//         SM90 kernel); f16 takes the plain epilogue.
//   (G, N, K) weights (b_major Col): the fused kernels are built on the K-major weight
//         mainloop, the MoE layout; (G, K, N) weights take the plain epilogue.
//   beta = 0: the fused staging applies act(alpha acc + bias) with no C (the single-problem
//         fused TMA-store kernels' rule: C would need its own loads into the staging buffer).
inline GemmResult check_grouped_epilogue(GemmGroupedArguments const& g) {
  if (static_cast<unsigned>(g.activation) > static_cast<unsigned>(Activation::SiLU))
    return {GemmStatus::Unsupported, "gemm_grouped: activation = " + std::to_string(static_cast<unsigned>(g.activation)) +
                                         " is not an Activation"};
  if (static_cast<unsigned>(g.bias) > static_cast<unsigned>(Bias::PerColumn))
    return {GemmStatus::Unsupported, "gemm_grouped: bias = " + std::to_string(static_cast<unsigned>(g.bias)) + " is not a Bias mode"};
  if (g.bias == Bias::PerRow)
    return {GemmStatus::Unsupported, "gemm_grouped: bias = per-row is not offered: a group's bias runs along its columns "
                                     "(Bias::PerColumn, bias_g[n], N_g elements: an expert's per-feature bias)"};
  const bool contiguous = g.form == GroupedForm::Contiguous;
  const bool given = contiguous ? g.contiguous.bias != nullptr : g.ptr_array.bias != nullptr;
  const char* field = contiguous ? "contiguous.bias" : "ptr_array.bias";
  if (g.bias == Bias::None && given)
    return {GemmStatus::Unsupported, std::string("gemm_grouped: ") + field + " is set while bias = none: say Bias::PerColumn"};
  if (g.bias == Bias::PerColumn && !given)
    return {GemmStatus::NullPointer, std::string("gemm_grouped: ") + field + " is null while bias = per-column" +
                                         (contiguous ? " ((G, N) of D's element type)" : " (a device array of G pointers, null entries allowed)")};
  if (!grouped_fused(g)) return {};
  const std::string what = std::string("gemm_grouped with a fused epilogue (activation ") + to_string(g.activation) + ", bias " +
                           to_string(g.bias) + ")";
  if (g.element != Element::BF16)
    return {GemmStatus::Unsupported, what + " runs bf16 only, not " + to_string(g.element) +
                                         " (one kernel per activation is compiled for bf16; f16 takes the plain epilogue)"};
  if (g.b_major != Major::Col)
    return {GemmStatus::Unsupported, what + " needs weights (G, N, K) (b_major Col): (G, K, N) weights take the plain epilogue"};
  if (g.beta != 0.0f)
    return {GemmStatus::Unsupported, what + " takes beta = 0: it computes act(alpha A B + bias), no C"};
  if (contiguous && g.bias == Bias::PerColumn) {
    const GemmGroupedContiguous& c = g.contiguous;
    if (c.bias_stride < 0 || (c.bias_stride > 0 && c.bias_stride < c.n))
      return {GemmStatus::InvalidLeadingDim, "gemm_grouped (contiguous form): bias_stride = " + std::to_string(c.bias_stride) +
                                                 " is shorter than a group's bias (N = " + std::to_string(c.n) + "; 0: dense)"};
    if (reinterpret_cast<std::uintptr_t>(c.bias) % std::uintptr_t(element_bytes(g.element)) != 0)
      return {GemmStatus::Misaligned, "gemm_grouped (contiguous form): bias is not aligned to its element (2 bytes)"};
    const std::int64_t stride = c.bias_stride > 0 ? c.bias_stride : c.n;
    if (stride > 0 && g.groups > (std::int64_t(1) << 62) / stride)
      return {GemmStatus::Overflow, "gemm_grouped (contiguous form): G * bias_stride overflows 64-bit offsets"};
  }
  return {};
}

// The host's checks (no device needed): what gemm_grouped refuses before it launches.
inline GemmResult check_grouped_arguments(GemmGroupedArguments const& g) {
  if (g.groups < 1 || g.groups > gemm_grouped_max_groups)
    return {GemmStatus::InvalidSize, "gemm_grouped: groups = " + std::to_string(g.groups) + ", expected 1 .. " +
                                         std::to_string(gemm_grouped_max_groups)};
  if (g.element != Element::BF16 && g.element != Element::F16)
    return {GemmStatus::Unsupported, std::string("gemm_grouped: element ") + to_string(g.element) + ", expected bf16 or f16"};
  // The kernels compiled: bf16 with either weight layout, f16 with weights (G, N, K) (the MoE
  // layout; each is a full SM90 kernel, so the rarer pairs are not built): refused here, on any
  // machine, rather than by the device dispatch after the device check.
  if (g.element == Element::F16 && g.b_major != Major::Col)
    return {GemmStatus::Unsupported, "gemm_grouped: no kernel for f16 with weights (G, K, N) (B_g row-major): f16 takes weights "
                                     "(G, N, K) (b_major Col); bf16 takes either"};
  if (auto r = check_grouped_epilogue(g); !r) return r;
  const bool beta = g.beta != 0.0f;
  if (g.form == GroupedForm::PtrArray) {
    const GemmGroupedPtrArray& p = g.ptr_array;
    const char* missing = p.shapes == nullptr ? "shapes" : p.a == nullptr ? "a" : p.b == nullptr ? "b" : p.d == nullptr ? "d"
                        : p.lda == nullptr ? "lda" : p.ldb == nullptr ? "ldb" : p.ldd == nullptr ? "ldd"
                        : beta && p.c == nullptr ? "c (beta != 0)" : beta && p.ldc == nullptr ? "ldc (beta != 0)" : nullptr;
    if (missing != nullptr) return {GemmStatus::NullPointer, std::string("gemm_grouped (ptr-array form): the array ") + missing + " is null"};
  } else {
    const GemmGroupedContiguous& c = g.contiguous;
    if (c.tokens < 0 || c.n < 0 || c.k < 0 || c.tokens >= (std::int64_t(1) << 31) || c.n >= (std::int64_t(1) << 31) ||
        c.k >= (std::int64_t(1) << 31))
      return {GemmStatus::InvalidSize, "gemm_grouped (contiguous form): tokens = " + std::to_string(c.tokens) + ", n = " +
                                           std::to_string(c.n) + ", k = " + std::to_string(c.k) + ": each in 0 .. 2^31 - 1"};
    const char* missing = c.offs == nullptr ? "offs" : c.d == nullptr ? "d" : c.k > 0 && c.a == nullptr ? "a"
                        : c.k > 0 && c.b == nullptr ? "b" : beta && c.c == nullptr ? "c (beta != 0)" : nullptr;
    if (missing != nullptr) return {GemmStatus::NullPointer, std::string("gemm_grouped (contiguous form): ") + missing + " is null"};
    const int eb = element_bytes(g.element);
    const std::int64_t per16 = 16 / eb;
    auto ld_check = [&](const char* name, std::int64_t ld, std::int64_t row) -> GemmResult {
      const std::int64_t v = ld > 0 ? ld : row;
      if (ld < 0 || v < row) return {GemmStatus::InvalidLeadingDim, std::string("gemm_grouped (contiguous form): ") + name + " = " +
                                                                      std::to_string(ld) + " is shorter than a row (" + std::to_string(row) + ")"};
      if (v % per16 != 0)
        return {GemmStatus::Misaligned, std::string("gemm_grouped (contiguous form): ") + name + " = " + std::to_string(v) +
                                            " elements is not a multiple of 16 bytes (TMA)"};
      return {};
    };
    if (c.n % per16 != 0)
      return {GemmStatus::Misaligned, "gemm_grouped (contiguous form): n = " + std::to_string(c.n) +
                                          " is not a multiple of 16 bytes: D's TMA stores write whole 16-byte chunks of a row, "
                                          "and past such an N they would write the caller's elements beyond D"};
    if (auto r = ld_check("lda", c.lda, c.k); !r) return r;
    if (auto r = ld_check("ldd", c.ldd, c.n); !r) return r;
    if (beta)
      if (auto r = ld_check("ldc", c.ldc, c.n); !r) return r;
    if (auto r = ld_check(g.b_major == Major::Col ? "the weights' K" : "the weights' N", 0, g.b_major == Major::Col ? c.k : c.n); !r)
      return r;
    auto aligned = [](const void* q) { return reinterpret_cast<std::uintptr_t>(q) % 16 == 0; };
    if (!aligned(c.a) || !aligned(c.b) || !aligned(c.c) || !aligned(c.d))
      return {GemmStatus::Misaligned, "gemm_grouped (contiguous form): A, B, C and D must be 16-byte aligned (TMA)"};
    if (c.k > 0 && c.n * c.k > (std::int64_t(1) << 62) / g.groups)
      return {GemmStatus::Overflow, "gemm_grouped (contiguous form): G * N * K overflows 64-bit offsets"};
  }
  if (g.workspace == nullptr || g.workspace_bytes < grouped_workspace_bytes(g.groups))
    return {g.workspace == nullptr ? GemmStatus::NullPointer : GemmStatus::InvalidSize, "gemm_grouped: the workspace holds " + std::to_string(g.workspace == nullptr ? 0 : g.workspace_bytes) +
                                         " bytes, needs " + std::to_string(grouped_workspace_bytes(g.groups)) +
                                         " (gemm_grouped_workspace_size)"};
  if (reinterpret_cast<std::uintptr_t>(g.workspace) % 128 != 0)
    return {GemmStatus::Misaligned, "gemm_grouped: the workspace must be 128-byte aligned (cudaMalloc's is)"};
  return {};
}

// Bytes of GemmGroupedArguments::workspace that gemm_grouped(args) needs (0 for an invalid G).
inline std::size_t gemm_grouped_workspace_size(GemmGroupedArguments const& g) {
  return g.groups < 1 || g.groups > gemm_grouped_max_groups ? 0 : grouped_workspace_bytes(g.groups);
}

// Runs every group's D_g = alpha A_g B_g + beta C_g on `stream` (an sm_90 GPU; the kernels
// live in tessera_kernels). No host synchronisation: the groups' sizes are read on the device.
GemmResult gemm_grouped(GemmGroupedArguments const& args, CUstream_st* stream = nullptr);

}  // namespace tessera::kernels

namespace tessera {
using kernels::gemm_grouped;
using kernels::gemm_grouped_workspace_size;
}  // namespace tessera
