#include "tessera/viz/build_banks.hpp"

#include <algorithm>

#include "tessera/viz/build_layout.hpp"
#include "tessera/viz/colors.hpp"
#include "tessera/viz/error.hpp"

namespace tessera::viz {

Diagram banks_diagram(const BankTile& t) {
  const std::int64_t rows = rt::product(t.row_shape), cols = rt::product(t.col_shape);
  if (t.degree.size() != static_cast<std::size_t>(rows * cols))
    throw Error("bank diagram: " + std::to_string(t.degree.size()) + " degrees for " + std::to_string(rows * cols) +
                " cells");
  Panel p(rows, cols);
  p.title = t.title;
  p.subtitle = "cell (m,n): element offset, bank b (" + std::to_string(t.element_bits) + "-bit elements)";
  p.rows.headers = index_headers(rows);
  p.cols.headers = index_headers(cols);
  p.rows.line_level = boundary_levels(mode_tree(t.row_shape));
  p.cols.line_level = boundary_levels(mode_tree(t.col_shape));
  std::int64_t conflicted = 0, untouched = 0;
  int worst = 0;
  for (std::int64_t m = 0; m < rows; ++m)
    for (std::int64_t n = 0; n < cols; ++n) {
      const std::int64_t off = t.offset(m, n);
      const std::int64_t bank = (off * t.element_bits / 8 / 4) % 32;
      const int deg = t.degree[static_cast<std::size_t>(m * cols + n)];
      Cell& c = p.at(m, n);
      c.present = true;
      c.offset = off;
      c.bank = bank;
      c.label = std::to_string(off);
      c.label2 = "b" + std::to_string(bank);
      c.tooltip = "(" + std::to_string(m) + "," + std::to_string(n) + ") offset " + std::to_string(off) + " byte " +
                  std::to_string(off * t.element_bits / 8) + " bank " + std::to_string(bank);
      if (deg == 0) {
        c.tooltip += ", not accessed";
        ++untouched;
      } else {
        c.tooltip += ", accessed with bank degree " + std::to_string(deg);
      }
      if (deg > 1) {
        c.highlight = Highlight::conflict;
        ++conflicted;
      }
      worst = std::max(worst, deg);
    }
  Diagram d;
  d.panels.push_back(std::move(p));
  d.natural_color = ColorBy::bank;
  d.element_bits = t.element_bits;
  apply_colors(d);
  d.notes.push_back("b: the bank (32 banks x 4 bytes)");
  d.notes.push_back(conflicted ? std::to_string(conflicted) + " cell(s) accessed through a conflicted bank (worst " +
                                     std::to_string(worst) + "-way): red outline"
                               : std::string("no bank conflicts"));
  if (untouched) d.notes.push_back(std::to_string(untouched) + " cell(s) not accessed");
  return d;
}

}  // namespace tessera::viz
