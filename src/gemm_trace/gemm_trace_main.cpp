// gemm_trace: runs a GEMM kernel built in trace mode and writes its partition trace in the
// format `tessera verify` reads (notes: trace format).
//
//   gemm_trace [--simt | --sm90 [--tf32 | --config NAME]] [--layout TN|NT|NN|TT] [-o FILE]    (default: tensor-core bf16, TN, stdout)
//   --sm90: the SM90 kernel (sm_90 GPU): the wgmma accumulators each consumer thread holds
//   (mma.C, 64 x 256 per warpgroup), checked against the TiledMma's C map (TN only);
//   --tf32: its f32 configuration (tf32 wgmma) instead of bf16
//   --config NAME: a shipped SM90 kernel type over a whole problem (sm90_trace_configs.hpp;
//   `--config list` names them): every accumulator of every tile (mma.C over the problem),
//   and for stream_k every (tile, k-iteration) that reached a tile (tile.k)
//
// `map` lines come from the configuration's TiledMMA / TiledCopy objects (trace_maps.hpp);
// `rec` lines from the kernel.  Prints the verification summary on stderr; exit status 0
// when every map verifies, 1 on findings or bad arguments, 2 when the GPU run fails, 3 when
// --sm90 finds no compute capability 9.0 device (nothing ran: the GPU tests skip on it).
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "sm90_trace_configs.hpp"
#include "trace_configs.hpp"
#include "trace_maps.hpp"

namespace tk = tessera::kernels;
namespace tv = tessera::verify;

namespace {

void print_configs(std::FILE* to) {
  std::fprintf(to, "SM90 configurations (gemm_trace --sm90 --config NAME):\n");
  for (const auto& c : tk::trace::sm90_trace_configs) std::fprintf(to, "  %-22s %s\n", c.name, c.description);
}

std::vector<int> run_config(tk::trace::Sm90Config id) {
  using tk::trace::Sm90Config;
  switch (id) {
    case Sm90Config::fp8_128x256: return tk::trace::run_traced_sm90_fp8_128x256();
    case Sm90Config::bf16_128x128: return tk::trace::run_traced_sm90_bf16_128x128();
    case Sm90Config::bf16_64x128_pingpong: return tk::trace::run_traced_sm90_bf16_64x128_pingpong();
    case Sm90Config::stream_k: return tk::trace::run_traced_sm90_stream_k();
    case Sm90Config::count: break;
  }
  throw std::invalid_argument("unknown SM90 trace configuration");
}

}  // namespace

int main(int argc, char** argv) {
  tk::trace::TraceRun run;
  std::string layout = "TN", out_path;
  const char* config = nullptr;
  const char* usage = "usage: %s [--simt | --sm90 [--tf32 | --config NAME|list]] [--layout TN|NT|NN|TT] [-o FILE]\n";
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) {
      std::printf(usage, argv[0]);
      print_configs(stdout);
      return 0;
    }
    if (!std::strcmp(argv[i], "--config")) {
      if (i + 1 == argc) {
        std::fprintf(stderr, "error: --config takes a configuration's name (valid: %s; --config list describes them)\n",
                     tk::trace::sm90_trace_config_names().c_str());
        return 1;
      }
      config = argv[++i];
    } else if (!std::strcmp(argv[i], "--simt")) run.simt = true;
    else if (!std::strcmp(argv[i], "--sm90")) run.sm90 = true;
    else if (!std::strcmp(argv[i], "--tf32")) run.tf32 = true;
    else if (!std::strcmp(argv[i], "--layout") && i + 1 < argc) layout = argv[++i];
    else if (!std::strcmp(argv[i], "-o") && i + 1 < argc) out_path = argv[++i];
    else {
      std::fprintf(stderr, "error: unknown argument '%s'\n", argv[i]);
      std::fprintf(stderr, usage, argv[0]);
      return 1;
    }
  }
  if (config != nullptr && !std::strcmp(config, "list")) {
    print_configs(stdout);
    return 0;
  }
  const tk::trace::Sm90TraceConfig* cfg = nullptr;
  if (config != nullptr) {
    cfg = tk::trace::find_sm90_trace_config(config);
    if (cfg == nullptr) {
      std::fprintf(stderr, "error: unknown SM90 configuration '%s' (valid: %s)\n", config, tk::trace::sm90_trace_config_names().c_str());
      return 1;
    }
    if (!run.sm90 || run.tf32 || run.simt || layout != "TN") {
      std::fprintf(stderr, "error: --config %s traces an SM90 configuration: it needs --sm90, without --tf32, --simt or --layout\n",
                   config);
      return 1;
    }
  }
  if (layout.size() != 2 || (layout[0] != 'T' && layout[0] != 'N') || (layout[1] != 'T' && layout[1] != 'N')) {
    std::fprintf(stderr, "error: --layout takes TN, NT, NN or TT (A then B; T = K-major), got '%s'\n", layout.c_str());
    return 1;
  }
  if (run.tf32 && !run.sm90) {
    std::fprintf(stderr, "error: --tf32 traces the SM90 kernel's f32 configuration: it needs --sm90\n");
    return 1;
  }
  if (run.sm90 && (run.simt || layout != "TN")) {
    std::fprintf(stderr, "error: --sm90 traces the SM90 kernel's TN configuration only (not with --simt or --layout %s)\n",
                 layout.c_str());
    return 1;
  }
  // BLAS letters: A 'T' = row-major M x K = K-major; B 'N' = column-major K x N = K-major.
  run.a_kmajor = layout[0] == 'T';
  run.b_kmajor = layout[1] == 'N';

  if (run.sm90) {
    if (const std::string why = tk::trace::sm90_device_missing(); !why.empty()) {
      std::fprintf(stderr, "error: %s\n", why.c_str());
      return 3;
    }
  }
  tv::Trace trace;
  try {
    const auto recs = cfg != nullptr ? run_config(cfg->id) : tk::trace::run_traced_kernel(run);
    trace.records = tk::trace::to_records(recs.data(), std::int64_t(recs.size() / 5));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
  auto maps_for = [&]<bool AK, bool BK>() {
    if (run.simt) return tk::trace::simt_maps<tk::trace::SimtTraced, AK, BK>();
    return tk::trace::tensorop_maps<tk::trace::TensorOpTraced<AK, BK>>();
  };
  if (cfg != nullptr)
    trace.maps = tk::trace::sm90_config_maps(cfg->id);
  else if (run.sm90)
    trace.maps = {run.tf32 ? tk::trace::make_map<tk::trace::Sm90TracedTileC>(tk::trace::Map::mma_c,
                                                                             tk::trace::Sm90TracedTiledMma<true>::get_layoutC_TV())
                           : tk::trace::make_map<tk::trace::Sm90TracedTileC>(tk::trace::Map::mma_c,
                                                                             tk::trace::Sm90TracedTiledMma<false>::get_layoutC_TV())};
  else if (run.a_kmajor) trace.maps = run.b_kmajor ? maps_for.template operator()<true, true>() : maps_for.template operator()<true, false>();
  else trace.maps = run.b_kmajor ? maps_for.template operator()<false, true>() : maps_for.template operator()<false, false>();
  trace.kernel = cfg != nullptr       ? std::string(cfg->kernel)
                 : run.sm90 && run.tf32 ? "sm90_tma_wgmma_tf32 tile=128x256x32 stages=4 mma=SM90_64x256x8_F32TF32TF32_SS atoms=2x1x1 "
                                        "cluster=2 layout=TN"
                 : run.sm90 ? "sm90_tma_wgmma_bf16 tile=128x256x64 stages=4 mma=SM90_64x256x16_F32BF16BF16_SS atoms=2x1x1 cluster=2 "
                              "layout=TN"
                 : run.simt ? "simt_f32 tile=128x128x8 stages=3 mma=UniversalFMA atoms=16x16x1 layout=" + layout
                          : "tensorop_bf16 tile=128x256x32 stages=4 mma=SM80_16x8x16_F32BF16BF16F32_TN atoms=2x4x1 layout=" + layout;

  std::ostringstream text;
  tv::write_trace(text, trace);
  if (out_path.empty()) {
    std::cout << text.str();
  } else {
    // Whole file or nothing: write a sibling, then rename.
    const std::string tmp = out_path + ".tmp";
    {
      std::ofstream f(tmp, std::ios::binary);
      f << text.str();
      if (!f.flush()) {
        std::fprintf(stderr, "error: cannot write '%s'\n", tmp.c_str());
        std::remove(tmp.c_str());
        return 1;
      }
    }
    if (std::rename(tmp.c_str(), out_path.c_str()) != 0) {
      std::fprintf(stderr, "error: cannot write '%s'\n", out_path.c_str());
      std::remove(tmp.c_str());
      return 1;
    }
  }
  const auto report = tv::verify(trace);
  std::cerr << tv::format_report(report);
  return report.ok ? 0 : 1;
}
