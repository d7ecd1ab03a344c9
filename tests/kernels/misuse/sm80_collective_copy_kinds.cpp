// expect: both 16-byte zero-filling cp.async
#include "collective/collective_builder.hpp"
#include "kernel/gemm_kernel.hpp"
using namespace tessera;
using namespace tessera::kernels;
// The builder's bf16 TN parts (128x256x32, 256 threads), one of them replaced.
using B = CollectiveBuilder<arch::Sm80, OpClassTensorOp, bfloat16_t, KMajor, 8, bfloat16_t, KMajor, 8, float, tuple<_128, _256, _32>,
                            tuple<_1, _1, _1>, StageCount<4>, ScheduleAuto>;
using E = CollectiveEpilogueBuilder<B, bfloat16_t, 8>::CollectiveOp;
// A by cp.async, B by element copies.
using Scalar = CollectiveBuilder<arch::Sm80, OpClassTensorOp, bfloat16_t, KMajor, 1, bfloat16_t, KMajor, 1, float, tuple<_128, _256, _32>,
                              tuple<_1, _1, _1>, StageCount<4>, ScheduleAuto>;
using Bad = CollectiveMma<B::DispatchPolicy, tuple<_128, _256, _32>, bfloat16_t, KMajor, bfloat16_t, KMajor, B::TiledMma, B::GmemTiledCopyA,
                          B::SmemLayoutAtomA, B::SmemCopyAtomA, Scalar::GmemTiledCopyB, B::SmemLayoutAtomB, B::SmemCopyAtomB, trace::NoTrace>;
using K = gemm_kernel_t<GemmProblemShape, Bad, E, SplitKRasterization<8>>;
static_assert(std::is_same_v<K, GemmTensorOpKernel<GemmProblemShape, Bad, E, SplitKRasterization<8>>>);
