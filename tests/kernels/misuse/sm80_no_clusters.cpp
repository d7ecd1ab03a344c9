// expect: no clusters before sm_90
#include "collective/collective_builder.hpp"
#include "kernel/gemm_kernel.hpp"
using namespace tessera;
using namespace tessera::kernels;
using B = CollectiveBuilder<arch::Sm80, OpClassTensorOp, half_t, KMajor, 8, half_t, KMajor, 8, float, tuple<_128, _256, _32>, tuple<_2, _1, _1>, StageCountAuto, ScheduleAuto>;
static constexpr int s = B::Stages;
