// expect: the rasterization band is the mainloop policy's
#include "collective/collective_builder.hpp"
#include "kernel/gemm_kernel.hpp"
using namespace tessera;
using namespace tessera::kernels;
// The builder's bf16 TN mainloop (128x256x32, 256 threads, policy band 8).
using B = CollectiveBuilder<arch::Sm80, OpClassTensorOp, bfloat16_t, KMajor, 8, bfloat16_t, KMajor, 8, float, tuple<_128, _256, _32>,
                            tuple<_1, _1, _1>, StageCount<4>, ScheduleAuto>;
using M = B::CollectiveOp;
// A band of 16 tile-rows under a policy of 8.
using K = gemm_kernel_t<GemmProblemShape, M, CollectiveEpilogueBuilder<B, bfloat16_t, 8>::CollectiveOp, SplitKRasterization<16>>;
