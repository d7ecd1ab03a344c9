#pragma once
// The CLI's side of `--json`: the forms themselves live in the library (tessera/rt/json.hpp,
// tessera/analysis/report.hpp), shared with the Python module; here only the printing.
#include "tessera/rt/json.hpp"

namespace tessera::cli::json {

using namespace tessera::rt::json;

// Writes v to standard output followed by a newline: the whole output of a --json command.
void print(const Value& v);

}  // namespace tessera::cli::json
