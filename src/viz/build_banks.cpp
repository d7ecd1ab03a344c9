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
      const std::size_t i = static_cast<std::size_t>(m * cols + n);
      if (i < t.thread.size() && t.thread[i] >= 0) {
        c.thread = t.thread[i];
        c.value = i < t.value.size() ? t.value[i] : Cell::kNone;
        c.tooltip += ", T" + std::to_string(c.thread) + (c.value == Cell::kNone ? "" : "V" + std::to_string(c.value));
        if (i < t.bank_threads.size() && !t.bank_threads[i].empty()) {
          c.tooltip += "; threads reaching bank " + std::to_string(bank) + " in this phase:";
          for (std::int64_t who : t.bank_threads[i]) c.tooltip += " T" + std::to_string(who);
        }
      }
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
  d.notes.push_back(t.bank_threads.empty() ? "b: the bank (32 banks x 4 bytes)"
                                            : "b: the bank (32 banks x 4 bytes); the tooltip: the thread, and every thread "
                                              "whose access reaches that bank in the same phase");
  d.notes.push_back(conflicted ? std::to_string(conflicted) + " cell(s) accessed through a conflicted bank (worst " +
                                     std::to_string(worst) + "-way): red outline"
                               : std::string("no bank conflicts"));
  if (untouched) d.notes.push_back(std::to_string(untouched) + " cell(s) not accessed");
  return d;
}

Diagram banks_diagram(const analysis::SmemTile& smem, int bits, const analysis::BankAnalysis& a) {
  const std::int64_t rows = smem.rows();
  return banks_diagram(BankTile{smem.text, smem.row_shape, smem.col_shape,
                                [&smem, rows](std::int64_t m, std::int64_t n) { return smem.offset(m + rows * n); }, bits,
                                a.cell_degree, a.cell_thread, a.cell_value, a.cell_bank_threads});
}

}  // namespace tessera::viz
