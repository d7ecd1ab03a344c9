// The reports of `tessera banks` and `tessera gmem` (tessera/analysis/report.hpp).
#include "tessera/analysis/report.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace tessera::analysis {

namespace json = rt::json;

namespace {

std::string percent(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * x);
  return buf;
}

// Ascending integers as ranges: "0-3 8 12-15" ("-4..0" where a range reaches below zero).
std::string ranges(const std::vector<std::int64_t>& xs) {
  std::string s;
  for (std::size_t i = 0; i < xs.size();) {
    std::size_t j = i;
    while (j + 1 < xs.size() && xs[j + 1] == xs[j] + 1) ++j;
    const char* dash = xs[i] < 0 ? ".." : "-";
    s += (s.empty() ? "" : " ") + std::to_string(xs[i]) + (j > i ? dash + std::to_string(xs[j]) : "");
    i = j + 1;
  }
  return s;
}

// Per bank: the worst degree over an instruction's phases (distinct 4-byte words requested).
std::vector<int> worst_degree(const AccessReport& r) {
  std::vector<int> worst(num_banks, 0);
  for (int b = 0; b < num_banks; ++b)
    for (int p = 0; p < r.num_phases; ++p) worst[std::size_t(b)] = std::max(worst[std::size_t(b)], r.phase[p].degree[b]);
  return worst;
}

std::int64_t last_thread(const BankInstruction& in) {
  const auto& r = in.report;
  std::int64_t last = in.info.first_thread;
  if (r.num_phases) last += r.phase[r.num_phases - 1].first_thread + r.phase[r.num_phases - 1].num_threads - 1;
  return last;
}

std::vector<std::int64_t> excess_threads(const GmemInstructionReport& in) {
  std::vector<std::int64_t> threads;
  for (int l = 0; l < 32; ++l)
    if (in.excess_lanes >> l & 1u) threads.push_back(in.info.first_thread + l);
  return threads;
}

template <class Xs>
json::Value ints(const Xs& xs) {
  json::Value arr = json::Value::array();
  for (auto x : xs) arr.push(std::int64_t(x));
  return arr;
}

}  // namespace

json::Value memory_json(const rt::Value& layout, const MemoryTile& tile) {
  return json::Value::object({{"layout", layout.kind() == rt::Value::Kind::Swizzled ? json::swizzled_layout(layout.swizzled())
                                                                                 : json::layout(layout.layout())},
                              {"rows", tile.rows()},
                              {"cols", tile.cols()}});
}

json::Value access_json(const TvAccess& access, std::int64_t access_bytes) {
  return json::Value::object({{"text", access.text},
                              {"tile", json::Value::array({access.tile_m, access.tile_n})},
                              {"threads", access.tv.mode(0).size()},
                              {"vec", access.vec},
                              {"bytes", access_bytes}});
}

std::string access_line(const TvAccess& access, std::int64_t access_bytes) {
  return "access " + access.text + ": tile " + std::to_string(access.tile_m) + "x" + std::to_string(access.tile_n) +
         ", " + std::to_string(access.tv.mode(0).size()) + " threads, " + std::to_string(access.vec) +
         " value(s) = " + std::to_string(access_bytes) + " bytes per access\n";
}

std::string fixed2(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", x);
  return buf;
}

std::string banks_text(const SmemTile& smem, const BankAccess& access, int bits, const BankAnalysis& a,
                       bool summary_only) {
  std::string out;
  out += "smem " + smem.text + " (" + std::to_string(smem.rows()) + "x" + std::to_string(smem.cols()) + ", " +
         std::to_string(bits) + "-bit elements)\n";
  out += access_line(access, a.summary.access_bytes);
  if (!summary_only)
    for (const auto& in : a.instructions) {
      const auto& r = in.report;
      out += "instr " + std::to_string(in.info.index) + " tile " + std::to_string(in.info.tile) + " step " +
             std::to_string(in.info.step) + " threads " + std::to_string(in.info.first_thread) + "-" +
             std::to_string(last_thread(in)) + ": wavefronts " + std::to_string(r.wavefronts) + " ideal " +
             std::to_string(r.ideal_wavefronts()) + " extra " + std::to_string(r.wavefronts - r.ideal_wavefronts()) +
             " max-degree " + std::to_string(r.max_degree) + "\n";
      out += "  degree by bank:";
      for (int d : worst_degree(r)) out += " " + std::to_string(d);
      out += "\n";
    }
  const auto& s = a.summary;
  out += "summary: instructions " + std::to_string(s.instructions) + ", wavefronts " + std::to_string(s.wavefronts) +
         ", ideal " + std::to_string(s.ideal_wavefronts) + ", extra " + std::to_string(s.extra_wavefronts()) +
         ", conflict factor " + fixed2(a.conflict_factor()) + ", max degree " + std::to_string(s.max_degree) +
         (s.conflict_free() ? " (conflict-free)" : " (" + std::to_string(s.max_degree) + "-way conflicted)") + "\n";
  return out;
}

// What the text prints, field by field, plus each phase's degrees.
json::Value banks_json(const rt::Value& layout, const SmemTile& smem, const BankAccess& access, int bits,
                       const BankAnalysis& a, bool summary_only) {
  json::Value d = json::document("banks");
  d.set("smem", memory_json(layout, smem));
  d.set("bits", bits);
  d.set("access", access_json(access, a.summary.access_bytes));
  if (!summary_only) {
    json::Value instructions = json::Value::array();
    for (const auto& in : a.instructions) {
      const auto& r = in.report;
      json::Value phases = json::Value::array();
      for (int p = 0; p < r.num_phases; ++p) {
        const auto& ph = r.phase[p];
        phases.push(json::Value::object({{"first_thread", in.info.first_thread + ph.first_thread},
                                         {"threads", ph.num_threads},
                                         {"active_threads", ph.active_threads},
                                         {"wavefronts", ph.wavefronts},
                                         {"degree", ints(ph.degree)}}));
      }
      instructions.push(json::Value::object({{"index", in.info.index},
                                             {"tile", in.info.tile},
                                             {"step", in.info.step},
                                             {"first_thread", in.info.first_thread},
                                             {"last_thread", last_thread(in)},
                                             {"wavefronts", r.wavefronts},
                                             {"ideal", r.ideal_wavefronts()},
                                             {"extra", r.wavefronts - r.ideal_wavefronts()},
                                             {"max_degree", r.max_degree},
                                             {"degree_by_bank", ints(worst_degree(r))},
                                             {"phases", std::move(phases)}}));
    }
    d.set("instructions", std::move(instructions));
  }
  const auto& s = a.summary;
  d.set("summary", json::Value::object({{"instructions", s.instructions},
                                        {"wavefronts", s.wavefronts},
                                        {"ideal", s.ideal_wavefronts},
                                        {"extra", s.extra_wavefronts()},
                                        {"conflict_factor", a.conflict_factor()},
                                        {"max_degree", s.max_degree},
                                        {"conflict_free", s.conflict_free()}}));
  return d;
}

std::string gmem_text(const GmemTile& gmem, const GmemAccess& access, int bits, const CoalescingAnalysis& a,
                      bool summary_only) {
  std::string out;
  out += "gmem " + gmem.text + " (" + std::to_string(gmem.rows()) + "x" + std::to_string(gmem.cols()) + ", " +
         std::to_string(bits) + "-bit elements, base " + std::to_string(a.base_bytes) + " bytes)\n";
  out += access_line(access, a.summary.access_bytes);
  if (!summary_only)
    for (const auto& in : a.instructions) {
      out += "instr " + std::to_string(in.info.index) + " tile " + std::to_string(in.info.tile) + " step " +
             std::to_string(in.info.step) + " threads " + std::to_string(in.info.first_thread) + "-" +
             std::to_string(in.info.first_thread + in.num_threads - 1) + ": sectors " +
             std::to_string(in.sectors.size()) + " min " + std::to_string(in.min_sectors) + " excess " +
             std::to_string(in.excess_sectors()) + ", lines " + std::to_string(in.lines.size()) + " min " +
             std::to_string(in.min_lines) + " excess " + std::to_string(in.excess_lines()) + ", " +
             std::to_string(in.requested_bytes) + " bytes\n";
      out += "  sectors " + (in.sectors.empty() ? std::string("none") : ranges(in.sectors)) + "\n";
      if (in.excess_lanes) out += "  excess from threads " + ranges(excess_threads(in)) + " (in partly used sectors)\n";
    }
  const auto& s = a.summary;
  out += "summary: instructions " + std::to_string(s.instructions) + ", sectors " + std::to_string(s.sectors) +
         " (min " + std::to_string(s.min_sectors) + ", excess " + std::to_string(s.excess_sectors()) + ", " +
         fixed2(a.sectors_per_instruction()) + " per instruction, efficiency " + percent(a.sector_efficiency()) +
         "), lines " + std::to_string(s.lines) + " (min " + std::to_string(s.min_lines) + ", excess " +
         std::to_string(s.excess_lines()) + ", efficiency " + percent(a.line_efficiency()) + "), " +
         std::to_string(s.requested_bytes) + " bytes requested" +
         (s.coalesced() ? " (coalesced)"
                        : " (" + std::to_string(s.excess_instructions) + " of " + std::to_string(s.instructions) +
                              " instructions over the minimum)") +
         "\n";
  return out;
}

// What the text prints, field by field, under the names the banks report uses for the same things.
json::Value gmem_json(const rt::Value& layout, const GmemTile& gmem, const GmemAccess& access, int bits,
                      const CoalescingAnalysis& a, bool summary_only) {
  json::Value d = json::document("gmem");
  d.set("gmem", memory_json(layout, gmem));
  d.set("bits", bits);
  d.set("base", a.base_bytes);
  d.set("access", access_json(access, a.summary.access_bytes));
  if (!summary_only) {
    json::Value list = json::Value::array();
    for (const auto& in : a.instructions) {
      list.push(json::Value::object({{"index", in.info.index},
                                     {"tile", in.info.tile},
                                     {"step", in.info.step},
                                     {"first_thread", in.info.first_thread},
                                     {"last_thread", in.info.first_thread + in.num_threads - 1},
                                     {"requested_bytes", in.requested_bytes},
                                     {"sectors", ints(in.sectors)},
                                     {"sector_bytes", ints(in.sector_used)},
                                     {"min_sectors", in.min_sectors},
                                     {"excess_sectors", in.excess_sectors()},
                                     {"lines", ints(in.lines)},
                                     {"min_lines", in.min_lines},
                                     {"excess_lines", in.excess_lines()},
                                     {"excess_threads", ints(excess_threads(in))}}));
    }
    d.set("instructions", std::move(list));
  }
  const auto& s = a.summary;
  d.set("summary", json::Value::object({{"instructions", s.instructions},
                                        {"requested_bytes", s.requested_bytes},
                                        {"sectors", s.sectors},
                                        {"min_sectors", s.min_sectors},
                                        {"excess_sectors", s.excess_sectors()},
                                        {"lines", s.lines},
                                        {"min_lines", s.min_lines},
                                        {"excess_lines", s.excess_lines()},
                                        {"excess_instructions", s.excess_instructions},
                                        {"sectors_per_instruction", a.sectors_per_instruction()},
                                        {"sector_efficiency", a.sector_efficiency()},
                                        {"line_efficiency", a.line_efficiency()},
                                        {"coalesced", s.coalesced()}}));
  return d;
}

std::string tma_text(const rt::Layout& gmem, const rt::SwizzledLayout& smem, int bits, const tma::Arguments& a) {
  return "gmem: " + rt::to_string(gmem) + ", " + std::to_string(bits) + "-bit elements\n" + "smem: " +
         rt::to_string(smem) + "\n" + format_tma_arguments(a);
}

// The arguments the text prints: the arrays under snake_case forms of cuTensorMapEncodeTiled's
// parameter names, the enums as the CU_TENSOR_MAP_* enumerators the call takes.
json::Value tma_json(const rt::Layout& gmem, const rt::SwizzledLayout& smem, int bits, const tma::Arguments& a) {
  auto ints = [](const auto* v, int from, int to) {
    json::Value arr = json::Value::array();
    for (int i = from; i < to; ++i) arr.push(std::int64_t(v[i]));
    return arr;
  };
  json::Value d = json::document("tma");
  d.set("gmem", json::layout(gmem));
  d.set("smem", json::swizzled_layout(smem));
  d.set("bits", bits);
  d.set("rank", a.rank);
  d.set("mode_of_dim", ints(a.mode_of_dim, 0, a.rank));
  d.set("global_dim", ints(a.global_dim, 0, a.rank));
  d.set("global_strides", ints(a.global_stride_bytes, 1, a.rank));
  d.set("box_dim", ints(a.box_dim, 0, a.rank));
  d.set("element_strides", ints(a.element_strides, 0, a.rank));
  d.set("interleave", "CU_TENSOR_MAP_INTERLEAVE_NONE");
  d.set("swizzle", tma_swizzle_name(a.swizzle));
  d.set("l2_promotion", tma_l2_promotion_name(a.l2_promotion));
  d.set("oob_fill", "CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE");
  d.set("box_bytes", a.box_bytes);
  d.set("boxes", a.boxes);
  d.set("boxes_per_dim", ints(a.boxes_per_dim, 0, a.rank));
  return d;
}

std::string tma_refusal(const tma::Arguments& a) {
  std::string where;
  if (a.bad_mode >= 0) where = " (mode " + std::to_string(a.bad_mode) + ")";
  return std::string("TMA cannot copy this: ") + tma::to_string(a.rule) + where;
}

bool tma_rule_is_gmem(tma::Rule r) {
  using R = tma::Rule;
  return r == R::element_bits || r == R::gmem_rank || r == R::global_dim_range || r == R::no_contiguous_mode ||
         r == R::global_stride_alignment || r == R::global_stride_range;
}

}  // namespace tessera::analysis
