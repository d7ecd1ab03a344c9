#include "tessera/viz/build_tmem.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "tessera/viz/colors.hpp"
#include "tessera/viz/error.hpp"

namespace tessera::viz {

namespace {

constexpr std::int64_t kLaneBits = std::int64_t{1} << 21;  // a lane's stride in bit addresses (CuTe's DP_b)

std::vector<std::string> numbered(std::int64_t n, std::int64_t first = 0) {
  std::vector<std::string> h;
  for (std::int64_t i = 0; i < n; ++i) h.push_back(std::to_string(first + i));
  return h;
}

}  // namespace

Diagram tmem_copy_diagram(const rt::CopyAtomInfo& atom) {
  if (!atom.tmem_src && !atom.tmem_dst) throw Error(atom.name + " does not move tensor memory");
  // The register side: (thread, bit) -> the atom's logical bit; ValID: logical bit -> address.
  const rt::Layout& regs = atom.tmem_src ? atom.dst_bits : atom.src_bits;
  const std::int64_t threads = regs.mode(0).size(), bits = regs.mode(1).size();
  const bool pack16 = atom.name.size() > 4 && atom.name.compare(atom.name.size() - 4, 4, "_16b") == 0;
  const std::int64_t step = pack16 ? 16 : 32;  // the bits one cell holds
  std::int64_t lanes = 0, columns = 0;
  struct Hit {
    std::int64_t lane, column, thread, reg, half;
  };
  std::vector<Hit> hits;
  for (std::int64_t t = 0; t < threads; ++t)
    for (std::int64_t b = 0; b < bits; b += step) {
      const std::int64_t addr = atom.val_id(regs(t + threads * b));
      const Hit h{addr / kLaneBits, (addr % kLaneBits) / 32, t, b / 32, (b % 32) / 16};
      lanes = std::max(lanes, h.lane + 1);
      columns = std::max(columns, h.column + 1);
      hits.push_back(h);
    }
  Panel p(lanes, columns);
  p.title = std::string("tensor memory, ") + std::to_string(lanes) + " lanes x " + std::to_string(columns) +
            " columns of 32 bits (" + (atom.tmem_src ? "source" : "destination") + ")";
  p.rows.headers = numbered(lanes);
  p.cols.headers = numbered(columns);
  std::int64_t repeated = 0;
  for (const Hit& h : hits) {
    Cell& c = p.at(h.lane, h.column);
    if (c.present) {
      c.highlight = Highlight::conflict;
      ++repeated;
      continue;
    }
    c.present = true;
    c.thread = h.thread;
    c.value = h.reg;
    c.offset = h.lane + 128 * h.column;
    c.label = "T" + std::to_string(h.thread);
    c.label2 = "R" + std::to_string(h.reg) + (pack16 ? (h.half ? ".hi" : ".lo") : "");
    c.tooltip = "lane " + std::to_string(h.lane) + ", column " + std::to_string(h.column) + ": thread " +
                std::to_string(h.thread) + ", register " + std::to_string(h.reg) + (pack16 ? (h.half ? " (high 16 bits)" : " (low 16 bits)") : "");
  }
  Diagram d;
  d.panels.push_back(std::move(p));
  d.title = atom.name;
  d.natural_color = ColorBy::thread;
  d.element_bits = 32;
  d.notes.push_back(std::string("cell: the thread T and its register R that ") + (atom.tmem_src ? "receives" : "gives") +
                    " the cell; lanes are the warp's quarter of tensor memory (warp w % 4: lanes 32(w % 4) on), "
                    "columns from the address the warp gives");
  if (pack16) d.notes.push_back("16b: each cell holds 16 bits, half of a register (lo, hi)");
  if (repeated) d.notes.push_back(std::to_string(repeated) + " cell(s) reached twice: red outline");
  apply_colors(d);
  return d;
}

Panel tmem_accumulator_panel(const rt::MmaAtomInfo& atom) {
  if (atom.cta_group == 0) throw Error(atom.name + " does not accumulate in tensor memory");
  const std::int64_t rows = atom.m / atom.cta_group, cols = atom.n;
  std::int64_t lanes = 0, columns = 0;
  for (std::int64_t n = 0; n < cols; ++n)
    for (std::int64_t m = 0; m < rows; ++m) {
      const std::int64_t cell = atom.tmem_c(m + rows * n);
      lanes = std::max(lanes, cell % 128 + 1);
      columns = std::max(columns, cell / 128 + 1);
    }
  lanes = 128;  // the whole height of tensor memory: the lanes an M = 64 tile leaves free show
  Panel p(lanes, columns);
  p.title = "C in tensor memory" + std::string(atom.cta_group == 2 ? " (each CTA of the pair)" : "") + ": " +
            rt::to_string(atom.tmem_c) + ", (m,n) -> lane + 128 column";
  p.rows.headers = numbered(lanes);
  p.cols.headers = numbered(columns);
  for (std::int64_t n = 0; n < cols; ++n)
    for (std::int64_t m = 0; m < rows; ++m) {
      const std::int64_t cell = atom.tmem_c(m + rows * n);
      Cell& c = p.at(cell % 128, cell / 128);
      c.present = true;
      c.offset = m + rows * n;
      c.label = "m" + std::to_string(m);
      c.label2 = "n" + std::to_string(n);
      c.tooltip = "lane " + std::to_string(cell % 128) + ", column " + std::to_string(cell / 128) + ": C(" +
                  std::to_string(m) + ", " + std::to_string(n) + ")";
    }
  p.natural_color = ColorBy::offset;
  p.legend_name = "C in tensor memory";
  p.offset_name = "C index m + M n";
  return p;
}

Panel tmem_scale_factor_panel(const rt::MmaAtomInfo& atom, bool operand_a) {
  const rt::Layout& l = operand_a ? atom.tmem_sfa : atom.tmem_sfb;
  if (atom.sf_vec == 0 || l.size() <= 1)
    throw Error(atom.name + " has no scale factors in tensor memory (block-scaled tcgen05.mma atoms have)");
  // ((mn, copy), (v, s)) -> lane + 128 * byte: index mn + MN copy + MN copies (v + VS s); v moves
  // nothing. Four copies (one per 32-lane quarter), two for B on the 2x2 data path.
  const rt::Layout rows_copies = l.mode(0);
  const std::int64_t nsf = atom.k / atom.sf_vec, mn_size = rows_copies.mode(0).size(),
                     copies = rows_copies.mode(1).size();
  if (mn_size * copies * atom.k != l.size())
    throw Error(atom.name + ": scale-factor layout " + rt::to_string(l) + " is not ((mn, copy), (v, s))");
  std::int64_t bytes = 0;
  for (std::int64_t i = 0; i < l.size(); ++i) bytes = std::max(bytes, l(i) / 128 + 1);
  Panel p(128, bytes);
  const std::string op = operand_a ? "A" : "B", mn = operand_a ? "m" : "n";
  const bool pair = atom.cta_group == 2;
  // (what a pair's CTA holds, its own rows of A and every column of B, is the drawing's note:
  // in the title it widened the page past A1)
  p.title = "scale factors of " + op + " in " + (pair ? "each CTA's " : "") + "tensor memory: " + rt::to_string(l) +
            ", ((" + mn + ", copy), (v, s)) -> lane + 128 byte";
  p.rows.headers = numbered(128);
  p.cols.headers = numbered(bytes);
  for (std::int64_t s = 0; s < nsf; ++s)
    for (std::int64_t c = 0; c < copies; ++c)
      for (std::int64_t r = 0; r < mn_size; ++r) {
        const std::int64_t cell = l(r + mn_size * c + copies * mn_size * atom.sf_vec * s);
        Cell& x = p.at(cell % 128, cell / 128);
        x.present = true;
        x.offset = r + mn_size * s;
        x.label = mn + std::to_string(r);
        x.label2 = "s" + std::to_string(s);
        x.tooltip = "lane " + std::to_string(cell % 128) + ", byte " + std::to_string(cell / 128) + " (column " +
                    std::to_string(cell / 512) + "): scale factor of " + op + " " + mn + " " + std::to_string(r) +
                    (pair && operand_a ? " of the CTA" : "") + ", K block " + std::to_string(s) +
                    (c ? " (copy " + std::to_string(c) + ")" : "");
      }
  p.natural_color = ColorBy::offset;
  p.legend_name = "SF" + op + " in tensor memory";
  p.offset_name = "SF" + op + " index " + mn + " + MN s";
  return p;
}

}  // namespace tessera::viz
