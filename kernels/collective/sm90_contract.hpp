// The contract every SM90 collective and kernel keeps with the layer above it (host code, no
// CUDA), as CUTLASS 3.x's collectives do:
//
//   struct Arguments;                              what a caller gives: pointers, strides, scalars
//   static Arguments arguments_of(GemmArguments);  the same read off tessera's host API
//   static GemmResult can_implement(problem, args);            success, or the reason it refuses
//   static std::size_t get_workspace_size(problem, args);      device scratch it needs (bytes)
//   static Params to_underlying_arguments(problem, args, workspace, status);
//                                                  the kernel parameters (host work: tensor maps)
//
// `problem` is the GEMM's (M, N, K, L) in the kernel's orientation (D column-major:
// as_column_major_d). to_underlying_arguments runs only on arguments can_implement admitted;
// `status` is set where the driver refuses what can_implement could not see (the tensor map
// encoder) and left alone otherwise. A kernel composes its collectives' contracts
// (kernel/sm90_gemm_kernel_base.cuh) and the device adapter (device/sm90_gemm.cuh) calls only
// the kernel's.
#pragma once

#include <cstdint>
#include <type_traits>

#include <tessera/atom/numeric.hpp>
#include <tessera/kernels/gemm_arguments.hpp>

#include "../kernel/problem_shape.hpp"

namespace tessera::kernels::sm90 {

// The problem's extents: get<0..3>(problem) = M, N, K, L.
inline std::int64_t problem_m(GemmProblemShape const& p) { return get<0>(p); }
inline std::int64_t problem_n(GemmProblemShape const& p) { return get<1>(p); }
inline std::int64_t problem_k(GemmProblemShape const& p) { return get<2>(p); }
inline std::int64_t problem_l(GemmProblemShape const& p) { return get<3>(p); }
// (M, N, K, L) of the host API's arguments.
inline GemmProblemShape problem_shape_of(GemmArguments const& g) { return GemmProblemShape{g.m, g.n, g.k, g.batch}; }

// What the device adapter learns of the GPU for the kernel: its SMs and how many clusters of
// the kernel are resident at once (a persistent grid's width, the split plan's slots).
struct KernelHardwareInfo {
  int sm_count = 0;
  int resident_clusters = 1;
};

// The host API's element enumerator of an element type.
template <class T>
constexpr Element element_enum_of() {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, bfloat16_t> || std::is_same_v<T, half_t> ||
                    std::is_same_v<T, float_e4m3_t> || std::is_same_v<T, float_e5m2_t>,
                "the SM90 kernels take f32, bf16, f16, e4m3 or e5m2");
  if constexpr (std::is_same_v<T, float_e4m3_t>) return Element::E4M3;
  else if constexpr (std::is_same_v<T, float_e5m2_t>) return Element::E5M2;
  else return std::is_same_v<T, float> ? Element::F32 : std::is_same_v<T, bfloat16_t> ? Element::BF16 : Element::F16;
}

}  // namespace tessera::kernels::sm90
