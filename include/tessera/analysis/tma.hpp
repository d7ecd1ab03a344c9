#pragma once
// TMA arguments (cuTensorMapEncodeTiled) derived from layouts: the constexpr core lives with
// the TMA copy atoms (tessera/atom/tma_arguments.hpp), which kernels use; the analysis layer
// and the CLI reach it through this header.
#include "tessera/atom/tma_arguments.hpp"
