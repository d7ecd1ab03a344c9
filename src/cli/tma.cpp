// `tessera tma`: the cuTensorMapEncodeTiled arguments that copy a global tensor's tiles into
// a shared-memory tile, derived from the two layouts (include/tessera/analysis/tma.hpp).
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "action.hpp"
#include "commands.hpp"
#include "json.hpp"
#include "tessera/analysis/gmma_atoms.hpp"
#include "tessera/analysis/tma_runtime.hpp"
#include "tessera/viz/build_layout.hpp"

namespace tessera::cli {

namespace {

struct TmaOptions {
  std::string gmem, smem, box, format, output, color_by;
  int bits = 0;  // 0: from a GMMA atom name, else 16
  bool json = false, force = false;
  DensityFlags density;
};

bool is_gmem_rule(tma::Rule r) {
  using R = tma::Rule;
  return r == R::element_bits || r == R::gmem_rank || r == R::global_dim_range || r == R::no_contiguous_mode ||
         r == R::global_stride_alignment || r == R::global_stride_range;
}

// The TMA box (copy) that fills cell (row, col) of the tile, and its coordinate among the
// boxes, dim by dim ("(1,0)").
struct BoxOf {
  std::int64_t index = 0;
  std::string coord;
};
BoxOf box_of(const tma::Arguments& a, std::int64_t row, std::int64_t col) {
  const std::int64_t c[2] = {row, col};
  BoxOf b;
  std::int64_t pitch = 1;
  for (int d = 0; d < a.rank; ++d) {
    const int m = a.mode_of_dim[d];
    const std::int64_t k = m < 2 ? c[m] / a.box_dim[d] : 0;
    b.index += k * pitch;
    b.coord += (d ? "," : "") + std::to_string(k);
    pitch *= a.boxes_per_dim[d];
  }
  b.coord = "(" + b.coord + ")";
  return b;
}

std::string dims_text(const std::int64_t* v, int n) {
  std::string s;
  for (int d = 0; d < n; ++d) s += (d ? ", " : "") + std::to_string(v[d]);
  return "{" + s + "}";
}

// The smem tile, each cell labelled with the box (copy) that fills it and coloured by it; its
// tooltip adds the smem offset (hover on the HTML page outlines the box's cells).
void draw_boxes(const TmaOptions& o, const rt::SwizzledLayout& smem, int bits, const tma::Arguments& a) {
  if (smem.layout.rank() != 2)
    fail("drawing the boxes needs a rank-2 smem tile; SMEM has rank " + std::to_string(smem.layout.rank()), o.smem, 0);
  const viz::ColorBy by = color_by_arg(o.color_by);
  const Target target = resolve_target(o.format, o.output);
  check_cells(smem.layout.size(), "the smem tile", o.force);
  const viz::GridFunction g = viz::grid_function(smem);
  viz::Panel p = viz::layout_panel(g);
  p.title = "TMA boxes " + dims_text(a.box_dim, a.rank) + " over " + rt::to_string(smem);
  p.subtitle = std::to_string(a.boxes) + (a.boxes == 1 ? " box" : " boxes") + " per tile, one copy each" +
               (a.boxes > 1 ? " (" + dims_text(a.boxes_per_dim, a.rank) + " per dim)" : "");
  for (std::int64_t r = 0; r < p.rows.count; ++r)
    for (std::int64_t c = 0; c < p.cols.count; ++c) {
      viz::Cell& cell = p.at(r, c);
      const BoxOf b = box_of(a, r, c);
      cell.box = b.index;
      cell.label = std::to_string(b.index);
      cell.tooltip += " (smem offset), box " + std::to_string(b.index) + " (copy " + std::to_string(b.index + 1) +
                      " of " + std::to_string(a.boxes) + ", box coordinate " + b.coord + ")";
    }
  p.text_min_width = static_cast<int>(std::to_string(a.boxes - 1).size());
  viz::Diagram d;
  d.panels.push_back(std::move(p));
  d.natural_color = viz::ColorBy::box;
  d.element_bits = bits;
  d.chunk_elements = g.chunk_elements;
  d.chunk_name = g.chunk_name;
  recolor(d, by, o.color_by);
  if (o.color_by.empty()) viz::apply_colors(d);
  d.notes.push_back("cell: the box (one copy) that fills it; its tooltip adds the smem offset");
  set_density(d, o.density);
  emit(d, target);
}

// --json: the arguments as the text prints them, under cuTensorMapEncodeTiled's names
// (docs/json.md).
void print_tma_json(const rt::Layout& gmem, const rt::SwizzledLayout& smem, int bits, const tma::Arguments& a) {
  static const char* swizzle[] = {"CU_TENSOR_MAP_SWIZZLE_NONE", "CU_TENSOR_MAP_SWIZZLE_32B", "CU_TENSOR_MAP_SWIZZLE_64B",
                                  "CU_TENSOR_MAP_SWIZZLE_128B"};
  static const char* l2[] = {"CU_TENSOR_MAP_L2_PROMOTION_NONE", "CU_TENSOR_MAP_L2_PROMOTION_L2_64B",
                             "CU_TENSOR_MAP_L2_PROMOTION_L2_128B", "CU_TENSOR_MAP_L2_PROMOTION_L2_256B"};
  auto list = [](const auto* v, int from, int to) {
    json::Value l = json::Value::array();
    for (int d = from; d < to; ++d) l.push(static_cast<std::int64_t>(v[d]));
    return l;
  };
  json::Value d = json::document("tma");
  d.set("gmem", json::layout(gmem));
  d.set("smem", json::swizzled_layout(smem));
  d.set("bits", bits);
  d.set("rank", a.rank);
  d.set("mode_of_dim", list(a.mode_of_dim, 0, a.rank));
  d.set("global_dim", list(a.global_dim, 0, a.rank));
  d.set("global_strides", list(a.global_stride_bytes, 1, a.rank));
  d.set("box_dim", list(a.box_dim, 0, a.rank));
  d.set("element_strides", list(a.element_strides, 0, a.rank));
  d.set("interleave", "CU_TENSOR_MAP_INTERLEAVE_NONE");
  d.set("swizzle", swizzle[int(a.swizzle)]);
  d.set("l2_promotion", l2[int(a.l2_promotion)]);
  d.set("oob_fill", "CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE");
  d.set("box_bytes", a.box_bytes);
  d.set("boxes", a.boxes);
  d.set("boxes_per_dim", list(a.boxes_per_dim, 0, a.rank));
  json::print(d);
  check_standard_output();
}

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
    if (v.kind == rt::Value::Kind::Swizzled) smem = v.swizzled;
    else if (v.kind == rt::Value::Kind::Layout) smem = rt::SwizzledLayout{rt::Swizzle(0, 0, 0), v.layout};
    else fail("SMEM must be a layout, a swizzled layout Sw<B,M,S> o L or a GMMA atom name, not " + rt::describe(v), o.smem, 0);
  }
  if (bits == 0) bits = 16;
  std::vector<std::int64_t> box;
  if (!o.box.empty()) {
    const rt::Value b = evaluate_arg("--box", o.box);
    if (b.kind != rt::Value::Kind::IntTuple) fail("--box is a tuple of box dims, one per gmem mode (0: derive)", o.box, 0);
    if (b.tuple.is_leaf()) box.push_back(b.tuple.value());
    else
      for (std::size_t i = 0; i < b.tuple.rank(); ++i) {
        if (!b.tuple[i].is_leaf()) fail("--box entries are integers", o.box, 0);
        box.push_back(b.tuple[i].value());
      }
  }
  const tma::Arguments a = located("GMEM", o.gmem, [&] { return analysis::derive_tma_arguments(gmem, smem, bits, box); });
  if (a.rule != tma::Rule::ok) {
    std::string where;
    if (a.bad_mode >= 0) where = " (mode " + std::to_string(a.bad_mode) + ")";
    const bool gm = is_gmem_rule(a.rule);
    fail(std::string("TMA cannot copy this: ") + tma::to_string(a.rule) + where, gm ? o.gmem : o.smem, 0);
  }
  if (o.json) {
    print_tma_json(gmem, smem, bits, a);
    return;
  }
  std::cout << "gmem: " << rt::to_string(gmem) << ", " << bits << "-bit elements\n"
            << "smem: " << rt::to_string(smem) << "\n"
            << analysis::format_tma_arguments(a);
  if (o.output.empty() && o.format.empty()) return;
  check_standard_output();
  draw_boxes(o, smem, bits, a);
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
      "  tessera tma '(8192,8192):(8192,1)' gmma_k_sw128_bf16           # K-major A, 128B swizzle\n"
      "  tessera tma '(8192,8192):(1,8192)' 'Sw<3,3,3> o (64,128):(1,64)' # the whole stage tile\n"
      "  tessera tma '(4096,4096,8):(1,4096,16777216)' '(64,32):(1,64)'  # batched: box 1 along L\n"
      "  tessera tma '(4096,4096):(1,4096)' 'Sw<3,3,3> o ((64,2),64):((1,4096),64)' -o boxes.svg  # draw them\n"
      "  tessera tma '(4096,4096):(1,4096)' '(64,32):(1,64)' --json      # the arguments as JSON\n"
      "Exit status: 0 on success, 1 when TMA cannot express the copy (the rule is named) or on bad input.");
  set_action(cmd, [o] { run_tma(*o); }, reject_extras_saying("tma takes GMEM and SMEM", /*dash_digit_is_argument=*/true));
}

}  // namespace tessera::cli
