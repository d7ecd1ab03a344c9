// Colour that carries meaning: every graphical backend fills a cell with the colour
// apply_colors gives it from what the cell stands for (its thread, value, offset, bank or
// chunk), and draws the legend it writes. Schemes vary lightness, not only hue, so
// diagrams stay readable printed in grey.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "tessera/viz/model.hpp"

namespace tessera::viz {

// "thread", "warp", "value", "offset", "bank", "chunk" (and "auto").
std::optional<ColorBy> color_by_from_name(std::string_view name);
std::string_view color_by_name(ColorBy c);

// CIE L*C*h (D65) to sRGB; chroma is reduced until the colour fits the sRGB gamut, so L* and
// hue are kept exactly (grey print shows L*).
Rgb lch(double l, double c, double h_degrees);
// CIE L* of a colour (0..100), from its relative luminance.
double lightness(Rgb c);

// Thread t: colour t mod 64 of a fixed palette (tools/thread_palette.py): any two lanes of a
// warp differ by at least CIE dE76 23, any two of the 64 lanes of a wavefront (or of two
// neighbouring warps) by at least 16, and lanes t and t+1, t+2, t+4, t+8, t+16 (mod 32) by
// at least 12 L* (grey print). Tested in tests/viz/model_test.cpp from the sRGB values.
Rgb thread_color(std::int64_t t);
// Warp w: hue as thread_color's, lightness alternating between neighbours.
Rgb warp_color(std::int64_t w);
// 32 distinguishable classes (banks): hue from i % 8, lightness from (i / 8) % 4.
Rgb class32_color(std::int64_t i);
// A sequential ramp for x in [0,1]: light yellow (0) through green and blue to dark violet (1);
// L* falls monotonically from 95 to 28.
Rgb ramp_color(double x);

// Fills every present cell of `d` by `by` and writes d.legend. automatic picks
// d.natural_color, else thread when cells have threads, else offset. Mismatch
// highlights keep their red fill (effective_fill). Throws Error when no cell has the
// quantity asked for (e.g. thread on a plain layout).
void apply_colors(Diagram& d, ColorBy by = ColorBy::automatic);

}  // namespace tessera::viz
