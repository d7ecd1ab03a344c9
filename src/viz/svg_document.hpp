// The SVG writer behind to_svg and the HTML page (private to the viz library).
#pragma once

#include <string>

#include "tessera/viz/model.hpp"

namespace tessera::viz {

struct SvgOptions {
  // For the HTML page: each panel is a nested <svg> viewport (zoomed and panned on its
  // own), each cell a <g class="cell"> with data-p/r/c (panel, row, column) and, where
  // known, data-t (thread), data-v (value), data-w (warp), data-o (offset), data-b (bank).
  bool interactive = false;
};

std::string svg_document(const Diagram& d, const SvgOptions& opt);
std::string xml_escape(const std::string& s);

}  // namespace tessera::viz
