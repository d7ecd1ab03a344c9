// Device layer: argument checks, configuration choice, launch (the kernels themselves are
// compiled in device/instances/, see configs.cuh).
#include <cuda_runtime.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <type_traits>

#include "tessera/kernels/gemm.hpp"
#include "configs.cuh"
#include "gemm_configuration.hpp"
#include "sm90_dispatch.hpp"

namespace tessera::kernels {

namespace {
using device::simt_128x128x8_s3;
using device::tensorop_128x256x32_s4;

// The tensor-core configuration for the arguments' element type and copy path: f(bf16, vec)
// with both as std::bool_constant, so the launch and the workspace query cannot disagree.
template <class F>
decltype(auto) with_tensorop(const GemmArguments& args, GemmKernel kernel, F&& f) {
  auto go = [&](auto bf16) {
    return kernel == GemmKernel::TensorOpVec8 ? f(bf16, std::true_type{}) : f(bf16, std::false_type{});
  };
  return args.element == Element::BF16 ? go(std::true_type{}) : go(std::false_type{});
}
// Fused epilogues (a bias, an activation, D in another type: GemmArguments::epilogue) run on
// the sm_90 kernel only; the sm_80 and SIMT kernels refuse them rather than compute less
// than was asked.
GemmResult refuse_fused(const GemmArguments& args, const GemmResult& sm90) {
  if (is_fp8(args.element))  // (no 8-bit path on the sm_80 and SIMT kernels)
    return {sm90.status == GemmStatus::Success ? GemmStatus::Unsupported : sm90.status,
            std::string(to_string(args.element)) + " x " + to_string(element_b(args)) +
                " inputs run on the sm90 TMA + wgmma kernel only (an sm_90 GPU); it cannot run these arguments: " + sm90.message};
  return {GemmStatus::Unsupported,
          std::string("fused epilogues (bias ") + to_string(args.epilogue.bias) + ", activation " + to_string(args.epilogue.activation) +
              ", D in " + to_string(output_element(args)) + " from " + to_string(args.element) +
              " inputs) run on the sm90 TMA + wgmma kernel only (bf16/f16 inputs, D in their type or f32, an sm_90 GPU); it "
              "cannot run these arguments: " + sm90.message};
}

// The current device's compute capability and SM count, asked once per device.
DeviceInfo device_info() {
  constexpr int kDevices = 64;
  static std::atomic<long long> known[kDevices];  // 0: not yet asked; else cc_major << 32 | SMs
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) {
    cudaGetLastError();
    return {};
  }
  if (dev >= 0 && dev < kDevices)
    if (const long long k = known[dev].load(std::memory_order_relaxed); k != 0) return {int(k >> 32), int(k & 0xffffffff)};
  DeviceInfo d;
  if (cudaDeviceGetAttribute(&d.cc_major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&d.multiprocessors, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess) {
    cudaGetLastError();
    return {};
  }
  if (dev >= 0 && dev < kDevices) known[dev].store((long long)d.cc_major << 32 | d.multiprocessors, std::memory_order_relaxed);
  return d;
}
}  // namespace

GemmResult can_implement(const GemmArguments& args) {
  if (auto r = check_arguments(args); !r) return r;
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) {
    cudaGetLastError();
    return {GemmStatus::NoDevice, "no CUDA device is available"};
  }
  int major = 0;
  if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess || major < 8)
    return {GemmStatus::Unsupported, "the kernels need compute capability 8.0 or newer (cp.async, mma.sync bf16)"};
  if (is_fused(args))
    if (auto r = device::sm90_can_implement(args); !r) return refuse_fused(args, r);
  return {};
}

namespace {
// The SM90 kernel's workspace for arguments it takes (the tf32 kernel runs whole tiles only).
std::size_t sm90_workspace(const GemmArguments& args) {
  return args.element != Element::F32 ? device::sm90_workspace_size(args) : 0;
}
// Fused epilogues run unsplit. FP8 inputs count as fused (their D is never their type: only the
// sm90 kernels run them), but a plain FP8 product is no fusion of the FP8 kernels, whose list
// has Stream-K kernels: the dispatch says whether one takes it.
bool runs_unsplit(const GemmArguments& args) {
  const bool plain_fp8 = is_fp8(args.element) && args.epilogue.activation == Activation::Identity && args.epilogue.bias == Bias::None;
  return is_fused(args) && !plain_fp8;
}
}  // namespace

std::size_t gemm_workspace_size(const GemmArguments& args, GemmKernel kernel) {
  if (!check_arguments(args) || runs_unsplit(args)) return 0;
  switch (kernel) {
    case GemmKernel::Sm90TmaWgmma:
      return device::sm90_can_implement(args) ? sm90_workspace(args) : 0;
    case GemmKernel::SimtF32:
      return 0;
    case GemmKernel::TensorOpVec8:
    case GemmKernel::TensorOpScalar:
      // (0 where gemm(args, kernel) refuses: the kernel's contract answers)
      return with_tensorop(args, kernel, [&](auto bf16, auto vec) {
        return device::tensorop_workspace_size<tensorop_128x256x32_s4, decltype(bf16)::value, decltype(vec)::value>(args);
      });
  }
  return 0;
}

// The kernel gemm(args) runs on the current device, chosen as gemm() chooses it: the workspace
// asked for is that kernel's alone (a caller that allocates per call pays for no other's).
std::size_t gemm_workspace_size(const GemmArguments& args) {
  if (!check_arguments(args) || runs_unsplit(args)) return 0;
  const GemmConfiguration c = select_configuration(args, device_info());
  if (!c.status) return 0;
  if (c.kernel == GemmKernel::Sm90TmaWgmma)  // (one check of the SM90 kernel, as gemm() makes it)
    return device::sm90_can_implement(args) ? sm90_workspace(args) : gemm_workspace_size(args, select_kernel(args));
  return gemm_workspace_size(args, c.kernel);
}

GemmResult gemm(const GemmArguments& args, CUstream_st* stream) {
  if (auto r = check_arguments(args); !r) return r;
  // On sm_90 the TMA + wgmma kernel takes what it can (bf16/f16, aligned; f32 with
  // allow_tf32, TN); the sm_80 and SIMT kernels the rest, and every other device: the choice
  // is select_configuration's (gemm_configuration.hpp, tested on the host).
  const GemmConfiguration c = select_configuration(args, device_info());
  if (c.status && c.kernel == GemmKernel::Sm90TmaWgmma) {
    if (auto r = device::sm90_can_implement(args); r) return device::run_sm90(args, stream);
    else if (is_fused(args)) return refuse_fused(args, r);
    return gemm(args, select_kernel(args), stream);
  }
  if (!c.status) return refuse_fused(args, device::sm90_can_implement(args));
  return gemm(args, c.kernel, stream);
}

GemmResult gemm(const GemmArguments& args, GemmKernel kernel, CUstream_st* stream) {
  if (auto r = check_arguments(args); !r) return r;
  if (kernel == GemmKernel::Sm90TmaWgmma) {
    if (auto r = device::sm90_can_implement(args); !r) return r;
    return device::run_sm90(args, stream);
  }
  // The kernel's device adapter (gemm_adapter.cuh) asks the kernel's contract what it takes
  // (element type, majors, the copies' alignment, fused epilogues, the grid: the reason names
  // the field), plans and launches.
  switch (kernel) {
    case GemmKernel::SimtF32:
      return device::run_simt<simt_128x128x8_s3>(args, stream);
    case GemmKernel::TensorOpVec8:
    case GemmKernel::TensorOpScalar:
      return with_tensorop(args, kernel, [&](auto bf16, auto vec) {
        return device::run_tensorop<tensorop_128x256x32_s4, decltype(bf16)::value, decltype(vec)::value>(args, stream);
      });
    case GemmKernel::Sm90TmaWgmma:
      break;  // handled above
  }
  return {GemmStatus::Unsupported, "unknown kernel configuration"};
}

}  // namespace tessera::kernels
