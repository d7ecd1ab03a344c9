// expect: BN at most 128 (each consumer warpgroup's
#include "collective/collective_builder.hpp"
using namespace tessera;
using namespace tessera::kernels;
// The cooperative 256-row tile gives each of its two consumer warpgroups 128 rows (two wgmma
// atoms along M): at BN 256 that is 256 f32 accumulators per thread, more than a thread's
// registers hold beside the rest.
using B = CollectiveBuilder<arch::Sm90, OpClassTensorOp, bfloat16_t, KMajor, 8, bfloat16_t, KMajor, 8, float, tuple<_256, _256, _64>,
                            tuple<_1, _1, _1>, StageCountAuto, KernelTmaWarpSpecializedCooperative>;
static constexpr int s = B::Stages;
