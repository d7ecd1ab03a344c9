// `tessera tma`: the cuTensorMapEncodeTiled arguments that copy a global tensor's tiles into
// a shared-memory tile, derived from the two layouts (include/tessera/analysis/tma.hpp).
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "action.hpp"
#include "commands.hpp"
#include "json.hpp"
#include "json_option.hpp"
#include "tessera/analysis/gmma_atoms.hpp"
#include "tessera/analysis/report.hpp"
#include "tessera/analysis/tma_runtime.hpp"
#include "tessera/viz/build_tma.hpp"

namespace tessera::cli {

namespace {

struct TmaOptions {
  std::string gmem, smem, box, format, output, color_by;
  int bits = 0;  // 0: from a GMMA atom name, else 16
  bool json = false, force = false;
  DensityFlags density;
};

void run_tma(const TmaOptions& o) {
  const rt::Layout gmem = layout_arg("GMEM", o.gmem);
  // SMEM: a layout, a swizzled layout, or a GMMA atom name (which also gives the width).
  if (o.smem.find_first_not_of(" \t\r\n") == std::string::npos) fail("SMEM is empty");
  rt::SwizzledLayout smem;
  int bits = o.bits;
  const std::optional<analysis::GmmaAtomSpec> atom =
      located("SMEM", o.smem, [&] { return analysis::parse_gmma_atom_name(o.smem); });
  if (atom) {
    smem = analysis::gmma_layout_atom(*atom);
    if (bits != 0 && bits != atom->bits)
      fail_option("--bits", "--bits " + std::to_string(bits) + " contradicts the atom's " + std::to_string(atom->bits) +
                                "-bit elements (" + o.smem + ")");
    bits = atom->bits;
  } else {
    const rt::Value v = evaluate_arg("SMEM", o.smem);
    if (v.kind() == rt::Value::Kind::Swizzled) smem = v.swizzled();
    else if (v.kind() == rt::Value::Kind::Layout) smem = rt::SwizzledLayout{rt::Swizzle(0, 0, 0), v.layout()};
    else fail("SMEM must be a layout, a swizzled layout Sw<B,M,S> o L or a GMMA atom name, not " + rt::describe(v), o.smem, 0);
  }
  if (bits == 0) bits = 16;
  std::vector<std::int64_t> box;
  if (!o.box.empty()) {
    const rt::Value b = evaluate_arg("--box", o.box);
    if (b.kind() != rt::Value::Kind::IntTuple) fail("--box is a tuple of box dims, one per gmem mode (0: derive)", o.box, 0);
    if (b.tuple().is_leaf()) box.push_back(b.tuple().value());
    else
      for (std::size_t i = 0; i < b.tuple().rank(); ++i) {
        if (!b.tuple()[i].is_leaf()) fail("--box entries are integers", o.box, 0);
        box.push_back(b.tuple()[i].value());
      }
  }
  const tma::Arguments a = located("GMEM", o.gmem, [&] { return analysis::derive_tma_arguments(gmem, smem, bits, box); });
  if (a.rule != tma::Rule::ok)
    fail(analysis::tma_refusal(a), analysis::tma_rule_is_gmem(a.rule) ? o.gmem : o.smem, 0);
  if (o.json) {
    json::print(analysis::tma_json(gmem, smem, bits, a));
    check_standard_output();
    return;
  }
  std::cout << analysis::tma_text(gmem, smem, bits, a);
  if (o.output.empty() && o.format.empty()) return;
  check_standard_output();
  // The boxes over the tile (viz/build_tma.hpp). The rank is checked here too, for the caret
  // under SMEM.
  if (smem.layout.rank() != 2) fail("drawing the boxes needs a rank-2 smem tile; SMEM has rank " +
                                    std::to_string(smem.layout.rank()), o.smem, 0);
  const viz::ColorBy by = color_by_arg(o.color_by);
  const Target target = resolve_target(o.format, o.output);
  check_cells(smem.layout.size(), "the smem tile", o.force);
  viz::Diagram d = viz::tma_boxes_diagram(smem, bits, a);
  recolor(d, by, o.color_by);
  set_density(d, o.density);
  emit(d, target);
}

}  // namespace

void register_tma(CLI::App& app) {
  auto o = std::make_shared<TmaOptions>();
  CLI::App* cmd = app.add_subcommand(
      "tma",
      "Print the cuTensorMapEncodeTiled arguments (rank, global dims and byte strides, box,\n"
      "element strides, interleave, swizzle, L2 promotion, OOB fill) of a TMA copy of GMEM's\n"
      "tiles into the shared-memory tile SMEM, or the TMA rule that makes it impossible.\n"
      "GMEM: the global tensor, flat modes extent:stride in elements (e.g. (4096,4096):(1,4096));\n"
      "one mode must have stride 1 (it becomes dim 0), the others' byte strides must be multiples\n"
      "of 16. SMEM: the tile one copy fills, mode i covering GMEM's mode i (missing modes: box 1):\n"
      "a layout, a swizzled layout (Sw<B,log2(16/bytes),3> o L: the 32/64/128B swizzles), or a GMMA\n"
      "atom name (gmma_k_sw128_bf16; see `tessera render --help`). The box is derived: along dim 0\n"
      "the longest run SMEM stores contiguously (at most 256, at most the swizzle row), then each\n"
      "next dim as far as SMEM continues densely; the tile must be whole boxes.");
  cmd->add_option("GMEM", o->gmem, "the global tensor's layout (elements)")->required();
  cmd->add_option("SMEM", o->smem, "the shared-memory tile: layout, swizzled layout or GMMA atom name")->required();
  add_bits_option(cmd, o->bits, {8, 16, 32, 64}, "element width: 8, 16, 32 or 64 (default: the atom's, else 16)");
  cmd->add_option("-o,--output", o->output,
                  "also draw the boxes over the tile to FILE (.txt .svg .tex .png .pdf .html; - for\n"
                  "standard output): each cell the box (copy) that fills it, coloured by box; the tooltip adds\n"
                  "the smem offset; the HTML page outlines a box's cells on hover")
      ->type_name("FILE");
  cmd->add_option("-f,--format", o->format, "the drawing's format: txt, svg, tex, png, pdf or html (default: from -o)")
      ->type_name("FORMAT");
  add_color_by(cmd, o->color_by);
  add_density(cmd, o->density);
  cmd->add_flag("--force", o->force, "draw tiles over " + std::to_string(cli::kCellLimit) + " cells");
  add_json_flag(cmd, o->json,
                "print the arguments as one JSON object: {\"command\": \"tma\", \"schema_version\": 1, gmem,\n"
                "smem, bits, rank, mode_of_dim, global_dim, global_strides, box_dim, element_strides,\n"
                "interleave, swizzle, l2_promotion, oob_fill, box_bytes, boxes, boxes_per_dim}\n"
                "(docs/json.md)");
  cmd->add_option("--box", o->box, "box dims per GMEM mode, e.g. (64,0) (0: derive); checked, not derived")
      ->type_name("TUPLE");
  cmd->footer(
      "Examples:\n"
      "  tessera tma '(8192,8192):(8192,1)' gmma_k_sw128_bf16           # K-major A (M,K), 128B swizzle\n"
      "  tessera tma '(8192,8192):(1,8192)' 'Sw<3,3,3> o (64,128):(1,64)' # the whole stage tile\n"
      "  tessera tma '(4096,4096,8):(1,4096,16777216)' '(64,32):(1,64)'  # batched: box 1 along L\n"
      "  tessera tma '(4096,4096):(1,4096)' 'Sw<3,3,3> o ((64,2),64):((1,4096),64)' -o boxes.svg  # draw them\n"
      "  tessera tma '(4096,4096):(1,4096)' '(64,32):(1,64)' --json      # the arguments as JSON\n"
      "Exit status: 0 on success, 1 when TMA cannot express the copy (the rule is named) or on bad input.");
  set_action(cmd, [o] { run_tma(*o); }, reject_extras_saying("tma takes GMEM and SMEM", /*dash_digit_is_argument=*/true));
}

}  // namespace tessera::cli
