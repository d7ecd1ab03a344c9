// `tessera banks`: shared-memory bank conflicts of an access pattern over a (swizzled)
// smem tile, instruction by instruction, and the tile drawn by bank.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "tessera/analysis/banks.hpp"
#include "atom_support.hpp"
#include "action.hpp"
#include "commands.hpp"
#include "json.hpp"
#include "json_option.hpp"
#include "tessera/viz/build_banks.hpp"

namespace tessera::cli {

namespace {

struct BanksOptions {
  std::string smem, tv, access, side, threads, values, for_mma, atoms, permute, operand, format, output, color_by;
  int bits = 16, vec = 1;
  bool vec_given = false, summary_only = false, force = false, json = false;
  DensityFlags density;
};

std::string fixed2(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", x);
  return buf;
}

// The degrees of one phase, bank by bank.
json::Value bank_degrees(const int (&degree)[tessera::analysis::num_banks]) {
  json::Value a = json::Value::array();
  for (int d : degree) a.push(d);
  return a;
}

// --json: what the text prints, field by field (docs/json.md), plus each phase's degrees.
void print_banks_json(const BanksOptions& o, const rt::Value& sv, const analysis::SmemTile& smem,
                      const analysis::BankAccess& access, const analysis::BankAnalysis& a) {
  json::Value d = json::document("banks");
  d.set("smem", json::Value::object({{"layout", sv.kind == rt::Value::Kind::Layout ? json::layout(sv.layout)
                                                                                     : json::swizzled_layout(sv.swizzled)},
                                     {"rows", smem.rows()},
                                     {"cols", smem.cols()}}));
  d.set("bits", o.bits);
  d.set("access", json::Value::object({{"text", access.text},
                                       {"tile", json::Value::array({access.tile_m, access.tile_n})},
                                       {"threads", access.tv.mode(0).size()},
                                       {"vec", access.vec},
                                       {"bytes", a.summary.access_bytes}}));
  if (!o.summary_only) {
    json::Value instructions = json::Value::array();
    for (const auto& in : a.instructions) {
      const auto& r = in.report;
      json::Value phases = json::Value::array(), worst = json::Value::array();
      std::int64_t last = in.info.first_thread;
      for (int p = 0; p < r.num_phases; ++p) {
        const auto& ph = r.phase[p];
        phases.push(json::Value::object({{"first_thread", in.info.first_thread + ph.first_thread},
                                         {"threads", ph.num_threads},
                                         {"active_threads", ph.active_threads},
                                         {"wavefronts", ph.wavefronts},
                                         {"degree", bank_degrees(ph.degree)}}));
        last = in.info.first_thread + ph.first_thread + ph.num_threads - 1;
      }
      for (int b = 0; b < tessera::analysis::num_banks; ++b) {
        int w = 0;
        for (int p = 0; p < r.num_phases; ++p) w = std::max(w, r.phase[p].degree[b]);
        worst.push(w);
      }
      instructions.push(json::Value::object({{"index", in.info.index},
                                             {"tile", in.info.tile},
                                             {"step", in.info.step},
                                             {"first_thread", in.info.first_thread},
                                             {"last_thread", last},
                                             {"wavefronts", r.wavefronts},
                                             {"ideal", r.ideal_wavefronts()},
                                             {"extra", r.wavefronts - r.ideal_wavefronts()},
                                             {"max_degree", r.max_degree},
                                             {"degree_by_bank", std::move(worst)},
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
  json::print(d);
  check_standard_output();
}

void run_banks(const BanksOptions& o) {
  // The smem tile
  const rt::Value sv = evaluate_arg("SMEM", o.smem);
  analysis::SmemTile smem;
  if (sv.kind == rt::Value::Kind::Layout) smem = located("SMEM", o.smem, [&] { return analysis::smem_tile(sv.layout); });
  else if (sv.kind == rt::Value::Kind::Swizzled)
    smem = located("SMEM", o.smem, [&] { return analysis::smem_tile(sv.swizzled); });
  else fail("SMEM must be a layout (M,N):(s,t), possibly swizzled (Sw<B,M,S> o ...), not " + rt::describe(sv), o.smem, 0);
  // Bounded work: the analysis keeps one counter per smem cell and walks every (thread,value).
  constexpr std::int64_t kMaxCells = std::int64_t{1} << 22;
  std::int64_t smem_cells = 0;
  if (__builtin_mul_overflow(smem.rows(), smem.cols(), &smem_cells) || smem_cells > kMaxCells)
    fail("the smem tile has " + std::to_string(smem.rows()) + "x" + std::to_string(smem.cols()) +
             " cells, more than tessera analyses (" + std::to_string(kMaxCells) + ")",
         o.smem, 0);
  if (o.bits <= 0 || o.bits % 8 != 0 || o.bits > 128) fail("--bits must be 8, 16, 32, 64 or 128, not " + std::to_string(o.bits));
  if (o.vec <= 0) fail("--vec must be a positive number of values per access, not " + std::to_string(o.vec));

  // The access
  const bool raw = !o.tv.empty();
  if (raw == !o.access.empty())
    fail(raw ? "give either --tv or --access, not both"
             : "give the access: --tv LAYOUT (thread,value) -> tile index, or --access COPY_ATOM with\n"
               "--threads/--values or --for-mma");
  analysis::BankAccess access;
  if (raw) {
    if (!o.threads.empty() || !o.values.empty() || !o.for_mma.empty() || !o.side.empty())
      fail("--threads, --values, --for-mma and --side go with --access, not --tv");
    const rt::Layout tv = layout_arg("--tv", o.tv);
    if (tv.rank() != 2 || tv.shape.is_leaf())
      fail("--tv must have two modes, (threads,values) -> tile index", o.tv, 0);
    access = analysis::access_of_tv(tv, smem.rows(), smem.cols(), o.vec);
  } else {
    if (o.vec_given) fail("--vec goes with --tv; with --access the atom sets the access width");
    // "ldsm:SM75_U32x4_LDSM_N" is accepted: a kind prefix before the atom name.
    std::string name = o.access;
    if (!rt::find_copy(name) && name.find(':') != std::string::npos) name = name.substr(name.find(':') + 1);
    const rt::CopyAtomInfo& atom = copy_arg(name);
    bool source = atom.smem_side != "dst";
    if (!o.side.empty()) {
      if (o.side != "src" && o.side != "dst") fail("--side must be src or dst, not '" + o.side + "'");
      source = o.side == "src";
    }
    const rt::TiledCopy c =
        tiled_copy_from(atom, o.bits, o.threads, o.values, o.for_mma, o.atoms, o.permute, o.operand);
    access = analysis::access_of_copy(c, source);
  }
  if (access.tv.size() > kMaxCells)
    fail("the access has " + std::to_string(access.tv.size()) + " (thread,value) pairs, more than tessera analyses (" +
         std::to_string(kMaxCells) + ")");
  Target target;
  const bool draw = !o.output.empty();
  if (draw) {
    target = resolve_target(o.format, o.output);
    check_cells(smem_cells, "the smem tile " + smem.text, o.force);
  }
  const analysis::BankAnalysis a = analysis::analyze_banks(smem, access, o.bits);
  if (o.json) return print_banks_json(o, sv, smem, access, a);

  std::string out;
  out += "smem " + smem.text + " (" + std::to_string(smem.rows()) + "x" + std::to_string(smem.cols()) + ", " +
         std::to_string(o.bits) + "-bit elements)\n";
  out += "access " + access.text + ": tile " + std::to_string(access.tile_m) + "x" + std::to_string(access.tile_n) +
         ", " + std::to_string(access.tv.mode(0).size()) + " threads, " + std::to_string(access.vec) +
         " value(s) = " + std::to_string(a.summary.access_bytes) + " bytes per access\n";
  if (!o.summary_only)
    for (const auto& in : a.instructions) {
      const auto& r = in.report;
      int last = in.info.first_thread;
      if (r.num_phases) last += r.phase[r.num_phases - 1].first_thread + r.phase[r.num_phases - 1].num_threads - 1;
      out += "instr " + std::to_string(in.info.index) + " tile " + std::to_string(in.info.tile) + " step " +
             std::to_string(in.info.step) + " threads " + std::to_string(in.info.first_thread) + "-" +
             std::to_string(last) + ": wavefronts " + std::to_string(r.wavefronts) + " ideal " +
             std::to_string(r.ideal_wavefronts()) + " extra " + std::to_string(r.wavefronts - r.ideal_wavefronts()) +
             " max-degree " + std::to_string(r.max_degree) + "\n";
      // Per bank: the worst degree over the phases (distinct 4-byte words requested).
      out += "  degree by bank:";
      for (int b = 0; b < tessera::analysis::num_banks; ++b) {
        int d = 0;
        for (int p = 0; p < r.num_phases; ++p) d = std::max(d, r.phase[p].degree[b]);
        out += " " + std::to_string(d);
      }
      out += "\n";
    }
  const auto& s = a.summary;
  out += "summary: instructions " + std::to_string(s.instructions) + ", wavefronts " + std::to_string(s.wavefronts) +
         ", ideal " + std::to_string(s.ideal_wavefronts) + ", extra " + std::to_string(s.extra_wavefronts()) +
         ", conflict factor " + fixed2(a.conflict_factor()) + ", max degree " + std::to_string(s.max_degree) +
         (s.conflict_free() ? " (conflict-free)" : " (" + std::to_string(s.max_degree) + "-way conflicted)") + "\n";
  std::cout << out;
  check_standard_output();
  if (!draw) return;
  const std::int64_t rows = smem.rows();
  viz::BankTile tile{smem.text, smem.row_shape, smem.col_shape,
                     [&smem, rows](std::int64_t m, std::int64_t n) { return smem.offset(m + rows * n); }, o.bits,
                     a.cell_degree};
  viz::Diagram d = viz::banks_diagram(tile);
  recolor(d, o.color_by);
  set_density(d, o.density);
  emit(d, target);
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
      "then a summary. -o FILE draws the tile coloured by bank, conflicted cells outlined red.");
  cmd->add_option("SMEM", o->smem, "the shared-memory layout, e.g. (8,64):(64,1) or 'Sw<3,3,3> o (8,64):(64,1)'")
      ->required();
  cmd->add_option("--bits", o->bits, "element width in bits (8, 16, 32, 64, 128; default 16)")->type_name("N");
  cmd->add_option("--tv", o->tv, "a raw TV layout (thread,value) -> tile index")->type_name("LAYOUT");
  CLI::Option* vec = cmd->add_option("--vec", o->vec, "with --tv: consecutive values per access, 1 or more (default 1)")
                         ->type_name("N");
  cmd->add_option("--access", o->access,
                  "a copy atom (see tessera list atoms --copy), optionally with a kind prefix: ldsm:SM75_U32x4_LDSM_N")
      ->type_name("ATOM");
  cmd->add_option("--side", o->side, "with --access: src or dst, the side in shared memory")->type_name("SIDE");
  cmd->add_option("--threads", o->threads, "with --access: thread layout (as tessera copy)")->type_name("LAYOUT");
  cmd->add_option("--values", o->values, "with --access: value layout (as tessera copy)")->type_name("LAYOUT");
  cmd->add_option("--for-mma", o->for_mma, "with --access: copy an operand of this MMA's tiled MMA")->type_name("MMA");
  cmd->add_option("--atoms", o->atoms, "with --for-mma: MxNxK atoms")->type_name("MxNxK");
  cmd->add_option("--permute", o->permute, "with --for-mma: permutation (see tessera mma)")->type_name("PERM");
  cmd->add_option("--operand", o->operand, "with --for-mma: A, B or C")->type_name("A|B|C");
  cmd->add_flag("--summary", o->summary_only, "print only the header and summary lines");
  cmd->add_option("-f,--format", o->format, "diagram format: txt, svg, tex, png, pdf or html (default from -o)")
      ->type_name("FORMAT");
  cmd->add_option("-o,--output", o->output, "draw the tile by bank to FILE (atomically; - for stdout)")
      ->check(output_file_name())
      ->type_name("FILE");
  cmd->add_flag("--force", o->force, "draw tiles over " + std::to_string(cli::kCellLimit) + " cells");
  add_color_by(cmd, o->color_by);
  add_density(cmd, o->density);
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
  set_action(cmd, [o, vec] {
    o->vec_given = vec->count() > 0;
    run_banks(*o);
  });
}

}  // namespace tessera::cli
