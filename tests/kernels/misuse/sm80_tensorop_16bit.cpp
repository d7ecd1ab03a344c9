// expect: f16 or bf16 operands
#include "collective/collective_builder.hpp"
#include "kernel/gemm_kernel.hpp"
using namespace tessera;
using namespace tessera::kernels;
using B = CollectiveBuilder<arch::Sm80, OpClassTensorOp, float, KMajor, 4, float, KMajor, 4, float, tuple<_128, _256, _32>, tuple<_1, _1, _1>, StageCountAuto, ScheduleAuto>;
static constexpr int s = B::Stages;
