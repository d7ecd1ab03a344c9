// expect: TMA needs 16-byte aligned operands
#include "collective/collective_builder.hpp"
#include "kernel/gemm_kernel.hpp"
using namespace tessera;
using namespace tessera::kernels;
using B = CollectiveBuilder<arch::Sm90, OpClassTensorOp, bfloat16_t, KMajor, 4, bfloat16_t, KMajor, 8, float, tuple<_128, _256, _64>, tuple<_1, _1, _1>, StageCountAuto, ScheduleAuto>;
static constexpr int s = B::Stages;
