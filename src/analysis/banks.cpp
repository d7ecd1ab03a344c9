#include "tessera/analysis/banks.hpp"

#include <algorithm>

#include "tessera/rt/error.hpp"
#include "tessera/rt/eval.hpp"

namespace tessera::analysis {

BankAnalysis analyze_banks(const SmemTile& smem, const BankAccess& access, int element_bits) {
  if (element_bits <= 0 || element_bits % 8 != 0 || element_bits > 128)
    throw rt::Error("--bits must be a multiple of 8 up to 128, not " + std::to_string(element_bits));
  const std::int64_t bytes = std::int64_t(access.vec) * element_bits / 8;
  if (analysis::threads_per_phase(int(std::min<std::int64_t>(bytes, 64))) == 0 || bytes > 16)
    throw rt::Error("one access moves " + std::to_string(access.vec) + " x " + std::to_string(element_bits) +
                    " bits = " + std::to_string(bytes) + " bytes; shared memory accesses are 1, 2, 4, 8 or 16 bytes");
  check_access_fits(smem, access, "shared-memory");
  const analysis::AccessShape s = access_shape(smem, access, element_bits);
  const std::int64_t nt = s.threads;
  auto tv = [&](std::int64_t t, std::int64_t v) { return access.tv(t + nt * v); };
  auto active = [&](std::int64_t t) { return !access.active || access.active(t); };
  BankAnalysis out;
  const std::size_t cells = std::size_t(s.memory_m * s.memory_n);
  out.cell_degree.assign(cells, 0);
  out.cell_thread.assign(cells, -1);
  out.cell_value.assign(cells, -1);
  out.cell_bank_threads.assign(cells, {});
  auto on_instruction = [&](const analysis::InstructionInfo& info, const analysis::AccessReport& r) {
    out.instructions.push_back({info, r});
    const int per_phase = analysis::threads_per_phase(r.access_bytes);
    const int lanes = r.phase[r.num_phases - 1].first_thread + r.phase[r.num_phases - 1].num_threads;
    struct Touch {
      std::size_t cell;
      std::int64_t thread, value, bank;
      int phase;
    };
    std::vector<Touch> touches;
    // [phase][bank]: the threads whose accesses reach the bank in that phase, in lane order.
    std::vector<std::vector<std::vector<std::int64_t>>> by_bank(
        std::size_t(r.num_phases), std::vector<std::vector<std::int64_t>>(analysis::num_banks));
    for (int l = 0; l < lanes; ++l) {
      const std::int64_t t = info.first_thread + l;
      if (!active(t)) continue;
      for (int j = 0; j < s.vec; ++j) {
        const std::int64_t v = info.step * s.vec + j, x = tv(t, v);
        const std::int64_t m = s.row(info.tile, x), n = s.col(info.tile, x);
        const std::int64_t bank = (smem.offset(m + s.memory_m * n) * element_bits / 8 / analysis::bank_bytes) % analysis::num_banks;
        const std::size_t c = std::size_t(m * s.memory_n + n);
        int& d = out.cell_degree[c];
        d = std::max(d, r.phase[l / per_phase].degree[bank]);
        auto& who = by_bank[std::size_t(l / per_phase)][std::size_t(bank)];
        if (who.empty() || who.back() != t) who.push_back(t);
        touches.push_back({c, t, v, bank, l / per_phase});
      }
    }
    for (const Touch& k : touches)
      if (out.cell_thread[k.cell] < 0) {
        out.cell_thread[k.cell] = k.thread;
        out.cell_value[k.cell] = k.value;
        out.cell_bank_threads[k.cell] = by_bank[std::size_t(k.phase)][std::size_t(k.bank)];
      }
  };
  out.summary = analysis::analyze_tv_banks(s, tv, [&](std::int64_t i) { return smem.offset(i); }, active, on_instruction);
  const auto& sum = out.summary;
  if (!sum.ok()) {
    std::string msg = std::string(analysis::to_string(sum.error)) + at_thread_value(sum.error_thread, sum.error_value);
    if (sum.error == analysis::BankError::outside_tile)
      msg += ": the copy tile is " + std::to_string(s.tile_m) + "x" + std::to_string(s.tile_n);
    if (sum.error == analysis::BankError::not_contiguous)
      msg += ": a " + std::to_string(s.vec) + "-element access needs consecutive offsets (try a smaller --vec)";
    throw rt::Error(msg);
  }
  return out;
}

}  // namespace tessera::analysis
