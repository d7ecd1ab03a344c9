// `tessera diff`: two layouts (plain or swizzled) or two TV maps compared as functions, drawn
// side by side with the cells that differ marked, and a one-line verdict (the comparison,
// verdict and drawing: tessera/viz/diff.hpp).
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "action.hpp"
#include "commands.hpp"
#include "json.hpp"
#include "layout_grid.hpp"
#include "tessera/rt/eval.hpp"
#include "tessera/viz/arrange.hpp"
#include "tessera/viz/build_layout.hpp"
#include "tessera/viz/build_tv.hpp"
#include "tessera/viz/diff.hpp"
#include "tessera/viz/output.hpp"

namespace tessera::cli {

namespace {

// Comparing walks every index: beyond this many the comparison is refused (a drawing stops
// much earlier, at kCellLimit without --force).
constexpr std::int64_t kCompareLimit = viz::diff_compare_limit;
// Text output: A's and B's tables side by side when both fit in this many columns (--width).
constexpr int kTextWidth = 120;

struct DiffOptions {
  std::string a, b;
  std::string tile;
  std::string output;
  std::string format;
  std::string color_by;
  bool force = false;
  bool brief = false;
  bool json = false;
  std::string max = "100";
  int width = kTextWidth;
  DensityFlags density;
};

// --max N: a decimal count (CLI11's conversion errors would exit with its own codes).
std::int64_t parse_max(const std::string& s) {
  if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos)
    fail_option("--max", "--max takes a count from 0 to 999999999, not '" + s + "'");
  return std::stoll(s);
}

std::string str(std::int64_t v) { return std::to_string(v); }

// An operand: a layout, a swizzled layout, or a shape (its column-major layout).
rt::Value operand(const std::string& what, const std::string& input) {
  rt::Value v = evaluate_arg(what, input);
  if (v.kind() == rt::Value::Kind::IntTuple) {
    if (rt::has_underscore(v.tuple())) fail(what + " holds _, which is not a shape", input, 0);
    for (auto x : rt::leaves(v.tuple()))
      if (x <= 0) fail(what + " is a tuple with a non-positive entry, not a shape", input, 0);
    return rt::Value::of(rt::Layout::column_major(v.tuple()));
  }
  if (!is_layout_value(v))
    fail(what + " is " + rt::describe(v) + ": diff compares layouts (shape:stride), swizzled layouts or, with --tv, "
                                           "TV layouts",
         input, 0);
  return v;
}

void check_comparable(std::int64_t n, const std::string& what, const std::string& input) {
  if (n > kCompareLimit)
    fail(what + " has " + str(n) + " indices, more than diff compares (" + str(kCompareLimit) + ")", input, 0);
}

// A TV operand over the tile, with the CLI's messages (the operand's name, a caret).
viz::DiffTv tv_operand(const std::string& what, const std::string& input, const viz::TvTile& tile) {
  const rt::Value v = evaluate_arg(what, input);
  if (v.kind() != rt::Value::Kind::Layout)
    fail("--tv compares TV layouts ((threads),(values)):(...), but " + what + " is " + rt::describe(v), input, 0);
  try {
    viz::tv_of_layout(v.layout());
    check_comparable(v.layout().size(), what, input);
    return viz::diff_tv_operand(v.layout(), tile);
  } catch (const viz::Error& e) {
    fail(what + ": " + e.what(), input, 0);
  }
}

int run(const DiffOptions& o) {
  const std::int64_t max = parse_max(o.max);
  // (--json with a drawing option is refused before this runs: check_json_alone in set_action)
  if (o.json && o.brief) fail("--json prints JSON on standard output; it cannot be combined with --brief");
  std::optional<json::Value> json_doc;
  std::optional<Target> target;
  if (o.json) {
  } else if (!o.brief) {
    target = resolve_target(o.format, o.output);
  } else if (!o.output.empty() || !o.format.empty()) {
    fail("--brief prints the verdict only: leave out -o and -f");
  }
  viz::DiffVerdict v;
  std::optional<viz::Diagram> d;
  if (!o.tile.empty()) {
    const rt::Value t = evaluate_arg("--tv", o.tile);
    viz::TvTile tile;
    try {
      if (t.kind() == rt::Value::Kind::IntTuple) tile = viz::tile_of_shape(t.tuple());
      else if (t.kind() == rt::Value::Kind::Layout) tile = viz::tile_of_layout(t.layout());
      else fail("the tile is " + rt::describe(t) + ": give a shape (M,N) or a layout (M,N):(s,t)", o.tile, 0);
    } catch (const viz::Error& e) {
      fail(e.what(), o.tile, 0);
    }
    check_comparable(tile.rows() * tile.cols(), "the tile", o.tile);
    const viz::DiffTv a = tv_operand("A", o.a, tile), b = tv_operand("B", o.b, tile);
    v = viz::diff_tv(a, b, max);
    if (o.json) json_doc = viz::diff_json(v);
    if (target) {
      check_cells(tile.rows() * tile.cols(), "the tile " + tile.text, o.force);
      d = viz::diff_tv_diagram(a, b, tile);
    }
  } else {
    const rt::Value a = operand("A", o.a), b = operand("B", o.b);
    check_comparable(base_layout(a).size(), "A", o.a);
    check_comparable(base_layout(b).size(), "B", o.b);
    v = viz::diff_layouts(a, b, max);
    if (o.json) json_doc = viz::diff_json(v);
    if (target) {
      check_cells(base_layout(a).size(), "A", o.force);
      check_cells(base_layout(b).size(), "B", o.force);
      try {
        d = viz::diff_layouts_diagram(a, b);
      } catch (const viz::Error& e) {
        const bool in_a = std::string(e.what()).rfind("A ", 0) == 0;
        fail(e.what(), in_a ? o.a : o.b, 0);
      }
    }
  }
  if (json_doc) {
    json::print(*json_doc);
    check_standard_output();
    return v.equal ? 0 : 1;
  }
  if (d) {
    d->text_side_by_side_width = o.width;
    viz::add_diff_notes(*d, v, target->path.has_value());
    recolor(*d, o.color_by);
    set_density(*d, o.density);
    const bool drawing_on_stdout = !target->path && target->format != viz::Format::txt;
    emit(*d, *target);
    // The verdict ends standard output, except after a drawing written there (then stderr).
    if (drawing_on_stdout) {
      std::cerr << v.line << "\n";
      return v.equal ? 0 : 1;
    }
  }
  std::cout << v.line << "\n";
  check_standard_output();
  return v.equal ? 0 : 1;
}

}  // namespace

void register_diff(CLI::App& app) {
  auto o = std::make_shared<DiffOptions>();
  CLI::App* cmd = app.add_subcommand(
      "diff",
      "Compare two layouts, or two TV maps (--tv TILE), as functions: draw them side by side with\n"
      "the cells that differ marked, then print a one-line verdict:\n"
      "  equal to the letter: L                    the same layout: the same shape and stride\n"
      "  equal as functions: A(i) == B(i) ...      the same offset at every index i\n"
      "  differ at N of M indices, first at ...    the first index, coordinates and offsets\n"
      "  differ: A has N indices, B has M ...      sizes differ: never equal (the verdict also\n"
      "                                            says how the common indices compare)\n"
      "Layouts of the same size but different shapes, e.g. (2,2):(1,2) and 4:1, are compared at\n"
      "every 1-D index i (colexicographic, as `tessera eval`'s layouts are indexed). A swizzled\n"
      "layout is compared through its offsets Sw(off + L(i)). A shape stands for its column-major\n"
      "layout. With --tv TILE, A and B are TV layouts ((threads),(values)):(...) over TILE (as in\n"
      "`tessera render --tv`), compared at every (thread,value) pair; a tile cell is marked when\n"
      "different pairs land on it.");
  cmd->add_option("A", o->a, "the first layout (tessera eval notation)");
  cmd->add_option("B", o->b, "the second layout");
  cmd->add_option("--tv", o->tile, "TILE: compare A and B as TV layouts over this tile (a shape or a layout)")
      ->type_name("TILE");
  cmd->add_option("-o,--output", o->output,
                  "write the drawing to FILE (svg, html, png, pdf, tex, txt by extension): differing\n"
                  "cells red with a heavy outline, the verdict as the last note; the verdict is still\n"
                  "printed on standard output (on standard error when -o - writes svg/tex/html there)")
      ->check(output_file_name())
      ->type_name("FILE");
  cmd->add_option("-f,--format", o->format, "the drawing's format; default: from -o's extension, else txt")
      ->type_name("FORMAT");
  cmd->add_option("--width", o->width,
                  "text output: A's and B's tables side by side when both fit in N columns, else B below\n"
                  "A (default " + std::to_string(kTextWidth) + "; 0: always B below A)")
      ->check(integer_option({"--width"}, 0, 1000000, "a number of columns from 0 to 1000000"))
      ->type_name("N");
  cmd->add_flag("--brief", o->brief, "print the verdict only (no tables; large layouts need no --force)");
  add_json_flag(cmd, o->json,
                "print the verdict as JSON (docs/json.md): the operands, verdict, counts and the first\n"
                "--max differing cells");
  cmd->add_option("--max", o->max, "differing cells listed by --json (all are counted; default 100)")
      ->type_name("N");
  cmd->add_flag("--force", o->force,
                "draw layouts over " + std::to_string(kCellLimit) + " cells (up to " +
                    std::to_string(kHardCellLimit) + ")");
  add_color_by(cmd, o->color_by);
  add_density(cmd, o->density);
  cmd->footer(
      "Text output: A's table and B's (CuTe's print_layout), each under its title \"A: ...\" or\n"
      "\"B: ...\", side by side when the two fit in --width columns (default " + std::to_string(kTextWidth) + "), else B below A; a\n"
      "differing cell is followed by `!`; the verdict is the last line.\n"
      "Examples:\n"
      "  tessera diff '(2,2):(1,2)' '4:1'                 # equal as functions, exit 0\n"
      "  tessera diff '(4,8):(1,4)' '(4,8):(8,1)' -o d.svg\n"
      "  tessera diff 'Sw<3,3,3> o (8,64):(64,1)' '(8,64):(64,1)' --brief\n"
      "  tessera diff --tv '(16,8)' '((4,8),(2,2)):((32,1),(16,8))' '((4,8),(2,2)):((32,1),(8,16))' --width 160\n"
      "Exit status (for scripts, as `tessera verify`): 0 when A and B are equal as functions (to\n"
      "the letter or not); 1 when they differ; 2 on an error (malformed or unsupported operand,\n"
      "wrong command line, unwritable output), which prints `error: ...` on standard error and no\n"
      "verdict.");
  set_action(cmd, [o] { return run(*o); },
             reject_extras_saying("diff takes two layouts A and B", /*dash_digit_is_argument=*/true));
}

}  // namespace tessera::cli
