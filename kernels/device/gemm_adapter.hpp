// The host logic of the device adapter (gemm_adapter.cuh), plain C++ so that CI checks it
// without a GPU: what a kernel takes (KernelContract, read off its mainloop and scheduler
// types), whether it takes a GemmArguments (can_implement_kernel, with the reason when not),
// the workspace its scheduler's split plan needs, and the Problem a launch carries.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "tessera/kernels/gemm_arguments.hpp"
#include "../kernel/gemm_kernel.hpp"
#include "../kernel/problem.cuh"
#include "../kernel/split_k_rasterization.hpp"
#include "../kernel/tile_scheduler.cuh"

namespace tessera::kernels::device {

// What one kernel type takes: its input element, the majors its copies were built for (one
// kernel per (A, B) major pair), the vector width of its gmem copies in elements (8: 16-byte
// cp.async, which needs 16-byte aligned vectors; 1: element copies), its CTA tile, and
// whether its scheduler splits the last wave along K (then it asks for a workspace).
struct KernelContract {
  Element element;
  bool a_k_major, b_k_major;
  int vector;
  int bm, bn, bk;
  bool splits;
};

// The operands a mainloop reads: members of the SM80 and SIMT collectives' parts
// (CollectiveMmaSm80Parts, CollectiveMmaSimtParts).
template <class Mainloop, class = void>
struct MainloopOperands;
template <class Mainloop>
struct MainloopOperands<Mainloop, std::enable_if_t<kernel_detail::Sm80CollectiveOf<Mainloop>::value>> {
  using P = typename kernel_detail::Sm80CollectiveOf<Mainloop>::Parts;
  static constexpr Element element = std::is_same_v<typename P::Elem, bfloat16_t> ? Element::BF16 : Element::F16;
  static constexpr bool a_k_major = P::AKMajor, b_k_major = P::BKMajor;
  static constexpr int vector = P::Vec ? 16 / int(sizeof(typename P::Elem)) : 1;
  static constexpr int bm = P::BM, bn = P::BN, bk = P::BK;
};
template <class Mainloop>
struct MainloopOperands<Mainloop, std::enable_if_t<SimtCollectiveOf<Mainloop>::value>> {
  using P = typename SimtCollectiveOf<Mainloop>::Parts;
  static constexpr Element element = Element::F32;
  static constexpr bool a_k_major = P::AKMajor, b_k_major = P::BKMajor;
  static constexpr int vector = 1;  // 4-byte cp.async: any f32 address
  static constexpr int bm = P::BM, bn = P::BN, bk = P::BK;
};

template <class Mainloop, class Scheduler>
constexpr KernelContract kernel_contract() {
  using O = MainloopOperands<Mainloop>;
  return {O::element, O::a_k_major, O::b_k_major, O::vector, O::bm, O::bn, O::bk, is_split_k_rasterization<Scheduler>};
}

// The Problem a launch carries (no split: initialize sets the plan).
inline Problem to_problem(const GemmArguments& g) {
  Problem p;
  p.m = g.m; p.n = g.n; p.k = g.k; p.batch = g.batch;
  p.trace = nullptr;
  p.a = {g.a.ptr, g.a.ld, g.a.batch_stride, g.a.major == Major::Row};
  p.b = {g.b.ptr, g.b.ld, g.b.batch_stride, g.b.major == Major::Row};
  p.c = {g.beta != 0.0f ? g.c.ptr : nullptr, g.c.ld, g.c.batch_stride, g.c.major == Major::Row};
  p.d = {g.d, g.ldd, g.batch_stride_d, g.c.major == Major::Row};
  p.alpha = g.alpha;
  p.beta = g.beta;
  // Vector epilogue: 16-byte aligned C/D pointers, leading dimensions, batch strides, and a
  // contiguous extent that 16-byte vectors tile exactly.
  const int v = 16 / element_bytes(g.element);
  auto aligned = [](const void* ptr) { return reinterpret_cast<std::uintptr_t>(ptr) % 16 == 0; };
  const std::int64_t contiguous = p.d.row ? g.n : g.m;
  bool ok = aligned(g.d) && g.ldd % v == 0 && contiguous % v == 0 && (g.batch == 1 || g.batch_stride_d % v == 0);
  if (p.c.ptr) ok = ok && aligned(p.c.ptr) && g.c.ld % v == 0 && (g.batch == 1 || g.c.batch_stride % v == 0);
  p.d_vector_ok = ok;
  p.partials = static_cast<float*>(g.workspace);
  p.workspace_bytes = g.workspace ? g.workspace_bytes : 0;
  return p;
}

// The output tiles of one batch, or -1 when their count overflows 64 bits.
inline std::int64_t output_tiles(const GemmArguments& g, const KernelContract& k) {
  const auto grid = output_tile_grid(g.m, g.n, std::int64_t(k.bm), std::int64_t(k.bn));
  std::int64_t tiles = 0;
  return detail::mul_ok(grid.m, grid.n, tiles) ? tiles : -1;
}

// Whether a kernel of this contract computes these arguments, and why not.
inline GemmResult can_implement_kernel(const GemmArguments& g, const KernelContract& k) {
  using detail::fail;
  if (auto r = check_arguments(g); !r) return r;
  if (is_fused(g))
    return fail(GemmStatus::Unsupported, std::string("this kernel runs no fused epilogue (bias, activation, D in ") +
                                             to_string(output_element(g)) + " from " + to_string(g.element) +
                                             "): the sm90 kernel does");
  if (g.element != k.element)
    return fail(GemmStatus::Unsupported, std::string("this kernel takes ") + to_string(k.element) + " inputs, not " +
                                             to_string(g.element));
  // A is K-major when row-major (M, K); B is K-major when column-major (K, N).
  if ((g.a.major == Major::Row) != k.a_k_major)
    return fail(GemmStatus::Unsupported, std::string("this kernel reads A ") + (k.a_k_major ? "K-major (row-major)" : "M-major (column-major)") +
                                             "; A is " + (g.a.major == Major::Row ? "row-major" : "column-major"));
  if ((g.b.major == Major::Col) != k.b_k_major)
    return fail(GemmStatus::Unsupported, std::string("this kernel reads B ") + (k.b_k_major ? "K-major (column-major)" : "N-major (row-major)") +
                                             "; B is " + (g.b.major == Major::Row ? "row-major" : "column-major"));
  if (k.vector > 1) {
    // A vector is copied (and predicated at the matrix edge) as a whole: every vector of A
    // and B starts at a multiple of its size and none straddles the contiguous extent.
    const std::int64_t v = k.vector;
    const auto bytes = std::uintptr_t(v) * std::uintptr_t(element_bytes(k.element));
    auto check = [&](const char* name, const Operand& o, std::int64_t contiguous, const char* extent) -> GemmResult {
      if (reinterpret_cast<std::uintptr_t>(o.ptr) % bytes != 0)
        return fail(GemmStatus::Misaligned, std::string(name) + " is not " + std::to_string(bytes) +
                                                "-byte aligned (this kernel's copies move " + std::to_string(v) + "-element vectors)");
      if (o.ld % v != 0)
        return fail(GemmStatus::Misaligned, std::string("ld") + name + " = " + std::to_string(o.ld) + " is not a multiple of " +
                                                std::to_string(v) + " (this kernel's vector copies)");
      if (contiguous % v != 0)
        return fail(GemmStatus::Misaligned, std::string(extent) + " = " + std::to_string(contiguous) + ", the contiguous extent of " +
                                                name + ", is not a multiple of " + std::to_string(v) +
                                                " (a vector would straddle the matrix edge)");
      if (g.batch > 1 && o.batch_stride % v != 0)
        return fail(GemmStatus::Misaligned, std::string("batch_stride_") + name + " = " + std::to_string(o.batch_stride) +
                                                " is not a multiple of " + std::to_string(v));
      return {};
    };
    if (auto r = check("A", g.a, g.a.major == Major::Row ? g.k : g.m, g.a.major == Major::Row ? "K" : "M"); !r) return r;
    if (auto r = check("B", g.b, g.b.major == Major::Row ? g.n : g.k, g.b.major == Major::Row ? "N" : "K"); !r) return r;
  }
  // The tiles of one batch are gridDim.x (the batch is gridDim.z, at most 65535:
  // check_arguments); a split adds CTAs but is only planned when they fit (initialize).
  const std::int64_t tiles = output_tiles(g, k);
  if (tiles < 0 || tiles > 0x7fffffffLL)
    return fail(GemmStatus::InvalidSize, "too many output tiles for one grid: ceil(M / " + std::to_string(k.bm) + ") * ceil(N / " +
                                             std::to_string(k.bn) + ") exceeds 2^31 - 1");
  return {};
}

// The split plan of a kernel of this contract for the arguments, given the CTAs the GPU holds
// at once (slots: SMs x CTAs of the kernel per SM; 0 if unknown), and the workspace it needs.
inline SplitPlan split_plan_for(const GemmArguments& g, const KernelContract& k, int slots) {
  const std::int64_t tiles = output_tiles(g, k);
  if (!k.splits) return {tiles, 1};
  const int k_tiles = int(ceil_div(g.k, std::int64_t(k.bk)));
  return plan_last_wave_split(tiles, k_tiles, g.batch, slots);
}
inline std::size_t split_workspace_size(const GemmArguments& g, const KernelContract& k, int slots) {
  if (!k.splits) return 0;
  return split_workspace_bytes(split_plan_for(g, k, slots), output_tiles(g, k), std::int64_t(k.bm) * k.bn);
}

}  // namespace tessera::kernels::device
