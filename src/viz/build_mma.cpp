#include "tessera/viz/build_mma.hpp"

#include <cinttypes>
#include <cstdio>

#include "tessera/rt/algebra.hpp"
#include "tessera/rt/error.hpp"
#include "tessera/viz/arrange.hpp"
#include "tessera/viz/build_tv.hpp"

namespace tessera::viz {

namespace {
rt::IntTuple pair(std::int64_t a, std::int64_t b) { return rt::IntTuple::tuple({a, b}); }

constexpr std::size_t kListedPairs = 8;

std::string range_text(std::int64_t first, std::int64_t count) {
  return count == 1 ? std::to_string(first) : std::to_string(first) + "-" + std::to_string(first + count - 1);
}

struct Built {
  Panel panel;
  std::int64_t repeated = 0, uncovered = 0;
};

Built operand(const char* name, const rt::Layout& tv_layout, const TvTile& tile, bool replication_expected,
              const std::function<std::int64_t(std::int64_t)>& thread_id, std::int64_t atom_threads,
              std::int64_t warp_lanes) {
  const TvFunction tv = tv_of_layout(tv_layout);
  TvInverse inv = invert_tv(tv, tile);
  if (thread_id)
    for (auto& hits : inv.hits)
      for (TvHit& h : hits) h.thread = thread_id(h.thread);
  Built b{tv_panel(tv, tile, inv), inv.repeated, inv.uncovered};
  b.panel.title = std::string(name) + " " + b.panel.title;
  for (Cell& c : b.panel.cells) c.warp_lanes = warp_lanes;
  if (atom_threads > 0)
    for (Cell& c : b.panel.cells)
      if (c.thread != Cell::kNone) c.atom = c.thread / atom_threads;
  if (replication_expected)
    for (Cell& c : b.panel.cells)
      if (c.highlight == Highlight::conflict) c.highlight = Highlight::none;
  // An smem operand of wgmma is "held" by all 128 threads: list a few pairs, not all.
  for (std::int64_t m = 0; m < inv.rows; ++m)
    for (std::int64_t n = 0; n < inv.cols; ++n) {
      const auto& hits = inv.at(m, n);
      if (hits.size() <= kListedPairs) continue;
      Cell& c = b.panel.at(m, n);
      c.tooltip = "(" + std::to_string(m) + "," + std::to_string(n) + ") index " + std::to_string(tile.index(m, n));
      for (std::size_t i = 0; i < kListedPairs; ++i)
        c.tooltip += " thread " + std::to_string(hits[i].thread) + " value " + std::to_string(hits[i].value) + ";";
      c.tooltip += " ... (" + std::to_string(hits.size()) + " pairs in all)";
    }
  return b;
}

// The smem operand drawn as its tile: each cell the byte offset of its element in the
// buffer, coloured by 16-byte chunk (mod 8: its place in a 128-byte row, so a swizzle
// shows), with lines between core matrices (8 rows x 16 bytes). `kn`: drawn K x N (B).
Built smem_operand(const char* name, const SmemOperandTile& t, bool kn) {
  const std::int64_t T = 128 / t.atom.bits;
  const bool k_major = t.atom.major == GMMA::Major::K;
  Panel p(kn ? t.k : t.mn, kn ? t.mn : t.k);
  // Core matrices: K-major, 8 rows of MN by T elements (16 bytes) of K; MN-major, T of MN by 8 of K.
  const std::int64_t core_mn = k_major ? 8 : T, core_k = k_major ? T : 8;
  auto axis = [](Axis& a, std::int64_t n, std::int64_t core) {
    a.count = n;
    a.headers = index_headers(n);
    a.line_level = n % core == 0 && n > core
                       ? boundary_levels(ModeTree::tuple({ModeTree::leaf(core), ModeTree::leaf(n / core)}))
                       : boundary_levels(ModeTree::leaf(n));
  };
  axis(kn ? p.cols : p.rows, t.mn, core_mn);
  axis(kn ? p.rows : p.cols, t.k, core_k);
  const std::int64_t bytes_per_element = t.atom.bits / 8;
  for (std::int64_t mn = 0; mn < t.mn; ++mn)
    for (std::int64_t k = 0; k < t.k; ++k) {
      Cell& c = kn ? p.at(k, mn) : p.at(mn, k);
      const std::int64_t byte = t.byte_offset(mn, k);
      c.present = true;
      c.label = std::to_string(byte);
      c.offset = byte;
      c.bank = (byte / 4) % 32;
      c.chunk = byte / 16;
      c.tooltip = "(" + std::to_string(mn) + "," + std::to_string(k) + ") byte " + std::to_string(byte) + " (element " +
                  std::to_string(byte / bytes_per_element) + "), core matrix (" + std::to_string(mn / core_mn) + "," +
                  std::to_string(k / core_k) + "), 16-byte chunk " + std::to_string((byte / 16) % 8) +
                  " of its 128-byte row, bank " + std::to_string(c.bank);
    }
  p.natural_color = ColorBy::chunk;
  p.legend_name = name;
  p.offset_name = "shared-memory byte offset";
  p.chunk_name = "16-byte chunk of the smem address";
  p.title = std::string(name) + " in shared memory " + rt::to_string(t.buffer);
  return Built{std::move(p), 0, 0};
}

std::string smem_subtitle(const char* name, const char* mn, const SmemOperandTile& t, bool kn) {
  std::string s = std::string(name) + " (" + mn + ",K) = (" + std::to_string(t.mn) + "," + std::to_string(t.k) + ")";
  if (kn) s += ", drawn K x " + std::string(mn);
  return s + "; cell: byte offset in smem";
}

void smem_notes(Diagram& d, const char* name, const char* mn, const SmemOperandTile& t) {
  std::string n = std::string(name) + ": " + t.atom_name + " atoms tiled " + mn + " first to a (" +
                  std::to_string(t.buffer_mn) + "," + std::to_string(t.buffer_k) + ") smem buffer";
  if (t.buffer_k > t.k) n += "; drawn: its K 0-" + std::to_string(t.k - 1);
  d.notes.push_back(n);
  // One descriptor per instruction's block; a very large tiled MMA lists the first 32.
  constexpr std::size_t kListed = 32;
  for (std::size_t i = 0; i < t.blocks.size() && i < kListed; ++i) {
    const SmemOperandTile::Block& b = t.blocks[i];
    d.notes.push_back(std::string(name) + " desc " + mn + " " + range_text(b.mn0, t.block_mn) + ", K " +
                      range_text(b.k0, t.block_k) + ": " + describe_descriptor(t, b));
  }
  if (t.blocks.size() > kListed)
    d.notes.push_back("(" + std::to_string(t.blocks.size() - kListed) + " more " + name +
                      " descriptors, not listed: the start address moves with the block)");
}
}  // namespace

std::int64_t SmemOperandTile::byte_offset(std::int64_t m, std::int64_t kk) const {
  return buffer.at(rt::IntTuple::tuple({m, kk})) * atom.bits / 8;
}

SmemOperandTile smem_operand_tile(const analysis::GmmaAtomSpec& spec, std::int64_t mn, std::int64_t k,
                                  std::int64_t atom_mn, std::int64_t atom_k) {
  SmemOperandTile t;
  t.atom = spec;
  t.atom_name = analysis::gmma_atom_name(spec);
  t.mn = mn;
  t.k = k;
  t.block_mn = atom_mn;
  t.block_k = atom_k;
  rt::SwizzledLayout a;
  try {
    a = analysis::gmma_layout_atom(spec);
  } catch (const rt::Error& e) {
    throw Error(e.what());
  }
  const std::int64_t amn = a.layout.mode(0).size(), ak = a.layout.mode(1).size();
  if (mn <= 0 || k <= 0 || atom_mn <= 0 || atom_k <= 0 || mn % atom_mn != 0 || k % atom_k != 0)
    throw Error("an smem operand tile (" + std::to_string(mn) + "," + std::to_string(k) + ") is no whole number of (" +
                std::to_string(atom_mn) + "," + std::to_string(atom_k) + ") instruction blocks");
  if (mn % amn != 0)
    throw Error("the smem layout atom " + t.atom_name + " is " + std::to_string(amn) + " (MN) x " + std::to_string(ak) +
                " (K) elements: an operand of MN = " + std::to_string(mn) +
                " is no whole number of them (choose a narrower swizzle, or K-major)");
  // A K-major swizzled row may be wider than the operand's K: the buffer is a whole row,
  // and the operand its first k columns (k-block 0).
  t.buffer_mn = mn;
  t.buffer_k = (k + ak - 1) / ak * ak;
  // The atoms tiled to the buffer and coalesced per mode: GMMA::make_smem_layout's form (CuTe
  // 3.7's tile_to_shape), the smem layout the kernels use.
  const rt::IntTuple buffer_shape = rt::IntTuple::tuple({mn, t.buffer_k});
  t.buffer = rt::SwizzledLayout{a.swizzle, rt::coalesce(rt::tile_to_shape(a.layout, buffer_shape), buffer_shape), 0};
  for (std::int64_t k0 = 0; k0 < k; k0 += atom_k)
    for (std::int64_t mn0 = 0; mn0 < mn; mn0 += atom_mn) {
      SmemOperandTile::Block b;
      b.mn0 = mn0;
      b.k0 = k0;
      b.fields = GMMA::gmma_descriptor_fields(
          spec.major, spec.bits, a.swizzle.bits, a.swizzle.base, a.swizzle.shift, atom_mn, atom_k,
          [&](std::int64_t i, std::int64_t j) { return t.buffer.layout.at(rt::IntTuple::tuple({mn0 + i, k0 + j})); });
      if (b.fields.rule != GMMA::DescriptorRule::ok)
        throw Error("the block at (" + std::to_string(mn0) + "," + std::to_string(k0) + ") of the smem tile " +
                    rt::to_string(t.buffer) + " has no wgmma descriptor: " + GMMA::to_string(b.fields.rule));
      b.desc = GMMA::make_gmma_descriptor(b.fields, 0);
      t.blocks.push_back(b);
    }
  return t;
}

std::string describe_descriptor(const SmemOperandTile& t, const SmemOperandTile::Block& b) {
  const GMMA::DescriptorFields& f = b.fields;
  const bool lbo_unused = t.atom.major == GMMA::Major::K && f.type != GMMA::LayoutType::INTERLEAVE;
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%016" PRIx64, static_cast<std::uint64_t>(b.desc.desc));
  return "start " + std::to_string(b.desc.start_address() * 16) + " B, LBO " + std::to_string(f.lbo_bytes) + " B" +
         (lbo_unused ? " (unused)" : "") + ", SBO " + std::to_string(f.sbo_bytes) + " B, swizzle " +
         GMMA::to_string(f.type) + ", base offset " + std::to_string(b.desc.base_offset()) + " (" + hex + ")";
}


Diagram mma_diagram(const MmaTvLayouts& mma) {
  if (!mma.show_a && !mma.show_b && !mma.show_c) throw Error("an MMA diagram needs at least one of A, B and C");
  std::optional<SmemOperandTile> sa, sb;
  if (mma.a_smem && mma.show_a) sa = smem_operand_tile(*mma.a_smem, mma.m, mma.k, mma.atom_m, mma.atom_k);
  if (mma.b_smem && mma.show_b) sb = smem_operand_tile(*mma.b_smem, mma.n, mma.k, mma.atom_n, mma.atom_k);
  Built a = sa ? smem_operand("A", *sa, false)
               : operand("A", mma.a_tv, tile_of_shape(pair(mma.m, mma.k)), true, mma.thread_id, mma.atom_threads,
                         mma.warp_lanes);
  Built b = sb ? smem_operand("B", *sb, true)
               : operand("B", mma.b_tv, transposed(tile_of_shape(pair(mma.n, mma.k))), true, mma.thread_id,
                         mma.atom_threads, mma.warp_lanes);
  Built c = operand("C", mma.c_tv, tile_of_shape(pair(mma.m, mma.n)), false, mma.thread_id, mma.atom_threads,
                    mma.warp_lanes);
  a.panel.subtitle = sa ? smem_subtitle("A", "M", *sa, false)
                        : "A (M,K) = (" + std::to_string(mma.m) + "," + std::to_string(mma.k) + ")";
  b.panel.subtitle = sb ? smem_subtitle("B", "N", *sb, true)
                        : "B (N,K) = (" + std::to_string(mma.n) + "," + std::to_string(mma.k) + "), drawn K x N";
  c.panel.subtitle = "C (M,N) = (" + std::to_string(mma.m) + "," + std::to_string(mma.n) + ")";
  a.panel.legend_name = "A";
  b.panel.legend_name = "B";
  c.panel.legend_name = "C";
  // Register operands; an operand that is not drawn says nothing.
  const bool reg_a = mma.show_a && !sa, reg_b = mma.show_b && !sb, reg_c = mma.show_c;
  Diagram d;
  if (mma.show_a && mma.show_b && mma.show_c) {
    d = mma_arrangement(std::move(a.panel), std::move(b.panel), std::move(c.panel));
  } else {
    std::vector<Panel> shown;
    if (mma.show_a) shown.push_back(std::move(a.panel));
    if (mma.show_b) shown.push_back(std::move(b.panel));
    if (mma.show_c) shown.push_back(std::move(c.panel));
    d = side_by_side(std::move(shown));
  }
  d.title = mma.name;
  if (reg_a || reg_b || reg_c) {
    std::string names;
    for (auto [shown, n] : {std::pair{reg_a, "A"}, std::pair{reg_b, "B"}, std::pair{reg_c, "C"}})
      if (shown) names += (names.empty() ? "" : ", ") + std::string(n);
    d.notes.push_back(sa || sb ? names + " cells: thread T, value V holding it" : "cell: thread T, value V holding it");
  }
  if ((reg_a && a.repeated) || (reg_b && b.repeated))
    d.notes.push_back("A and B cells held by several threads (replicated across atoms) show the first; the tooltip lists all");
  const std::int64_t uncovered = (reg_a ? a.uncovered : 0) + (reg_b ? b.uncovered : 0) + (reg_c ? c.uncovered : 0);
  if (uncovered) d.notes.push_back(std::to_string(uncovered) + " cell(s) held by no thread: blank");
  if (reg_c && c.repeated) d.notes.push_back(std::to_string(c.repeated) + " C cell(s) held more than once: red outline");
  if (sa) smem_notes(d, "A", "M", *sa);
  if (sb) smem_notes(d, "B", "N", *sb);
  return d;
}

}  // namespace tessera::viz
