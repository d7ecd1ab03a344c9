#include "tessera/viz/epilogue_tree.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace tessera::viz {

using rt::epilogue::Along;
using rt::epilogue::Element;
using rt::epilogue::Op;
using rt::epilogue::Tree;
using rt::epilogue::TreeNode;
using K = TreeNode::Kind;

std::string epilogue_annotation(const TreeNode& n) {
  const std::string e = rt::epilogue::element_name(n.element);
  switch (n.kind) {
    case K::Accumulator: return "f32";
    case K::Constant: return "f32 constant";
    case K::Scalar: return n.pointer ? "f32, read from memory" : "f32";
    case K::RowBroadcast: return e + " vector [n] -> f32";
    case K::ColumnBroadcast: return e + " vector [m] -> f32";
    case K::SourceC: return e + " M x N -> f32";
    case K::Compute: return n.op == Op::convert ? "f32, rounded to " + e : "f32";
    case K::AuxStore: return "writes " + e + " M x N";
    case K::Reduction:
      return std::string("writes f32 ") + (n.along == Along::row ? "vector [n]" : n.along == Along::column ? "vector [m]" : "scalar");
  }
  return "";
}

namespace {
rt::json::Value node_json(const TreeNode& n, const std::string& position) {
  rt::json::Value v = rt::json::Value::object();
  v.set("position", position);
  v.set("kind", rt::epilogue::node_kind(n));
  v.set("label", rt::epilogue::node_label(n));
  v.set("annotation", epilogue_annotation(n));
  v.set("cpp", rt::epilogue::cpp_type(n));
  rt::json::Value children = rt::json::Value::array();
  for (std::size_t i = 0; i < n.children.size(); ++i) children.push(node_json(n.children[i], position + "." + std::to_string(i)));
  v.set("children", std::move(children));
  return v;
}
}  // namespace

rt::json::Value epilogue_tree_json(const Tree& t) {
  rt::json::Value doc = rt::json::document("epilogue");
  doc.set("tree", rt::epilogue::to_text(t));
  doc.set("output", rt::epilogue::element_name(t.output));
  doc.set("cpp", rt::epilogue::cpp_type(t.root));
  doc.set("root", node_json(t.root, "root"));
  return doc;
}

namespace {

// The C++ kind with its op: Compute<silu>, RowReduction<maximum_value>, RowBroadcast.
std::string kind_line(const TreeNode& n) {
  std::string k = rt::epilogue::node_kind(n);
  if (n.kind == K::Compute) k += std::string("<") + rt::epilogue::op_cpp(n.op) + ">";
  if (n.kind == K::Reduction) k += std::string("<") + rt::epilogue::reduce_cpp(n.reduce) + ">";
  return k;
}

std::string d_label(const Tree& t) { return std::string("D = store(") + rt::epilogue::element_name(t.output) + ")"; }
std::string d_annotation(const Tree& t) { return std::string("writes ") + rt::epilogue::element_name(t.output) + " M x N"; }

void text_lines(const TreeNode& n, const std::string& prefix, bool last, std::vector<std::pair<std::string, std::string>>& out) {
  out.push_back({prefix + (last ? "`- " : "|- ") + rt::epilogue::node_label(n), kind_line(n) + ", " + epilogue_annotation(n)});
  for (std::size_t i = 0; i < n.children.size(); ++i)
    text_lines(n.children[i], prefix + (last ? "   " : "|  "), i + 1 == n.children.size(), out);
}

std::string escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '<') o += "&lt;";
    else if (c == '>') o += "&gt;";
    else if (c == '&') o += "&amp;";
    else if (c == '"') o += "&quot;";
    else o += c;
  }
  return o;
}
std::string tex_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '_' || c == '&' || c == '%' || c == '#' || c == '$') o += std::string("\\") + c;
    else if (c == '<') o += "\\textless{}";
    else if (c == '>') o += "\\textgreater{}";
    else if (c == '*') o += "$\\ast$";
    else o += c;
  }
  return o;
}
std::string num(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", x);
  return b;
}

// The laid-out tree: a box per node (D's first), x from the leaves' order (a parent centred
// over its children), y from the depth.
struct Box {
  std::string label, kind, annotation, position, cpp;
  int category = 0;  // 0 D, 1 leaf, 2 compute, 3 sink
  double x = 0;
  int depth = 0;
  int parent = -1;
};
struct Layout {
  std::vector<Box> boxes;
  double leaves = 0;
  int depth = 0;
  double add(const TreeNode& n, int depth, int parent, const std::string& position) {
    const int me = int(boxes.size());
    boxes.push_back({rt::epilogue::node_label(n), kind_line(n), epilogue_annotation(n), position, rt::epilogue::cpp_type(n),
                     n.is_leaf() ? 1 : n.is_sink() ? 3 : 2, 0, depth, parent});
    this->depth = std::max(this->depth, depth);
    if (n.children.empty()) {
      boxes[std::size_t(me)].x = leaves++;
    } else {
      double first = 0, last = 0;
      for (std::size_t i = 0; i < n.children.size(); ++i) {
        const double x = add(n.children[i], depth + 1, me, position + "." + std::to_string(i));
        if (i == 0) first = x;
        last = x;
      }
      boxes[std::size_t(me)].x = (first + last) / 2;
    }
    return boxes[std::size_t(me)].x;
  }
};
Layout lay_out(const Tree& t) {
  Layout l;
  l.boxes.push_back({d_label(t), "D", d_annotation(t), "", "", 0, 0, 0, -1});
  const double x = l.add(t.root, 1, 0, "root");
  l.boxes[0].x = x;
  return l;
}

}  // namespace

std::string epilogue_tree_text(const Tree& t) {
  std::vector<std::pair<std::string, std::string>> lines{{d_label(t), "D, " + d_annotation(t)}};
  text_lines(t.root, "", true, lines);
  std::size_t w = 0;
  for (const auto& l : lines) w = std::max(w, l.first.size());
  std::string out;
  for (const auto& l : lines) out += l.first + std::string(w + 3 - l.first.size(), ' ') + l.second + "\n";
  return out;
}

std::string epilogue_tree_svg(const Tree& t, const std::string& title) {
  const Layout l = lay_out(t);
  std::size_t chars = 12;
  for (const Box& b : l.boxes) chars = std::max({chars, b.label.size(), b.kind.size(), b.annotation.size()});
  const double bw = 6.6 * double(chars) + 16, bh = 50, gap_x = 14, gap_y = 34, margin = 12;
  const double top = margin + (title.empty() ? 0 : 26);
  const double width = 2 * margin + std::max(1.0, l.leaves) * (bw + gap_x) - gap_x;
  const double height = top + (l.depth + 1) * (bh + gap_y) - gap_y + margin;
  auto left = [&](const Box& b) { return margin + b.x * (bw + gap_x); };
  auto y = [&](const Box& b) { return top + b.depth * (bh + gap_y); };
  static const char* fills[] = {"#d9d9d9", "#dbe9f6", "#fff2cc", "#d5ecd4"};
  std::string s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(width) +
                  "\" height=\"" + num(height) + "\" viewBox=\"0 0 " + num(width) + " " + num(height) +
                  "\" font-family=\"monospace\" font-size=\"11\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  if (!title.empty()) s += "<text x=\"" + num(margin) + "\" y=\"" + num(margin + 14) + "\" font-size=\"14\">" + escape(title) + "</text>\n";
  for (const Box& b : l.boxes)
    if (b.parent >= 0) {
      const Box& p = l.boxes[std::size_t(b.parent)];
      s += "<line x1=\"" + num(left(p) + bw / 2) + "\" y1=\"" + num(y(p) + bh) + "\" x2=\"" + num(left(b) + bw / 2) + "\" y2=\"" +
           num(y(b)) + "\" stroke=\"#555555\" stroke-width=\"1.2\"/>\n";
    }
  for (const Box& b : l.boxes) {
    const std::string tip = b.category == 0 ? "D: the root's value rounded to its type" : b.position + ": " + b.cpp;
    s += "<g><title>" + escape(tip) + "</title><rect x=\"" + num(left(b)) + "\" y=\"" + num(y(b)) + "\" width=\"" + num(bw) +
         "\" height=\"" + num(bh) + "\" rx=\"5\" fill=\"" + fills[b.category] + "\" stroke=\"#333333\"/>\n";
    const double cx = left(b) + bw / 2;
    s += "<text x=\"" + num(cx) + "\" y=\"" + num(y(b) + 15) + "\" text-anchor=\"middle\" font-weight=\"bold\">" + escape(b.label) +
         "</text>\n";
    s += "<text x=\"" + num(cx) + "\" y=\"" + num(y(b) + 29) + "\" text-anchor=\"middle\">" + escape(b.kind) + "</text>\n";
    s += "<text x=\"" + num(cx) + "\" y=\"" + num(y(b) + 43) + "\" text-anchor=\"middle\" fill=\"#555555\">" + escape(b.annotation) +
         "</text></g>\n";
  }
  return s + "</svg>\n";
}

std::string epilogue_tree_html(const Tree& t, const std::string& title) {
  std::string svg = epilogue_tree_svg(t, title);
  svg.erase(0, svg.find("<svg"));  // (no XML declaration inside HTML)
  return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + escape(title.empty() ? "epilogue tree" : title) +
         "</title></head>\n<body>\n" + svg + "</body></html>\n";
}

std::string epilogue_tree_tikz(const Tree& t, const std::string& title) {
  const Layout l = lay_out(t);
  static const char* fills[] = {"black!15", "blue!12", "yellow!25", "green!15"};
  std::string s =
      "\\documentclass[tikz,border=6pt]{standalone}\n\\begin{document}\n\\begin{tikzpicture}[x=3.4cm,y=-1.7cm,"
      "box/.style={draw,rounded corners=2pt,align=center,font=\\ttfamily\\scriptsize,minimum width=3.2cm}]\n";
  if (!title.empty()) s += "\\node[anchor=west,font=\\large] at (0,-0.8) {" + tex_escape(title) + "};\n";
  for (std::size_t i = 0; i < l.boxes.size(); ++i) {
    const Box& b = l.boxes[i];
    s += "\\node[box,fill=" + std::string(fills[b.category]) + "] (n" + std::to_string(i) + ") at (" + num(b.x) + "," +
         std::to_string(b.depth) + ") {\\textbf{" + tex_escape(b.label) + "}\\\\" + tex_escape(b.kind) + "\\\\" +
         tex_escape(b.annotation) + "};\n";
  }
  for (std::size_t i = 0; i < l.boxes.size(); ++i)
    if (l.boxes[i].parent >= 0)
      s += "\\draw (n" + std::to_string(l.boxes[i].parent) + ".south) -- (n" + std::to_string(i) + ".north);\n";
  return s + "\\end{tikzpicture}\n\\end{document}\n";
}

}  // namespace tessera::viz
