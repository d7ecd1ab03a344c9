// `tessera gmem`: global-memory coalescing of an access pattern over a global-memory tile,
// instruction by instruction (32-byte sectors and 128-byte lines against the minimum), and
// the tile drawn by sector. The access is given as for `tessera banks`.
#include <limits>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "action.hpp"
#include "atom_support.hpp"
#include "commands.hpp"
#include "json.hpp"
#include "json_option.hpp"
#include "memory_access.hpp"
#include "tessera/analysis/coalescing.hpp"
#include "tessera/viz/build_coalescing.hpp"

namespace tessera::cli {

namespace {

struct GmemOptions {
  std::string gmem;
  AccessOptions access;
  TileOutputOptions out;
  std::int64_t base = 0;
  bool json = false;
};

// A load by default (cp.async and universal copies read global memory); the analysis refuses
// an atom with no global-memory side.
const CopySideRule kGmemSide{[](const rt::CopyAtomInfo&) { return true; }, analysis::gmem_access_of_copy};

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

// --json (docs/json.md): what the text prints, field by field, under the names `tessera banks
// --json` uses for the same things (the tile, bits, the access, the instructions, the summary).
json::Value to_json(const GmemOptions& o, const MemoryArg& gmem, const analysis::GmemAccess& access,
                    const analysis::CoalescingAnalysis& a) {
  auto ints = [](const auto& xs) {
    json::Value arr = json::Value::array();
    for (auto x : xs) arr.push(std::int64_t(x));
    return arr;
  };
  json::Value d = json::document("gmem");
  d.set("gmem", memory_json(gmem));
  d.set("bits", o.access.bits);
  d.set("base", o.base);
  d.set("access", access_json(access, a.summary.access_bytes));
  if (!o.out.summary_only) {
    json::Value list = json::Value::array();
    for (const auto& in : a.instructions) {
      std::vector<std::int64_t> excess;
      for (int l = 0; l < 32; ++l)
        if (in.excess_lanes >> l & 1u) excess.push_back(in.info.first_thread + l);
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
                                     {"excess_threads", ints(excess)}}));
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

void run_gmem(const GmemOptions& o) {
  const MemoryArg arg = memory_arg("GMEM", o.gmem, "global-memory", "gmem");
  const analysis::GmemTile& gmem = arg.tile;
  const analysis::GmemAccess access = access_arg(o.access, gmem, kGmemSide);
  const std::optional<Target> target = tile_target(o.out, arg, "gmem");
  const analysis::CoalescingAnalysis a = analysis::analyze_coalescing(gmem, access, o.access.bits, o.base);
  if (o.json) {
    json::print(to_json(o, arg, access, a));
    check_standard_output();
    return;
  }

  std::string out;
  out += "gmem " + gmem.text + " (" + std::to_string(gmem.rows()) + "x" + std::to_string(gmem.cols()) + ", " +
         std::to_string(o.access.bits) + "-bit elements, base " + std::to_string(o.base) + " bytes)\n";
  out += access_line(access, a.summary.access_bytes);
  if (!o.out.summary_only)
    for (const auto& in : a.instructions) {
      out += "instr " + std::to_string(in.info.index) + " tile " + std::to_string(in.info.tile) + " step " +
             std::to_string(in.info.step) + " threads " + std::to_string(in.info.first_thread) + "-" +
             std::to_string(in.info.first_thread + in.num_threads - 1) + ": sectors " +
             std::to_string(in.sectors.size()) + " min " + std::to_string(in.min_sectors) + " excess " +
             std::to_string(in.excess_sectors()) + ", lines " + std::to_string(in.lines.size()) + " min " +
             std::to_string(in.min_lines) + " excess " + std::to_string(in.excess_lines()) + ", " +
             std::to_string(in.requested_bytes) + " bytes\n";
      out += "  sectors " + (in.sectors.empty() ? std::string("none") : ranges(in.sectors)) + "\n";
      if (in.excess_lanes) {
        std::vector<std::int64_t> threads;
        for (int l = 0; l < 32; ++l)
          if (in.excess_lanes >> l & 1u) threads.push_back(in.info.first_thread + l);
        out += "  excess from threads " + ranges(threads) + " (in partly used sectors)\n";
      }
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
  std::cout << out;
  check_standard_output();
  if (!target) return;
  const std::int64_t rows = gmem.rows();
  viz::CoalescingTile tile{gmem.text,
                           gmem.row_shape,
                           gmem.col_shape,
                           [&gmem, rows](std::int64_t m, std::int64_t n) { return gmem.offset(m + rows * n); },
                           o.access.bits,
                           o.base,
                           a.cell_accesses,
                           a.cell_excess,
                           a.cell_thread,
                           a.cell_value};
  draw_tile(viz::coalescing_diagram(tile), o.out, *target);
}

}  // namespace

void register_gmem(CLI::App& app) {
  auto o = std::make_shared<GmemOptions>();
  CLI::App* cmd = app.add_subcommand(
      "gmem",
      "Global-memory coalescing of an access pattern over a global-memory tile.\n"
      "GMEM maps tile coordinates (m,n) to element offsets: a layout, possibly swizzled. The\n"
      "access is given as for tessera banks:\n"
      "  --tv LAYOUT [--vec N]     (thread,value) -> column-major index of the GMEM tile; each\n"
      "                            access moves N consecutive values (default 1), or\n"
      "  --access ATOM ...         a copy atom tiled with --threads/--values or --for-mma (as in\n"
      "                            tessera copy); the atom's vector width sets the access. Side:\n"
      "                            the source (a load; cp.async reads global memory); --side dst\n"
      "                            for a store (universal copies).\n"
      "The copy tile is repeated over the GMEM tile when smaller.\n"
      "Model: byte address = offset * element bytes + --base. An instruction is 32 consecutive\n"
      "threads (a warp) x one access step (values [s*N, s*N+N)) in one repeat of the tile; a tiled\n"
      "copy issues several per thread. Each thread moves one vector of N*bits/8 bytes (1, 2, 4, 8\n"
      "or 16; the address must be a multiple of it). The instruction touches the distinct 32-byte\n"
      "sectors (floor(address/32)) and 128-byte lines of its threads' bytes (what ncu counts as\n"
      "l1tex__t_sectors_pipe_lsu_mem_global_op_ld per request). Minimum: ceil(requested / 32)\n"
      "sectors and ceil(requested / 128) lines, where requested = the distinct bytes its threads\n"
      "touch (perfect alignment); excess = touched - minimum; efficiency = minimum / touched.\n"
      "When an instruction is over its minimum, the threads in partly used sectors (fewer than\n"
      "32 requested bytes) are the ones that cause the excess: they are listed.\n"
      "Output: per instruction, sectors/lines touched, minimum, excess, requested bytes, the sector\n"
      "numbers, and the threads causing excess; then a summary. -o FILE draws the tile coloured by\n"
      "sector (--color-by chunk, the default here), cells of partly used sectors of over-minimum\n"
      "instructions outlined red. --json prints the same as one JSON object (docs/json.md).");
  cmd->add_option("GMEM", o->gmem, "the global-memory layout, e.g. (64,64):(64,1) (row-major 64x64)")->required();
  add_access_options(cmd, o->access, "a copy atom (see tessera list atoms --copy), e.g. UniversalCopy_128",
                     "with --access: src (a load, the default) or dst (a store)");
  cmd->add_option("--base", o->base,
                  "bytes added to every address: where the tensor starts relative to a 128-byte\n"
                  "aligned address (default 0)")
      ->type_name("BYTES")
      ->check(integer_option({"--base"}, std::numeric_limits<std::int64_t>::min(),
                             std::numeric_limits<std::int64_t>::max(), "a whole number of bytes"));
  add_tile_output_options(cmd, o->out, "sector");
  add_json_flag(cmd, o->json,
                "print the analysis as one JSON object (docs/json.md): {\"command\": \"gmem\",\n"
                "\"schema_version\": 1, \"gmem\": {layout, rows, cols}, \"bits\", \"base\", \"access\": {text,\n"
                "tile, threads, vec, bytes}, \"instructions\": [{index, tile, step, first_thread, last_thread,\n"
                "requested_bytes, sectors, sector_bytes, min_sectors, excess_sectors, lines, min_lines,\n"
                "excess_lines, excess_threads}] (left out with --summary), \"summary\": {instructions,\n"
                "requested_bytes, sectors, min_sectors, excess_sectors, lines, min_lines, excess_lines,\n"
                "excess_instructions, sectors_per_instruction, sector_efficiency, line_efficiency,\n"
                "coalesced}}; no drawing");
  cmd->footer(
      "Examples:\n"
      "  # 128-bit loads along the rows of a 32x64 fp16 row-major tile (8 threads per row): coalesced,\n"
      "  # 16 sectors = 4 lines per instruction\n"
      "  tessera gmem '(32,64):(64,1)' --access UniversalCopy_128 --threads '(16,8):(8,1)' --values '(1,8)'\n"
      "  # a warp reading one column of a 32x32 fp32 row-major matrix: 32 sectors for 128 bytes\n"
      "  tessera gmem '(32,32):(32,1)' --tv '(32,32):(1,32)' --bits 32 --summary\n"
      "  # the same rows starting 16 bytes past a sector boundary: one excess sector per instruction\n"
      "  tessera gmem '(32,32):(1,32)' --tv '(32,32):(1,32)' --bits 32 --base 16 -o gmem.svg\n"
      "  # cp.async 16-byte loads of a 64x32 fp16 column-major tile, 8 threads per column\n"
      "  tessera gmem '(64,32):(1,64)' --access SM80_CP_ASYNC_CACHEALWAYS_16 --threads '(8,16):(1,8)' --values '(8,1)'\n"
      "Exit status: 0 on success, 1 on any error (message on stderr, no output file written).");
  set_action(cmd, [o] { run_gmem(*o); });
}

}  // namespace tessera::cli
