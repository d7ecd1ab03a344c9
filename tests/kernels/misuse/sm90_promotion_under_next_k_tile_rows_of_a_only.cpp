// expect: the promotion under the next k-tile: the block-scaled mainloop with row scales of A, consumers together
#include "collective/sm90_dispatch_policy.cuh"
using namespace tessera::kernels::sm90;
// (the two sets of partial sums are built for the rows kernel's 64 + 2 x 64 registers; the D^T
// block-scaled kernels and the turns keep one set)
using P = MainloopTmaWarpSpecializedCooperative<4, 2, 2, true, ConsumerIssue::Together, ScaledRows::RowsOfB, BlockPromotion::UnderNextKTile>;
static constexpr int s = P::Stages;
