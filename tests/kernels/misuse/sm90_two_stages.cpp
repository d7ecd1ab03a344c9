// expect: at least 2 stages must fit in shared memory
#include "collective/collective_builder.hpp"
#include "kernel/gemm_kernel.hpp"
using namespace tessera;
using namespace tessera::kernels;
using B = CollectiveBuilder<arch::Sm90, OpClassTensorOp, bfloat16_t, KMajor, 8, bfloat16_t, KMajor, 8, float, tuple<_128, _256, _256>, tuple<_1, _1, _1>, StageCountAuto, ScheduleAuto>;
static constexpr int s = B::Stages;
