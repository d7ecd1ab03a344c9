// expect: no collective for this (arch, op class)
#include "collective/collective_builder.hpp"
#include "kernel/gemm_kernel.hpp"
using namespace tessera;
using namespace tessera::kernels;
struct Sm75 { static constexpr int value = 75; static constexpr int smem_capacity = 64 * 1024; };
using B = CollectiveBuilder<Sm75, OpClassTensorOp, half_t, KMajor, 8, half_t, KMajor, 8, float, tuple<_128, _256, _32>, tuple<_1, _1, _1>, StageCountAuto, ScheduleAuto>::CollectiveOp;
