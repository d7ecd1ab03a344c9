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
  sm90::Schedule stream_k_schedule = sm90::Schedule::Cooperative128x256;  // first's, where it is Stream-K
  sm90::Schedule whole_schedule = sm90::Schedule::Cooperative128x256;     // whole's
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

const char* major_name(bool k_major, bool a) {
  return k_major ? (a ? "row-major (K-major)" : "column-major (K-major)") : (a ? "column-major (M-major)" : "row-major (N-major)");
}

// Why no listed kernel takes g's types: what the list has for its input type.
GemmResult refusal(const GemmArguments& g) {
  std::string outputs, majors;
  bool any_input = false;
  set::find_kernel([&](auto shipped) {
    constexpr set::KernelTraits t = set::traits_of<typename decltype(shipped)::Kernel>;
    if (t.element != g.element || t.element_b != element_b(g)) return false;
    any_input = true;
    const std::string out = to_string(t.output);
    if (outputs.find(out) == std::string::npos) outputs += (outputs.empty() ? "" : " or ") + out;
    if (t.output == output_element(g)) {
      const std::string pair = std::string("A ") + major_name(t.a_k_major, true) + " with B " + major_name(t.b_k_major, false);
      if (majors.find(pair) == std::string::npos) majors += (majors.empty() ? "" : "; ") + pair;
    }
    return false;
  });
  const std::string inputs = element_b(g) == g.element ? std::string(to_string(g.element))
                                                       : std::string(to_string(g.element)) + " x " + to_string(element_b(g));
  if (!any_input) return {GemmStatus::Unsupported, "no sm90 kernel takes " + inputs + " inputs"};
  if (majors.empty())
    return {GemmStatus::Unsupported, std::string("the sm90 kernels for ") + inputs + " inputs write D in " + outputs +
                                         ", not " + to_string(output_element(g))};
  return {GemmStatus::Unsupported, std::string("the sm90 kernels for ") + inputs + " inputs with D in " +
                                       to_string(output_element(g)) + " read " + majors + " (here A is " +
                                       major_name(g.a.major == Major::Row, true) + ", B " + major_name(g.b.major == Major::Col, false) +
                                       "); the SIMT and SM80 kernels run the others"};
}

// The configuration to run: `forced` (gemm_tune), else the tuning cache's record for g on this
// device where the list still builds it, else the rule (choose_schedule, choose_stream_k).
Choice choose(const GemmArguments& g, const sm90::Sm90Config* forced = nullptr) {
  const int sms = multiprocessors();
  std::optional<sm90::Sm90Config> config;
  if (forced) {
    const auto built = sm90::built_configs(g);
    if (std::find(built.begin(), built.end(), *forced) == built.end()) {
      Choice refused;
      refused.refusal = {GemmStatus::Unsupported, "the sm90 kernel list builds no " + sm90::to_string(*forced) + " kernel for these arguments"};
      return refused;
    }
    config = *forced;
  } else if (auto tuned = tuned_sm90_config(g)) {
    const auto built = sm90::built_configs(g);
    if (std::find(built.begin(), built.end(), *tuned) != built.end()) config = tuned;
  }
  // (a Stream-K configuration without a whole-tile kernel of its tile: the rule's whole tiles)
  const sm90::Schedule schedule =
      config && sm90::schedule_built(config->schedule, g) ? config->schedule : sm90::choose_schedule(g, sms);
  auto plain_of = [&](set::KernelTraits const& t) { return set::takes_types(t, g) && sm90::runs_schedule(t, schedule); };
  Choice c;
  c.whole_schedule = schedule;
  c.whole = listed([&](set::KernelTraits const& t) { return plain_of(t) && !t.stream_k && t.fused == Activation::Identity; });
  if (!c.whole) {
    c.refusal = refusal(g);
    return c;
  }
  const Activation act = g.epilogue.activation;
  const std::optional<sm90::Schedule> sk = config ? (config->stream_k ? std::optional(config->schedule) : std::nullopt)
                                                  : sm90::choose_stream_k(g, sms);
  if (act != Activation::Identity) {
    c.first = listed([&](set::KernelTraits const& t) { return plain_of(t) && !t.stream_k && t.fused == act; });
  } else if (sk) {
    c.first = listed([&](set::KernelTraits const& t) {
      return set::takes_types(t, g) && sm90::runs_schedule(t, *sk) && t.stream_k && t.fused == Activation::Identity;
    });
    c.first_splits = bool(c.first);
    c.stream_k_schedule = *sk;
  }
  return c;
}

// Runs a choice: the Stream-K kernel where the caller gave a workspace and its plan shares
// k-iterations, the fused TMA-store kernel where TMA stores D; each declines (launching
// nothing) otherwise, and the plain whole-tile kernel runs.
GemmResult run_choice(const Choice& c, const GemmArguments& g, cudaStream_t stream) {
  if (!c.whole) return c.refusal;
  if (c.first && (g.workspace != nullptr || !c.first_splits)) {
    bool declined = false;
    const GemmResult r = c.first.run(g, stream, true, &declined);
    if (!declined) return r;
  }
  return c.whole.run(g, stream, false, nullptr);
}

}  // namespace

GemmResult sm90_can_implement(const GemmArguments& args) {
  const GemmArguments g = sm90::as_column_major_d(args);
  const Choice c = choose(g);
  return c.whole ? c.whole.can_implement(g) : c.refusal;
}

std::size_t sm90_workspace_size(const GemmArguments& args) {
  const GemmArguments g = sm90::as_column_major_d(args);
  const Choice c = choose(g);
  return c.first_splits ? c.first.workspace_size(g) : 0;  // (a fused kernel needs none)
}

const char* sm90_schedule(const GemmArguments& args) {
  const GemmArguments g = sm90::as_column_major_d(args);
  if (!sm90_can_implement(args)) return "none";
  // (with the workspace the Stream-K kernel asks for, the Stream-K kernel's tile)
  const Choice c = choose(g);
  if (c.first_splits && g.workspace != nullptr) {
    const std::size_t need = c.first.workspace_size(g);
    if (need > 0 && g.workspace_bytes >= need) {
      // (a name that outlives the call: one per schedule)
      static const std::array<std::string, sm90::kSchedules.size()> names = [] {
        std::array<std::string, sm90::kSchedules.size()> n;
        for (std::size_t i = 0; i < n.size(); ++i) n[i] = sm90::to_string(sm90::Sm90Config{sm90::kSchedules[i], true});
        return n;
      }();
      for (std::size_t i = 0; i < names.size(); ++i)
        if (sm90::kSchedules[i] == c.stream_k_schedule) return names[i].c_str();
    }
  }
  return sm90::to_string(c.whole_schedule);
}

GemmResult run_sm90(const GemmArguments& args, cudaStream_t stream) {
  const GemmArguments g = sm90::as_column_major_d(args);
  return run_choice(choose(g), g, stream);
}

GemmResult run_sm90(const GemmArguments& args, cudaStream_t stream, const sm90::Sm90Config& config) {
  const GemmArguments g = sm90::as_column_major_d(args);
  const Choice c = choose(g, &config);
  if (!c.whole) return c.refusal;
  if (auto r = c.whole.can_implement(g); !r) return r;
  return run_choice(c, g, stream);
}

std::size_t sm90_workspace_size(const GemmArguments& args, const sm90::Sm90Config& config) {
  const GemmArguments g = sm90::as_column_major_d(args);
  const Choice c = choose(g, &config);
  return c.whole && c.first_splits ? c.first.workspace_size(g) : 0;
}

}  // namespace tessera::kernels::device
