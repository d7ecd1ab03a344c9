// `tessera banks`: shared-memory bank conflicts of an access pattern over a (swizzled)
// smem tile, instruction by instruction, and the tile drawn by bank.
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "tessera/analysis/banks.hpp"
#include "tessera/analysis/report.hpp"
#include "atom_support.hpp"
#include "action.hpp"
#include "commands.hpp"
#include "json.hpp"
#include "json_option.hpp"
#include "memory_access.hpp"
#include "tessera/viz/build_banks.hpp"

namespace tessera::cli {

namespace {

struct BanksOptions {
  std::string smem;
  AccessOptions access;
  TileOutputOptions out;
  bool json = false;
};

// ldmatrix reads shared memory (its source), cp.async writes it (its destination).
const CopySideRule kSmemSide{[](const rt::CopyAtomInfo& atom) { return atom.smem_side != "dst"; },
                             analysis::access_of_copy};

void run_banks(const BanksOptions& o) {
  const MemoryArg arg = memory_arg("SMEM", o.smem, "shared-memory", "smem");
  const analysis::SmemTile& smem = arg.tile;
  const analysis::BankAccess access = access_arg(o.access, smem, kSmemSide);
  const std::optional<Target> target = tile_target(o.out, arg, "smem");
  const analysis::BankAnalysis a = analysis::analyze_banks(smem, access, o.access.bits);
  if (o.json) {
    json::print(analysis::banks_json(arg.value, smem, access, o.access.bits, a, o.out.summary_only));
    check_standard_output();
    return;
  }
  std::cout << analysis::banks_text(smem, access, o.access.bits, a, o.out.summary_only);
  check_standard_output();
  if (!target) return;
  draw_tile(viz::banks_diagram(smem, o.access.bits, a), o.out, *target);
}

}  // namespace

void register_banks(CLI::App& app) {
  auto o = std::make_shared<BanksOptions>();
  CLI::App* cmd = app.add_subcommand(
      "banks",
      "Shared-memory bank conflicts of an access pattern over a shared-memory tile.\n"
      "SMEM maps tile coordinates (m,n) to element offsets: a layout, possibly swizzled\n"
      "('Sw<3,3,3> o (8,64):(64,1)'). The access is either\n"
      "  --tv LAYOUT [--vec N]     (thread,value) -> column-major index of the SMEM tile; each\n"
      "                            access moves N consecutive values (default 1), or\n"
      "  --access ATOM ...         a copy atom tiled with --threads/--values or --for-mma (as in\n"
      "                            tessera copy); the atom's vector width, and for ldmatrix the\n"
      "                            address lanes, set the access. Side: ldmatrix reads smem (src),\n"
      "                            cp.async writes it (dst); --side src|dst overrides.\n"
      "The copy tile is repeated over the SMEM tile when smaller.\n"
      "Model: 32 banks x 4 bytes; a warp's access splits into phases (1-4 byte: 32 threads,\n"
      "8 byte: 16, 16 byte: 8); in a phase each bank serves one distinct 4-byte word per wavefront\n"
      "(same word: broadcast). An instruction is 32 consecutive threads x one access step.\n"
      "Output: per instruction, wavefronts, ideal (one per active phase), extra = wavefronts - ideal\n"
      "(what ncu counts as bank conflicts), max degree, and the degree by bank: for each of the 32\n"
      "banks, the most distinct 4-byte words it serves in any one phase of the instruction (the\n"
      "maximum over the phases, bank by bank: two banks' maxima may come from different phases);\n"
      "then a summary. -o FILE draws the tile coloured by bank, conflicted cells outlined red; a\n"
      "cell's tooltip names its thread and every thread reaching the same bank in that phase.");
  cmd->add_option("SMEM", o->smem, "the shared-memory layout, e.g. (8,64):(64,1) or 'Sw<3,3,3> o (8,64):(64,1)'")
      ->required();
  add_access_options(cmd, o->access,
                     "a copy atom (see tessera list atoms --copy), optionally with a kind prefix: ldsm:SM75_U32x4_LDSM_N",
                     "with --access: src or dst, the side in shared memory");
  add_tile_output_options(cmd, o->out, "bank");
  add_json_flag(cmd, o->json,
                "print the analysis as one JSON object (docs/json.md): {\"command\": \"banks\",\n"
                "\"schema_version\": 1, \"smem\": {layout, rows, cols}, \"bits\", \"access\": {text, tile,\n"
                "threads, vec, bytes}, \"instructions\": [{index, tile, step, first_thread, last_thread,\n"
                "wavefronts, ideal, extra, max_degree, degree_by_bank, phases: [{first_thread, threads,\n"
                "active_threads, wavefronts, degree}]}] (left out with --summary), \"summary\": {instructions,\n"
                "wavefronts, ideal, extra, conflict_factor, max_degree, conflict_free}}; no drawing");
  cmd->footer(
      "Examples:\n"
      "  # ldmatrix x4 reading rows of an 8x64 fp16 row-major tile: 8-way conflicted\n"
      "  tessera banks '(8,64):(64,1)' --tv '((8,4),(8,2)):((1,64),(8,256))' --vec 8 --bits 16\n"
      "  # the same under Sw<3,3,3>: conflict-free\n"
      "  tessera banks 'Sw<3,3,3> o (8,64):(64,1)' --tv '((8,4),(8,2)):((1,64),(8,256))' --vec 8 -o banks.svg\n"
      "  # the A operand of a 2x2 SM80 tiled MMA loaded with ldmatrix from a 32x64 swizzled tile\n"
      "  tessera banks 'Sw<3,3,3> o (32,64):(64,1)' --access SM75_U32x4_LDSM_N \\\n"
      "      --for-mma SM80_16x8x16_F32F16F16F32_TN --atoms 2x2 --operand A --summary\n"
      "  tessera banks '(32,64):(64,1)' --access SM80_CP_ASYNC_CACHEALWAYS_16 --threads '(32,4):(4,1)' --values '(1,8)'\n"
      "  tessera banks '(8,64):(64,1)' --tv '((8,4),(8,2)):((1,64),(8,256))' --vec 8 --json --summary\n"
      "Exit status: 0 on success, 1 on any error (message on stderr, no output file written).");
  set_action(cmd, [o] { run_banks(*o); });
}

}  // namespace tessera::cli
