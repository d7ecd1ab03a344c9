// expect: Stream-K: clusters along M only
#include "kernel/sm90_stream_k_tile_scheduler.hpp"
using namespace tessera::kernels::sm90;
// A Stream-K partial's slot and its fix-up's walk count a tile's CTAs along M: a cluster of two
// CTAs along N has no slot for its second CTA.
const auto s = StreamKTileScheduler::to_underlying_arguments<128, 64, 64, 1, 2>(1024, 1024, 1024, 1, {});
