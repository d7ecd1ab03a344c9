// GPU check of the SM90 GEMM (TMA + wgmma, warp-specialized, persistent; sm_90a) against an
// FP64 reference: fresh random inputs, poisoned (NaN) outputs, whole tiles and residues in M,
// N and K, M or N below one tile, batches, both D majors, alpha/beta; bf16 and f16; f32 as
// tf32 (allow_tf32, TN) with a tf32 tolerance.
// Through the device layer's entry (device::run_sm90, what tessera::gemm calls on sm_90).
// Exit 0: all pass; 1: a failure (printed); 77: no sm_90 GPU.
#include <cstdio>
#include <string>

#include "../../kernels/device/sm90_dispatch.hpp"
#include "sm90_gemm_check.hpp"

using namespace tessera;

template <class T>
int check(int64_t m, int64_t n, int64_t k, int64_t l, bool d_row, float alpha, float beta, const char* layout = "TN") {
  sm90_check::Problem<T> p(m, n, k, l, d_row, alpha, beta, uint64_t(m * 1000003 + n * 1009 + k + l), layout);
  auto r = kernels::device::run_sm90(p.args, nullptr);
  const cudaError_t e = cudaDeviceSynchronize();
  double rel = 0;
  int64_t nans = 0;
  const bool ok = r && e == cudaSuccess && p.verify(rel, nans);
  std::printf("%-4s %s %5lld x %5lld x %5lld x %lld D %s alpha %g beta %g: %s (rel %.2e, %lld NaN)%s%s\n",
              std::is_same_v<T, float> ? "tf32" : std::is_same_v<T, bfloat16_t> ? "bf16" : "f16", layout, (long long)m, (long long)n, (long long)k, (long long)l,
              d_row ? "row" : "col", alpha, beta, ok ? "ok" : "FAIL", rel, (long long)nans, r ? "" : " ", r ? "" : r.message.c_str());
  if (e != cudaSuccess) std::printf("  %s\n", cudaGetErrorString(e));
  return ok ? 0 : 1;
}

int main(int argc, char** argv) {
  int dev = 0, major = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess ||
      major != 9) {
    std::printf("skipped: no sm_90 GPU\n");
    return 77;
  }
  const bool small_only = argc > 1 && std::string(argv[1]) == "--small";  // (compute-sanitizer)
  int fails = 0;
  fails += check<bfloat16_t>(128, 256, 64, 1, false, 1, 0);     // one tile, one k-tile
  fails += check<bfloat16_t>(129, 257, 72, 1, false, 1, 0);     // residues in M, N, K
  fails += check<bfloat16_t>(200, 300, 40, 1, true, 1, 0);      // the same, D row-major
  fails += check<bfloat16_t>(136, 264, 72, 1, false, 1, 0, "NT");  // both MN-major, residues
  if (!small_only) {
    fails += check<bfloat16_t>(256, 512, 1024, 1, true, 1, 0);
    fails += check<bfloat16_t>(1000, 1000, 1000, 1, false, 1, 0);
    fails += check<bfloat16_t>(100, 3000, 512, 1, false, 1, 0);   // M below one tile
    fails += check<bfloat16_t>(3000, 40, 256, 1, true, 1, 0);     // N below one tile
    fails += check<bfloat16_t>(777, 555, 328, 3, false, 2, -1);   // batched, alpha/beta
    fails += check<bfloat16_t>(512, 768, 8, 1, true, 1, 0.5f);    // K below one k-tile
    fails += check<bfloat16_t>(4096, 4096, 4096, 1, false, 1, 0); // many tiles per CTA (sampled)
    fails += check<half_t>(1000, 1000, 1000, 1, false, 1, 0);
    fails += check<half_t>(129, 257, 72, 2, true, -1, 1);
    // MN-major operands (M, N multiples of 8: TMA strides are 16-byte multiples)
    for (const char* layout : {"NT", "NN", "TT"}) {
      fails += check<bfloat16_t>(136, 264, 72, 1, false, 1, 0, layout);
      fails += check<bfloat16_t>(1000, 1000, 1000, 2, true, 1, 0.5f, layout);
      fails += check<bfloat16_t>(2048, 2048, 2048, 1, false, 1, 0, layout);
    }
    fails += check<half_t>(1000, 1000, 1000, 1, false, 1, 0, "NT");
    // f32 inputs as tf32 (TN only): residues (K a multiple of 4: 16-byte TMA strides), both D
    // majors, batches, alpha/beta, many tiles per CTA.
    fails += check<float>(1000, 1000, 1000, 1, false, 1, 0);
    fails += check<float>(777, 555, 332, 3, true, 2, -1);
    fails += check<float>(100, 3000, 36, 1, false, 1, 0.5f);
    fails += check<float>(4096, 4096, 4096, 1, true, 1, 0);
  }
  fails += check<float>(129, 257, 68, 1, false, 1, 0);  // one CTA tile and residues in M, N, K
  // What the kernel does not take is refused, not run: f32, misaligned leading dimensions
  // (an MN-major A with M = 60).
  {
    sm90_check::Problem<bfloat16_t> p(64, 64, 64, 1, false, 1, 0, 1);
    auto g = p.args;
    g.a.major = kernels::Major::Col;
    g.m = 60;
    g.a.ld = 60;
    const bool refused_major = kernels::device::sm90_can_implement(g).status == kernels::GemmStatus::Misaligned;
    g = p.args;
    g.k = 60;
    g.a.ld = 60;
    const bool refused_ld = kernels::device::sm90_can_implement(g).status == kernels::GemmStatus::Misaligned;
    g = p.args;
    g.element = kernels::Element::F32;
    const bool refused_f32 = !kernels::device::sm90_can_implement(g);  // f32 without allow_tf32
    // f32 as tf32: MN-major operands (the ISA's tf32 wgmma is K-major only) and a K that
    // leaves rows off 16 bytes.
    sm90_check::Problem<float> q(64, 64, 64, 1, false, 1, 0, 2, "NT");
    const auto nt = kernels::device::sm90_can_implement(q.args);
    const bool refused_tf32_nt = nt.status == kernels::GemmStatus::Unsupported && nt.message.find("K-major") != std::string::npos;
    sm90_check::Problem<float> r(64, 64, 66, 1, false, 1, 0, 3);
    const bool refused_tf32_ld = kernels::device::sm90_can_implement(r.args).status == kernels::GemmStatus::Misaligned;
    const bool ok = refused_major && refused_ld && refused_f32 && refused_tf32_nt && refused_tf32_ld;
    std::printf("refusals (MN-major A with M = 60, K-major A with K = 60, f32 without allow_tf32, tf32 NT, tf32 K = 66): %s\n",
                ok ? "ok" : "FAIL");
    if (!refused_tf32_nt) std::printf("  tf32 NT: %s\n", nt.message.c_str());
    fails += !ok;
  }
  std::printf("%s: %d failing check(s)\n", fails ? "FAILED" : "PASSED", fails);
  return fails ? 1 : 0;
}
