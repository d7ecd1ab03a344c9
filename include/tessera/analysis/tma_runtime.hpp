#pragma once
// TMA arguments from runtime layouts (the CLI's `tessera tma`), on the core of tma.hpp.
#include <string>
#include <vector>

#include "tessera/rt/layout.hpp"
#include "tessera/analysis/tma.hpp"

namespace tessera::analysis {

// gmem: flat modes (each an integer extent and stride, in elements); smem: the tile one
// stage fills, mode i covering gmem mode i. `box`: empty to derive the box, else one entry
// per gmem mode (0: derive that one). Hierarchical gmem modes throw rt::Error.
tma::Arguments derive_tma_arguments(const rt::Layout& gmem, const rt::SwizzledLayout& smem, int element_bits,
                                    const std::vector<std::int64_t>& box = {});

// The arguments as the cuTensorMapEncodeTiled call takes them (CU_* enum names), one per line.
std::string format_tma_arguments(const tma::Arguments& a);

// The CU_TENSOR_MAP_SWIZZLE_* and CU_TENSOR_MAP_L2_PROMOTION_* enumerators, as the text
// above and `tessera tma --json` spell them.
const char* tma_swizzle_name(tma::Swizzle s);
const char* tma_l2_promotion_name(tma::L2Promotion p);

}  // namespace tessera::analysis
