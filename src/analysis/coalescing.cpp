#include "tessera/analysis/coalescing.hpp"

#include "tessera/rt/checked.hpp"
#include "tessera/rt/error.hpp"
#include "tessera/rt/eval.hpp"

namespace tessera::analysis {

GmemAccess gmem_access_of_copy(const rt::TiledCopy& copy, bool source) {
  const rt::CopyAtomInfo& atom = *copy.atom.atom;
  // ldmatrix moves shared memory to registers; cp.async reads global memory (its source) and
  // writes shared memory; a universal copy can be either.
  if (atom.smem_side == "none")
    throw rt::Error(atom.name + " moves tensor memory and registers: it has no global-memory side");
  if (atom.smem_side == "src")
    throw rt::Error(atom.name + " reads shared memory into registers: it has no global-memory side");
  if (atom.smem_side == "dst" && !source)
    throw rt::Error(atom.name + " writes shared memory: its global-memory side is the source (--side src)");
  return access_of_copy_side(copy, source);
}

CoalescingAnalysis analyze_coalescing(const GmemTile& gmem, const GmemAccess& access, int element_bits,
                                      std::int64_t base_bytes) {
  if (element_bits <= 0 || element_bits % 8 != 0 || element_bits > 128)
    throw rt::Error("--bits must be a multiple of 8 up to 128, not " + std::to_string(element_bits));
  if (access.vec < 1) throw rt::Error("the access moves " + std::to_string(access.vec) + " values: at least 1");
  const std::int64_t bytes = rt::checked_mul(access.vec, element_bits / 8, "access width");
  if (!detail::is_access_width(bytes))
    throw rt::Error("one access moves " + std::to_string(access.vec) + " x " + std::to_string(element_bits) +
                    " bits = " + std::to_string(bytes) + " bytes; global memory accesses are 1, 2, 4, 8 or 16 bytes");
  check_access_fits(gmem, access, "global-memory");
  const GmemAccessShape s{access_shape(gmem, access, element_bits), base_bytes};
  const std::int64_t nt = s.threads;
  auto tv = [&](std::int64_t t, std::int64_t v) { return access.tv(t + nt * v); };
  auto active = [&](std::int64_t t) { return !access.active || access.active(t); };
  CoalescingAnalysis out;
  out.base_bytes = base_bytes;
  const std::size_t cells = std::size_t(rt::checked_mul(s.memory_m, s.memory_n, "cell count"));
  out.cell_accesses.assign(cells, 0);
  out.cell_excess.assign(cells, false);
  out.cell_thread.assign(cells, -1);
  out.cell_value.assign(cells, -1);
  auto on_instruction = [&](const GmemInstruction& info, const WarpSectors& w) {
    GmemInstructionReport rep;
    rep.info = info;
    rep.num_threads = w.num_threads;
    rep.active_threads = w.active_threads;
    rep.requested_bytes = w.requested_bytes;
    rep.min_sectors = w.min_sectors();
    rep.min_lines = w.min_lines();
    rep.sectors.assign(w.sectors.index, w.sectors.index + w.sectors.count);
    rep.sector_used.assign(w.sectors.used, w.sectors.used + w.sectors.count);
    rep.lines.assign(w.lines.index, w.lines.index + w.lines.count);
    rep.excess_lanes = w.excess_lanes;
    out.instructions.push_back(std::move(rep));
    for (int l = 0; l < w.num_threads; ++l) {
      const std::int64_t t = info.first_thread + l;
      if (!active(t)) continue;
      for (int j = 0; j < s.vec; ++j) {
        const std::int64_t v = info.step * s.vec + j, x = tv(t, v);
        const std::size_t c = std::size_t(s.row(info.tile, x) * s.memory_n + s.col(info.tile, x));
        ++out.cell_accesses[c];
        if (w.excess_lanes >> l & 1u) out.cell_excess[c] = true;
        if (out.cell_thread[c] < 0) {
          out.cell_thread[c] = t;
          out.cell_value[c] = v;
        }
      }
    }
  };
  out.summary = analyze_tv_coalescing(s, tv, [&](std::int64_t i) { return gmem.offset(i); }, active, on_instruction);
  const auto& sum = out.summary;
  if (!sum.ok()) {
    const std::string where = at_thread_value(sum.error_thread, sum.error_value);
    std::string msg = std::string(to_string(sum.error)) + where;
    if (sum.error == GmemError::outside_tile)
      msg += ": the copy tile is " + std::to_string(s.tile_m) + "x" + std::to_string(s.tile_n);
    if (sum.error == GmemError::not_contiguous)
      msg += ": a vector of " + std::to_string(s.vec) +
             " elements needs consecutive offsets (a narrower access: a smaller --vec, or a narrower copy atom)";
    if (sum.error == GmemError::misaligned)
      msg += ": a " + std::to_string(bytes) + "-byte access needs an address that is a multiple of " +
             std::to_string(bytes) + " (check --base, or use a narrower access)";
    if (sum.error == GmemError::address_overflow)
      throw rt::OverflowError("integer overflow in the byte address = offset * " + std::to_string(element_bits / 8) +
                              " + base " + std::to_string(base_bytes) + where);
    throw rt::Error(msg);
  }
  return out;
}

}  // namespace tessera::analysis
