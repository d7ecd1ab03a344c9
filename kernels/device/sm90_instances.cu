// The SM90 GEMM inside tessera::gemm: the dispatch from a problem to a kernel instance of the
// list (sm90_kernel_list.hpp, whose kernels sm90_instances_<unit>.cu compile; this TU
// compiles none and calls their entries, sm90_instance.hpp). For a problem (D column-major:
// as_column_major_d) it takes the listed kernel that reads its input type and operand majors,
// writes its D type and runs the schedule sm90_schedule.hpp's rule picks (choose_schedule), over
// whole tiles with the plain epilogue: it runs every problem it takes. Where the list also has
//   - the fused TMA-store kernel of the problem's activation (its TMA-store epilogue applies
//     it; other fusions take the direct epilogue of the plain kernel), or else
//   - a Stream-K kernel that the wave model predicts faster (choose_stream_k: its tile may be
//     another than the rule's), run where the caller gives the workspace sm90_workspace_size
//     asks for and the kernel's plan on the resident clusters shares k-iterations,
// that kernel is tried first, and declines (launching nothing) where it does not apply.
// Each of the two runs in its configuration's orientation (sm90_schedule.hpp: choose_config,
// choose_config_stream_k): D column-major (as_column_major_d), or, for the kernels built with a
// row-major D, the problem transposed the other way (as_row_major_d).
// Compiled for sm_90a (kernels/CMakeLists.txt, tools/device/*.sh).
#include <algorithm>
#include <array>
#include <optional>
#include <string>

#include "sm90_dispatch.hpp"
#include "sm90_instance.hpp"
#include "sm90_kernel_list.hpp"
#include "gemm_configuration.hpp"
#include "tuned_configs.hpp"

namespace tessera::kernels::device {

namespace {
// The SM count the rule (choose_schedule's wave model) weighs the waves on.
int multiprocessors() {
  static const int sms = [] {
    int dev = 0, n = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess) {
      cudaGetLastError();
      return 0;
    }
    return n;
  }();
  return sms;
}
using sm90_entry::Entries;
using sm90_entry::entries;
namespace set = sm90_set;

// The plain whole-tile kernel for a problem, and the kernel to try first where one is built:
// the fused TMA-store kernel of its activation, or the Stream-K kernel the wave model prefers.
struct Choice {
  Entries whole, first;
  GemmResult refusal;          // set when no kernel takes the problem's types
  bool first_splits = false;  // first is Stream-K: tried only with a workspace
  sm90::Sm90Config stream_k_config{sm90::Schedule::Cooperative128x256, true};  // first's, where it is Stream-K
  sm90::Sm90Config whole_config;                                               // whole's
  GemmArguments whole_args, first_args;  // the problem in each one's orientation
};

// The entries of the first listed kernel whose traits satisfy `wanted`.
template <class Wanted>
Entries listed(Wanted const& wanted) {
  Entries e;
  set::find_kernel([&](auto shipped) {
    using Kernel = typename decltype(shipped)::Kernel;
    if (!wanted(set::traits_of<Kernel>)) return false;
    e = entries<Kernel>();
    return true;
  });
  return e;
}

// The configuration to run: `forced` (gemm_tune), else the tuning cache's record for the
// problem on this device where the list still builds it and its whole-tile kernel takes the
// arguments, else the rule (choose_config, choose_config_stream_k). args: the caller's problem
// (either D major); tuned_lookup: whether to look the record up.
Choice choose(const GemmArguments& args, const sm90::Sm90Config* forced = nullptr, bool tuned_lookup = true) {
  const int sms = multiprocessors();
  std::optional<sm90::Sm90Config> config;
  bool from_record = false;
  if (forced) {
    if (!sm90::config_built(*forced, args)) {
      Choice refused;
      refused.refusal = {GemmStatus::Unsupported, "the sm90 kernel list builds no " + sm90::to_string(*forced) + " kernel for these arguments"};
      return refused;
    }
    config = *forced;
  } else if (auto tuned = tuned_lookup ? tuned_sm90_config(sm90::as_column_major_d(args)) : std::nullopt) {
    if (sm90::config_built(*tuned, args)) config = tuned, from_record = true;
  }
  // (a Stream-K configuration without a whole-tile kernel of its tile: the rule's whole tiles)
  const sm90::Sm90Config whole_config = config && sm90::config_built({config->schedule, false, config->d}, args)
                                            ? sm90::Sm90Config{config->schedule, false, config->d}
                                            : sm90::choose_config(args, sms);
  Choice c;
  c.whole_config = whole_config;
  c.whole_args = sm90::oriented(args, whole_config.d);
  const GemmArguments& g = c.whole_args;
  auto plain_of = [&](set::KernelTraits const& t) { return set::takes_types(t, g) && sm90::runs_schedule(t, whole_config.schedule); };
  // (the schedule's whole-tile kernel, or its Stream-K one, which plans whole tiles when
  // launched without a workspace: sm90_schedule.hpp's whole_tile_kernel)
  if (const auto whole = sm90::whole_tile_kernel(whole_config.schedule, g)) {
    c.whole = listed([&](set::KernelTraits const& t) { return plain_of(t) && t.stream_k == whole->stream_k && t.fused == Activation::Identity; });
    if (whole->stream_k) c.whole_args.workspace = nullptr, c.whole_args.workspace_bytes = 0;
  }
  // (a record's kernel that refuses these arguments for a reason of its own, which the key
  // does not name: the rule decides, as it would without the record, rather than the record
  // turning a problem the rule's kernel runs into a refusal)
  if (from_record && (!c.whole || !c.whole.can_implement(c.whole_args))) return choose(args, nullptr, false);
  if (!c.whole) {
    c.refusal = set::list_refusal(sm90::as_column_major_d(args));
    return c;
  }
  const Activation act = g.epilogue.activation;
  const std::optional<sm90::Sm90Config> sk = config ? (config->stream_k ? config : std::nullopt) : sm90::choose_config_stream_k(args, sms);
  if (act != Activation::Identity) {
    c.first = listed([&](set::KernelTraits const& t) { return plain_of(t) && !t.stream_k && t.fused == act; });
    c.first_args = g;
  } else if (sk) {
    c.first_args = sm90::oriented(args, sk->d);
    c.first = listed([&](set::KernelTraits const& t) {
      return set::takes_types(t, c.first_args) && sm90::runs_schedule(t, sk->schedule) && t.stream_k && t.fused == Activation::Identity;
    });
    c.first_splits = bool(c.first);
    c.stream_k_config = *sk;
  }
  return c;
}

// Runs a choice: the Stream-K kernel where the caller gave a workspace and its plan shares
// k-iterations, the fused TMA-store kernel where TMA stores D; each declines (launching
// nothing) otherwise, and the plain whole-tile kernel runs.
GemmResult run_choice(const Choice& c, cudaStream_t stream) {
  if (!c.whole) return c.refusal;
  if (c.first && (c.first_args.workspace != nullptr || !c.first_splits)) {
    bool declined = false;
    const GemmResult r = c.first.run(c.first_args, stream, true, &declined);
    if (!declined) return r;
  }
  return c.whole.run(c.whole_args, stream, false, nullptr);
}

}  // namespace

GemmResult sm90_can_implement(const GemmArguments& args) {
  const Choice c = choose(args);
  return c.whole ? c.whole.can_implement(c.whole_args) : c.refusal;
}

std::size_t sm90_workspace_size(const GemmArguments& args) {
  const Choice c = choose(args);
  return c.first_splits ? c.first.workspace_size(c.first_args) : 0;  // (a fused kernel needs none)
}

namespace {
// Every configuration (schedule, scheduler, D major) by index, and its name, which outlives
// the call.
constexpr std::size_t kConfigs = 4 * sm90::kSchedules.size();
sm90::Sm90Config config_at(std::size_t i) {
  constexpr std::size_t n = sm90::kSchedules.size();
  return {sm90::kSchedules[i % n], (i / n) % 2 == 1, i / (2 * n) == 1 ? Major::Row : Major::Col};
}
const char* config_name(const sm90::Sm90Config& config) {
  static const auto names = [] {
    std::array<std::string, kConfigs> n;
    for (std::size_t i = 0; i < kConfigs; ++i) n[i] = sm90::to_string(config_at(i));
    return n;
  }();
  for (std::size_t i = 0; i < kConfigs; ++i)
    if (config_at(i) == config) return names[i].c_str();
  return "?";
}
}  // namespace

const char* sm90_schedule(const GemmArguments& args) {
  if (!sm90_can_implement(args)) return "none";
  // (with the workspace the Stream-K kernel asks for, the Stream-K kernel's configuration)
  const Choice c = choose(args);
  if (c.first_splits && args.workspace != nullptr) {
    const std::size_t need = c.first.workspace_size(c.first_args);
    if (need > 0 && args.workspace_bytes >= need) return config_name(c.stream_k_config);
  }
  return config_name(c.whole_config);
}

GemmResult run_sm90(const GemmArguments& args, cudaStream_t stream) { return run_choice(choose(args), stream); }

// (the caller's arguments checked as tessera::gemm checks them: a configuration is chosen on
// the kernels' orientation, in which a problem the caller may not pose, e.g. block scales with a
// column-major D, reads as another one that the kernel would run)
GemmResult run_sm90(const GemmArguments& args, cudaStream_t stream, const sm90::Sm90Config& config) {
  if (auto r = check_arguments(args); !r) return r;
  const Choice c = choose(args, &config);
  if (!c.whole) return c.refusal;
  if (auto r = c.whole.can_implement(c.whole_args); !r) return r;
  return run_choice(c, stream);
}

std::size_t sm90_workspace_size(const GemmArguments& args, const sm90::Sm90Config& config) {
  if (!check_arguments(args)) return 0;
  const Choice c = choose(args, &config);
  return c.whole && c.first_splits ? c.first.workspace_size(c.first_args) : 0;
}

}  // namespace tessera::kernels::device
