// `tessera mma`: an MMA atom or tiled MMA drawn as A, B, C panels, or its TV layouts.
#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "atom_support.hpp"
#include "action.hpp"
#include "commands.hpp"
#include "json.hpp"
#include "json_option.hpp"
#include "tessera/analysis/gmma_atoms.hpp"
#include "tessera/viz/atom_diagrams.hpp"
#include "tessera/viz/build_tmem.hpp"
#include "tessera/viz/colors.hpp"

namespace tessera::cli {

namespace {

struct MmaOptions {
  std::string name, atoms, permute, format, output, title, color_by, smem_layout;
  std::vector<std::string> only;
  bool print_layouts = false, force = false, json = false;
  DensityFlags density;
};

// --json: the atom, the tiled MMA's arguments, and every layout --print-layouts prints, under
// the same names (docs/json.md).
void print_mma_json(const rt::TiledMma& t) {
  json::print(json::tiled_mma(t));
  check_standard_output();
}

// --only A,B,C (repeatable, or a comma list; case does not matter): which operands.
struct Operands {
  bool a = true, b = true, c = true;
};
Operands only_arg(const std::vector<std::string>& only) {
  if (only.empty()) return {};
  Operands o{false, false, false};
  for (const std::string& arg : only) {
    std::size_t pos = 0;
    while (pos <= arg.size()) {
      const std::size_t end = std::min(arg.find(',', pos), arg.size());
      const std::string item = arg.substr(pos, end - pos);
      if (item == "A" || item == "a") o.a = true;
      else if (item == "B" || item == "b") o.b = true;
      else if (item == "C" || item == "c") o.c = true;
      else fail("--only takes A, B and C (e.g. --only C or --only A,B), not '" + item + "'", arg, pos);
      pos = end + 1;
    }
  }
  return o;
}

// --smem-layout: gmma_<k|mn>_<inter|sw32|sw64|sw128>[_<type>] (the gmma_ prefix and the type
// may be left out: k_sw64), the GMMA atom the shared-memory operands are built from.
analysis::GmmaAtomSpec smem_layout_arg(const std::string& text, const rt::MmaAtomInfo& atom) {
  analysis::GmmaAtomSpec spec;
  if (text.empty()) return spec;
  if (!atom.a_smem && !atom.b_smem)
    fail("--smem-layout: " + atom.name +
             (atom.cta_group ? " is drawn by its TV layouts; the shared-memory tiles are drawn for SM90's _SS and _RS atoms"
                             : " reads no operand from shared memory (only SM90 _SS and _RS atoms do)"),
         text, 0);
  const bool prefixed = text.rfind("gmma_", 0) == 0;
  const std::size_t parts = static_cast<std::size_t>(std::count(text.begin(), text.end(), '_')) + (prefixed ? 0 : 1);
  const int bits = atom.b_smem ? atom.b_bits : atom.a_bits;
  std::string name = (prefixed ? "" : "gmma_") + text;
  if (parts == 2) name += "_b" + std::to_string(bits);  // no type: the operand's width
  const std::size_t shift = prefixed ? 0 : 5;
  try {
    const auto parsed = analysis::parse_gmma_atom_name(name);
    if (parsed) spec = *parsed;
  } catch (const rt::Error& e) {
    const std::size_t pos = e.pos() == rt::npos || e.pos() < shift ? 0 : std::min(e.pos() - shift, text.size());
    fail(std::string("--smem-layout: ") + e.what(), text, pos);
  }
  if ((atom.a_smem && spec.bits != atom.a_bits) || (atom.b_smem && spec.bits != atom.b_bits))
    fail("--smem-layout: " + text + " holds " + std::to_string(spec.bits) + "-bit elements, but " + atom.name +
             "'s shared-memory operands are " + std::to_string(bits) + "-bit",
         text, text.rfind('_') + 1);
  // The ISA transposes 16-bit operands only: 32-bit (tf32) and 8-bit wgmma operands are K-major.
  if (spec.bits == 32 && spec.major == GMMA::Major::MN)
    fail("--smem-layout: " + atom.name + " reads K-major tf32 operands only (wgmma transposes 16-bit types alone)", text,
         prefixed ? 5 : 0);
  if (spec.bits == 8 && spec.major == GMMA::Major::MN)
    fail("--smem-layout: " + atom.name + " reads K-major 8-bit operands only (wgmma transposes 16-bit types alone)", text,
         prefixed ? 5 : 0);
  return spec;
}

void run_mma(const MmaOptions& o) {
  const rt::MmaAtomInfo& atom = mma_arg(o.name);
  const Operands only = only_arg(o.only);
  const analysis::GmmaAtomSpec smem = smem_layout_arg(o.smem_layout, atom);
  const rt::TiledMma t = tiled_mma_arg(atom, o.atoms, o.permute);
  const std::int64_t M = t.tile[0], N = t.tile[1], K = t.tile[2];
  if (o.json) return print_mma_json(t);
  const bool draw = !o.print_layouts || !o.output.empty();
  Target target;
  if (draw) {
    target = resolve_target(o.format, o.output);
    std::int64_t mk = 0, nk = 0, mn = 0, cells = 0;
    if (__builtin_mul_overflow(M, K, &mk) || __builtin_mul_overflow(N, K, &nk) || __builtin_mul_overflow(M, N, &mn) ||
        __builtin_add_overflow(only.a ? mk : 0, only.b ? nk : 0, &cells) ||
        __builtin_add_overflow(cells, only.c ? mn : 0, &cells))
      cells = INT64_MAX;
    check_cells(cells,
                "the MMA tile " + std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K), o.force);
  }
  if (o.print_layouts) {
    // The atom's traits first (logical thread ids, as MMA_Traits), then the tiled MMA's maps.
    // --only leaves out the other operands' lines.
    std::cout << "ThrID " << rt::to_string(atom.thr_id) << "\n";
    if (only.a) std::cout << "ALayout " << rt::to_string(atom.a_tv) << "\n";
    if (only.b) std::cout << "BLayout " << rt::to_string(atom.b_tv) << "\n";
    if (only.c) std::cout << "CLayout " << rt::to_string(atom.c_tv) << "\n";
    if (only.c && atom.cta_group) std::cout << "TmemLayoutC " << rt::to_string(atom.tmem_c) << "\n";
    if (atom.sf_vec) {
      if (only.a) std::cout << "SFALayout " << rt::to_string(atom.sfa_tv) << "\n";
      if (only.b) std::cout << "SFBLayout " << rt::to_string(atom.sfb_tv) << "\n";
      std::cout << "SFVecSize " << atom.sf_vec << "\n";
      if (atom.cta_group) {  // tcgen05.mma: the scale factors' block in memory and in tensor memory
        std::cout << "SfAtom " << rt::to_string(atom.sf_atom) << "\n";
        if (only.a && atom.tmem_sfa.size() > 1) std::cout << "TmemLayoutSFA " << rt::to_string(atom.tmem_sfa) << "\n";
        if (only.b && atom.tmem_sfb.size() > 1) std::cout << "TmemLayoutSFB " << rt::to_string(atom.tmem_sfb) << "\n";
      }
    }
    std::cout << "thr_layout_vmnk " << rt::to_string(t.thr_layout_vmnk) << "\n";
    if (only.a) std::cout << "layoutA_TV " << rt::to_string(t.layout_a_tv) << "\n";
    if (only.b) std::cout << "layoutB_TV " << rt::to_string(t.layout_b_tv) << "\n";
    if (only.c) std::cout << "layoutC_TV " << rt::to_string(t.layout_c_tv) << "\n";
    std::cout << "tile (" << M << "," << N << "," << K << ")\n";
    check_standard_output();
  }
  if (!draw) return;
  viz::MmaTvLayouts l = viz::mma_tv_layouts(t, atom.name, smem);
  if (!o.atoms.empty()) l.name += " atoms " + o.atoms;
  if (!o.permute.empty()) l.name += " permute " + o.permute;
  l.show_a = only.a;
  l.show_b = only.b;
  l.show_c = only.c;
  viz::Diagram d = viz::mma_diagram(l);
  if (atom.cta_group && only.c) {
    // tcgen05.mma: the atom's accumulator in tensor memory, below C.
    viz::Panel tmem = viz::tmem_accumulator_panel(atom);
    int below = 0;
    for (const viz::Panel& p : d.panels) below = std::max(below, p.slot_row + 1);
    tmem.slot_row = below;
    tmem.slot_col = d.panels.empty() ? 0 : d.panels.back().slot_col;
    d.panels.push_back(std::move(tmem));
    d.notes.push_back("C in tensor memory: each cell the element m, n of one CTA's accumulator it holds (lanes x 32-bit columns)");
    viz::apply_colors(d);
  }
  if (atom.sf_vec && atom.tmem_sfa.size() > 1 && (only.a || only.b)) {
    // Block-scaled tcgen05.mma: the scale factors of A and B in tensor memory, below the rest.
    int below = 0;
    for (const viz::Panel& p : d.panels) below = std::max(below, p.slot_row + 1);
    int col = 0;
    for (const bool a : {true, false}) {
      if (!(a ? only.a : only.b)) continue;
      viz::Panel sf = viz::tmem_scale_factor_panel(atom, a);
      sf.slot_row = below;
      sf.slot_col = col++;
      d.panels.push_back(std::move(sf));
    }
    d.notes.push_back("scale factors in tensor memory: each cell the row (m or n) and K block s whose factor it holds "
                      "(lanes x bytes; each row's factors in every 32-lane quarter that reads them: four copies, two for B of a "
                      "128-row CTA pair)");
    if (atom.cta_group == 2)
      d.notes.push_back("a CTA pair: each CTA's tensor memory holds the scale factors of its own rows of A (m) and of every "
                        "column of B (n)");
    viz::apply_colors(d);
  }
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
      "Operands an SM90 atom reads from shared memory (_SS: A and B; _RS: B) are drawn as the\n"
      "shared-memory tile its wgmma descriptors describe: each cell the element's byte offset,\n"
      "coloured by 16-byte chunk (so the swizzle shows), lines between core matrices (8 rows x\n"
      "16 bytes), and each instruction's descriptor (start address, LBO, SBO, swizzle, base\n"
      "offset) below the diagram (--smem-layout picks the GMMA layout atom).\n"
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
      "  TmemLayoutC      (SM100 tcgen05.mma, after CLayout) one CTA's accumulator in tensor\n"
      "                   memory: (m,n) -> lane + 128*column\n"
      "  SFALayout        (SM120 block-scaled atoms, after CLayout) (thread,value) -> m + M*k: the\n"
      "                   thread holding the scale factor of A's element (m,k), factor k / SFVecSize\n"
      "  SFBLayout        the same for B: (thread,value) -> n + N*k\n"
      "  SFVecSize        K elements per scale factor\n"
      "(add -o FILE to also draw the diagram). The atom's layouts use logical thread ids (0-7 for\n"
      "SM70's quad pair, which ThrID (4,2):(1,16) maps to lanes 0-3, 16-19). As CuTe's\n"
      "get_layoutX_TV, the tiled maps re-index threads by right_inverse(thr_layout_vmnk): for a\n"
      "single SM70 atom that covers threads 0-3 only; the diagram labels every lane.\n"
      "SM100 tcgen05.mma atoms (one thread issues them for a CTA or a CTA pair: their ThrID counts\n"
      "CTAs) also draw C where it lives, in tensor memory, lanes x columns.\n"
      "AMD and Intel atoms are drawn over their wavefront's lanes (64 for CDNA3 MFMA, 32 for RDNA\n"
      "WMMA) or subgroup's work-items (16 or 8 for DPAS): warp colours and boundaries follow it.\n"
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
  cmd->add_option("--only", o->only,
                  "draw (and with --print-layouts, print) only these operands: A, B, C, repeated or\n"
                  "a comma list (--only C, --only A,B); default all three")
      ->type_name("A|B|C");
  cmd->add_option("--smem-layout", o->smem_layout,
                  "the GMMA layout atom shared-memory operands are built from:\n"
                  "[gmma_]<k|mn>_<inter|sw32|sw64|sw128>[_<type>] (as `tessera render` names them);\n"
                  "default k_sw128, K-major with the 128-byte swizzle; mn_ layouts for 16-bit atoms\n"
                  "only (tf32 and 8-bit wgmma read K-major operands)")
      ->type_name("ATOM");
  add_color_by(cmd, o->color_by);
  add_density(cmd, o->density);
  cmd->add_flag("--force", o->force, "draw diagrams over " + std::to_string(cli::kCellLimit) + " cells");
  cmd->add_option("--title", o->title,
                  "a title above the diagram (default: the atom and options; UTF-8, control\n"
                  "characters are refused)")
      ->type_name("TEXT")
      ->check(drawable_text_option("--title"));
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
      "  tessera mma SM90_64x64x16_F32BF16BF16_SS --only A            # A's smem tile and descriptor\n"
      "  tessera mma SM90_64x64x16_F32BF16BF16_SS --smem-layout mn_sw64 -o ss.svg\n"
      "  tessera mma SM90_64x256x16_F32BF16BF16_SS --only C -o c.pdf     # the accumulator alone\n"
      "  tessera mma SM70_8x8x4_F32F16F16F32_TN -f tex -o sm70.tex && pdflatex sm70.tex\n"
      "Exit status: 0 on success, 1 on any error (message on stderr, no output file written).");
  set_action(cmd, [o] { run_mma(*o); });
}

}  // namespace tessera::cli
