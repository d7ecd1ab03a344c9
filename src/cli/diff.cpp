// `tessera diff`: two layouts (plain or swizzled) or two TV maps compared as functions, drawn
// side by side with the cells that differ marked, and a one-line verdict.
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
#include "tessera/viz/output.hpp"

namespace tessera::cli {

namespace {

// Comparing walks every index: beyond this many the comparison is refused (a drawing stops
// much earlier, at kCellLimit without --force).
constexpr std::int64_t kCompareLimit = std::int64_t{1} << 24;
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

struct Verdict {
  bool letter = false;     // the same text
  bool equal = false;      // the same function (letter implies equal)
  std::int64_t compared = 0, differing = 0;
  std::string line;        // the one-line verdict
  json::Value cells = json::Value::array();  // --json: the first differing cells
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
  if (v.kind == rt::Value::Kind::IntTuple) {
    if (rt::has_underscore(v.tuple)) fail(what + " holds _, which is not a shape", input, 0);
    for (auto x : rt::leaves(v.tuple))
      if (x <= 0) fail(what + " is a tuple with a non-positive entry, not a shape", input, 0);
    return rt::Value::of(rt::Layout::column_major(v.tuple));
  }
  if (!is_layout_value(v))
    fail(what + " is " + rt::describe(v) + ": diff compares layouts (shape:stride), swizzled layouts or, with --tv, "
                                           "TV layouts",
         input, 0);
  return v;
}

std::string coord_text(const rt::Value& v, std::int64_t i) {
  const rt::IntTuple c = rt::idx2crd(i, base_layout(v).shape);
  return c.is_leaf() ? "(" + rt::to_string(c) + ")" : rt::to_string(c);
}

void check_comparable(std::int64_t n, const std::string& what, const std::string& input) {
  if (n > kCompareLimit)
    fail(what + " has " + str(n) + " indices, more than diff compares (" + str(kCompareLimit) + ")", input, 0);
}

// ---------------------------------------------------------------- layouts

Verdict compare_layouts(const rt::Value& a, const rt::Value& b, const DiffOptions& o, std::int64_t max) {
  const std::int64_t na = base_layout(a).size(), nb = base_layout(b).size();
  check_comparable(na, "A", o.a);
  check_comparable(nb, "B", o.b);
  Verdict v;
  v.compared = std::min(na, nb);
  std::int64_t first = -1;
  for (std::int64_t i = 0; i < v.compared; ++i)
    if (value_at(a, i) != value_at(b, i)) {
      if (first < 0) first = i;
      if (v.differing++ < max)
        v.cells.push(json::Value::object({{"index", i},
                                          {"a_coord", json::int_tuple(rt::idx2crd(i, base_layout(a).shape))},
                                          {"b_coord", json::int_tuple(rt::idx2crd(i, base_layout(b).shape))},
                                          {"a", value_at(a, i)},
                                          {"b", value_at(b, i)}}));
    }
  auto first_text = [&] {
    return "first at index " + str(first) + ": A" + coord_text(a, first) + " = " + str(value_at(a, first)) + ", B" +
           coord_text(b, first) + " = " + str(value_at(b, first));
  };
  v.letter = rt::to_string(a) == rt::to_string(b);
  if (na != nb) {
    v.line = "differ: A has " + str(na) + " indices, B has " + str(nb) + " (the domains differ); over the common " +
             "indices [0," + str(v.compared) + ") " +
             (v.differing == 0 ? std::string("they agree") : str(v.differing) + " differ, " + first_text());
    v.differing += std::max(na, nb) - v.compared;  // the indices only one of them has
    return v;
  }
  v.equal = v.differing == 0;
  if (v.letter) v.line = "equal to the letter: " + rt::to_string(a);
  else if (v.equal)
    v.line = "equal as functions: A(i) == B(i) for all " + str(na) + " indices i (A is " + rt::to_string(a) +
             ", B is " + rt::to_string(b) + ")";
  else
    v.line = "differ at " + str(v.differing) + " of " + str(na) + " indices, " + first_text();
  return v;
}

// Marks the cells of `p` (drawing `self`) whose index the other operand maps elsewhere or lacks.
void mark_layout_panel(viz::Panel& p, const rt::Value& self, const rt::Value& other, const char* other_name) {
  const std::int64_t rows = p.rows.count, n_other = base_layout(other).size();
  bool any = false;
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < p.cols.count; ++c) {
      const std::int64_t i = r + rows * c;  // the grid walks the index column-major (grid_function)
      viz::Cell& cell = p.at(r, c);
      if (i >= n_other) {
        cell.highlight = viz::Highlight::mismatch;
        cell.tooltip += std::string(" | index ") + str(i) + " is outside " + other_name + "'s domain";
        any = true;
      } else if (value_at(self, i) != value_at(other, i)) {
        cell.highlight = viz::Highlight::mismatch;
        cell.tooltip += std::string(" | index ") + str(i) + ": " + other_name + " gives " + str(value_at(other, i));
        any = true;
      }
    }
  if (any) p.text_fixed_width = false;  // the marks widen cells: size the table to its labels
}

viz::Diagram layout_drawing(const rt::Value& a, const rt::Value& b, const DiffOptions& o) {
  check_cells(base_layout(a).size(), "A", o.force);
  check_cells(base_layout(b).size(), "B", o.force);
  std::vector<viz::Panel> panels;
  for (int k = 0; k < 2; ++k) {
    const rt::Value& self = k == 0 ? a : b;
    const std::optional<viz::GridFunction> g = grid_of_value(self);
    if (!g) fail(std::string(k == 0 ? "A" : "B") + " has no modes to draw", k == 0 ? o.a : o.b, 0);
    viz::Panel p = viz::layout_panel(*g);
    p.title = std::string(k == 0 ? "A: " : "B: ") + rt::to_string(self);
    mark_layout_panel(p, self, k == 0 ? b : a, k == 0 ? "B" : "A");
    panels.push_back(std::move(p));
  }
  return viz::side_by_side(std::move(panels));
}

// ---------------------------------------------------------------- TV maps

struct TvOperand {
  viz::TvFunction tv;
  viz::TvInverse inverse;
};

TvOperand tv_operand(const std::string& what, const std::string& input, const viz::TvTile& tile) {
  const rt::Value v = evaluate_arg(what, input);
  if (v.kind != rt::Value::Kind::Layout)
    fail("--tv compares TV layouts ((threads),(values)):(...), but " + what + " is " + rt::describe(v), input, 0);
  TvOperand op;
  try {
    op.tv = viz::tv_of_layout(v.layout);
    check_comparable(v.layout.size(), what, input);
    op.inverse = viz::invert_tv(op.tv, tile);
  } catch (const viz::Error& e) {
    fail(what + ": " + e.what(), input, 0);
  }
  return op;
}

Verdict compare_tv(const TvOperand& a, const TvOperand& b, std::int64_t max) {
  Verdict v;
  const std::int64_t ta = a.tv.threads(), va = a.tv.values(), tb = b.tv.threads(), vb = b.tv.values();
  v.letter = a.tv.text == b.tv.text;
  if (ta != tb || va != vb) {
    v.differing = std::max(ta * va, tb * vb);
    v.line = "differ: A maps " + str(ta) + " threads x " + str(va) + " values, B " + str(tb) + " x " + str(vb) +
             " (the (thread,value) domains differ)";
    return v;
  }
  v.compared = ta * va;
  std::int64_t ft = -1, fv = -1;
  for (std::int64_t t = 0; t < ta; ++t)
    for (std::int64_t x = 0; x < va; ++x)
      if (a.tv.index(t, x) != b.tv.index(t, x)) {
        if (ft < 0 || x < fv || (x == fv && t < ft)) ft = t, fv = x;  // first in CuTe's order: thread fastest
        ++v.differing;
      }
  // The listed pairs in CuTe's order too (thread fastest).
  std::int64_t listed = 0;
  for (std::int64_t x = 0; x < va && listed < max; ++x)
    for (std::int64_t t = 0; t < ta && listed < max; ++t)
      if (a.tv.index(t, x) != b.tv.index(t, x)) {
        v.cells.push(json::Value::object(
            {{"thread", t}, {"value", x}, {"a", a.tv.index(t, x)}, {"b", b.tv.index(t, x)}}));
        ++listed;
      }
  v.equal = v.differing == 0;
  if (v.letter) v.line = "equal to the letter: " + a.tv.text;
  else if (v.equal)
    v.line = "equal as functions: all " + str(v.compared) + " (thread,value) pairs land on the same tile index (A is " +
             a.tv.text + ", B is " + b.tv.text + ")";
  else
    v.line = "differ at " + str(v.differing) + " of " + str(v.compared) + " (thread,value) pairs, first at thread " +
             str(ft) + " value " + str(fv) + ": A -> tile index " + str(a.tv.index(ft, fv)) + ", B -> " +
             str(b.tv.index(ft, fv));
  return v;
}

viz::Diagram tv_drawing(const TvOperand& a, const TvOperand& b, const viz::TvTile& tile) {
  viz::Panel pa = viz::tv_panel(a.tv, tile, a.inverse), pb = viz::tv_panel(b.tv, tile, b.inverse);
  pa.title = "A: " + a.tv.text;
  pb.title = "B: " + b.tv.text;
  // A tile cell differs when other (thread,value) pairs land on it.
  for (std::int64_t m = 0; m < pa.rows.count; ++m)
    for (std::int64_t n = 0; n < pa.cols.count; ++n)
      if (a.inverse.at(m, n) != b.inverse.at(m, n))
        for (viz::Panel* p : {&pa, &pb}) {
          viz::Cell& c = p->at(m, n);
          c.highlight = viz::Highlight::mismatch;
          if (!c.present) {  // held in the other map only: drawn to show the difference
            c.present = true;
            c.label = "-";
          }
          c.tooltip += " | held differently in " + std::string(p == &pa ? "B" : "A");
        }
  pa.text_fixed_width = pb.text_fixed_width = false;
  return viz::side_by_side({std::move(pa), std::move(pb)});
}

// ---------------------------------------------------------------- command

json::Value verdict_json(const Verdict& v, const char* mode, json::Value a, json::Value b, std::int64_t size_a,
                         std::int64_t size_b) {
  json::Value doc = json::document("diff");
  doc.set("mode", mode);
  doc.set("a", std::move(a));
  doc.set("b", std::move(b));
  doc.set("verdict", v.letter && v.equal ? "equal_to_the_letter" : v.equal ? "equal_as_functions" : "differ");
  doc.set("equal", v.equal);
  doc.set("summary", v.line);
  doc.set("size_a", size_a);
  doc.set("size_b", size_b);
  doc.set("compared", v.compared);
  doc.set("differing", v.differing);
  doc.set("cells", v.cells);
  return doc;
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
  Verdict v;
  std::optional<viz::Diagram> d;
  if (!o.tile.empty()) {
    const rt::Value t = evaluate_arg("--tv", o.tile);
    viz::TvTile tile;
    try {
      if (t.kind == rt::Value::Kind::IntTuple) tile = viz::tile_of_shape(t.tuple);
      else if (t.kind == rt::Value::Kind::Layout) tile = viz::tile_of_layout(t.layout);
      else fail("the tile is " + rt::describe(t) + ": give a shape (M,N) or a layout (M,N):(s,t)", o.tile, 0);
    } catch (const viz::Error& e) {
      fail(e.what(), o.tile, 0);
    }
    check_comparable(tile.rows() * tile.cols(), "the tile", o.tile);
    const TvOperand a = tv_operand("A", o.a, tile), b = tv_operand("B", o.b, tile);
    v = compare_tv(a, b, max);
    if (o.json)
      json_doc = verdict_json(v, "tv", json::value(rt::evaluate(o.a)), json::value(rt::evaluate(o.b)),
                              a.tv.threads() * a.tv.values(), b.tv.threads() * b.tv.values());
    if (target) {
      check_cells(tile.rows() * tile.cols(), "the tile " + tile.text, o.force);
      d = tv_drawing(a, b, tile);
    }
  } else {
    const rt::Value a = operand("A", o.a), b = operand("B", o.b);
    v = compare_layouts(a, b, o, max);
    if (o.json)
      json_doc = verdict_json(v, "layout", json::value(a), json::value(b), base_layout(a).size(),
                              base_layout(b).size());
    if (target) d = layout_drawing(a, b, o);
  }
  if (json_doc) {
    json::print(*json_doc);
    check_standard_output();
    return v.equal ? 0 : 1;
  }
  if (d) {
    d->text_side_by_side_width = o.width;
    d->notes.push_back(v.equal ? "no cell differs"
                               : "marked cells (red; ! in text): A and B differ there (the tooltip gives the other's value)");
    recolor(*d, o.color_by);
    set_density(*d, o.density);
    if (target->path) d->notes.push_back(v.line);
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
