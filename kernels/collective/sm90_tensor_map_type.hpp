// The tensor-map element type of an SM90 collective's element type (host code: the
// collectives' to_underlying_arguments encode their tensor maps with it).
#pragma once

#include <cuda.h>

#include <type_traits>

#include <tessera/atom/numeric.hpp>

namespace tessera::kernels::sm90 {

template <class T>
constexpr CUtensorMapDataType tensor_map_type_of() {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, bfloat16_t> || std::is_same_v<T, half_t> ||
                    std::is_same_v<T, float_e4m3_t> || std::is_same_v<T, float_e5m2_t>,
                "the SM90 collectives' tensor maps hold f32, bf16, f16 or FP8");
  // (TMA moves FP8 as bytes: the tensor map has no 8-bit float type, and needs none)
  if constexpr (sizeof(T) == 1) return CU_TENSOR_MAP_DATA_TYPE_UINT8;
  else return std::is_same_v<T, float> ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32
                                  : std::is_same_v<T, bfloat16_t> ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
}

}  // namespace tessera::kernels::sm90
