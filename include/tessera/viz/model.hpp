// The one diagram model every backend draws (SVG, TikZ, text, Cairo PNG/PDF).
//
// A Diagram is a set of panels (one for a plain layout or a TV map; A/B/C for an
// MMA atom; source/destination for a copy; expected/actual for a verifier diff).
// A panel is a grid of cells addressed (row, col). Every cell carries its own fill,
// up to two labels, a tooltip and an optional highlight, so builders decide what a
// cell means and backends only draw.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::viz {

struct Rgb {
  std::uint8_t r = 255, g = 255, b = 255;
  friend bool operator==(Rgb, Rgb) = default;
};

inline constexpr Rgb white{255, 255, 255};
inline constexpr Rgb black{0, 0, 0};
inline constexpr Rgb mismatch_red{214, 39, 40};

// Relative luminance (sRGB, 0..1): picks dark or light label text.
double luminance(Rgb c);
// Dark text on light fills, white text on dark fills.
Rgb text_color_for(Rgb fill);
// Palette entry i (cyclic, 8 entries). Lightness alternates strongly between
// neighbours (L* 95,52,80,36,87,61,71,44) so the entries stay apart in grey print.
Rgb palette(std::int64_t i);
inline constexpr int palette_size = 8;
// "#rrggbb"
std::string hex(Rgb c);

// Text a drawing may carry: well-formed UTF-8 (RFC 3629) without control characters other
// than tab and newline (XML 1.0 cannot hold them, not even as character references).
// The byte offset of the first character that breaks this, or npos.
std::size_t first_undrawable(std::string_view s);
// `s` with each such byte or character replaced by U+FFFD, so that every backend draws any
// text a caller gives it (the CLI refuses such a --title instead; docs/cli.md).
std::string drawable_text(std::string_view s);

enum class Highlight : std::uint8_t {
  none,
  mismatch,  // verifier: expected != actual. Drawn as a red fill with a heavy red outline.
  conflict,  // a cell claimed more than once (e.g. two (thread,value) pairs). Heavy red outline.
  emphasis,  // user selection. Heavy dark outline.
};

struct Cell;
// What a backend fills a cell with (a mismatch is red whatever its fill) and the
// colour of a highlight's outline.
Rgb effective_fill(const Cell& c);
Rgb highlight_stroke(Highlight h);

struct Cell {
  bool present = false;     // false: blank cell (drawn empty, no labels)
  Rgb fill = white;
  std::string label;        // first line (e.g. "12" or "T3")
  std::string label2;       // optional second line (e.g. "V1")
  std::string tooltip;      // coordinate, index, thread, value ... (SVG <title>)
  Highlight highlight = Highlight::none;
  // Colour class for backends that name colours (TikZ); -1 = use fill as is.
  std::int64_t color_key = -1;
  // What the cell stands for (kNone: not applicable). Colours (colors.hpp), boundaries,
  // legends and the HTML page's data come from these, so builders say what a cell is and
  // the colouring is chosen once, for every backend.
  static constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::min();
  std::int64_t offset = kNone;  // the index the layout gives (plain layouts, banks) or the tile index (TV)
  std::int64_t thread = kNone;  // first (thread, value) holding the cell
  std::int64_t value = kNone;
  std::int64_t bank = kNone;    // shared-memory bank (when known; else derived from offset)
  std::int64_t chunk = kNone;   // unit the swizzle permutes (when known; else the 16-byte chunk)
  std::int64_t atom = kNone;    // MMA atom instance holding the cell (tiled MMAs)
  std::int64_t box = kNone;     // the TMA box (one copy) that fills the cell
  // Lanes of the warp (wavefront, subgroup) the holding thread belongs to: 32 on NVIDIA, 64 for
  // AMD CDNA's MFMA, 16 or 8 for Intel's DPAS. Warp colours and boundaries group threads by it.
  std::int64_t warp_lanes = 32;
  std::int64_t warp() const { return thread == kNone ? kNone : thread / warp_lanes; }
};

// The quantity cells are coloured by (--color-by). automatic: the diagram's natural one.
enum class ColorBy : std::uint8_t { automatic, thread, warp, value, offset, bank, chunk, box };

// A hierarchical mode extent: a leaf (no children) of `extent`, or a tuple of
// sub-modes. (2,(2,4)) -> tuple{leaf 2, tuple{leaf 2, leaf 4}}. Only sizes matter.
struct ModeTree {
  std::int64_t extent = 1;            // leaf size; for a tuple, the product of its children
  std::vector<ModeTree> children;     // empty: a leaf
  static ModeTree leaf(std::int64_t n) { return ModeTree{n, {}}; }
  static ModeTree tuple(std::vector<ModeTree> c);
  std::int64_t size() const { return extent; }
};

// Level of the grid line before index i (i = 0..size): the number of sub-modes
// (leaves and inner tuples, not the whole mode, size > 1) whose coordinate wraps
// to 0 at i. Walking a mode colexicographically, a sub-mode with prefix product p
// and size s wraps where i % (p*s) == 0. So for (2,2) the line at 2 has level 1;
// for ((2,2),4) the line at 4 has level 3 (both leaves and the inner tuple wrap)
// while for flat (2,2,4) it has level 2: deeper nesting draws thicker lines.
// The two outer edges get the level of a full wrap.
std::vector<int> boundary_levels(const ModeTree& mode);

// One axis of a panel: its length, a header label per index, the line levels.
struct Axis {
  std::int64_t count = 0;
  std::vector<std::string> headers;   // size count (may be empty: no headers)
  std::vector<int> line_level;        // size count+1 (empty: all level 0)
  int level_at(std::int64_t i) const {
    return line_level.empty() ? 0 : line_level[static_cast<std::size_t>(i)];
  }
};

struct Panel {
  std::string title;     // e.g. the layout in CuTe notation; first line of the text table
  std::string subtitle;  // e.g. "tile (16,8)"
  Axis rows, cols;
  std::vector<Cell> cells;  // row-major: cells[r * cols.count + c]
  // Text backend: minimum width of a cell's content (CuTe's print_layout uses
  // num_digits(cosize), which can exceed the widest label).
  int text_min_width = 0;
  // Text backend: use text_min_width exactly, letting wider labels push their row out
  // of line as CuTe's printf("%*d") does (negative strides); set for plain layouts.
  bool text_fixed_width = false;
  // Where the panel sits in the diagram's grid of panels, and how it aligns in
  // its slot (an MMA draws A left of C and B above C, flush against C).
  int slot_row = 0, slot_col = 0;
  bool align_right = false, align_bottom = false;
  // What colour means in this panel when it differs from the rest of the diagram (an MMA's
  // shared-memory operands beside its register accumulator): panels of one natural colour
  // share colours and ranges; each group gets its part of the legend, named by
  // legend_name ("A", "C", ...). automatic: the diagram's.
  ColorBy natural_color = ColorBy::automatic;
  std::string legend_name;
  // Legend wording for this panel's offsets and chunks when not the diagram's (e.g. "smem
  // byte offset"); the first panel of a colour group speaks for it.
  std::string offset_name, chunk_name;

  Panel() = default;
  Panel(std::int64_t nrows, std::int64_t ncols);
  Cell& at(std::int64_t r, std::int64_t c) { return cells[static_cast<std::size_t>(r * cols.count + c)]; }
  const Cell& at(std::int64_t r, std::int64_t c) const { return cells[static_cast<std::size_t>(r * cols.count + c)]; }
  std::int64_t num_cells() const { return rows.count * cols.count; }
};

// What colour means, drawn by the graphical backends (never by the text table, which
// stays CuTe's print_layout): a title, swatches with labels, and lines explaining
// boundaries drawn over the cells.
struct LegendItem {
  Rgb color;
  std::string label;
};
struct Legend {
  std::string title;              // e.g. "colour: bank"
  std::vector<LegendItem> items;
  std::vector<std::string> lines; // e.g. "blue lines: warp boundaries"
  bool empty() const { return title.empty() && items.empty() && lines.empty(); }
};

// Labelled cells, or a label-free heatmap with tick-labelled axes (large tiles).
enum class Density : std::uint8_t { automatic, labels, heatmap };
// automatic switches to a heatmap from this many cells in a panel, or past this many rows or
// columns: labels would be unreadable and the page unprintable.
inline constexpr std::int64_t heatmap_cells = 64 * 64;
inline constexpr std::int64_t heatmap_extent = 128;


struct Diagram {
  std::string title;              // optional (--title); drawn above all panels
  std::vector<Panel> panels;
  std::vector<std::string> notes; // legend lines (e.g. what a red outline means)
  Legend legend;                  // set by apply_colors (colors.hpp)
  Density density = Density::automatic;  // --heatmap / --labels
  // Set by builders: what ColorBy::automatic means here (automatic: thread where cells
  // have threads, else offset), and the element width for banks and chunks.
  ColorBy natural_color = ColorBy::automatic;
  int element_bits = 16;
  std::int64_t chunk_elements = 0;  // elements per chunk; 0: 16 bytes of element_bits
  std::string chunk_name;           // legend wording for a chunk (e.g. "2^3-element unit of Sw<3,3,3>")
  // Text backend: lay the panels of one slot row next to each other when the row fits in this
  // many columns (a diff's A and B read across); 0, or a row too wide: one below the other.
  int text_side_by_side_width = 0;
  std::int64_t num_cells() const;
  // The warp_lanes of the first cell a thread holds (32 when none does).
  std::int64_t warp_lanes() const;
  // True when drawn as a heatmap: asked for, or (automatic) some panel is past the thresholds.
  bool heatmap() const;
};

// Headers "0","1",... for an axis of n entries.
std::vector<std::string> index_headers(std::int64_t n);

}  // namespace tessera::viz
