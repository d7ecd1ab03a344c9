// The reports of the bank-conflict and coalescing analyses, as `tessera banks` and `tessera
// gmem` print them: the text, and the JSON document of `--json` (docs/json.md). Here, not in
// the CLI, so that the Python module returns the same reports to the letter.
#pragma once

#include <cstdint>
#include <string>

#include "tessera/analysis/banks.hpp"
#include "tessera/analysis/coalescing.hpp"
#include "tessera/analysis/memory_tile.hpp"
#include "tessera/analysis/tma_runtime.hpp"
#include "tessera/rt/eval.hpp"
#include "tessera/rt/json.hpp"

namespace tessera::analysis {

// Bounded work: the analyses keep counters per memory cell and walk every (thread,value) of
// every repeat of the copy tile; tiles and walks past this many cells are refused.
inline constexpr std::int64_t max_analysed_cells = std::int64_t{1} << 22;

// The memory tile as JSON {layout, rows, cols}; `layout` is the value it was made from (a
// layout or a swizzled layout).
rt::json::Value memory_json(const rt::Value& layout, const MemoryTile& tile);
// The access as JSON {text, tile, threads, vec, bytes}, and as the text line "access ...".
rt::json::Value access_json(const TvAccess& access, std::int64_t access_bytes);
std::string access_line(const TvAccess& access, std::int64_t access_bytes);

// `tessera banks` over `smem` (made from `layout`) with `bits`-bit elements: the text it prints,
// and its --json document; `summary_only` leaves the instructions out (--summary).
std::string banks_text(const SmemTile& smem, const BankAccess& access, int bits, const BankAnalysis& a,
                       bool summary_only);
rt::json::Value banks_json(const rt::Value& layout, const SmemTile& smem, const BankAccess& access, int bits,
                           const BankAnalysis& a, bool summary_only);

// `tessera gmem`, likewise (`a.base_bytes` is the tile's base address in bytes).
std::string gmem_text(const GmemTile& gmem, const GmemAccess& access, int bits, const CoalescingAnalysis& a,
                      bool summary_only);
rt::json::Value gmem_json(const rt::Value& layout, const GmemTile& gmem, const GmemAccess& access, int bits,
                          const CoalescingAnalysis& a, bool summary_only);

// `tessera tma`: the text it prints for arguments TMA accepts (the gmem and smem lines, then
// format_tma_arguments), its --json document, and the sentence that names the rule refusing
// them ("TMA cannot copy this: <rule> (mode m)"); tma_rule_is_gmem: the rule is about the
// global tensor (else about the smem tile).
std::string tma_text(const rt::Layout& gmem, const rt::SwizzledLayout& smem, int bits, const tma::Arguments& a);
rt::json::Value tma_json(const rt::Layout& gmem, const rt::SwizzledLayout& smem, int bits, const tma::Arguments& a);
std::string tma_refusal(const tma::Arguments& a);
bool tma_rule_is_gmem(tma::Rule r);

// x with two decimals, as the reports print ratios.
std::string fixed2(double x);

}  // namespace tessera::analysis
