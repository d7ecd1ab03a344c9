// expect: traced_t: this collective takes no trace policy
#include "collective/collective_builder.hpp"
#include "kernel/gemm_kernel.hpp"
using namespace tessera;
using namespace tessera::kernels;
struct SomeTrace;
using B = CollectiveBuilder<arch::Sm90, OpClassTensorOp, bfloat16_t, KMajor, 8, bfloat16_t, KMajor, 8, float,
                            tuple<_128, _256, _64>, tuple<_2, _1, _1>, StageCountAuto, ScheduleAuto>;
using T = traced_t<B::CollectiveOp, SomeTrace>;
