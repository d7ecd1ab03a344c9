// `tessera diff`'s comparisons, verdicts and drawings (tessera/viz/diff.hpp).
#include "tessera/viz/diff.hpp"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "tessera/rt/error.hpp"
#include "tessera/viz/arrange.hpp"
#include "tessera/viz/build_layout.hpp"
#include "tessera/viz/error.hpp"
#include "tessera/viz/layout_grid.hpp"

namespace tessera::viz {

namespace json = rt::json;

namespace {

std::string str(std::int64_t v) { return std::to_string(v); }

std::string coord_text(const rt::Value& v, std::int64_t i) {
  const rt::IntTuple c = rt::idx2crd(i, base_layout(v).shape);
  return c.is_leaf() ? "(" + rt::to_string(c) + ")" : rt::to_string(c);
}

void check_comparable(std::int64_t n, const std::string& what) {
  if (n > diff_compare_limit)
    throw rt::Error(what + " has " + str(n) + " indices, more than diff compares (" + str(diff_compare_limit) + ")");
}

// Marks the cells of `p` (drawing `self`) whose index the other operand maps elsewhere or lacks.
void mark_layout_panel(Panel& p, const rt::Value& self, const rt::Value& other, const char* other_name) {
  const std::int64_t rows = p.rows.count, n_other = base_layout(other).size();
  bool any = false;
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < p.cols.count; ++c) {
      const std::int64_t i = r + rows * c;  // the grid walks the index column-major (grid_function)
      Cell& cell = p.at(r, c);
      if (i >= n_other) {
        cell.highlight = Highlight::mismatch;
        cell.tooltip += std::string(" | index ") + str(i) + " is outside " + other_name + "'s domain";
        any = true;
      } else if (value_at(self, i) != value_at(other, i)) {
        cell.highlight = Highlight::mismatch;
        cell.tooltip += std::string(" | index ") + str(i) + ": " + other_name + " gives " + str(value_at(other, i));
        any = true;
      }
    }
  if (any) p.text_fixed_width = false;  // the marks widen cells: size the table to its labels
}

}  // namespace

DiffVerdict diff_layouts(const rt::Value& a, const rt::Value& b, std::int64_t max) {
  const std::int64_t na = base_layout(a).size(), nb = base_layout(b).size();
  check_comparable(na, "A");
  check_comparable(nb, "B");
  DiffVerdict v;
  v.mode = "layout";
  v.a = json::value(a);
  v.b = json::value(b);
  v.size_a = na;
  v.size_b = nb;
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

Diagram diff_layouts_diagram(const rt::Value& a, const rt::Value& b) {
  std::vector<Panel> panels;
  for (int k = 0; k < 2; ++k) {
    const rt::Value& self = k == 0 ? a : b;
    const std::optional<GridFunction> g = grid_of_value(self);
    if (!g) throw Error(std::string(k == 0 ? "A" : "B") + " has no modes to draw");
    Panel p = layout_panel(*g);
    p.title = std::string(k == 0 ? "A: " : "B: ") + rt::to_string(self);
    mark_layout_panel(p, self, k == 0 ? b : a, k == 0 ? "B" : "A");
    panels.push_back(std::move(p));
  }
  return side_by_side(std::move(panels));
}

DiffTv diff_tv_operand(const rt::Layout& tv, const TvTile& tile) {
  DiffTv op;
  op.layout = tv;
  op.tv = tv_of_layout(tv);
  if (tv.size() > diff_compare_limit)
    throw Error("it has " + str(tv.size()) + " indices, more than diff compares (" + str(diff_compare_limit) + ")");
  op.inverse = invert_tv(op.tv, tile);
  return op;
}

DiffVerdict diff_tv(const DiffTv& a, const DiffTv& b, std::int64_t max) {
  DiffVerdict v;
  v.mode = "tv";
  v.a = json::value(rt::Value::of(a.layout));
  v.b = json::value(rt::Value::of(b.layout));
  const std::int64_t ta = a.tv.threads(), va = a.tv.values(), tb = b.tv.threads(), vb = b.tv.values();
  v.size_a = ta * va;
  v.size_b = tb * vb;
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

Diagram diff_tv_diagram(const DiffTv& a, const DiffTv& b, const TvTile& tile) {
  Panel pa = tv_panel(a.tv, tile, a.inverse), pb = tv_panel(b.tv, tile, b.inverse);
  pa.title = "A: " + a.tv.text;
  pb.title = "B: " + b.tv.text;
  // A tile cell differs when other (thread,value) pairs land on it.
  for (std::int64_t m = 0; m < pa.rows.count; ++m)
    for (std::int64_t n = 0; n < pa.cols.count; ++n)
      if (a.inverse.at(m, n) != b.inverse.at(m, n))
        for (Panel* p : {&pa, &pb}) {
          Cell& c = p->at(m, n);
          c.highlight = Highlight::mismatch;
          if (!c.present) {  // held in the other map only: drawn to show the difference
            c.present = true;
            c.label = "-";
          }
          c.tooltip += " | held differently in " + std::string(p == &pa ? "B" : "A");
        }
  pa.text_fixed_width = pb.text_fixed_width = false;
  return side_by_side({std::move(pa), std::move(pb)});
}

json::Value diff_json(const DiffVerdict& v) {
  json::Value doc = json::document("diff");
  doc.set("mode", v.mode);
  doc.set("a", v.a);
  doc.set("b", v.b);
  doc.set("verdict", v.letter && v.equal ? "equal_to_the_letter" : v.equal ? "equal_as_functions" : "differ");
  doc.set("equal", v.equal);
  doc.set("summary", v.line);
  doc.set("size_a", v.size_a);
  doc.set("size_b", v.size_b);
  doc.set("compared", v.compared);
  doc.set("differing", v.differing);
  doc.set("cells", v.cells);
  return doc;
}

void add_diff_notes(Diagram& d, const DiffVerdict& v, bool with_verdict) {
  d.notes.push_back(v.equal ? "no cell differs"
                            : "marked cells (red; ! in text): A and B differ there (the tooltip gives the other's value)");
  if (with_verdict) d.notes.push_back(v.line);
}

}  // namespace tessera::viz
