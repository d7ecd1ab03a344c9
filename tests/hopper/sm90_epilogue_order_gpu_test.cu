// GPU check of the cooperative SM90 kernel with the epilogue under the next tile
// (OverlappedEpilogueGemm: 128x256x64, clusters of 2, whole tiles, the tile's values packed,
// the next tile's first k-tiles issued, then the staging and TMA store), both D majors, bf16
// (f16 differs only in the conversion instruction; the probe tools/device/sm90_epi_probe.cu
// builds it): against the FP64 reference with a poisoned (NaN) D, then bit for bit against the
// same kernel with the epilogue after the tile (the same wgmmas and conversions: every
// element equal) run on the same inputs with D poisoned again. Shapes: residues in M, N and
// K, batches, K below one k-tile and below the head's k-tiles, and problems with many tiles
// per CTA (the deferred stores, each under the next tile's head, and each CTA's last store
// after its loop). And the problems the kernel does not pack, which it runs after the tile
// through its second entry (the shipped plain kernels are the dispatch's catch-all): beta != 0 (C through TMA), an
// activation (the direct stores), a D TMA cannot store (the direct stores), each against
// FP64 and bit for bit against the kernel with the epilogue after the tile.
// Exit 0: all pass; 1: a failure (printed); 77: no sm_90 GPU.
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "../../kernels/device/sm90_gemm.cuh"
#include "../../tools/harness/sm90_gemm_check.hpp"

using namespace tessera;
namespace s9 = tessera::kernels::sm90;
using kernels::Major;

namespace {

template <class Kernel, class T>
kernels::GemmResult launch(sm90_check::Problem<T>& p, Major kernel_d) {
  s9::GemmSm90<Kernel> op;
  if (auto r = op.initialize(s9::oriented(p.args, kernel_d)); !r) return r;
  if (auto r = op.run(); !r) return r;
  if (cudaDeviceSynchronize() != cudaSuccess) return {kernels::GemmStatus::LaunchFailed, cudaGetErrorString(cudaGetLastError())};
  return {};
}

template <class T>
std::vector<T> output(const sm90_check::Problem<T>& p) {
  std::vector<T> d(p.c.size());
  SM90_CUDA(cudaMemcpy(d.data(), p.dd, d.size() * sizeof(T), cudaMemcpyDeviceToHost));
  return d;
}

// The problem (caller's D major d_row) on the kernel of D major kernel_d, both epilogue orders.
template <class T, Major KernelD>
int check(int64_t m, int64_t n, int64_t k, int64_t l, bool d_row, float alpha) {
  using New = s9::OverlappedEpilogueGemm<T, 2, KernelD>;
  using Old = s9::SerialEpilogueGemm<T, KernelD>;
  sm90_check::Problem<T> p(m, n, k, l, d_row, alpha, 0.0f, uint64_t(m * 7001 + n * 13 + k * 3 + l), "TN");
  const auto r_new = launch<New>(p, KernelD);
  double rel = 0;
  int64_t nans = 0;
  const bool near = r_new && p.verify(rel, nans);
  const std::vector<T> mine = output(p);
  p.poison();
  const auto r_old = launch<Old>(p, KernelD);
  const std::vector<T> theirs = output(p);
  int64_t differ = 0;
  for (size_t i = 0; i < mine.size(); ++i) differ += std::memcmp(&mine[i], &theirs[i], sizeof(T)) != 0;
  const bool ok = near && r_old && differ == 0;
  std::printf("%-4s TN kernel D %s %5lld x %5lld x %5lld x %lld D %s alpha %g: %s (rel %.2e, %lld NaN, %lld of %zu differ from the "
              "epilogue after the tile)%s%s%s%s\n",
              std::is_same_v<T, bfloat16_t> ? "bf16" : "f16", KernelD == Major::Row ? "row" : "col", (long long)m, (long long)n,
              (long long)k, (long long)l, d_row ? "row" : "col", alpha, ok ? "ok" : "FAIL", rel, (long long)nans, (long long)differ,
              mine.size(), r_new ? "" : " new: ", r_new ? "" : r_new.message.c_str(), r_old ? "" : " old: ",
              r_old ? "" : r_old.message.c_str());
  return ok ? 0 : 1;
}

// A problem the epilogue does not pack: admitted, run after the tile in the same kernel (D
// column-major, TN).
template <class T>
int after_tile(const char* what, sm90_check::Problem<T>& p) {
  using New = s9::OverlappedEpilogueGemm<T, 2, Major::Col>;
  using Old = s9::SerialEpilogueGemm<T, Major::Col>;
  const auto g = s9::as_column_major_d(p.args);
  const bool packed = New::Epilogue::packs(s9::problem_shape_of(g), New::Epilogue::arguments_of(g));
  const auto r_new = launch<New>(p, Major::Col);
  double rel = 0;
  int64_t nans = 0;
  const bool near = r_new && p.verify(rel, nans);
  const std::vector<T> mine = output(p);
  p.poison();
  const auto r_old = launch<Old>(p, Major::Col);
  const std::vector<T> theirs = output(p);
  int64_t differ = 0;
  for (size_t i = 0; i < mine.size(); ++i) differ += std::memcmp(&mine[i], &theirs[i], sizeof(T)) != 0;
  const bool ok = !packed && near && r_old && differ == 0;
  std::printf("after the tile: %s: %s (%s, rel %.2e, %lld NaN, %lld of %zu differ)%s%s%s%s\n", what, ok ? "ok" : "FAIL",
              packed ? "packed: WRONG" : "not packed", rel, (long long)nans, (long long)differ, mine.size(), r_new ? "" : " new: ",
              r_new ? "" : r_new.message.c_str(), r_old ? "" : " old: ", r_old ? "" : r_old.message.c_str());
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  int dev = 0, major = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess ||
      major != 9) {
    std::printf("skipped: no sm_90 GPU\n");
    return 77;
  }
  const bool small_only = argc > 1 && std::string(argv[1]) == "--small";  // (compute-sanitizer)
  constexpr Major Col = Major::Col, Row = Major::Row;
  int fails = 0;
  fails += check<bfloat16_t, Col>(136, 264, 72, 1, false, 1);   // one cluster tile: the last store only; residues in M, N, K
  fails += check<bfloat16_t, Row>(136, 264, 72, 1, true, 1);
  fails += check<bfloat16_t, Col>(1024, 2048, 64, 2, false, 2);  // one k-tile per tile (below the head's two), batches, alpha
  fails += check<bfloat16_t, Row>(1024, 2048, 8, 1, true, 1);    // K below one k-tile
  fails += check<bfloat16_t, Col>(2056, 1032, 200, 3, false, 1);  // residue tiles of every batch
  if (!small_only) {
    // Many tiles per CTA (132 SMs: 66 clusters; 4096^2 is 256 cluster tiles): stores under heads
    fails += check<bfloat16_t, Col>(4096, 4096, 1024, 1, false, 1);
    fails += check<bfloat16_t, Row>(4096, 4096, 1024, 1, true, 1);
    fails += check<bfloat16_t, Row>(4096, 4096, 1000, 1, false, 1);  // a column-major D's problem transposed onto the row-major kernel
    fails += check<bfloat16_t, Row>(3000, 2992, 1000, 2, true, 0.5f);  // residues in M, N, K, batches
    fails += check<bfloat16_t, Col>(8192, 8192, 128, 1, false, 1);   // 16 tiles per CTA, two k-tiles each: the head is the mainloop
  }
  {
    sm90_check::Problem<bfloat16_t> beta(520, 264, 200, 1, false, 1, 0.5f, 3);
    fails += after_tile("beta != 0", beta);
    sm90_check::Problem<bfloat16_t> fused(520, 264, 200, 1, false, 1, 0, 4);
    fused.fuse(kernels::Activation::ReLU, kernels::Bias::None);
    fails += after_tile("an activation", fused);
    sm90_check::Problem<bfloat16_t> unaligned(129, 264, 200, 1, false, 1, 0, 5);  // ld 129: no TMA store of D
    fails += after_tile("a D TMA cannot store", unaligned);
  }
  std::printf("%s\n", fails == 0 ? "all passed" : "FAILED");
  return fails == 0 ? 0 : 1;
}
