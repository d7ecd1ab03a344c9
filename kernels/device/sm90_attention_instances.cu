// tessera::attention: the SM90 forward kernels (bf16 and f16, head dims 64, 128 and 256: six
// kernels, the causal mask a runtime flag) and the host API.
#include "sm90_attention.cuh"

namespace tessera::kernels {

namespace att = sm90::attention;

AttentionResult can_implement(const AttentionArguments& args) {
  if (auto r = check_arguments(args); !r) return r;
  int device = 0, major = 0, minor = 0;
  if (cudaGetDevice(&device) != cudaSuccess || cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess) {
    cudaGetLastError();
    return {AttentionStatus::NoDevice, "no CUDA device"};
  }
  if (major != 9 || minor != 0) return {AttentionStatus::NoDevice, "the attention kernel needs an sm_90 (Hopper) device"};
  return {};
}

std::size_t attention_workspace_size(const AttentionArguments& args) {
  const bool counter = att::tile_assignment(args.grid, args.mask == AttentionMask::Causal, args.cu_seqlens_q != nullptr, true) ==
                       att::TileAssignment::counter;
  return counter ? attention_counter_bytes : 0;
}

AttentionResult attention(const AttentionArguments& args, CUstream_st* stream) {
  if (auto r = can_implement(args); !r) return r;
  const bool bf16 = args.element == AttentionElement::BF16;
  if (args.head_dim == 64)
    return bf16 ? att::Sm90Attention<att::DefaultConfig<bfloat16_t, 64>>::run(args, stream)
                : att::Sm90Attention<att::DefaultConfig<half_t, 64>>::run(args, stream);
  if (args.head_dim == 128)
    return bf16 ? att::Sm90Attention<att::DefaultConfig<bfloat16_t, 128>>::run(args, stream)
                : att::Sm90Attention<att::DefaultConfig<half_t, 128>>::run(args, stream);
  return bf16 ? att::Sm90Attention<att::DefaultConfig<bfloat16_t, 256>>::run(args, stream)
              : att::Sm90Attention<att::DefaultConfig<half_t, 256>>::run(args, stream);
}

}  // namespace tessera::kernels
