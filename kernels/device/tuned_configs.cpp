// TunedTable and the records gemm_tune writes (tuned_configs.hpp).
#include "tuned_configs.hpp"

namespace tessera::kernels {

TunedTable TunedTable::from(const TuningCacheContents& cache, const std::string& device, int sms, int* skipped) {
  TunedTable t;
  int left_out = 0;
  for (const TuningRecord& r : cache.records) {
    if (r.key.device != device || r.key.version != tuning_cache_tessera_version()) continue;
    const auto choice = choice_from_record(r, sms);
    // (the record's scheduler: a Stream-K kernel whose plan here is its split-K special case is
    // the record's Stream-K configuration)
    const auto config = choice ? sm90::config_of(choice->tile_m, choice->tile_n, choice->cluster, r.scheduler, r.d) : std::nullopt;
    if (!config) {
      ++left_out;
      continue;
    }
    t.set(r.key.problem, *config);
  }
  if (skipped) *skipped = left_out;
  return t;
}

std::optional<sm90::Sm90Config> TunedTable::find(const TuningProblem& problem) const {
  for (const Entry& e : entries_)
    if (e.problem == problem) return e.config;
  return std::nullopt;
}

void TunedTable::set(const TuningProblem& problem, const sm90::Sm90Config& config) {
  for (Entry& e : entries_)
    if (e.problem == problem) {
      e.config = config;
      return;
    }
  entries_.push_back({problem, config});
}

TuningRecord record_of(const TuningKey& key, const sm90::Sm90Config& c, double microseconds) {
  const sm90::Candidate k = sm90::candidate_of(c.schedule, key.problem.shape.element, sm90::Schedulers::Both);
  TuningRecord r;
  r.key = key;
  r.tile_m = k.tile_m;
  r.tile_n = k.tile_n;
  r.tile_k = k.tile_k;
  r.cluster = k.cluster;
  r.scheduler = c.stream_k ? Decomposition::StreamK : Decomposition::DataParallel;
  r.d = c.d;
  r.microseconds = microseconds;
  return r;
}

}  // namespace tessera::kernels
