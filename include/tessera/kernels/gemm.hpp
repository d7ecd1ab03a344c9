// tessera GEMM, host API.
//
//   tessera::kernels::GemmArguments g;  ... fill sizes, operands, alpha/beta ...
//   if (auto r = tessera::gemm(g, stream); !r) fprintf(stderr, "%s: %s\n", to_string(r.status), r.message.c_str());
//
// Arguments are checked first (check_arguments, no device needed); then the device
// adapter picks a kernel configuration (select_kernel) and launches it on `stream`.
// The kernels live in the compiled library tessera_kernels (kernels/device/gemm.cu).
#pragma once

#include <string>
#include <vector>

#include "tessera/kernels/gemm_arguments.hpp"

struct CUstream_st;  // cudaStream_t without pulling CUDA headers into host code

namespace tessera::kernels {

// Checks the arguments and that a device that runs the kernels (sm_80 or newer) is present.
GemmResult can_implement(const GemmArguments& args);

// Bytes of GemmArguments::workspace with which gemm(args) may split the last wave of tiles
// along K on the current device (0: the kernel it runs would not split).  The problem's
// shape, element type and alignment decide it, not the pointers' values.
std::size_t gemm_workspace_size(const GemmArguments& args);
// The same for gemm(args, kernel): that configuration's workspace.
std::size_t gemm_workspace_size(const GemmArguments& args, GemmKernel kernel);

// Runs D = alpha*A*B + beta*C with the configuration select_kernel picks.
GemmResult gemm(const GemmArguments& args, CUstream_st* stream = nullptr);

// Runs a named configuration (tests and benchmarks); Unsupported when it cannot run `args`.
GemmResult gemm(const GemmArguments& args, GemmKernel kernel, CUstream_st* stream = nullptr);

// Tuning per shape (docs/scheduling.md). gemm_tune times every configuration of the sm90 TMA +
// wgmma kernel that can run `args` on the current device (CTA tile and cluster, whole tiles or
// Stream-K), on the caller's A, B (and C) with D in a scratch copy, nothing of the caller's
// written; the winner becomes the configuration gemm(args) runs for this problem (M, N, K,
// batch, types, majors, epilogue) in this process, and, with `record`, in the tuning cache file
// that later processes on a device of the same name and the same tessera version read. Every
// configuration computes the same sums in another order only (Stream-K's fix-up order is fixed:
// the same bits from run to run), so tuning changes results by floating-point reassociation at
// most and every configuration it picks is deterministic.
// The timing: warm-up rounds for at least 25 ms of wall time (the clocks come up), then rounds
// that launch every configuration once each, round-robin with the order rotated from round to
// round, each launch behind a short busy kernel that hides the host's enqueue; at least `reps`
// rounds and enough that each configuration is timed for `min_ms` in total. The configuration
// with the smallest median wins over the rule's only where it was faster than the rule's in at
// least three rounds out of four; otherwise the rule's configuration stays.
struct GemmTuneOptions {
  int reps = 20;         // at least this many timed rounds (1..2000), after the warm-up
  double min_ms = 5.0;   // and enough rounds that each configuration is timed this long in all
  bool record = true;      // also write the winner to the tuning cache file
  std::string cache_file;  // empty: $TESSERA_TUNING_CACHE ("off": no file), else the default file
};
struct GemmTuneTiming {
  std::string configuration;  // as the dispatch names it, e.g. "stream-k cooperative 128x128"
  double microseconds = 0;    // median of its timed launches
  double low_microseconds = 0, high_microseconds = 0;  // their lower and upper quartiles
};
struct GemmTuneResult {
  GemmResult status;                    // why nothing was tuned (Unsupported off the sm90 kernel)
  std::string chosen;                   // the winner
  double microseconds = 0;              // its median
  std::vector<GemmTuneTiming> timings;  // every configuration timed
  std::string rule;                     // the configuration the rule runs (empty: not among them)
  int rounds = 0;                       // timed rounds (each configuration once per round)
  std::string cache_file;               // the file the record went to (empty: none)
  std::string note;                     // why the record was not written, where it was not
  explicit operator bool() const { return bool(status); }
};
GemmTuneResult gemm_tune(const GemmArguments& args, const GemmTuneOptions& options = {}, CUstream_st* stream = nullptr);

}  // namespace tessera::kernels

namespace tessera {
using kernels::gemm;
using kernels::gemm_tune;
}  // namespace tessera
