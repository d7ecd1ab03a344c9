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
#include "tessera/analysis/report.hpp"
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

void run_gmem(const GmemOptions& o) {
  const MemoryArg arg = memory_arg("GMEM", o.gmem, "global-memory", "gmem");
  const analysis::GmemTile& gmem = arg.tile;
  const analysis::GmemAccess access = access_arg(o.access, gmem, kGmemSide);
  const std::optional<Target> target = tile_target(o.out, arg, "gmem");
  const analysis::CoalescingAnalysis a = analysis::analyze_coalescing(gmem, access, o.access.bits, o.base);
  if (o.json) {
    json::print(analysis::gmem_json(arg.value, gmem, access, o.access.bits, a, o.out.summary_only));
    check_standard_output();
    return;
  }
  std::cout << analysis::gmem_text(gmem, access, o.access.bits, a, o.out.summary_only);
  check_standard_output();
  if (!target) return;
  draw_tile(viz::coalescing_diagram(gmem, o.access.bits, a), o.out, *target);
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
