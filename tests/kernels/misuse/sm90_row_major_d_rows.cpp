// expect: a row-major staging tile holds whole 128-byte rows
#include "collective/collective_builder.hpp"
using namespace tessera;
using namespace tessera::kernels;
// A row-major D stages whole 128-byte rows of the K-major atom (64 16-bit columns): a 96-column
// tile has none to give its third TMA box.
using B = CollectiveBuilder<arch::Sm90, OpClassTensorOp, bfloat16_t, KMajor, 8, bfloat16_t, KMajor, 8, float, tuple<_128, C<96>, _64>,
                            tuple<_2, _1, _1>, StageCountAuto, KernelTmaWarpSpecializedCooperative>;
using E = CollectiveEpilogueBuilder<B, bfloat16_t, 8, EpilogueTmaStoreRowMajor>::CollectiveOp;
E* e = nullptr;
