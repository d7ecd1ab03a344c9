// expect: tf32 wgmma reads K-major A and B only
#include "collective/collective_builder.hpp"
#include "kernel/gemm_kernel.hpp"
using namespace tessera;
using namespace tessera::kernels;
using B = CollectiveBuilder<arch::Sm90, OpClassTensorOp, float, KMajor, 4, float, MNMajor, 4, float, tuple<_128, _256, _32>, tuple<_1, _1, _1>, StageCountAuto, ScheduleAuto>;
static constexpr int s = B::Stages;
