// Backends: each draws a Diagram, nothing else. SVG, TikZ and text return the
// document as a string (byte-deterministic, so golden files compare exactly);
// PNG and PDF go through Cairo (cairo_backend.hpp).
#pragma once

#include <string>

#include "tessera/viz/model.hpp"

namespace tessera::viz {

// Standalone SVG 1.1; each present cell carries a <title> tooltip.
std::string to_svg(const Diagram& d);

// One self-contained interactive HTML page (inline CSS, JavaScript and SVG; fetches
// nothing): hovering a cell outlines every cell of its thread and (thread, value) in all
// panels and shows its coordinate, offset, thread, value and bank; clicking isolates a
// thread (shift: a warp); each panel zooms and pans. Past 4096 cells, each panel's cells are
// a canvas painted from compact, compressed per-cell data (docs/cli.md, "Large pages").
std::string to_html(const Diagram& d);

// Standalone LaTeX document (\documentclass{standalone} + TikZ) for pdflatex.
std::string to_tikz(const Diagram& d);

// Console table in the style of CuTe's print_layout: a line with the panel title,
// a header row of column indices, +---+ separators, a row-index column. A plain
// layout's panel reproduces print_layout byte for byte.
std::string to_text(const Diagram& d);

// A number for a document: integers as is, otherwise up to two decimals with
// trailing zeros removed ("12", "12.5", "0.75"). Deterministic.
std::string num(double v);

}  // namespace tessera::viz
