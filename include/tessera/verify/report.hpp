// A verification as `tessera verify` reports it: the map it looks at (with --map, that map
// alone counts) and its --json document (docs/json.md). Here, beside the verifier, so that the
// CLI and the Python module report the same verification.
#pragma once

#include <string>

#include "tessera/rt/json.hpp"
#include "tessera/verify/trace.hpp"

namespace tessera::verify {

// With `map` named: keeps that map's report alone (its findings decide `ok`; other findings
// are dropped) and returns it; throws rt::Error naming the trace's maps when it has none of
// that name. Without: the first map with findings, else the first map, else nullptr. The
// returned map is the one a diff drawing shows.
const Map* focus(const Trace& t, Report& r, const std::string& map, const std::string& trace_name);

// {"command":"verify", "trace": trace_name, "kernel", "ok", "maps", "other", "other_findings"}.
rt::json::Value report_json(const std::string& trace_name, const Trace& t, const Report& r);
rt::json::Value finding_json(const Finding& f);

// The text `tessera verify` prints: the kernel line, then format_report.
std::string report_text(const Trace& t, const Report& r);

}  // namespace tessera::verify
