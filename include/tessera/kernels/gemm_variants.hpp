// Alternative kernel configurations, for the benchmark's tuning table (bench --variants).
// Each variant runs the same collectives with another tile shape / pipeline depth.
#pragma once

#include "tessera/kernels/gemm.hpp"

namespace tessera::kernels {

// Whether this build holds the variants' kernels (CMake option TESSERA_BUILD_TUNING_VARIANTS,
// off by default: they are for tuning, and compiling them would double the library's build).
// Without them the counts are 0 and every call answers GemmStatus::Unsupported, saying so.
bool tuning_variants_built();

int tensorop_variant_count();
const char* tensorop_variant_name(int i);
// BF16/F16 inputs with 16-byte-aligned operands (as GemmKernel::TensorOpVec8).
GemmResult gemm_tensorop_variant(const GemmArguments& args, int variant, CUstream_st* stream = nullptr);

int simt_variant_count();
const char* simt_variant_name(int i);
GemmResult gemm_simt_variant(const GemmArguments& args, int variant, CUstream_st* stream = nullptr);

}  // namespace tessera::kernels
