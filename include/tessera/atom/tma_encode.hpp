#pragma once
// Host side of the TMA atoms: the CUtensorMap of a global tensor from the derived arguments
// (cuTensorMapEncodeTiled, reached through the runtime's driver entry point, so programs
// need not link libcuda). CUDA headers required; host code only.
#include <cuda.h>
#include <cuda_runtime.h>

#include "tessera/atom/tma_arguments.hpp"

namespace tessera::tma {

// CUDA_SUCCESS, or the driver's error (CUDA_ERROR_NOT_FOUND when the entry point is missing).
inline CUresult encode_tensor_map(CUtensorMap* map, Arguments const& a, void const* global_address, CUtensorMapDataType type) {
  using Encode = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*, const cuuint64_t*,
                              const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave, CUtensorMapSwizzle,
                              CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
  static Encode encode = [] {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &found) != cudaSuccess)
      fn = nullptr;
    return reinterpret_cast<Encode>(fn);
  }();
  if (encode == nullptr) return CUDA_ERROR_NOT_FOUND;
  if (a.rule != Rule::ok) return CUDA_ERROR_INVALID_VALUE;
  cuuint64_t gdim[kMaxRank] = {}, gstride[kMaxRank] = {};
  cuuint32_t box[kMaxRank] = {}, estride[kMaxRank] = {};
  for (int d = 0; d < a.rank; ++d) {
    gdim[d] = cuuint64_t(a.global_dim[d]);
    box[d] = cuuint32_t(a.box_dim[d]);
    estride[d] = cuuint32_t(a.element_strides[d]);
    if (d >= 1) gstride[d - 1] = cuuint64_t(a.global_stride_bytes[d]);
  }
  const CUtensorMapSwizzle swizzle[] = {CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_SWIZZLE_32B, CU_TENSOR_MAP_SWIZZLE_64B,
                                        CU_TENSOR_MAP_SWIZZLE_128B};
  const CUtensorMapL2promotion l2[] = {CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_64B,
                                       CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B};
  return encode(map, type, cuuint32_t(a.rank), const_cast<void*>(global_address), gdim, gstride, box, estride,
                CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle[int(a.swizzle)], l2[int(a.l2_promotion)],
                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

}  // namespace tessera::tma
