#pragma once
// Drawings of an epilogue visitor tree (tessera/rt/epilogue_tree.hpp): the root D on top,
// each node a box (leaves, computes, stores and reductions in their own colours) joined to its
// children by edges, each annotated with what it holds (f32 values, a vector's or an aux
// matrix's element type). Text: an indented tree, one node per line. The cell grid of
// viz/model.hpp draws tiles, not trees, so these drawings are their own documents; they are
// written through viz/output.hpp's write_output like every other.
#include <string>

#include "tessera/rt/epilogue_tree.hpp"
#include "tessera/rt/json.hpp"

namespace tessera::viz {

// A node's position from the root as tree::can_implement names it: "root", "root.1.0".
// What it holds or writes, e.g. "f32", "bf16 vector [n] -> f32", "writes bf16 M x N".
std::string epilogue_annotation(const rt::epilogue::TreeNode& n);

// The tree as `tessera epilogue --json` prints it, without the check: {"command": "epilogue",
// "schema_version", "tree" (the canonical text), "output" (D's element type), "cpp" (the C++
// type), "root"}, each node {"position", "kind", "label", "annotation", "cpp", "children"}.
// Shared by the CLI and the Python module, so that both print the same document.
rt::json::Value epilogue_tree_json(const rt::epilogue::Tree& t);

// One line per node, children indented under their parent, D's line first.
std::string epilogue_tree_text(const rt::epilogue::Tree& t);
// An SVG document (boxes and edges; a box's tooltip names its position and C++ type).
std::string epilogue_tree_svg(const rt::epilogue::Tree& t, const std::string& title);
// A self-contained HTML page holding the SVG (a box's tooltip on hover).
std::string epilogue_tree_html(const rt::epilogue::Tree& t, const std::string& title);
// A standalone TikZ document (pdflatex).
std::string epilogue_tree_tikz(const rt::epilogue::Tree& t, const std::string& title);

}  // namespace tessera::viz
