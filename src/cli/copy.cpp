// `tessera copy`: a tiled copy drawn as source and destination panels, or its TV layouts.
#include <iostream>
#include <memory>
#include <string>

#include "atom_support.hpp"
#include "action.hpp"
#include "commands.hpp"
#include "json.hpp"
#include "json_option.hpp"
#include "tessera/viz/atom_diagrams.hpp"
#include "tessera/viz/build_tmem.hpp"

namespace tessera::cli {

namespace {

struct CopyOptions {
  std::string name, threads, values, for_mma, atoms, permute, operand, format, output, title, color_by;
  int bits = 0;
  bool print_layouts = false, force = false, json = false;
  DensityFlags density;
};

// --json: the atom, the element width, and the layouts --print-layouts prints, under the
// same names (docs/json.md).
void print_copy_json(const rt::TiledCopy& c) {
  json::print(json::tiled_copy(c));
  check_standard_output();
}

}  // namespace

namespace {

// The atom's traits, named as CuTe's Copy_Traits (ValID for tensor-memory atoms).
void print_atom_layouts(const rt::CopyAtomInfo& atom) {
  std::cout << "ThrID " << rt::to_string(atom.thr_id) << "\n";
  if (atom.tmem_src || atom.tmem_dst) std::cout << "ValID " << rt::to_string(atom.val_id) << "\n";
  std::cout << "SrcLayout " << rt::to_string(atom.src_bits) << "\n"
            << "DstLayout " << rt::to_string(atom.dst_bits) << "\n"
            << "RefLayout " << rt::to_string(atom.ref_bits) << "\n";
}

// A tensor-memory atom (tcgen05.ld/st) alone: its block of tensor memory, lanes x columns.
void run_tmem_atom(const CopyOptions& o, const rt::CopyAtomInfo& atom) {
  if (o.json) fail("--json: a tensor-memory atom alone has no tiled copy; give --threads and --values");
  if (o.bits) fail_option("--bits", "--bits: a tensor-memory atom alone is drawn in 32-bit cells; --bits goes with --threads/--values");
  const bool draw = !o.print_layouts || !o.output.empty();
  Target target;
  if (draw) target = resolve_target(o.format, o.output);
  if (o.print_layouts) {
    print_atom_layouts(atom);
    check_standard_output();
  }
  if (!draw) return;
  viz::Diagram d = viz::tmem_copy_diagram(atom);
  if (!o.title.empty()) d.title = o.title;
  recolor(d, o.color_by);
  set_density(d, o.density);
  emit(d, target);
}

void run_copy(const CopyOptions& o) {
  const rt::CopyAtomInfo& atom = copy_arg(o.name);
  if ((atom.tmem_src || atom.tmem_dst) && o.threads.empty() && o.values.empty() && o.for_mma.empty())
    return run_tmem_atom(o, atom);
  const int bits = o.bits ? o.bits : atom.default_bits;
  const rt::TiledCopy c =
      tiled_copy_from(atom, bits, o.threads, o.values, o.for_mma, o.atoms, o.permute, o.operand);
  if (o.json) return print_copy_json(c);
  const std::int64_t M = rt::product(c.tiler[0]), N = c.tiler.rank() > 1 ? rt::product(c.tiler[1]) : 1;
  const bool draw = !o.print_layouts || !o.output.empty();
  Target target;
  if (draw) {
    target = resolve_target(o.format, o.output);
    std::int64_t cells = 0;
    if (__builtin_mul_overflow(M, N, &cells) || __builtin_mul_overflow(cells, std::int64_t{2}, &cells)) cells = INT64_MAX;
    check_cells(cells, "the copy tile " + std::to_string(M) + "x" + std::to_string(N), o.force);
  }
  if (o.print_layouts)
  {
    print_atom_layouts(atom);
    std::cout << "src " << rt::to_string(c.layout_s_tv) << "\n"
              << "dst " << rt::to_string(c.layout_d_tv) << "\n"
              << "tile " << rt::to_string(c.tiler) << "\n";
    check_standard_output();
  }
  if (!draw) return;
  viz::Diagram d = viz::copy_diagram(viz::copy_tv_layouts(c, atom.name + " (" + std::to_string(bits) + "-bit)"));
  if (!o.title.empty()) d.title = o.title;
  recolor(d, o.color_by);
  set_density(d, o.density);
  emit(d, target);
}

}  // namespace

void register_copy(CLI::App& app) {
  auto o = std::make_shared<CopyOptions>();
  CLI::App* cmd = app.add_subcommand(
      "copy",
      "Draw a tiled copy as two panels over its tile: source (which thread T reads each element,\n"
      "as value V) and destination (which thread writes it). The tiled copy is either\n"
      "make_tiled_copy(atom, --threads, --values) (--threads maps each (m,n) of the thread grid to\n"
      "a thread index, --values each (m,n) of a thread's block to a value index, as CuTe), or\n"
      "make_tiled_copy_A/B/C(atom, tiled MMA) with --for-mma.\n"
      "A tensor-memory atom (SM100_TMEM_LOAD_/STORE_, tcgen05.ld/st) given alone is drawn as its\n"
      "block of tensor memory, lanes x 32-bit columns, each cell the thread T and register R that\n"
      "receives (LOAD) or gives (STORE) it.\n"
      "With --print-layouts, print instead (one per line):\n"
      "  ThrID      the atom's thread id -> thread in the warp (as CuTe's Copy_Traits)\n"
      "  ValID      tensor-memory atoms: the atom's bit -> address lane*2^21 + 32*column + bit\n"
      "  SrcLayout  the atom's (thread, value) -> bit, source side\n"
      "  DstLayout  the same, destination side\n"
      "  RefLayout  the side a tiled copy's values are counted in\n"
      "  src  (thread,value) -> column-major index of the tile, source side\n"
      "  dst  the same, destination side\n"
      "  tile (M,N)\n"
      "(add -o FILE to also draw the diagram). Atom names: `tessera list atoms --copy`;\n"
      "UniversalCopy<uint128_t> may be written UniversalCopy_128, SM80_CP_ASYNC_CACHEALWAYS<16> as\n"
      "SM80_CP_ASYNC_CACHEALWAYS_16.");
  cmd->add_option("NAME", o->name, "the copy atom, e.g. SM75_U32x4_LDSM_N, UniversalCopy_128")->required();
  cmd->add_option("--threads", o->threads,
                  "thread layout: (m,n) in the thread grid -> thread index, e.g. (32,8):(8,1)\n"
                  "(row-major: consecutive threads along n)")
      ->type_name("LAYOUT");
  cmd->add_option("--values", o->values, "value layout: (m,n) in a thread's block -> value index, e.g. (1,8)")
      ->type_name("LAYOUT");
  cmd->add_option("--for-mma", o->for_mma, "copy an operand of this MMA atom's tiled MMA")->type_name("MMA");
  cmd->add_option("--atoms", o->atoms, "with --for-mma: atoms MxNxK of the tiled MMA (see tessera mma)")
      ->type_name("MxNxK");
  cmd->add_option("--permute", o->permute, "with --for-mma: the tiled MMA's permutation (see tessera mma)")
      ->type_name("PERM");
  cmd->add_option("--operand", o->operand, "with --for-mma: A, B or C")->type_name("A|B|C");
  add_bits_option(cmd, o->bits, {8, 16, 32, 64, 128}, "element width in bits (default 16; 8/16/32 for UniversalCopy of that width)")
      ->type_name("N");
  cmd->add_option("-f,--format", o->format, "txt, svg, tex (TikZ), png, pdf or html (interactive); default: from -o, else txt")
      ->type_name("FORMAT");
  cmd->add_option("-o,--output", o->output, "write the diagram to FILE (atomically); default stdout")
      ->check(output_file_name())
      ->type_name("FILE");
  cmd->add_flag("--print-layouts", o->print_layouts, "print the atom's traits and the src/dst/tile lines (see above)");
  cmd->add_flag("--force", o->force, "draw diagrams over " + std::to_string(cli::kCellLimit) + " cells");
  cmd->add_option("--title", o->title, "a title above the diagram (UTF-8; control characters are refused)")
      ->type_name("TEXT")
      ->check(drawable_text_option("--title"));
  add_color_by(cmd, o->color_by);
  add_density(cmd, o->density);
  add_json_flag(cmd, o->json,
                "print the atom and the layouts --print-layouts prints as one JSON object:\n"
                "{\"command\": \"copy\", \"schema_version\": 1, \"atom\": {name, arch, smem, threads}, \"bits\",\n"
                "\"threads\", \"src\", \"dst\", \"tile\"}, layouts as {text, shape, stride} (docs/json.md)");
  cmd->footer(
      "Examples:\n"
      "  tessera copy UniversalCopy_128 --threads '(4,8):(8,1)' --values '(1,8)'\n"
      "  tessera copy UniversalCopy_128 --threads '(4,8):(8,1)' --values '(1,8)' --json\n"
      "  tessera copy SM75_U32x4_LDSM_N --for-mma SM80_16x8x16_F32F16F16F32_TN --operand A -o ldsm_a.svg\n"
      "  tessera copy SM75_U16x4_LDSM_T --for-mma SM80_16x8x16_F32F16F16F32_TN --atoms 2x2 --operand B --print-layouts\n"
      "  tessera copy SM80_CP_ASYNC_CACHEALWAYS_16 --threads '(16,8):(8,1)' --values '(1,8)' -o cp_async.pdf\n"
      "  tessera copy SM100_TMEM_LOAD_16dp128b1x -o tmem.svg\n"
      "Exit status: 0 on success, 1 on any error (message on stderr, no output file written).");
  set_action(cmd, [o] { run_copy(*o); });
}

}  // namespace tessera::cli
