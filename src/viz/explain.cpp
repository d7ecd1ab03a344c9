// `tessera explain`'s derivation, text, JSON and drawing (tessera/viz/explain.hpp).
#include "tessera/viz/explain.hpp"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "tessera/rt/parse.hpp"
#include "tessera/viz/arrange.hpp"
#include "tessera/viz/build_layout.hpp"
#include "tessera/viz/error.hpp"
#include "tessera/viz/layout_grid.hpp"

namespace tessera::viz {

namespace json = rt::json;
using rt::TraceStep;
using Kind = TraceStep::Kind;

namespace {

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

}  // namespace

Explanation explain(const std::string& expr) {
  Explanation d;
  d.expression = expr;
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
  return d;
}

namespace {

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

}  // namespace

std::string explanation_text(const Explanation& d, int max_depth) {
  std::string out = "expression: " + d.expression + "\n";
  if (d.steps.empty() && d.value) out += "(a literal: no operation to explain)\n";
  print_steps(d.steps, "", 1, max_depth, "", out);
  if (d.value) out += "result: " + rt::to_string(*d.value) + "\n";
  else out += error_line(*d.error) + "\n";
  return out;
}

// ---------------------------------------------------------------- JSON

namespace {

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
      if (v.kind() == rt::Value::Kind::IntTuple && rt::has_underscore(v.tuple()))
        a.push(json::Value::object(
            {{"kind", "coordinate"}, {"text", rt::to_string(v.tuple())}, {"value", coordinate_json(v.tuple())}}));
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

}  // namespace

json::Value explanation_json(const Explanation& d, int max_depth) {
  json::Value doc = json::document("explain");
  doc.set("expression", d.expression);
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

namespace {

struct PanelSet {
  std::vector<Panel> panels;
  std::vector<std::string> notes;
  std::set<std::string> drawn_inputs;
};

// A panel for `text` (a value in eval's notation) when it is a layout small enough to draw.
struct DrawOptions {
  int depth = 0;
  bool force = false;
};

void add_panel(PanelSet& ps, const std::string& text, const std::string& title, const std::string& subtitle,
               const DrawOptions& o) {
  rt::Value v;
  try {
    v = rt::evaluate(text);
  } catch (const rt::Error&) {
    return;  // not a value (words)
  }
  if (!is_layout_value(v)) return;
  const std::int64_t cells = base_layout(v).size();
  if (cells > hard_cell_limit || (cells > cell_limit && !o.force)) {
    ps.notes.push_back(title + " not drawn: " + std::to_string(cells) + " cells" +
                       (cells > hard_cell_limit ? "" : " (--force draws it)"));
    return;
  }
  const std::optional<GridFunction> g = grid_of_value(v);
  if (!g) return;
  Panel p = layout_panel(*g);
  p.title = title;
  p.subtitle = subtitle;
  ps.panels.push_back(std::move(p));
}

// The expression's literal layouts (its inputs), in the order they are written.
void add_inputs(PanelSet& ps, const rt::Node& n, const DrawOptions& o) {
  if (n.kind == rt::Node::Kind::Layout || n.kind == rt::Node::Kind::Swizzled) {
    const std::string text = rt::to_string(n);
    if (ps.drawn_inputs.insert(text).second) add_panel(ps, text, "input " + text, "", o);
    return;
  }
  for (const rt::Node& c : n.children) add_inputs(ps, c, o);
}

void add_steps(PanelSet& ps, const std::vector<TraceStep>& steps, const std::string& prefix, int level,
               const DrawOptions& o) {
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

}  // namespace

Diagram explanation_diagram(const Explanation& d, int max_depth, bool force) {
  const DrawOptions o{max_depth, force};
  const std::string& expr = d.expression;
  PanelSet ps;
  try {
    add_inputs(ps, rt::parse(expr), o);
  } catch (const rt::Error&) {  // a parse error: no inputs to draw
  }
  add_steps(ps, d.steps, "", 1, o);
  if (ps.panels.empty())
    throw Error(d.value ? "nothing to draw: no input or step of this expression is a layout"
                        : "nothing to draw: the expression was refused before any layout was formed");
  Diagram dg = grid_of(std::move(ps.panels), 3);
  dg.title = "explain " + expr;
  dg.notes = std::move(ps.notes);
  dg.notes.push_back(d.value ? "result: " + rt::to_string(*d.value) : error_line(*d.error));
  return dg;
}

}  // namespace tessera::viz
