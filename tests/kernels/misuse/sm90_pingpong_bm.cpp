// expect: each consumer warpgroup owns a whole tile
#include "collective/collective_builder.hpp"
using namespace tessera;
using namespace tessera::kernels;
// Ping-pong consumers each own a whole tile of one or two 64-row wgmma atoms: a 256-row tile
// would be four atoms (256 accumulators per thread at BN 128).
using B = CollectiveBuilder<arch::Sm90, OpClassTensorOp, bfloat16_t, KMajor, 8, bfloat16_t, KMajor, 8, float, tuple<_256, _128, _64>,
                            tuple<_1, _1, _1>, StageCountAuto, KernelTmaWarpSpecializedPingpong>;
static constexpr int s = B::Stages;
