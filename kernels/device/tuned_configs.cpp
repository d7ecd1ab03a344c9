// TunedTable and the records gemm_tune writes (tuned_configs.hpp).
#include "tuned_configs.hpp"

namespace tessera::kernels {

namespace {
bool same_shape(const sm90::GemmShape& a, const sm90::GemmShape& b) {
  return a.m == b.m && a.n == b.n && a.k == b.k && a.batch == b.batch && a.element == b.element && a.output == b.output &&
         a.a == b.a && a.b == b.b;
}
}  // namespace

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
    t.set(r.key.shape, r.key.epilogue, *config);
  }
  if (skipped) *skipped = left_out;
  return t;
}

std::optional<sm90::Sm90Config> TunedTable::find(const sm90::GemmShape& shape, const std::string& epilogue) const {
  for (const Entry& e : entries_)
    if (same_shape(e.shape, shape) && e.epilogue == epilogue) return e.config;
  return std::nullopt;
}

void TunedTable::set(const sm90::GemmShape& shape, const std::string& epilogue, const sm90::Sm90Config& config) {
  for (Entry& e : entries_)
    if (same_shape(e.shape, shape) && e.epilogue == epilogue) {
      e.config = config;
      return;
    }
  entries_.push_back({shape, epilogue, config});
}

TuningRecord record_of(const TuningKey& key, const sm90::Sm90Config& c, double microseconds) {
  const sm90::Candidate k = sm90::candidate_of(c.schedule, key.shape.element, sm90::Schedulers::Both);
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
