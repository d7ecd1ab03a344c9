// `tessera explain`: an expression's derivation, step by step, as the runtime algebra ran it.
// The steps come from the algebra's own trace (include/tessera/rt/trace.hpp): each operation
// reports its intermediates while it computes, so what is shown is what `eval` computes.
#include <cstdint>
#include <iostream>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "action.hpp"
#include "commands.hpp"
#include "json.hpp"
#include "layout_grid.hpp"
#include "tessera/rt/eval.hpp"
#include "tessera/rt/parse.hpp"
#include "tessera/rt/trace.hpp"
#include "tessera/viz/arrange.hpp"
#include "tessera/viz/build_layout.hpp"
#include "tessera/viz/output.hpp"

namespace tessera::cli {

namespace {

using rt::TraceStep;
using Kind = TraceStep::Kind;

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

// What ran: the trace of one evaluation, its value or its error.
struct Derivation {
  std::vector<TraceStep> steps;
  std::optional<rt::Value> value;
  std::optional<rt::Error> error;
  const TraceStep* failed = nullptr;  // the step that refused, when one did
};

TraceStep note_step(std::string label, std::string text) {
  TraceStep s;
  s.kind = Kind::note;
  s.op = std::move(label);
  s.result = std::move(text);
  return s;
}

// A call the evaluator traced whose whole work is one algebra operation of the same name
// and result (complement(L) computing complement(L, cosize)) reads as one step: the call,
// its notes, the operation's items.
void merge_calls(std::vector<TraceStep>& steps) {
  for (TraceStep& s : steps) {
    if (s.kind != Kind::operation) continue;
    merge_calls(s.steps);
    if (s.pos == rt::npos) continue;
    TraceStep* only = nullptr;
    int operations = 0;
    for (TraceStep& c : s.steps)
      if (c.kind == Kind::operation) ++operations, only = &c;
    if (operations != 1 || only->op != s.op || only->result != s.result || only->failed != s.failed) continue;
    std::vector<TraceStep> items;
    for (TraceStep& c : s.steps) {
      if (&c != only) {
        items.push_back(std::move(c));
        continue;
      }
      if (!c.expr.empty() && c.expr != s.expr) items.push_back(note_step("computed as", c.expr));
      for (TraceStep& inner : c.steps) items.push_back(std::move(inner));
    }
    s.steps = std::move(items);
  }
}

Derivation derive(const std::string& expr) {
  Derivation d;
  rt::Trace trace;
  {
    const rt::TraceSession session(trace);
    try {
      d.value = rt::evaluate(expr);
    } catch (const rt::Error& e) {
      d.error = e;
    }
  }
  merge_calls(trace.steps);
  if (d.error) {
    if (TraceStep* f = trace.innermost_failure()) f->error = d.error->what();
  }
  d.steps = std::move(trace.steps);
  if (d.error) {
    // innermost_failure pointed into trace.steps before the move; find it again.
    std::vector<const TraceStep*> stack;
    for (const TraceStep& s : d.steps) stack.push_back(&s);
    while (!stack.empty() && !d.failed) {
      const TraceStep* s = stack.back();
      stack.pop_back();
      if (!s->error.empty()) d.failed = s;
      for (const TraceStep& c : s->steps) stack.push_back(&c);
    }
  }
  return d;
}

std::string error_line(const rt::Error& e) {
  return std::string("error: ") + e.what() +
         (e.pos() != rt::npos ? " (at column " + std::to_string(e.pos() + 1) + ")" : std::string());
}

// ---------------------------------------------------------------- text

// Past --depth a step keeps its notes; the operations inside it are left out.
void print_steps(const std::vector<TraceStep>& steps, const std::string& prefix, int level, int max_depth,
                 const std::string& indent, std::string& out) {
  int n = 0;
  for (const TraceStep& s : steps) {
    if (s.kind == Kind::note) {
      out += indent + "- " + s.op + ": " + s.result + "\n";
      continue;
    }
    if (max_depth != 0 && level > max_depth) continue;
    const std::string num = prefix + std::to_string(++n);
    out += indent + num + "  " + (s.expr.empty() ? s.op : s.expr);
    out += s.failed ? "  REFUSED\n" : " = " + s.result + "\n";
    const std::string inner = indent + std::string(num.size() + 2, ' ');
    print_steps(s.steps, num + ".", level + 1, max_depth, inner, out);
    if (!s.error.empty()) out += inner + "! refused here: " + s.error + "\n";
  }
}

std::string explanation_text(const std::string& expr, const Derivation& d, int max_depth) {
  std::string out = "expression: " + expr + "\n";
  if (d.steps.empty() && d.value) out += "(a literal: no operation to explain)\n";
  print_steps(d.steps, "", 1, max_depth, "", out);
  if (d.value) out += "result: " + rt::to_string(*d.value) + "\n";
  else out += error_line(*d.error) + "\n";
  return out;
}

// ---------------------------------------------------------------- JSON

// A value in eval's notation as its JSON form (text that is not a value stays a string).
json::Value value_json(const std::string& text) {
  try {
    return json::value(rt::evaluate(text));
  } catch (const rt::Error&) {
    return json::Value(text);
  }
}

// A slice coordinate: an integer tuple whose wildcards are the string "_".
json::Value coordinate_json(const rt::IntTuple& t) {
  if (t.is_leaf()) return t.value() == rt::kUnderscore ? json::Value("_") : json::Value(t.value());
  json::Value a = json::Value::array();
  for (const rt::IntTuple& e : t.elems()) a.push(coordinate_json(e));
  return a;
}

// The arguments of a step's expression, evaluated (each a literal in notation).
json::Value inputs_json(const std::string& expr) {
  json::Value a = json::Value::array();
  if (expr.empty()) return a;
  try {
    const rt::Node n = rt::parse(expr);
    if (n.kind != rt::Node::Kind::Call) return a;
    for (const rt::Node& c : n.children) {
      const rt::Value v = rt::evaluate(c);
      if (v.kind == rt::Value::Kind::IntTuple && rt::has_underscore(v.tuple))
        a.push(json::Value::object(
            {{"kind", "coordinate"}, {"text", rt::to_string(v.tuple)}, {"value", coordinate_json(v.tuple)}}));
      else
        a.push(json::value(v));
    }
  } catch (const rt::Error&) {
  }
  return a;
}

json::Value steps_json(const std::vector<TraceStep>& steps, const std::string& prefix, int level, int max_depth) {
  json::Value out = json::Value::array();
  int n = 0;
  for (const TraceStep& s : steps) {
    if (s.kind == Kind::note) {
      json::Value note = json::Value::object({{"note", s.op}});
      if (s.value) note.set("value", value_json(s.result));
      else note.set("text", s.result);
      out.push(std::move(note));
      continue;
    }
    if (max_depth != 0 && level > max_depth) continue;
    const std::string num = prefix + std::to_string(++n);
    json::Value step = json::Value::object({{"step", num}, {"operation", s.op}});
    step.set("expression", s.expr.empty() ? json::Value() : json::Value(s.expr));
    step.set("inputs", inputs_json(s.expr));
    step.set("refused", s.failed);
    step.set("result", s.failed ? json::Value() : value_json(s.result));
    if (!s.error.empty()) step.set("error", s.error);
    step.set("items", steps_json(s.steps, num + ".", level + 1, max_depth));
    out.push(std::move(step));
  }
  return out;
}

json::Value explanation_json(const std::string& expr, const Derivation& d, int max_depth) {
  json::Value doc = json::document("explain");
  doc.set("expression", expr);
  doc.set("steps", steps_json(d.steps, "", 1, max_depth));
  doc.set("result", d.value ? json::value(*d.value) : json::Value());
  if (d.error) {
    json::Value e = json::Value::object({{"message", std::string(d.error->what())}});
    e.set("column", d.error->pos() == rt::npos ? json::Value() : json::Value(d.error->pos() + 1));
    doc.set("error", std::move(e));
  } else {
    doc.set("error", json::Value());
  }
  return doc;
}

// ---------------------------------------------------------------- drawing

struct PanelSet {
  std::vector<viz::Panel> panels;
  std::vector<std::string> notes;
  std::set<std::string> drawn_inputs;
};

// A panel for `text` (a value in eval's notation) when it is a layout small enough to draw.
void add_panel(PanelSet& ps, const std::string& text, const std::string& title, const std::string& subtitle,
               const ExplainOptions& o) {
  rt::Value v;
  try {
    v = rt::evaluate(text);
  } catch (const rt::Error&) {
    return;  // not a value (words)
  }
  if (!is_layout_value(v)) return;
  const std::int64_t cells = base_layout(v).size();
  if (cells > kHardCellLimit || (cells > kCellLimit && !o.force)) {
    ps.notes.push_back(title + " not drawn: " + std::to_string(cells) + " cells" +
                       (cells > kHardCellLimit ? "" : " (--force draws it)"));
    return;
  }
  const std::optional<viz::GridFunction> g = grid_of_value(v);
  if (!g) return;
  viz::Panel p = viz::layout_panel(*g);
  p.title = title;
  p.subtitle = subtitle;
  ps.panels.push_back(std::move(p));
}

// The expression's literal layouts (its inputs), in the order they are written.
void add_inputs(PanelSet& ps, const rt::Node& n, const ExplainOptions& o) {
  if (n.kind == rt::Node::Kind::Layout || n.kind == rt::Node::Kind::Swizzled) {
    const std::string text = rt::to_string(n);
    if (ps.drawn_inputs.insert(text).second) add_panel(ps, text, "input " + text, "", o);
    return;
  }
  for (const rt::Node& c : n.children) add_inputs(ps, c, o);
}

void add_steps(PanelSet& ps, const std::vector<TraceStep>& steps, const std::string& prefix, int level,
               const ExplainOptions& o) {
  int n = 0;
  std::string last_op = prefix.empty() ? "" : prefix.substr(0, prefix.size() - 1);
  for (const TraceStep& s : steps) {
    if (s.kind == Kind::note) {
      if (s.value) add_panel(ps, s.result, (last_op.empty() ? "" : last_op + " ") + s.op, s.result, o);
      continue;
    }
    if (o.depth != 0 && level > o.depth) continue;
    const std::string num = prefix + std::to_string(++n);
    if (s.failed) {
      if (!s.error.empty()) ps.notes.push_back("step " + num + " refused: " + s.error);
    } else {
      add_panel(ps, s.result, num + "  " + (s.expr.empty() ? s.op : s.expr), "= " + s.result, o);
    }
    add_steps(ps, s.steps, num + ".", level + 1, o);
  }
}

viz::Diagram explanation_diagram(const std::string& expr, const Derivation& d, const ExplainOptions& o) {
  PanelSet ps;
  try {
    add_inputs(ps, rt::parse(expr), o);
  } catch (const rt::Error&) {  // a parse error: no inputs to draw
  }
  add_steps(ps, d.steps, "", 1, o);
  if (ps.panels.empty())
    fail(d.value ? "nothing to draw: no input or step of this expression is a layout"
                 : "nothing to draw: the expression was refused before any layout was formed");
  viz::Diagram dg = viz::grid_of(std::move(ps.panels), 3);
  dg.title = "explain " + expr;
  dg.notes = std::move(ps.notes);
  dg.notes.push_back(d.value ? "result: " + rt::to_string(*d.value) : error_line(*d.error));
  return dg;
}

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
  const Derivation d = derive(o.expr);
  if (o.json) {
    json::print(explanation_json(o.expr, d, o.depth));
    check_standard_output();
    if (d.error) std::cerr << rt::format_error(o.expr, d.error->pos(), d.error->what());
    return d.error ? 1 : 0;
  }
  std::cout << explanation_text(o.expr, d, o.depth);
  check_standard_output();
  if (d.error) std::cerr << rt::format_error(o.expr, d.error->pos(), d.error->what());
  if (target) {
    viz::Diagram dg = explanation_diagram(o.expr, d, o);
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
