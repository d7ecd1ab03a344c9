#pragma once
// Partition traces and their verification (see notes: the trace format, fixed by the lead).
//
//   tessera-trace 1
//   kernel <free text>
//   map <NAME> <TILE> <TV>
//   rec <NAME> <THREAD> <VALUE> <ROW> <COL>
//
// A `map` line declares what a kernel should do: TV maps (thread, value) to the
// column-major index of a coordinate in the rank-2 TILE, so the expected coordinate of
// (t, v) is idx2crd(TV(t, v), TILE). A `rec` line says what the kernel did: thread t held
// (or moved) value v of map NAME, and it was element (ROW, COL) of the tile. Verification
// checks that every (t, v) of TV's domain is recorded exactly once, at its expected place.
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <vector>

#include "tessera/rt/error.hpp"
#include "tessera/rt/int_tuple.hpp"
#include "tessera/rt/layout.hpp"

namespace tessera::verify {

namespace rt = tessera::rt;

// An expected thread-value map. Valid maps (see check_map): TILE is a rank-2 tuple of
// positive extents (modes may be hierarchical: a mode's coordinate is its 1-D index),
// TV is a rank-2 layout ((threads),(values)) whose every value lies in [0, size(TILE)).
struct Map {
  std::string name;
  rt::IntTuple tile;
  rt::Layout tv;
};

// One observation. `line` is the source line it was parsed from (0: built in memory);
// it only serves messages and is not part of a record's identity (operator== skips it).
struct Record {
  std::string map;
  std::int64_t thread = 0, value = 0, row = 0, col = 0;
  std::size_t line = 0;
  friend bool operator==(const Record& a, const Record& b) {
    return a.map == b.map && a.thread == b.thread && a.value == b.value && a.row == b.row && a.col == b.col;
  }
};

struct Trace {
  std::string kernel;  // free text, one line; may be empty (no `kernel` line)
  std::vector<Map> maps;
  std::vector<Record> records;
};

// Limit on size(TV) of one map: verification keeps a byte per (thread, value), and the
// parser checks every TV value against the tile. 2^24 is far above any CTA's tile.
inline constexpr std::int64_t kMaxMapSize = std::int64_t{1} << 24;

// A malformed trace. what() is the whole diagnostic, ready for stderr:
//   "<file>:<line>:<col>: error: <message>\n  <the line>\n  <caret under col>\n"
// (line/col are 1-based; col counts bytes; 0 when the error has no position).
// It is an rt::Error (as parse errors of expressions are), with pos() == rt::npos.
class TraceError : public rt::Error {
 public:
  TraceError(std::string file, std::size_t line, std::size_t col, std::string message, std::string line_text);
  const std::string& file() const noexcept { return file_; }
  std::size_t line() const noexcept { return line_; }
  std::size_t column() const noexcept { return col_; }
  const std::string& message() const noexcept { return message_; }  // without position and caret

 private:
  std::string file_;
  std::size_t line_, col_;
  std::string message_;
};

// Parses a whole trace. `source_name` names the input in messages. Throws TraceError on
// any malformed input (bad header/version, unknown directive, bad or overflowing integer,
// bad TILE/TV text or shape, TV values outside the tile, duplicate map, rec before its map).
// A rec naming a map that is never declared is kept: verify reports it (unknown_map).
Trace parse_trace(std::istream& in, const std::string& source_name);
// Reads the file at `path` ("-": standard input). Throws TraceError (also when unreadable).
Trace read_trace_file(const std::string& path);

// Writes `t` in the format above; parse_trace(write_trace(t)) == t. Throws
// std::invalid_argument for what the format cannot hold: a map or record name that is
// empty or has whitespace, a kernel text with a line break, an invalid map (check_map).
void write_trace(std::ostream& out, const Trace& t);
std::string to_string(const Trace& t);

// Empty string when `m` is a valid map (rules at struct Map), else why not.
std::string check_map(const Map& m);
// Builds and checks a map; throws std::invalid_argument with check_map's reason.
Map make_map(std::string name, rt::IntTuple tile, rt::Layout tv);

struct Coord {
  std::int64_t row = 0, col = 0;
  friend bool operator==(const Coord&, const Coord&) = default;
};
// Number of threads (size of TV's mode 0) and of values per thread (size of mode 1).
std::int64_t num_threads(const Map& m);
std::int64_t num_values(const Map& m);
// idx2crd(TV(t, v), TILE) as (row, col): row = index mod M, col = index div M, M = size(TILE mode 0).
// Requires 0 <= t < num_threads, 0 <= v < num_values (std::out_of_range otherwise).
Coord expected_coord(const Map& m, std::int64_t thread, std::int64_t value);
// The records a correct kernel writes for `m`: one per (t, v), thread fastest.
std::vector<Record> expected_records(const Map& m);

struct Finding {
  enum Kind { mismatch, missing, duplicate, out_of_domain, unknown_map };
  Kind kind = mismatch;
  std::string map;
  std::int64_t thread = 0, value = 0;
  // -1 where there is none: no expected coordinate for a (t, v) outside TV's domain or an
  // unknown map; no observed one for a missing record.
  std::int64_t exp_row = -1, exp_col = -1, got_row = -1, got_col = -1;
  std::size_t line = 0;  // the record's source line (0: none or unknown)
  friend bool operator==(const Finding&, const Finding&) = default;
};

// Per map: `expected` = size(TV); `matched` = (t, v) recorded exactly once at the right place;
// `findings` counts all findings, `first` keeps the first max_findings_per_map of them
// (record findings in trace order, then missing (t, v) thread fastest).
struct MapReport {
  std::string map;
  std::int64_t expected = 0, matched = 0;
  std::vector<Finding> first;
  std::int64_t findings = 0;
};

// ok: at least one map, every map without findings and no record of an unknown map.
// `other` keeps the first max_findings_per_map unknown-map findings, `other_findings` counts them.
struct Report {
  bool ok = false;
  std::vector<MapReport> maps;
  std::vector<Finding> other;
  std::int64_t other_findings = 0;
};

// Linear in the number of records plus the maps' sizes. Maps must be valid (check_map;
// parse_trace guarantees it); throws std::invalid_argument otherwise.
Report verify(const Trace& t, std::size_t max_findings_per_map = 10);

// "map mma.C: 512/512 records match" or "map mma.C: 3 findings (first 3):" followed by one
// indented line per kept finding, e.g. "  mismatch thread 5 value 3: expected (1,6) got (1,7) (line 42)",
// then "OK" or "FAILED". Ends with a newline.
std::string format_report(const Report& r);
// One finding as in format_report, without indentation or newline.
std::string to_string(const Finding& f);
const char* kind_name(Finding::Kind k);  // "mismatch", "missing", "duplicate", "out of domain", "unknown map"

}  // namespace tessera::verify
