// The kernel configurations the library is built with, and where each is compiled.
//
// Every launcher instantiation below is declared `extern` here and defined in exactly one
// translation unit under device/instances/.  nvcc compiles a translation unit on one core and
// each configuration is four kernels (one per A/B major), so one TU per few configurations
// lets a parallel build (the GPU machine's 16 cores, `make -j`) compile them side by side
// instead of one ~60-kernel TU after another.
#pragma once

#include "launch.cuh"

namespace tessera::kernels::device {

// A configuration is the tile shape the collective builder (collective/collective_builder.hpp)
// makes of a tile, a stage count and a schedule; launch.cuh builds its kernels through the
// builder, per element type, majors and alignment, and checks there that the builder builds
// this shape. Named here by the shape itself, so that a TU that only declares or dispatches to
// the instances (gemm.cu, the tests) does not run the builder: each distinct tile costs its
// partition's derivation in every front-end pass of every TU that names it.
//
// The host API's configurations (select_kernel's names; bench/RESULTS.md has the comparison).
// Tensor cores: 128x256x32 CTA tile, 2x4 warps of 64x64, 4 stages (96 KiB of operand stages):
// the builder's automatic choice for that tile (collective_builder_test checks it).
using tensorop_128x256x32_s4 = TensorOpShape<DefaultTensorOpTile::BM, DefaultTensorOpTile::BN, DefaultTensorOpTile::BK,
                                             DefaultTensorOpTile::WM, DefaultTensorOpTile::WN, DefaultTensorOpTile::Stages>;
// SIMT: 128x128x8, 3 stages (faster than the builder's automatic count, 4: bench/RESULTS.md),
// flat 16x16 thread grid.
using simt_128x128x8_s3 = SimtShape<DefaultSimtTile::BK, DefaultSimtTile::Stages, DefaultSimtTile::WarpGrid8x4>;

}  // namespace tessera::kernels::device

// Spelled once: `extern template` here, the definition in the instance TU.
#define TESSERA_TENSOROP_INSTANCE(prefix, Shape, BF16, Vec, Swizzled)                           \
  prefix template GemmResult run_tensorop<Shape, BF16, Vec, Swizzled>(const GemmArguments&, cudaStream_t); \
  prefix template std::size_t tensorop_workspace_size<Shape, BF16, Vec, Swizzled>(const GemmArguments&);
#define TESSERA_SIMT_INSTANCE(prefix, Shape) prefix template GemmResult run_simt<Shape>(const GemmArguments&, cudaStream_t);
// The adapter of one kernel for code that names it (gemm_gpu_test runs a case through it and
// declares it `extern` itself: the declaration runs the builder), compiled with that kernel's
// TU: bf16, A row-major, B column-major (TN), 16-byte copies.
#define TESSERA_ADAPTER_INSTANCES_TENSOROP_BF16(prefix)                                         \
  prefix template class GemmAdapter<TensorOpBuild<tensorop_128x256x32_s4, true, true, true, true>::Kernel>;

// (TU under instances/)                                              shape  bf16  vec   swizzled
#define TESSERA_INSTANCES_TENSOROP_BF16(prefix)                                                 \
  TESSERA_TENSOROP_INSTANCE(prefix, tensorop_128x256x32_s4, true, true, true)                   \
  TESSERA_TENSOROP_INSTANCE(prefix, tensorop_128x256x32_s4, true, false, true)
#define TESSERA_INSTANCES_TENSOROP_F16(prefix)                                                  \
  TESSERA_TENSOROP_INSTANCE(prefix, tensorop_128x256x32_s4, false, true, true)                  \
  TESSERA_TENSOROP_INSTANCE(prefix, tensorop_128x256x32_s4, false, false, true)
#define TESSERA_INSTANCES_SIMT(prefix)                                                          \
  TESSERA_SIMT_INSTANCE(prefix, simt_128x128x8_s3)
// (The tuning variants are configs_variants.cuh's.)
namespace tessera::kernels::device {
TESSERA_INSTANCES_TENSOROP_BF16(extern)
TESSERA_INSTANCES_TENSOROP_F16(extern)
TESSERA_INSTANCES_SIMT(extern)
}  // namespace tessera::kernels::device
