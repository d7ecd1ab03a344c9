// One SM90 kernel type in two TUs: the library's copy of the ping-pong kernel
// (sm90_instances_pingpong.cu, through the device entry that tessera::gemm uses) and this TU's
// own (GemmSm90<Pingpong<bf16>> instantiated here, as a user's or the bench's code does), run
// alternately on one problem. nvcc 13 gives each TU its own stub and device module; a cache of
// the shared-memory opt-in keyed by kernel type (not by entry: kernels/device/entry_cache.hpp)
// would launch the second copy without it, which fails with "invalid argument". Every run must succeed
// and match the FP64 reference. Exits 77 (skipped) without an sm_90 GPU.
#include <cstdio>

#include "../../kernels/device/sm90_instance.hpp"
#include "../../kernels/device/sm90_kernel_set.cuh"
#include "../../tools/harness/sm90_gemm_check.hpp"

using namespace tessera;
namespace set = tessera::kernels::device::sm90_set;

int main() {
  int devices = 0;
  cudaDeviceProp prop{};
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0 || cudaGetDeviceProperties(&prop, 0) != cudaSuccess ||
      prop.major != 9) {
    std::printf("no sm_90 GPU: skipped\n");
    return 77;
  }
  using Kernel = set::Pingpong<bfloat16_t>;
  int failures = 0;
  const char* order = "oloolo";  // o: this TU's copy, l: the library's
  for (int i = 0; order[i]; ++i) {
    sm90_check::Problem<bfloat16_t> p(512, 384, 256, 1, false, 1.0f, 0.0f, 1000 + i, "TN");
    const kernels::GemmArguments g = kernels::sm90::as_column_major_d(p.args);
    kernels::GemmResult r;
    if (order[i] == 'o') {
      kernels::sm90::GemmSm90<Kernel> op;
      r = op.initialize(g);
      if (r) r = op.run(nullptr);
    } else {
      r = kernels::device::sm90_entry::run<Kernel>(g, nullptr, false, nullptr);
    }
    const cudaError_t e = cudaDeviceSynchronize();
    double rel = 0;
    int64_t nans = 0;
    const bool ok = r && e == cudaSuccess && p.verify(rel, nans);
    std::printf("run %d, %s copy: %s (rel %.2e)%s%s%s%s\n", i, order[i] == 'o' ? "this TU's" : "the library's",
                ok ? "ok" : "FAILED", rel, r ? "" : " ", r ? "" : r.message.c_str(), e == cudaSuccess ? "" : " ",
                e == cudaSuccess ? "" : cudaGetErrorString(e));
    failures += !ok;
  }
  std::printf("%s\n", failures ? "FAILED" : "every run ok");
  return failures ? 1 : 0;
}
