// expect: split-K: clusters along M only
#include "kernel/sm90_tile_scheduler.cuh"
using namespace tessera::kernels::sm90;
// Split-K's arrival counters and partial slices count a tile's CTAs along M.
const auto s = SplitKTileScheduler::to_underlying_arguments<128, 64, 64, 1, 2>(1024, 1024, 1024, 1, {});
