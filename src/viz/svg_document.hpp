// The SVG writer behind to_svg and the HTML page (private to the viz library).
#pragma once

#include <cstdint>
#include <string>

#include "tessera/viz/model.hpp"

namespace tessera::viz {

// How the HTML page holds its cells: an element each, or one canvas per panel painted by the
// page's script from compact per-cell data (html_backend.cpp; the threshold is documented there).
enum class CellLayer : std::uint8_t { elements, canvas };

struct SvgOptions {
  // For the HTML page: each panel is a nested <svg> viewport (zoomed and panned on its
  // own), each cell a <g class="cell"> with data-p/r/c (panel, row, column) and, where
  // known, data-t (thread), data-v (value), data-w (warp), data-o (offset), data-b (bank).
  bool interactive = false;
  // With interactive: CellLayer::canvas draws no element per cell but, in each panel, a
  // <foreignObject class="cells"> holding a canvas of one pixel per cell (painted by the
  // page), the cells' labels as bare <text> in <g class="labels"> (cell order, one or two
  // each), empty <path class="hover-*"> for the hover outlines and one empty <path
  // class="mark" data-h="K"> per highlight kind the panel has (the page fills them in).
  CellLayer cells = CellLayer::elements;
};

// The bank the page shows for a cell: its own, else the 4-byte bank of its offset at the
// diagram's element width; kNone when neither is known (or the byte address overflows).
std::int64_t page_bank(const Cell& c, int element_bits);

std::string svg_document(const Diagram& d, const SvgOptions& opt);
std::string xml_escape(const std::string& s);

}  // namespace tessera::viz
