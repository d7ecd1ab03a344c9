// expect: CollectiveMma (SM80): A and B are both f16 or both bf16
#include "collective/collective_builder.hpp"
#include "kernel/gemm_kernel.hpp"
using namespace tessera;
using namespace tessera::kernels;
// The builder's bf16 TN parts (128x256x32, 256 threads), one of them replaced.
using B = CollectiveBuilder<arch::Sm80, OpClassTensorOp, bfloat16_t, KMajor, 8, bfloat16_t, KMajor, 8, float, tuple<_128, _256, _32>,
                            tuple<_1, _1, _1>, StageCount<4>, ScheduleAuto>;
using E = CollectiveEpilogueBuilder<B, bfloat16_t, 8>::CollectiveOp;
// B in f16 beside A in bf16.
using Bad = CollectiveMma<B::DispatchPolicy, tuple<_128, _256, _32>, bfloat16_t, KMajor, half_t, KMajor, B::TiledMma, B::GmemTiledCopyA,
                          B::SmemLayoutAtomA, B::SmemCopyAtomA, B::GmemTiledCopyB, B::SmemLayoutAtomB, B::SmemCopyAtomB, trace::NoTrace>;
using K = gemm_kernel_t<GemmProblemShape, Bad, E, SplitKRasterization<8>>;
static_assert(std::is_same_v<K, GemmTensorOpKernel<GemmProblemShape, Bad, E, SplitKRasterization<8>>>);
