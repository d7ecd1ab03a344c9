// `tessera render`: draw a layout, a swizzled layout or a thread-value map.
#include <cstdint>
#include <memory>
#include <string>

#include "action.hpp"
#include "commands.hpp"
#include "tessera/rt/eval.hpp"
#include "tessera/rt/parse.hpp"
#include "tessera/analysis/gmma_atoms.hpp"
#include "tessera/viz/build_layout.hpp"
#include "tessera/viz/build_tv.hpp"
#include "tessera/viz/output.hpp"

namespace tessera::cli {

namespace {

// The README's "main job": the C fragment of SM80's 16x8x8 MMA, over its 16x8 tile.
constexpr const char* kDefaultTv = "((4,8),(2,2)):((32,1),(16,8))";
constexpr const char* kDefaultTile = "(16,8)";

struct Options {
  std::string expr;
  std::string tile;
  std::string format;
  std::string output;
  std::string title;
  std::string color_by;
  bool force = false;
  bool expr_given = false;  // EXPR on the command line, even if empty
  DensityFlags density;
};

// Failures (`input`/`pos` locate them when known), where the output goes and in which format.
using cli::emit;
using cli::fail;
using cli::resolve_target;
using cli::Target;

rt::Value evaluate_arg(const std::string& input) {
  try {
    // A GMMA smem layout atom by name (gmma_k_sw128_bf16, ...), else an expression.
    if (const auto atom = analysis::parse_gmma_atom_name(input)) return rt::Value::of(analysis::gmma_layout_atom(*atom));
    return rt::evaluate(input);
  } catch (const rt::Error& e) {
    fail(e.what(), input, e.pos() == rt::npos ? 0 : e.pos());
  }
}

// `input` is the text the cells come from (EXPR or TILE), for the caret.
void check_cells(std::int64_t cells, const std::string& what, const Options& o, const std::string& input) {
  const std::string count = cells == INT64_MAX ? "more than 2^63" : std::to_string(cells);
  if (cells > kHardCellLimit)
    fail(what + " has " + count + " cells, more than tessera draws (" + std::to_string(kHardCellLimit) +
             ", even with --force)",
         input, 0);
  if (cells > kCellLimit && !o.force)
    fail(what + " has " + count + " cells, more than " + std::to_string(kCellLimit) +
             ": pass --force to draw it anyway, or draw a slice or tile of it",
         input, 0);
}

viz::Diagram build(const Options& o) {
  if (o.expr_given && o.expr.find_first_not_of(" \t\r\n") == std::string::npos)
    fail("EXPR is empty: give a layout such as (4,2):(1,4), or leave EXPR out for the default diagram");
  const std::string expr = o.expr.empty() ? kDefaultTv : o.expr;
  const std::string tile_text = o.expr.empty() && o.tile.empty() ? kDefaultTile : o.tile;
  if (o.expr.empty() && !o.tile.empty()) fail("--tv needs EXPR, the TV layout to draw over the tile");
  const rt::Value v = evaluate_arg(expr);

  if (!tile_text.empty()) {
    if (v.kind() != rt::Value::Kind::Layout)
      fail("--tv draws a TV layout ((threads),(values)):(...), but EXPR is " + rt::describe(v), expr, 0);
    const rt::Value t = evaluate_arg(tile_text);
    viz::TvTile tile;
    try {
      if (t.kind() == rt::Value::Kind::IntTuple) tile = viz::tile_of_shape(t.tuple());
      else if (t.kind() == rt::Value::Kind::Layout) tile = viz::tile_of_layout(t.layout());
      else fail("the tile is " + rt::describe(t) + ": give a shape (M,N) or a layout (M,N):(s,t)", tile_text, 0);
    } catch (const viz::Error& e) {
      fail(e.what(), tile_text, 0);
    }
    viz::TvFunction tv;
    try {
      tv = viz::tv_of_layout(v.layout());
    } catch (const viz::Error& e) {
      fail(e.what(), expr, 0);
    }
    std::int64_t tile_cells = 0;
    if (__builtin_mul_overflow(tile.rows(), tile.cols(), &tile_cells)) tile_cells = INT64_MAX;
    check_cells(tile_cells, "the tile " + tile.text, o, tile_text);
    check_cells(v.layout().size(), "the TV layout " + tv.text, o, expr);
    try {
      return viz::tv_diagram(tv, tile);
    } catch (const viz::Error& e) {
      fail(e.what(), expr, 0);
    }
  }

  if (v.kind() == rt::Value::Kind::IntTuple)
    fail("EXPR is " + rt::describe(v) + ", not a layout: write shape:stride, e.g. (4,2):(1,4)", expr, 0);
  if (v.kind() != rt::Value::Kind::Layout && v.kind() != rt::Value::Kind::Swizzled)
    fail("EXPR is " + rt::describe(v) + ", not a layout: draw its modes one at a time", expr, 0);
  const rt::Layout& base = v.kind() == rt::Value::Kind::Layout ? v.layout() : v.swizzled().layout;
  // Rank first, then size, then the grid (a swizzled layout's cosize walks its whole domain).
  try {
    viz::check_drawable(base);
  } catch (const viz::Error& e) {
    fail(e.what(), expr, 0);
  }
  check_cells(base.size(), "the layout " + rt::to_string(v), o, expr);
  const viz::GridFunction grid =
      v.kind() == rt::Value::Kind::Layout ? viz::grid_function(v.layout()) : viz::grid_function(v.swizzled());
  return viz::layout_diagram(grid);
}

void run(const Options& o) {
  try {
    const Target target = resolve_target(o.format, o.output);
    viz::Diagram d = build(o);
    d.title = o.title;
    recolor(d, o.color_by);
    set_density(d, o.density);
    emit(d, target);
  } catch (const rt::Error& e) {  // e.g. overflow while sizing the grid: points into EXPR
    fail(e.what(), o.expr, e.pos() == rt::npos ? 0 : e.pos());
  }
}

}  // namespace

void register_render(CLI::App& app) {
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "render",
      "Draw a layout, a swizzled layout, or a thread-value (TV) map as a diagram.\n"
      "A rank-2 layout is drawn as a grid: mode 0 gives the rows, mode 1 the columns, cell (m,n)\n"
      "shows the index L(m,n) and is coloured by it; hierarchical modes are walked in CuTe's\n"
      "column-major order, and their sub-mode boundaries are drawn with thicker lines.\n"
      "A rank-1 layout is drawn as one row. Rank > 2: group the modes into two first.\n"
      "With --tv TILE, EXPR is a TV layout (thread,value) -> index into the tile; cell (m,n) shows\n"
      "the thread T and value V holding it, coloured by thread; cells held by nobody are blank,\n"
      "cells held more than once get a red outline (and '!' in text).\n"
      "Without EXPR: the C fragment of SM80's 16x8x8 MMA, " + std::string(kDefaultTv) + " over " +
          kDefaultTile + ".");
  CLI::Option* expr_opt = cmd->add_option("EXPR", o->expr,
                  "expression giving a layout: 8:2, (4,(2,2)):(2,(1,8)), Sw<3,4,3> o (8,64):(64,1),\n"
                  "or any call such as composition(...), logical_product(...), or a GMMA smem layout\n"
                  "atom by name: gmma_<k|mn>_<inter|sw32|sw64|sw128>_<type>, type one of f16 bf16 tf32\n"
                  "f32 s8 u8 e4m3 e5m2 (or b8 b16 b32), e.g. gmma_k_sw128_bf16 = Sw<3,3,3> o (8,64):(64,1)");
  cmd->add_option("--tv", o->tile,
                  "TILE: draw EXPR as a TV layout over this tile: a shape (M,N), indexed column-major,\n"
                  "or a layout (M,N):(s,t) mapping (m,n) to the index the TV layout produces")
      ->type_name("TILE");
  cmd->add_option("-f,--format", o->format,
                  "txt (CuTe print_layout table), svg, tex (standalone TikZ), png, pdf, or html\n"
                  "(one interactive page: hover, click to isolate a thread, zoom and pan; past 4096\n"
                  "cells, each panel's cells are drawn on a canvas: docs/cli.md, \"Large pages\");\n"
                  "default: from the -o extension, else txt")
      ->type_name("FORMAT");
  cmd->add_option("-o,--output", o->output,
                  "write to FILE (atomically: nothing is left behind on error); text formats go to\n"
                  "standard output without -o or with -o -; png and pdf need a FILE")
      ->check(output_file_name())
      ->type_name("FILE");
  cmd->add_flag("--force", o->force,
                "draw diagrams over " + std::to_string(kCellLimit) + " cells (up to " +
                    std::to_string(kHardCellLimit) + ")");
  cmd->add_option("--title", o->title, "a title drawn above the diagram (UTF-8; control characters are refused)")
      ->type_name("TEXT")
      ->check(drawable_text_option("--title"));
  add_color_by(cmd, o->color_by);
  add_density(cmd, o->density);
  cmd->footer(
      "Examples:\n"
      "  tessera render '(8,(2,4)):(2,(1,16))'                  # text table on stdout\n"
      "  tessera render '(8,(2,4)):(2,(1,16))' -o layout.svg    # SVG with a tooltip per cell\n"
      "  tessera render 'Sw<3,4,3> o (8,64):(64,1)' -o smem.png --force\n"
      "  tessera render gmma_k_sw128_bf16 -o atom.svg              # a GMMA smem layout atom\n"
      "  tessera render --tv '(16,8)' '((4,8),(2,2)):((32,1),(16,8))' -o c_frag.pdf\n"
      "  tessera render 'composition((8,8):(8,1), (4,4):(1,8))' -f tex -o comp.tex && pdflatex comp.tex\n"
      "  tessera render -o sm80_c.svg                           # the default diagram\n"
      "  tessera render -o sm80_c.html                          # interactive page\n"
      "  tessera render 'Sw<3,3,3> o (8,64):(64,1)' -o sw.svg   # coloured by the swizzled chunk\n"
      "  tessera render '(8,8):(8,1)' --color-by bank -o banks.png\n"
      "Exit status: 0 on success, 1 on any error (message on stderr, no output file written).");
  // Unknown options and extra arguments are reported here, as errors with exit status 1.
  set_action(
      cmd,
      [o, expr_opt] {
        o->expr_given = expr_opt->count() > 0;
        run(*o);
      },
      reject_extras_saying("render takes one EXPR", /*dash_digit_is_argument=*/true));
}

}  // namespace tessera::cli
