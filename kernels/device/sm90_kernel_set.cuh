// The SM90 kernel types the library builds, by role, for the dispatch (sm90_instances.cu) and
// the TUs that instantiate them (sm90_instances_*.cu):
//   Whole<T, MA, MB, D>   128x256 tiles, whole tiles only (no split-K code): 16-bit inputs, 4
//                         majors, D in T or f32 (16 kernels)
//   Small<T, MA, MB>      128x128 tiles for problems that would leave most SMs idle, NT, NN,
//                         TT (6; small TN problems run Pingpong)
//   Split<T, MA, MB>      Whole with split-K of the last wave, D in T, TN and NT only (4)
//   SmallSplit<T, MA, MB> Small with split-K, NT only (2)
//   Fused<T, A>           Whole TN, D in T, activation A (+ optional bias) in the TMA-store
//                         epilogue: GELU tanh, ReLU, SiLU (6)
//   Tf32                  f32 inputs as tf32, TN (1)
//   Pingpong<T>           ping-pong, 64x128 tiles, TN, D in T, no cluster: small problems (2)
#pragma once

#include "sm90_gemm.cuh"

namespace tessera::kernels::device::sm90_set {

using Major = GMMA::Major;
inline constexpr Major K = Major::K, MN = Major::MN;
template <class T, Major MA, Major MB, class D>
using Whole = sm90::DefaultGemm<T, MA, MB, 2, D>;
template <class T, Major MA, Major MB>
using Small = sm90::SmallTileGemm<T, MA, MB>;
template <class T, Major MA, Major MB>
using Split = sm90::DefaultGemm<T, MA, MB, 2, T, sm90::SplitKTileScheduler>;
template <class T, Major MA, Major MB>
using SmallSplit = sm90::SmallTileGemm<T, MA, MB, 2, sm90::SplitKTileScheduler>;
template <class T, Activation A>
using Fused = sm90::FusedTmaGemm<T, A>;
using Tf32 = sm90::DefaultGemmTf32<>;
template <class T>
using Pingpong = sm90::PingpongGemm<T>;

// Which majors have split-K kernels, and which activations a fused TMA-store kernel.
constexpr bool has_split(Major a, Major b) { return a == b; }  // TN (K, K) and NT (MN, MN)
constexpr bool has_fused_tma(Activation a) {
  return a == Activation::GELUTanh || a == Activation::ReLU || a == Activation::SiLU;
}

}  // namespace tessera::kernels::device::sm90_set
