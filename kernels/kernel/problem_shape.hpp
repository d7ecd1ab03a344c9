// The problem shape the kernels take: (M, N, K, L), run-time extents (gemm_kernel_t's first
// parameter, and what every collective's contract reads: collective/sm90_contract.hpp).
#pragma once

#include <cstdint>

#include <tessera/int_tuple.hpp>

namespace tessera::kernels {

using GemmProblemShape = tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t>;

}  // namespace tessera::kernels
