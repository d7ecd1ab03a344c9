#include "tessera/analysis/banks.hpp"

#include <algorithm>

#include "tessera/rt/error.hpp"
#include "tessera/rt/eval.hpp"

namespace tessera::analysis {

BankAccess access_of_copy(const rt::TiledCopy& copy, bool source) {
  const rt::Layout& side = source ? copy.atom.src : copy.atom.dst;
  const rt::Layout& tv = source ? copy.layout_s_tv : copy.layout_d_tv;
  BankAccess a;
  a.text = copy.atom.atom->name + (source ? " source" : " destination");
  a.tv = tv;
  a.tile_m = rt::product(copy.tiler[0]);
  a.tile_n = copy.tiler.rank() > 1 ? rt::product(copy.tiler[1]) : 1;
  a.vec = int(side.mode(1).size());
  // Lanes whose atom address repeats an earlier lane's (ldmatrix .x1/.x2) supply none.
  const std::int64_t atom_thr = side.mode(0).size();
  std::vector<bool> lane_active(std::size_t(atom_thr), true);
  for (std::int64_t l = 0; l < atom_thr; ++l)
    for (std::int64_t k = 0; k < l; ++k)
      if (side(k) == side(l)) lane_active[std::size_t(l)] = false;
  a.active = [lane_active, atom_thr](std::int64_t t) { return bool(lane_active[std::size_t(t % atom_thr)]); };
  return a;
}

BankAnalysis analyze_banks(const SmemTile& smem, const BankAccess& access, int element_bits) {
  analysis::AccessShape s;
  s.threads = access.tv.mode(0).size();
  s.values = access.tv.mode(1).size();
  s.vec = access.vec;
  s.element_bits = element_bits;
  s.tile_m = access.tile_m;
  s.tile_n = access.tile_n;
  s.smem_m = smem.rows();
  s.smem_n = smem.cols();
  if (element_bits <= 0 || element_bits % 8 != 0 || element_bits > 128)
    throw rt::Error("--bits must be a multiple of 8 up to 128, not " + std::to_string(element_bits));
  const std::int64_t bytes = std::int64_t(access.vec) * element_bits / 8;
  if (analysis::threads_per_phase(int(std::min<std::int64_t>(bytes, 64))) == 0 || bytes > 16)
    throw rt::Error("one access moves " + std::to_string(access.vec) + " x " + std::to_string(element_bits) +
                    " bits = " + std::to_string(bytes) + " bytes; shared memory accesses are 1, 2, 4, 8 or 16 bytes");
  if (s.values % s.vec != 0)
    throw rt::Error("each thread holds " + std::to_string(s.values) + " values, not a multiple of " +
                    std::to_string(s.vec) + " per access");
  if (s.smem_m % s.tile_m != 0 || s.smem_n % s.tile_n != 0)
    throw rt::Error("the shared-memory tile " + smem.text + " is " + std::to_string(s.smem_m) + "x" +
                    std::to_string(s.smem_n) + ", not a whole number of " + std::to_string(s.tile_m) + "x" +
                    std::to_string(s.tile_n) + " copy tiles");
  const std::int64_t nt = s.threads;
  auto tv = [&](std::int64_t t, std::int64_t v) { return access.tv(t + nt * v); };
  auto active = [&](std::int64_t t) { return !access.active || access.active(t); };
  BankAnalysis out;
  out.cell_degree.assign(std::size_t(s.smem_m * s.smem_n), 0);
  const std::int64_t reps_m = s.smem_m / s.tile_m;
  auto on_instruction = [&](const analysis::InstructionInfo& info, const analysis::AccessReport& r) {
    out.instructions.push_back({info, r});
    const std::int64_t base_m = (info.tile % reps_m) * s.tile_m, base_n = (info.tile / reps_m) * s.tile_n;
    const int per_phase = analysis::threads_per_phase(r.access_bytes);
    for (int l = 0; l < r.phase[r.num_phases - 1].first_thread + r.phase[r.num_phases - 1].num_threads; ++l) {
      const std::int64_t t = info.first_thread + l;
      if (!active(t)) continue;
      for (int j = 0; j < s.vec; ++j) {
        const std::int64_t x = tv(t, info.step * s.vec + j);
        const std::int64_t m = base_m + x % s.tile_m, n = base_n + x / s.tile_m;
        const std::int64_t bank = (smem.offset(m + s.smem_m * n) * element_bits / 8 / analysis::bank_bytes) % analysis::num_banks;
        int& d = out.cell_degree[std::size_t(m * s.smem_n + n)];
        d = std::max(d, r.phase[l / per_phase].degree[bank]);
      }
    }
  };
  out.summary = analysis::analyze_tv_banks(s, tv, [&](std::int64_t i) { return smem.offset(i); }, active, on_instruction);
  const auto& sum = out.summary;
  if (!sum.ok()) {
    std::string where;
    if (sum.error_thread >= 0)
      where = " (thread " + std::to_string(sum.error_thread) +
              (sum.error_value >= 0 ? ", value " + std::to_string(sum.error_value) : std::string()) + ")";
    std::string msg = std::string(analysis::to_string(sum.error)) + where;
    if (sum.error == analysis::BankError::outside_tile)
      msg += ": the copy tile is " + std::to_string(s.tile_m) + "x" + std::to_string(s.tile_n);
    if (sum.error == analysis::BankError::not_contiguous)
      msg += ": a " + std::to_string(s.vec) + "-element access needs consecutive offsets (try a smaller --vec)";
    throw rt::Error(msg);
  }
  return out;
}

}  // namespace tessera::analysis
