// The tuning cache's records as the SM90 dispatch uses them: per problem (as the kernels run it,
// D column-major) and epilogue, the configuration measured fastest on this device.
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

  // The configuration recorded for this problem and epilogue (epilogue_key), if any.
  std::optional<sm90::Sm90Config> find(const sm90::GemmShape& shape, const std::string& epilogue) const;
  // Records (or replaces) the configuration of this problem and epilogue.
  void set(const sm90::GemmShape& shape, const std::string& epilogue, const sm90::Sm90Config& config);
  bool empty() const { return entries_.empty(); }
  std::size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    sm90::GemmShape shape;
    std::string epilogue;
    sm90::Sm90Config config;
  };
  std::vector<Entry> entries_;
};

// The epilogue field of a problem's key: epilogue_key(g.epilogue), and FP8's scale mode where it
// is not per-tensor ("identity+scales_rowwise"): the modes run different kernels.
inline std::string tuning_epilogue_key(const GemmArguments& g) {
  std::string key = epilogue_key(g.epilogue);
  if (g.scale_mode != ScaleMode::PerTensor) key += std::string("+scales_") + to_string(g.scale_mode);
  return key;
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
