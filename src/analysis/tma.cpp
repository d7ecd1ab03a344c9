// TMA arguments from runtime layouts, and their printed form.
#include "tessera/analysis/tma_runtime.hpp"

#include <sstream>

#include "tessera/rt/error.hpp"

namespace tessera::analysis {

tma::Arguments derive_tma_arguments(const rt::Layout& gmem, const rt::SwizzledLayout& smem, int element_bits,
                                    const std::vector<std::int64_t>& box) {
  const int modes = int(gmem.rank());
  if (modes > tma::kMaxModes) {
    tma::Arguments a;
    a.rule = tma::Rule::gmem_rank;
    return a;
  }
  std::int64_t extent[tma::kMaxModes] = {}, stride[tma::kMaxModes] = {};
  for (int m = 0; m < modes; ++m) {
    const rt::Layout mode = gmem.mode(std::size_t(m));
    if (!mode.shape.is_leaf())
      throw rt::Error("gmem mode " + std::to_string(m) + " is " + rt::to_string(mode) +
                      ": give the global tensor with flat modes (extent:stride each), one per TMA dim");
    extent[m] = mode.shape.value();
    stride[m] = mode.stride.value();
  }
  const int tile_modes = int(smem.layout.rank());
  if (tile_modes > modes) {
    tma::Arguments a;
    a.rule = tma::Rule::smem_rank;
    return a;
  }
  std::vector<rt::Layout> tile_mode;
  std::int64_t tile_extent[tma::kMaxModes] = {};
  for (int m = 0; m < tile_modes; ++m) {
    tile_mode.push_back(smem.layout.mode(std::size_t(m)));
    tile_extent[m] = tile_mode.back().size();
  }
  if (!box.empty() && int(box.size()) != modes)
    throw rt::Error("--box has " + std::to_string(box.size()) + " entries; the global tensor has " + std::to_string(modes) +
                    " modes (one entry each, 0 to derive it)");
  std::int64_t requested[tma::kMaxModes] = {};
  for (std::size_t i = 0; i < box.size(); ++i) requested[i] = box[i];
  auto offset = [&](const std::int64_t* c) {
    std::int64_t o = 0;
    for (int m = 0; m < tile_modes; ++m) o += tile_mode[std::size_t(m)](c[m]);
    return o;
  };
  return tma::derive_arguments(element_bits, modes, extent, stride, tile_modes, tile_extent, smem.swizzle.bits,
                               smem.swizzle.base, smem.swizzle.shift, offset, box.empty() ? nullptr : requested);
}

namespace {
const char* data_type(int bytes) {
  switch (bytes) {
    case 1: return "CU_TENSOR_MAP_DATA_TYPE_UINT8";
    case 2: return "CU_TENSOR_MAP_DATA_TYPE_UINT16 (or FLOAT16, BFLOAT16: TMA copies bits)";
    case 4: return "CU_TENSOR_MAP_DATA_TYPE_UINT32 (or INT32, FLOAT32, TFLOAT32)";
    default: return "CU_TENSOR_MAP_DATA_TYPE_UINT64 (or INT64, FLOAT64)";
  }
}
template <class T>
std::string list(const T* v, int from, int to) {
  std::string s = "{";
  for (int i = from; i < to; ++i) s += (i > from ? ", " : "") + std::to_string(v[i]);
  return s + "}";
}
}  // namespace

const char* tma_swizzle_name(tma::Swizzle s) {
  static const char* name[] = {"CU_TENSOR_MAP_SWIZZLE_NONE", "CU_TENSOR_MAP_SWIZZLE_32B", "CU_TENSOR_MAP_SWIZZLE_64B",
                               "CU_TENSOR_MAP_SWIZZLE_128B"};
  return name[int(s)];
}

const char* tma_l2_promotion_name(tma::L2Promotion p) {
  static const char* name[] = {"CU_TENSOR_MAP_L2_PROMOTION_NONE", "CU_TENSOR_MAP_L2_PROMOTION_L2_64B",
                               "CU_TENSOR_MAP_L2_PROMOTION_L2_128B", "CU_TENSOR_MAP_L2_PROMOTION_L2_256B"};
  return name[int(p)];
}

std::string format_tma_arguments(const tma::Arguments& a) {
  std::ostringstream os;
  os << "cuTensorMapEncodeTiled arguments (dim 0 innermost):\n";
  os << "  tensorDataType  " << data_type(a.element_bytes) << "\n";
  os << "  tensorRank      " << a.rank << "\n";
  os << "  globalDim       " << list(a.global_dim, 0, a.rank) << "   (dim d = gmem mode " << list(a.mode_of_dim, 0, a.rank)
     << "[d])\n";
  os << "  globalStrides   " << list(a.global_stride_bytes, 1, a.rank) << "   (bytes, dims 1.." << a.rank - 1 << ")\n";
  os << "  boxDim          " << list(a.box_dim, 0, a.rank) << "\n";
  os << "  elementStrides  " << list(a.element_strides, 0, a.rank) << "\n";
  os << "  interleave      CU_TENSOR_MAP_INTERLEAVE_NONE\n";
  os << "  swizzle         " << tma_swizzle_name(a.swizzle) << "\n";
  os << "  l2Promotion     " << tma_l2_promotion_name(a.l2_promotion) << "   (the inner box row, " << a.box_dim[0] * a.element_bytes
     << " bytes)\n";
  os << "  oobFill         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE   (out-of-bounds elements arrive as zeros)\n";
  os << "per tile: " << a.boxes << (a.boxes == 1 ? " box" : " boxes") << " of " << a.box_bytes << " bytes";
  if (a.boxes > 1) os << " (" << list(a.boxes_per_dim, 0, a.rank) << " per dim)";
  os << "\nrequires: globalAddress 16-byte aligned; the smem tile 128-byte aligned";
  if (a.swizzle != tma::Swizzle::none)
    os << " and on the swizzle's " << 8 * (16 << int(a.swizzle)) << "-byte repeat";
  os << "\n";
  return os.str();
}

}  // namespace tessera::analysis
