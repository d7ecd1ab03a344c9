// Algorithms on tensors (static tier, host and device): copy / copy_if through copy atoms and
// tiled copies, gemm through MMA atoms and tiled MMAs, axpby, convert, fill, clear, transform, and
// the cp.async fence / wait.  Host code may include this: device instructions are issued
// only under __CUDA_ARCH__; on the host each atom is emulated from its TV layouts
// (tessera/algorithm/host_warp.hpp runs warp-wide atoms).
#pragma once

#include "tessera/algorithm/axpby.hpp"
#include "tessera/algorithm/convert.hpp"
#include "tessera/algorithm/copy.hpp"
#include "tessera/algorithm/copy_predicate.hpp"
#include "tessera/algorithm/cp_async.hpp"
#include "tessera/algorithm/fill.hpp"
#include "tessera/algorithm/gemm.hpp"
#include "tessera/algorithm/swizzle_fold.hpp"
#include "tessera/algorithm/transform.hpp"
#include "tessera/tessera.hpp"  // the static tier a kernel is written with: layouts, tile_to_shape, swizzles
#include "tessera/tiled_copy.hpp"
#include "tessera/tiled_mma.hpp"
