// expect: the epilogue is EpilogueTmaStore
#include "collective/collective_builder.hpp"
using namespace tessera;
using namespace tessera::kernels;
// An epilogue tree is stored from the registers (the tree epilogue): the ping-pong kernel needs
// a staging slot per consumer, so it takes no tree.
struct AnyTree;
using B = CollectiveBuilder<arch::Sm90, OpClassTensorOp, bfloat16_t, KMajor, 8, bfloat16_t, KMajor, 8, float, tuple<_64, _128, _64>,
                            tuple<_1, _1, _1>, StageCountAuto, KernelTmaWarpSpecializedPingpong>;
using E = CollectiveEpilogueBuilder<B, bfloat16_t, 8, EpilogueTree<AnyTree>>::CollectiveOp;
