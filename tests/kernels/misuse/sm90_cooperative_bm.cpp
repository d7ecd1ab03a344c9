// expect: BM is 64, 128 (a consumer warpgroup per 64 rows) or 256
#include "collective/collective_builder.hpp"
using namespace tessera;
using namespace tessera::kernels;
// The cooperative kernel's consumer warpgroups split the tile along M into one 64-row wgmma atom
// each (BM 64, 128) or two (BM 256): a 192-row tile would be three warpgroups' or an uneven repeat.
using B = CollectiveBuilder<arch::Sm90, OpClassTensorOp, bfloat16_t, KMajor, 8, bfloat16_t, KMajor, 8, float, tuple<C<192>, _128, _64>,
                            tuple<_1, _1, _1>, StageCountAuto, KernelTmaWarpSpecializedCooperative>;
static constexpr int s = B::Stages;
