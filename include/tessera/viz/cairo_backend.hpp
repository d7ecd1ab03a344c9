// PNG and PDF through Cairo, from the same geometry as SVG and TikZ.
// Compiled only when TESSERA_HAS_CAIRO (check with viz::has_cairo()).
#pragma once

#include <string>

#include "tessera/viz/model.hpp"

namespace tessera::viz {

struct Geometry;

// Pixels per geometry unit in PNG output: 2 (crisp on high-density screens), less
// for diagrams that would exceed Cairo's 32767-pixel side, down to 0.25 (below
// that labels are unreadable and write_png refuses: use svg or pdf).
inline constexpr double png_scale = 2.0;
double png_scale_for(const Geometry& g);

// Writes exactly `path` (callers pass a temporary name and rename it; see output.hpp).
// Throws viz::Error with Cairo's status text on failure.
void write_png(const Diagram& d, const std::string& path);
void write_pdf(const Diagram& d, const std::string& path);

}  // namespace tessera::viz
