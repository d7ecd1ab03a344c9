// `tessera mma`: an MMA atom or tiled MMA drawn as A, B, C panels, or its TV layouts.
#include <iostream>
#include <memory>
#include <string>

#include "atom_support.hpp"
#include "action.hpp"
#include "commands.hpp"
#include "json.hpp"
#include "json_option.hpp"
#include "tessera/viz/atom_diagrams.hpp"

namespace tessera::cli {

namespace {

struct MmaOptions {
  std::string name, atoms, permute, format, output, title, color_by;
  bool print_layouts = false, force = false, json = false;
  DensityFlags density;
};

// --json: the atom, the tiled MMA's arguments, and every layout --print-layouts prints, under
// the same names (docs/json.md).
void print_mma_json(const rt::MmaAtomInfo& atom, const rt::TiledMma& t) {
  json::Value d = json::document("mma");
  d.set("atom", json::Value::object({{"name", atom.name},
                                     {"arch", atom.arch},
                                     {"types", atom.types},
                                     {"m", atom.m},
                                     {"n", atom.n},
                                     {"k", atom.k},
                                     {"threads", atom.thr_id.size()}}));
  d.set("atom_layout", json::layout(t.atom_layout));
  json::Value perm = json::Value::array();
  for (const auto& p : t.perm) perm.push(p ? json::layout(*p) : json::Value());
  d.set("permutation", std::move(perm));
  d.set("ThrID", json::layout(atom.thr_id));
  d.set("ALayout", json::layout(atom.a_tv));
  d.set("BLayout", json::layout(atom.b_tv));
  d.set("CLayout", json::layout(atom.c_tv));
  d.set("thr_layout_vmnk", json::layout(t.thr_layout_vmnk));
  d.set("layoutA_TV", json::layout(t.layout_a_tv));
  d.set("layoutB_TV", json::layout(t.layout_b_tv));
  d.set("layoutC_TV", json::layout(t.layout_c_tv));
  d.set("tile", json::Value::array({t.tile[0], t.tile[1], t.tile[2]}));
  json::print(d);
  check_standard_output();
}

void run_mma(const MmaOptions& o) {
  const rt::MmaAtomInfo& atom = mma_arg(o.name);
  const rt::TiledMma t = tiled_mma_arg(atom, o.atoms, o.permute);
  const std::int64_t M = t.tile[0], N = t.tile[1], K = t.tile[2];
  if (o.json) return print_mma_json(atom, t);
  const bool draw = !o.print_layouts || !o.output.empty();
  Target target;
  if (draw) {
    target = resolve_target(o.format, o.output);
    std::int64_t mk = 0, nk = 0, mn = 0, cells = 0;
    if (__builtin_mul_overflow(M, K, &mk) || __builtin_mul_overflow(N, K, &nk) || __builtin_mul_overflow(M, N, &mn) ||
        __builtin_add_overflow(mk, nk, &cells) || __builtin_add_overflow(cells, mn, &cells))
      cells = INT64_MAX;
    check_cells(cells,
                "the MMA tile " + std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K), o.force);
  }
  if (o.print_layouts) {
    // The atom's traits first (logical thread ids, as MMA_Traits), then the tiled MMA's maps.
    std::cout << "ThrID " << rt::to_string(atom.thr_id) << "\n"
              << "ALayout " << rt::to_string(atom.a_tv) << "\n"
              << "BLayout " << rt::to_string(atom.b_tv) << "\n"
              << "CLayout " << rt::to_string(atom.c_tv) << "\n"
              << "thr_layout_vmnk " << rt::to_string(t.thr_layout_vmnk) << "\n"
              << "layoutA_TV " << rt::to_string(t.layout_a_tv) << "\n"
              << "layoutB_TV " << rt::to_string(t.layout_b_tv) << "\n"
              << "layoutC_TV " << rt::to_string(t.layout_c_tv) << "\n"
              << "tile (" << M << "," << N << "," << K << ")\n";
    check_standard_output();
  }
  if (!draw) return;
  viz::MmaTvLayouts l = viz::mma_tv_layouts(t, atom.name);
  if (!o.atoms.empty()) l.name += " atoms " + o.atoms;
  if (!o.permute.empty()) l.name += " permute " + o.permute;
  viz::Diagram d = viz::mma_diagram(l);
  if (!o.title.empty()) d.title = o.title;
  recolor(d, o.color_by);
  set_density(d, o.density);
  emit(d, target);
}

}  // namespace

void register_mma(CLI::App& app) {
  auto o = std::make_shared<MmaOptions>();
  CLI::App* cmd = app.add_subcommand(
      "mma",
      "Draw an MMA atom or a tiled MMA as CuTe's print_latex does: A (M x K) on the left, B drawn\n"
      "K x N (transposed) on top, C (M x N); each cell shows the thread T and value V holding it,\n"
      "coloured by thread. A and B are replicated over the atoms of the other mode.\n"
      "With --print-layouts, print instead (one per line, each named as in CuTe):\n"
      "  ThrID            the atom's logical thread id -> thread in the warp / warpgroup\n"
      "  ALayout          the atom's (logical thread, value) -> m + M*k of its (M,K) tile\n"
      "  BLayout          the atom's (logical thread, value) -> n + N*k of its (N,K) tile\n"
      "  CLayout          the atom's (logical thread, value) -> m + M*n of its (M,N) tile\n"
      "  thr_layout_vmnk  the tiled MMA's (V,M,N,K) -> thread index\n"
      "  layoutA_TV       the tiled MMA's get_layoutA_TV: (thread,value) -> m + M*k of the tile\n"
      "  layoutB_TV       get_layoutB_TV: (thread,value) -> n + N*k\n"
      "  layoutC_TV       get_layoutC_TV: (thread,value) -> m + M*n\n"
      "  tile             (M,N,K) of the tiled MMA\n"
      "(add -o FILE to also draw the diagram). The atom's layouts use logical thread ids (0-7 for\n"
      "SM70's quad pair, which ThrID (4,2):(1,16) maps to lanes 0-3, 16-19). As CuTe's\n"
      "get_layoutX_TV, the tiled maps re-index threads by right_inverse(thr_layout_vmnk): for a\n"
      "single SM70 atom that covers threads 0-3 only; the diagram labels every lane.\n"
      "Atom names as in CuTe: see `tessera list atoms --mma`.");
  cmd->add_option("NAME", o->name, "the MMA atom, e.g. SM80_16x8x16_F32F16F16F32_TN, SM90_64x64x16_F32BF16BF16_SS")
      ->required();
  cmd->add_option("--atoms", o->atoms,
                  "MxNxK: atoms along M, N and K (column-major thread order, as CuTe's\n"
                  "make_tiled_mma(atom, Layout<Shape<M,N,K>>)); MxN means K = 1. Default 1x1x1")
      ->type_name("MxNxK");
  cmd->add_option("--permute", o->permute,
                  "(M,N,K) permutation tiler, one entry per mode: _ (none), an extent E (E:1,\n"
                  "a larger value tile), or a layout such as (8,2,2):(1,16,8). Parentheses\n"
                  "may be left out: --permute 32,32,16 or --permute '(_,(8,2):(1,8),_)'")
      ->type_name("PERM");
  cmd->add_option("-f,--format", o->format, "txt, svg, tex (TikZ), png, pdf or html (interactive); default: from -o, else txt")
      ->type_name("FORMAT");
  cmd->add_option("-o,--output", o->output,
                  "write the diagram to FILE (atomically: nothing is left on error); default stdout")
      ->check(output_file_name())
      ->type_name("FILE");
  cmd->add_flag("--print-layouts", o->print_layouts, "print the atom's and the tiled MMA's layouts (see above)");
  add_color_by(cmd, o->color_by);
  add_density(cmd, o->density);
  cmd->add_flag("--force", o->force, "draw diagrams over " + std::to_string(cli::kCellLimit) + " cells");
  cmd->add_option("--title", o->title, "a title above the diagram (default: the atom and options)")
      ->type_name("TEXT");
  add_json_flag(cmd, o->json,
                "print the atom, its arguments and the layouts --print-layouts prints, as one JSON\n"
                "object: {\"command\": \"mma\", \"schema_version\": 1, \"atom\": {name, arch, types, m, n,\n"
                "k, threads}, \"atom_layout\", \"permutation\", \"ThrID\", \"ALayout\", ..., \"layoutC_TV\",\n"
                "\"tile\": [M,N,K]}, layouts as {text, shape, stride} (docs/json.md); no diagram");
  cmd->footer(
      "Examples:\n"
      "  tessera mma SM80_16x8x16_F32F16F16F32_TN                      # text panels on stdout\n"
      "  tessera mma SM80_16x8x16_F32F16F16F32_TN --atoms 2x2 --json   # the layouts, as JSON\n"
      "  tessera mma SM80_16x8x16_F32F16F16F32_TN --atoms 2x2x1 -o tiled.svg\n"
      "  tessera mma SM80_16x8x8_F16F16F16F16_TN --atoms 2x2 --permute 32,32,8 -o perm.pdf\n"
      "  tessera mma SM90_64x64x16_F32F16F16_RS --print-layouts\n"
      "  tessera mma SM70_8x8x4_F32F16F16F32_TN -f tex -o sm70.tex && pdflatex sm70.tex\n"
      "Exit status: 0 on success, 1 on any error (message on stderr, no output file written).");
  set_action(cmd, [o] { run_mma(*o); });
}

}  // namespace tessera::cli
