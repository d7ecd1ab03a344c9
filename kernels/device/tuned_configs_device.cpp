// The dispatch's tables of tuned configurations, one per device (tuned_configs.hpp): host code
// over the CUDA runtime (the device's name), in the kernels library beside the SM90 dispatch.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>

#include "tuned_configs.hpp"

namespace tessera::kernels {

namespace device {
namespace {

struct Tables {
  std::mutex mutex;
  std::map<int, TunedTable> by_device;  // loaded ones only
};
Tables& tables() {
  static Tables t;
  return t;
}

// The current device's table, read from the file on first use (tables().mutex held).
TunedTable* table_locked(int dev) {
  auto& t = tables();
  if (auto it = t.by_device.find(dev); it != t.by_device.end()) return &it->second;
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, dev) != cudaSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  TunedTable table;
  if (const auto file = tuning_cache_file(); !file.empty()) {
    const TuningCacheContents contents = read_tuning_cache(file);
    // (a damaged line is named once, when the file is first read, as read_tuning_cache words it)
    for (const std::string& p : contents.problems) std::fprintf(stderr, "tessera: tuning cache: %s\n", p.c_str());
    table = TunedTable::from(contents, prop.name, prop.multiProcessorCount);
  }
  return &t.by_device.emplace(dev, std::move(table)).first->second;
}

}  // namespace

std::filesystem::path tuning_cache_file() {
  if (const char* env = std::getenv("TESSERA_TUNING_CACHE"); env && *env) {
    if (std::string(env) == "off") return {};
    return env;
  }
  return default_tuning_cache_path();
}

std::optional<sm90::Sm90Config> tuned_sm90_config(const GemmArguments& g) {
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) {
    cudaGetLastError();
    return std::nullopt;
  }
  std::lock_guard lock(tables().mutex);
  const TunedTable* table = table_locked(dev);
  if (!table || table->empty()) return std::nullopt;
  return table->find(tuning_problem(g));
}

void remember_sm90_config(const GemmArguments& g, const sm90::Sm90Config& c) {
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) {
    cudaGetLastError();
    return;
  }
  std::lock_guard lock(tables().mutex);
  if (TunedTable* table = table_locked(dev)) table->set(tuning_problem(g), c);
}

}  // namespace device

}  // namespace tessera::kernels
