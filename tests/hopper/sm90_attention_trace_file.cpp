// The SM90 attention kernel's trace file (sm90_attention_trace_file.hpp): the maps from the
// kernel's own configuration types, static tier only (so that the GPU machine compiles it
// with nvcc -x c++, without the runtime library).
#include "sm90_attention_trace_file.hpp"

#include <ostream>
#include <stdexcept>
#include <string>

#include "collective/sm90_attention_config.hpp"
#include "collective/sm90_attention_trace.hpp"

namespace tessera::kernels::sm90::attention {
namespace {

template <class Cfg>
void maps_of(std::ostream& os) {
  using TileS = typename Cfg::TileS;
  using TileO = typename Cfg::TileO;
  os << "map " << trace_map_name(trace_s) << " " << to_string(TileS{}) << " "
     << to_string(Cfg::TiledMmaS::get_layoutC_TV(TileS{})) << "\n";
  os << "map " << trace_map_name(trace_p) << " " << to_string(TileS{}) << " "
     << to_string(Cfg::TiledMmaO::get_layoutA_TV(TileS{})) << "\n";
  os << "map " << trace_map_name(trace_o) << " " << to_string(TileO{}) << " "
     << to_string(Cfg::TiledMmaO::get_layoutC_TV(TileO{})) << "\n";
}

// The traced configuration: the shipped one per (element, head dim) (consumers 0, or the
// shipped count), or the other consumer count at head dim 64 (2, not shipped).
template <class T, int D, class F>
void with_consumers(int consumers, F&& f) {
  using Shipped = DefaultConfig<T, D>;
  if (consumers == 0 || consumers == Shipped::Consumers) f(Shipped{});
  else if (D == 64 && consumers == 2) f(AttentionConfig<T, 64, 128, 2>{});
  else
    throw std::invalid_argument("attention trace: head_dim " + std::to_string(D) + " runs " + std::to_string(Shipped::Consumers) +
                                " consumer warpgroups" + (D == 64 ? " (or 2)" : "") + ", got " + std::to_string(consumers));
}
template <class F>
void with_config(bool bf16, int head_dim, int consumers, F&& f) {
  if (head_dim == 64) bf16 ? with_consumers<bfloat16_t, 64>(consumers, f) : with_consumers<half_t, 64>(consumers, f);
  else if (head_dim == 128) bf16 ? with_consumers<bfloat16_t, 128>(consumers, f) : with_consumers<half_t, 128>(consumers, f);
  else if (head_dim == 256) bf16 ? with_consumers<bfloat16_t, 256>(consumers, f) : with_consumers<half_t, 256>(consumers, f);
  else throw std::invalid_argument("attention trace: head_dim must be 64, 128 or 256, got " + std::to_string(head_dim));
}

}  // namespace

void write_attention_trace_maps(std::ostream& os, bool bf16, int head_dim, int consumers) {
  with_config(bf16, head_dim, consumers, [&](auto cfg) { maps_of<decltype(cfg)>(os); });
}

void write_attention_trace(std::ostream& os, bool bf16, int head_dim, std::vector<int> const& records, int consumers) {
  const std::string t = bf16 ? "bf16" : "f16", ab = bf16 ? "F32BF16BF16" : "F32F16F16";
  const std::string d = std::to_string(head_dim);
  int rows = 0, keys = 0, warpgroups = 0;
  with_config(bf16, head_dim, consumers, [&](auto cfg) {
    rows = decltype(cfg)::bM, keys = decltype(cfg)::bN, warpgroups = decltype(cfg)::Consumers;
  });
  const std::string n = std::to_string(keys);
  os << "tessera-trace 1\n"
     << "kernel sm90 attention (kernels/kernel/sm90_attention_kernel.cuh) " << t << " D=" << d << " tile=" << rows << "x" << n
     << " S=SM90_64x" << n << "x16_" << ab << "_SS P=accumulator_as_operand_A O=SM90_64x" << d << "x16_" << ab << "_RS atoms=" << warpgroups
     << "x1x1\n";
  write_attention_trace_maps(os, bf16, head_dim, consumers);
  for (std::size_t i = 0; i + 5 <= records.size(); i += 5)
    os << "rec " << trace_map_name(records[i]) << " " << records[i + 1] << " " << records[i + 2] << " " << records[i + 3] << " "
       << records[i + 4] << "\n";
}

}  // namespace tessera::kernels::sm90::attention
