// The tuning cache: measured winners that override select_sm90's model, per problem, epilogue,
// device and tessera version, in a text file under the user's cache directory.
//
//   $XDG_CACHE_HOME/tessera/tuning.txt   (XDG_CACHE_HOME set and absolute)
//   $HOME/.cache/tessera/tuning.txt      (otherwise)
//
// Format (docs/scheduling.md): the first line is exactly "# tessera tuning cache, format 1";
// then one record per line, tab-separated key=value fields in this order:
//   version device m n k batch element output a b epilogue tile cluster scheduler [d] us crc
// where d=row (present only then) says the winner is the kernel built with a row-major D, run
// on the problem transposed from the key's (the key is the problem as a column-major D's
// kernels see it); a record without it names a column-major D's kernel, as every record did
// before, so older files read unchanged.
// e.g. version=0.1.0 device=NVIDIA H200 m=512 n=4096 k=14336 batch=1 element=bf16 output=bf16
// a=row b=col epilogue=identity tile=128x256x64 cluster=2x1 scheduler=stream-k us=41.5
// crc=89abcdef, where crc is the CRC-32 of the line before "\tcrc=". Lines starting with '#'
// are comments. A record is the winner for its key (version .. epilogue): a file holds one
// record per key.
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

struct TuningKey {
  std::string version;  // tessera's version
  std::string device;   // the device's name (cudaDeviceProp::name)
  sm90::GemmShape shape;
  std::string epilogue;  // epilogue_key(...)
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
// ("relu+bias_row"); D's type is in the shape.
std::string epilogue_key(const EpilogueArguments& e);

// The default file (see above); empty when neither XDG_CACHE_HOME (absolute) nor HOME is set.
std::filesystem::path default_tuning_cache_path();

struct TuningCacheContents {
  bool exists = false;
  std::vector<TuningRecord> records;  // every well-formed record, any device or version
  std::vector<std::string> problems;  // "<file>:<line>: what; ignored", one per ignored line or file
};

TuningCacheContents read_tuning_cache(const std::filesystem::path& file);

struct TuningLookup {
  std::optional<TuningRecord> hit;
  int stale = 0;  // records of this problem and epilogue for another device or version
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
