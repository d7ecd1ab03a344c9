// expect: the tile is 128x128x8 or 128x128x16
#include "collective/collective_builder.hpp"
#include "kernel/gemm_kernel.hpp"
using namespace tessera;
using namespace tessera::kernels;
using B = CollectiveBuilder<arch::Sm80, OpClassSimt, float, KMajor, 1, float, KMajor, 1, float, tuple<_64, _64, _8>, tuple<_1, _1, _1>, StageCountAuto, ScheduleAuto>;
static constexpr int s = B::Stages;
