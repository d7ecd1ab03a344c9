// expect: or BM 256 with the row scales of A
#include "collective/collective_builder.hpp"
using namespace tessera;
using namespace tessera::kernels;
// The D^T block-scaled kernels read one 128 x 128 scale block of their A per tile and k-tile: a
// 256-row tile would straddle two. Only the row scales of A (the tokens along M) take 256 rows.
using B = CollectiveBuilder<arch::Sm90, OpClassTensorOp, float_e4m3_t, KMajor, 16, float_e4m3_t, KMajor, 16, float, tuple<_256, _128, _128>,
                            tuple<_2, _1, _1>, StageCountAuto, KernelTmaWarpSpecializedCooperativeFp8BlockScaled>;
static constexpr int s = B::Stages;
