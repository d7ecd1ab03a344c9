// expect: A and B have one element type (or two FP8 types: e4m3, e5m2)
#include "collective/collective_builder.hpp"
#include "kernel/gemm_kernel.hpp"
using namespace tessera;
using namespace tessera::kernels;
using B = CollectiveBuilder<arch::Sm90, OpClassTensorOp, float_e4m3_t, KMajor, 16, bfloat16_t, KMajor, 8, float, tuple<_128, _256, _128>, tuple<_2, _1, _1>, StageCountAuto, ScheduleAuto>;
static constexpr int s = B::Stages;
