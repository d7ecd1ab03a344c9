// expect: OK
#include "collective/collective_builder.hpp"
#include "kernel/gemm_kernel.hpp"
using namespace tessera;
using namespace tessera::kernels;
using A = CollectiveBuilder<arch::Sm90, OpClassTensorOp, half_t, MNMajor, 8, half_t, KMajor, 8, float, tuple<_128, _128, _64>, tuple<_2, _1, _1>, StageCountAuto, ScheduleAuto>;
using B = CollectiveBuilder<arch::Sm80, OpClassTensorOp, bfloat16_t, KMajor, 2, bfloat16_t, MNMajor, 8, float, tuple<_128, _256, _32>, tuple<_1, _1, _1>, StageCountAuto, ScheduleAuto>;
using S = CollectiveBuilder<arch::Sm80, OpClassSimt, float, KMajor, 1, float, MNMajor, 1, float, tuple<_128, _128, _8>, tuple<_1, _1, _1>, StageCount<3>, ScheduleAuto>;
using KA = gemm_kernel_t<GemmProblemShape, A::CollectiveOp, CollectiveEpilogueBuilder<A, half_t, 8>::CollectiveOp, sm90::SplitKTileScheduler>;
using KB = gemm_kernel_t<GemmProblemShape, B::CollectiveOp, CollectiveEpilogueBuilder<B, bfloat16_t, 8>::CollectiveOp, SplitKRasterization<8>>;
using KS = gemm_kernel_t<GemmProblemShape, S::CollectiveOp, CollectiveEpilogueBuilder<S, float, 1>::CollectiveOp, GroupedRasterization<8>>;
static_assert(A::Stages == 6 && !B::Vectorized && S::Stages == 3);
