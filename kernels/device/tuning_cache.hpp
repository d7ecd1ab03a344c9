// The tuning cache: measured winners that override select_sm90's model, per problem, epilogue,
// device and tessera version, in a text file under the user's cache directory.
//
//   $XDG_CACHE_HOME/tessera/tuning.txt   (XDG_CACHE_HOME set and absolute)
//   $HOME/.cache/tessera/tuning.txt      (otherwise)
//
// Format (docs/scheduling.md): the first line is exactly "# tessera tuning cache, format 3";
// then one record per line, tab-separated key=value fields in this order:
//   version device m n k batch element element_b output a b rows scales c store epilogue
//   tile cluster scheduler [d] us crc
// (the key is version .. epilogue: TuningKey; the rest is the winner: TuningRecord). d=row
// (present only then) says the winner is the kernel built with a row-major D, run on the problem
// transposed from the key's (the key is the problem as a column-major D's kernels see it); a
// record without it names a column-major D's kernel.
// e.g. version=0.1.0 device=NVIDIA H200 m=512 n=4096 k=14336 batch=1 element=bf16
// element_b=bf16 output=bf16 a=row b=col rows=sectors scales=per-tensor c=none store=tma epilogue=identity
// tile=128x256x64 cluster=2x1 scheduler=stream-k us=41.5 crc=89abcdef, where crc is the CRC-32
// of the line before "\tcrc=". Lines starting with '#' are comments. A record is the winner for
// its key: a file holds one record per key.
// rows: "sectors" where every row of A and B starts on a 32-byte sector, "off-sectors" where
// one may not (sm90::operand_rows_off_sectors: the kernels without a cluster run slower then).
// Format 1 (without element_b, rows, scales, c and store) could not tell apart problems that
// run other kernels (e4m3 x e5m2 from e4m3 x e4m3, a C read or not, D stored by TMA or not), and
// format 2 (without rows) problems whose kernels run at other speeds relative to each other, so
// each of their records is ignored with a message, never read with a guessed meaning; a writer
// replaces such a file with a format-3 one holding its own record.
//
// Safety: writers take an exclusive flock on "<file>.lock", read the file, replace or add their
// record, write the whole file to a temporary beside it, fsync and rename it over the file, so
// readers (who take no lock) see the old file or the new one, never a partial record; no update
// is lost. Readers ignore, with a message naming the file and line, every line that does not
// parse or whose CRC differs, and a whole file whose first line is not the format's; a lookup
// ignores records of another device or tessera version (stale). Nothing here throws or exits.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "tessera/kernels/gemm_arguments.hpp"
#include "gemm_selection.hpp"

namespace tessera::kernels {

// The tessera version compiled into the cache's library (the project's version).
const char* tuning_cache_tessera_version();

// Whether the epilogue reads C (beta != 0): C's loads are a second stream of M x N elements, and
// the 16-bit kernels run a C-reading epilogue after the tile instead of under the next tile's
// k-tiles (sm90_configs.hpp), so the configurations' times move by different amounts.
enum class SourceC { None, Read };
// Whether the TMA-store epilogue takes D (and C where read): 16-byte aligned, with lds and batch
// strides of whole 16 bytes (sm90_epilogue_operands). Without it every kernel stores D directly,
// slower by a different amount per tile, and no kernel with a row-major D runs at all
// (row_major_considered): the set of configurations is smaller.
enum class StoreD { Tma, Direct };
const char* to_string(SourceC c);  // "none", "read"
const char* to_string(StoreD s);   // "tma", "direct"

// The problem a record is the winner for: every part of the arguments that changes which
// configurations the kernel list builds for them or how fast those run (tuning_problem,
// tuned_configs.hpp, derives it from GemmArguments; the comment there says what is left out).
struct TuningProblem {
  sm90::GemmShape shape;                    // M, N, K, batch, A's and D's element, majors (D column-major)
  Element element_b = Element::BF16;        // B's element: e4m3 x e5m2 is another kernel than e4m3 x e4m3
  ScaleMode scales = ScaleMode::PerTensor;  // FP8's scales: per-tensor, rowwise and block run other kernels
  SourceC c = SourceC::None;
  StoreD store = StoreD::Tma;
  std::string epilogue;  // epilogue_key(...)
  friend bool operator==(const TuningProblem&, const TuningProblem&) = default;
};

struct TuningKey {
  std::string version;  // tessera's version
  std::string device;   // the device's name (cudaDeviceProp::name)
  TuningProblem problem;
};

struct TuningRecord {
  TuningKey key;
  int tile_m = 0, tile_n = 0, tile_k = 0;
  ClusterShape cluster;
  Decomposition scheduler = Decomposition::DataParallel;
  Major d = Major::Col;     // the winner kernel's D major (Row: the key's problem transposed)
  double microseconds = 0;  // the winner's measured time
};

// The epilogue as the key spells it: "identity", or the activation and bias joined by '+'
// ("relu+bias_row"); D's type is in the shape, FP8's scale mode in its own field.
std::string epilogue_key(const EpilogueArguments& e);

// The default file (see above); empty when neither XDG_CACHE_HOME (absolute) nor HOME is set.
std::filesystem::path default_tuning_cache_path();

struct TuningCacheContents {
  bool exists = false;
  std::vector<TuningRecord> records;  // every well-formed record, any device or version
  std::vector<std::string> problems;  // "<file>:<line>: what; ignored", one per ignored line or file
                                      // (a format-1 file: one per record line)
};

TuningCacheContents read_tuning_cache(const std::filesystem::path& file);

struct TuningLookup {
  std::optional<TuningRecord> hit;
  int stale = 0;  // records of this problem for another device or version
};
TuningLookup find_tuning_record(const TuningCacheContents& cache, const TuningKey& key);

// Adds `record` to the file (replacing the record of its key), creating the folder and file as
// needed. Returns an empty string on success, else what went wrong (the file is then unchanged).
std::string write_tuning_record(const std::filesystem::path& file, const TuningRecord& record);

// The record as select_sm90's choice for `sms` SMs (on the key's shape, transposed for a
// row-major D's kernel); empty when it names no candidate that takes the problem (a record
// from another build's table: treated as stale).
std::optional<sm90::Sm90Choice> choice_from_record(const TuningRecord& r, int sms);

}  // namespace tessera::kernels
