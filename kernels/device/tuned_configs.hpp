// The tuning cache's records as the SM90 dispatch uses them: per problem (TuningProblem: as the
// kernels run it, D column-major, with its types, scales, C, D's store and epilogue), the
// configuration measured fastest on this device.
//
// TunedTable is the lookup, host code tested in CI (kernels_tuning_cache_test). The dispatch's
// table (tuned_sm90_config, kernels/device/gemm_tune.cpp) is read once per process from the
// file TESSERA_TUNING_CACHE names ("off": none), else default_tuning_cache_path(), keeping the
// records of the current device and this tessera version; gemm_tune adds its winners to it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sm90_schedule.hpp"
#include "tuning_cache.hpp"

namespace tessera::kernels {

class TunedTable {
 public:
  // The records of `device` and this tessera version among `cache`'s, each as the configuration
  // it names for `sms` SMs; records naming no configuration the dispatch has (another build's
  // table, a plan these SMs would not make) are left out and counted in `skipped`.
  static TunedTable from(const TuningCacheContents& cache, const std::string& device, int sms, int* skipped = nullptr);

  // The configuration recorded for this problem (tuning_problem), if any.
  std::optional<sm90::Sm90Config> find(const TuningProblem& problem) const;
  // Records (or replaces) the configuration of this problem.
  void set(const TuningProblem& problem, const sm90::Sm90Config& config);
  bool empty() const { return entries_.empty(); }
  std::size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    TuningProblem problem;
    sm90::Sm90Config config;
  };
  std::vector<Entry> entries_;
};

// The problem of g's key (g in either orientation: the key is the column-major D's view,
// as_column_major_d). What it records, and why (each changes which configurations the kernel
// list builds for g, or how fast they run against each other):
//   - the shape, A's and D's elements, the majors and whether operand rows start on 32-byte
//     sectors (sm90::shape_of: the kernels without a cluster run 1.4-1.8x longer where not);
//   - B's element: e4m3 x e5m2 and e5m2 x e4m3 are other kernel instances than e4m3 x e4m3;
//   - the scale mode: per-tensor, rowwise (its own epilogue loop; no Stream-K kernel runs it)
//     and block (kernels of their own, block-scaled mainloops) run different kernels;
//   - whether C is read (beta != 0) and whether TMA stores D (and loads C): SourceC, StoreD
//     (tuning_cache.hpp); a D TMA cannot store leaves no row-major-D configuration;
//   - the epilogue (bias, activation: the fused kernels, and no Stream-K with an activation).
// Left out, as changing neither: alpha and the per-tensor scales' pointers (read once per
// kernel); scale_d and amax_d (an e4m3 D, which the shape's output names, runs one kernel);
// ld_scale_a (the block scales' layout, which the same kernels read); C being D itself (the
// same epilogue reads each part of C before it stores that part of D); allow_tf32 (f32 inputs
// reach the sm90 kernels only with it); A's and B's pointers' alignment (TMA's 16 bytes, or no
// sm90 kernel runs; the allocator's 256 are assumed, as by the rule); the workspace (the caller's: without it a Stream-K record runs its tile's whole
// tiles). There is no nondeterministic configuration to key apart (docs/scheduling.md).
inline TuningProblem tuning_problem(const GemmArguments& args) {
  const GemmArguments g = sm90::as_column_major_d(args);
  TuningProblem p;
  p.shape = sm90::shape_of(g);
  p.element_b = element_b(g);
  p.scales = g.scale_mode;
  p.c = g.beta != 0.0f ? SourceC::Read : SourceC::None;
  p.store = sm90::sm90_epilogue_operands(g, element_bytes(output_element(g)), false, Major::Col).status ? StoreD::Tma : StoreD::Direct;
  p.epilogue = epilogue_key(g.epilogue);
  return p;
}

// The record gemm_tune writes for configuration c of a problem: its key, the tile and cluster of
// c's kernel (sm90::candidate_of), the scheduler, the measured time.
TuningRecord record_of(const TuningKey& key, const sm90::Sm90Config& c, double microseconds);

}  // namespace tessera::kernels

namespace tessera::kernels::device {
// The dispatch's table for the current device: the configuration recorded for g (D
// column-major, as the dispatch sees it), if any. Read on first use per device and process;
// defined in tuned_configs_device.cpp (the kernels library: it asks CUDA the device's name).
std::optional<sm90::Sm90Config> tuned_sm90_config(const GemmArguments& g);
// Adds c as g's configuration to the current device's table (gemm_tune's winner).
void remember_sm90_config(const GemmArguments& g, const sm90::Sm90Config& c);
// The file the tables are read from: TESSERA_TUNING_CACHE where set ("off": none, an empty
// path), else default_tuning_cache_path().
std::filesystem::path tuning_cache_file();
}  // namespace tessera::kernels::device
