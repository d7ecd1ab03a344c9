// PNG and PDF through Cairo, from the same geometry as SVG and TikZ.
// Compiled only when TESSERA_HAS_CAIRO (check with viz::has_cairo()).
#pragma once

#include <string>

#include "tessera/viz/model.hpp"

namespace tessera::viz {

struct Geometry;

// Pixels per geometry unit in PNG output: 2 (crisp on high-density screens), less
// for diagrams that would exceed Cairo's 32767-pixel side, down to 0.25 (below
// that labels are unreadable and png_document refuses: use svg or pdf).
inline constexpr double png_scale = 2.0;
double png_scale_for(const Geometry& g);

// The whole PNG / PDF document, in memory: output.hpp decides where and how it is written
// (a temporary file renamed over the target, or written through to a device or FIFO).
// Throws viz::Error with Cairo's status text on failure.
std::string png_document(const Diagram& d);
std::string pdf_document(const Diagram& d);

}  // namespace tessera::viz
