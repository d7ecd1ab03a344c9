// expect: accumulators are stored by EpilogueSimt
#include "collective/collective_builder.hpp"
#include "kernel/gemm_kernel.hpp"
using namespace tessera;
using namespace tessera::kernels;
using S = CollectiveBuilder<arch::Sm80, OpClassSimt, float, KMajor, 1, float, KMajor, 1, float, tuple<_128, _128, _8>, tuple<_1, _1, _1>, StageCount<3>, ScheduleAuto>;
using T = CollectiveBuilder<arch::Sm80, OpClassTensorOp, half_t, KMajor, 8, half_t, KMajor, 8, float, tuple<_128, _256, _32>, tuple<_1, _1, _1>, StageCountAuto, ScheduleAuto>;
using K = gemm_kernel_t<GemmProblemShape, S::CollectiveOp, CollectiveEpilogueBuilder<T, half_t, 8>::CollectiveOp, GroupedRasterization<8>>;
