// The kernel configurations gemm_trace traces: the host API's default tiles
// (kernels/device/gemm.cu), one per operand layout.  Shared by the device part
// (gemm_trace.cu, which checks that its kernels partition with exactly these types) and the
// host part (gemm_trace_main.cpp, which writes their `map` lines).
#pragma once

#include <string>
#include <type_traits>
#include <vector>

#include "tessera/atom/mma_sm90.hpp"
#include "tessera/kernels/partitions.hpp"
#include "tessera/tiled_mma.hpp"

namespace tessera::kernels::trace {

// TensorOpShape<128, 256, 32, 2, 4, 4>, bf16, 16-byte copies.
template <bool AKMajor, bool BKMajor>
using TensorOpTraced = TensorOpPartition<128, 256, 32, 2, 4, 256, true, AKMajor, BKMajor, 8, true>;
// SimtShape<8, 3, false>.
using SimtTraced = SimtPartition<false, 8>;
// The SM90 kernel (kernels/device/sm90_gemm.cuh DefaultGemm bf16 TN, DefaultGemmTf32): two
// consumer warpgroups of wgmma m64n256k16 (bf16) or m64n256k8 (tf32) along M over the 128 x
// 256 CTA tile.
template <bool TF32>
using Sm90TracedTiledMma = decltype(make_tiled_mma(
    MMA_Atom<std::conditional_t<TF32, SM90_64xNx8_F32TF32TF32_SS<256>, SM90_64xNx16_F32BF16BF16_SS<256>>>{},
    make_layout(make_shape(_2{}, _1{}, _1{}))));
using Sm90TracedTileC = tuple<_128, _256>;

// A "TN"-style name: A then B, T = K-major, N = MN-major (BLAS letters as gemm_bench uses).
struct TraceRun {
  bool simt = false;
  bool sm90 = false;  // the SM90 kernel's accumulators (TN only)
  bool tf32 = false;  // with sm90: the f32 kernel (tf32 wgmma) instead of bf16
  bool a_kmajor = true, b_kmajor = true;
};

// Device part: runs the traced kernel on one CTA tile of coordinate-coded inputs and
// returns the raw records (5 ints each).  Throws std::runtime_error on a CUDA error or a
// record buffer overflow.
std::vector<int> run_traced_kernel(const TraceRun& r);
// The SM90 kernel (sm_90a, gemm_trace_sm90.cu) on one 128 x 256 tile whose inputs make
// each accumulator encode its (m, n) (collective/sm90_epilogue_trace.cuh): mma.C records.
std::vector<int> run_traced_sm90(bool tf32);
// Empty when the current CUDA device runs the SM90 kernels (compute capability 9.0), else why not.
std::string sm90_device_missing();

}  // namespace tessera::kernels::trace
