// expect: each consumer warpgroup owns a whole tile
#include "collective/collective_builder.hpp"
using namespace tessera;
using namespace tessera::kernels;
// Ping-pong consumers each own a whole tile of one warpgroup's 64 rows: 128-row tiles are the
// cooperative schedule's.
using B = CollectiveBuilder<arch::Sm90, OpClassTensorOp, bfloat16_t, KMajor, 8, bfloat16_t, KMajor, 8, float, tuple<_128, _128, _64>,
                            tuple<_1, _1, _1>, StageCountAuto, KernelTmaWarpSpecializedPingpong>;
static constexpr int s = B::Stages;
