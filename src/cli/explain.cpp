// `tessera explain`: an expression's derivation, step by step, as the runtime algebra ran it
// (tessera/viz/explain.hpp: the derivation, its text, JSON and drawing).
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "action.hpp"
#include "commands.hpp"
#include "json.hpp"
#include "tessera/viz/explain.hpp"
#include "tessera/viz/output.hpp"

namespace tessera::cli {

namespace {

struct ExplainOptions {
  std::string expr;
  std::string output;
  std::string format;
  std::string color_by;
  int depth = 0;  // 0: every level
  bool force = false;
  bool json = false;
  DensityFlags density;
};

int run(const ExplainOptions& o) {
  if (o.expr.find_first_not_of(" \t\r\n") == std::string::npos)
    fail("EXPR is empty: give an expression such as 'logical_divide((4,2,3):(2,1,8), 4:2)'");
  if (o.depth < 0) fail("--depth takes a count of levels (0: all)");
  // (--json with a drawing option is refused before this runs: check_json_alone in set_action)
  const bool draw = !o.output.empty() || !o.format.empty();
  std::optional<Target> target;
  if (draw) {
    if (o.output.empty()) fail("-f " + o.format + " needs -o FILE: the format is that of the drawing");
    target = resolve_target(o.format, o.output);
    if (!target->path) fail("-o - is standard output, which carries the text explanation: give -o FILE");
  }
  const viz::Explanation d = viz::explain(o.expr);
  if (o.json) {
    json::print(viz::explanation_json(d, o.depth));
    check_standard_output();
    if (d.error) std::cerr << rt::format_error(o.expr, d.error->pos(), d.error->what());
    return d.error ? 1 : 0;
  }
  std::cout << viz::explanation_text(d, o.depth);
  check_standard_output();
  if (d.error) std::cerr << rt::format_error(o.expr, d.error->pos(), d.error->what());
  if (target) {
    viz::Diagram dg;
    try {
      dg = viz::explanation_diagram(d, o.depth, o.force);
    } catch (const viz::Error& e) {
      fail(e.what());
    }
    recolor(dg, o.color_by);
    set_density(dg, o.density);
    emit(dg, *target);
  }
  return d.error ? 1 : 0;
}

}  // namespace

void register_explain(CLI::App& app) {
  auto o = std::make_shared<ExplainOptions>();
  CLI::App* cmd = app.add_subcommand(
      "explain",
      "Explain an expression: its derivation step by step, in CuTe's definitions, as tessera's\n"
      "algebra computed it (every operation reports its intermediates while it runs: the steps\n"
      "are the computation `tessera eval` does, not a second one). Each step is numbered, nested\n"
      "under the operation that called it, and printed as `N  expression = result` (an expression\n"
      "`tessera eval` evaluates to that result); its intermediates follow as `- what: value`.\n"
      "Nested expressions are explained sub-expression first, in the order they ran.\n"
      "A refused expression prints the steps up to the one that failed, marked REFUSED with the\n"
      "rule it breaks, then `error: <why> (at column N)` (the input and a caret on standard error).");
  cmd->add_option("EXPR", o->expr, "the expression, in `tessera eval`'s notation (docs/notation.md)");
  cmd->add_option("--depth", o->depth,
                  "show operations down to this nesting level, each with its notes (default 0: all)")
      ->type_name("N")
      ->check(integer_option({"--depth"}, 0, 1000000, "a number of levels from 0 (all) to 1000000"));
  cmd->add_option("-o,--output", o->output,
                  "also draw the steps to FILE: every input layout and every step whose value is a\n"
                  "layout, one captioned panel each, in order (svg, html, png, pdf, tex)")
      ->check(output_file_name())
      ->type_name("FILE");
  cmd->add_option("-f,--format", o->format, "the drawing's format (svg, html, png, pdf, tex, txt); default: from -o")
      ->type_name("FORMAT");
  cmd->add_flag("--force", o->force,
                "draw steps over " + std::to_string(kCellLimit) + " cells (up to " + std::to_string(kHardCellLimit) +
                    "; larger ones are listed, not drawn)");
  add_color_by(cmd, o->color_by);
  add_density(cmd, o->density);
  add_json_flag(cmd, o->json,
                "print the steps as JSON (docs/json.md): each operation with its expression, inputs,\n"
                "result and items (notes and inner operations); a refused expression is data too");
  cmd->footer(
      "Example:\n"
      "  $ tessera explain 'logical_divide((4,2,3):(2,1,8), 4:2)'\n"
      "  expression: logical_divide((4,2,3):(2,1,8), 4:2)\n"
      "  1  logical_divide((4,2,3):(2,1,8),4:2) = ((2,2),(2,3)):((4,1),(2,8))\n"
      "     - rule: A o (B, complement(B, size(A))): the tile B and the rest that repeats it over A\n"
      "     - size(A): 24\n"
      "     1.1  complement(4:2,24) = (2,3):(1,8)\n"
      "          ...\n"
      "     - concatenation (B, complement): (4,(2,3)):(2,(1,8))\n"
      "     1.2  composition((4,2,3):(2,1,8),4:2) = (2,2):(4,1)\n"
      "          ...\n"
      "  result: ((2,2),(2,3)):((4,1),(2,8))\n"
      "More:\n"
      "  tessera explain 'composition((2,2):(1,6), (2,2):(1,1))'      # refused: which rule, where\n"
      "  tessera explain 'tile_to_shape(Sw<3,3,3> o (8,64):(64,1), (128,64))' --depth 2\n"
      "  tessera explain 'zipped_divide((8,8):(8,1), (4:1,2:1))' -o steps.html\n"
      "Exit status: 0 when the expression evaluates; 1 when it is refused (the steps up to the\n"
      "refusal are still printed, and drawn with -o), or on a wrong command line or output.");
  set_action(cmd, [o] { return run(*o); },
             reject_extras_saying("explain takes one EXPR", /*dash_digit_is_argument=*/true));
}

}  // namespace tessera::cli
