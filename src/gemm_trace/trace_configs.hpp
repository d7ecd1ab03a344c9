// The kernel configurations gemm_trace traces: the host API's default tiles
// (kernels/device/gemm.cu), one per operand layout.  Shared by the device part
// (gemm_trace.cu, which checks that its kernels partition with exactly these types) and the
// host part (gemm_trace_main.cpp, which writes their `map` lines).
#pragma once

#include <vector>

#include "tessera/kernels/partitions.hpp"

namespace tessera::kernels::trace {

// TensorOpShape<128, 256, 32, 2, 4, 4>, bf16, 16-byte copies.
template <bool AKMajor, bool BKMajor>
using TensorOpTraced = TensorOpPartition<128, 256, 32, 2, 4, 256, true, AKMajor, BKMajor, 8, true>;
// SimtShape<8, 3, false>.
using SimtTraced = SimtPartition<false, 8>;

// A "TN"-style name: A then B, T = K-major, N = MN-major (BLAS letters as gemm_bench uses).
struct TraceRun {
  bool simt = false;
  bool a_kmajor = true, b_kmajor = true;
};

// Device part: runs the traced kernel on one CTA tile of coordinate-coded inputs and
// returns the raw records (5 ints each).  Throws std::runtime_error on a CUDA error or a
// record buffer overflow.
std::vector<int> run_traced_kernel(const TraceRun& r);

}  // namespace tessera::kernels::trace
