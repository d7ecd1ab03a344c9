// `tessera verify`: check a kernel's partition trace against the TV maps it declares.
#include <cstdint>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "action.hpp"
#include "commands.hpp"
#include "json.hpp"
#include "json_option.hpp"
#include "tessera/verify/diagram.hpp"
#include "tessera/verify/report.hpp"
#include "tessera/verify/trace.hpp"
#include "tessera/viz/output.hpp"

namespace tessera::cli {

namespace {

struct VerifyOptions {
  std::string trace;
  std::string max = "10";
  std::string map;
  std::string output;
  std::string format;
  bool json = false;
  std::string color_by;
};

using cli::fail;
using cli::Target;

// The diagram's destination (none without -o), checked before the trace is read so that
// option mistakes cost nothing and leave nothing behind. -o - prints the diagram after the
// report, so it needs -f to say the format.
std::optional<Target> resolve_target(const VerifyOptions& o) {
  if (o.output.empty()) {
    if (!o.format.empty()) fail("-f " + o.format + " needs -o FILE: the format is that of the diagram");
    return std::nullopt;
  }
  if (o.output == "-" && o.format.empty()) fail("-o - needs -f txt|svg|tex to say the format");
  return cli::resolve_target(o.format, o.output);
}

// --max N: a decimal count (CLI11's conversion errors would exit with its own codes).
std::size_t parse_max(const std::string& s) {
  std::size_t v = 0;
  if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos)
    fail_option("--max", "--max takes a count from 0 to 999999999, not '" + s + "'");
  for (char c : s) v = v * 10 + static_cast<std::size_t>(c - '0');
  return v;
}

int run(const VerifyOptions& o) {
  try {  // (other failures: see set_action)
    if (o.trace.empty()) fail("give the TRACE file to verify (- for standard input); see tessera verify --help");
    const std::size_t max = parse_max(o.max);
    const std::optional<Target> target = resolve_target(o);
    if (!o.color_by.empty() && !target) fail("--color-by needs -o FILE: it colours the diagram");
    const viz::ColorBy color_by = color_by_arg(o.color_by);
    const verify::Trace trace = verify::read_trace_file(o.trace);

    verify::Report report = verify::verify(trace, max);
    const verify::Map* chosen = nullptr;
    try {
      chosen = verify::focus(trace, report, o.map, o.trace);
    } catch (const rt::Error& e) {
      fail(e.what());
    }

    if (o.json) {
      json::print(verify::report_json(o.trace, trace, report));
      check_standard_output();
      return report.ok ? 0 : 1;
    }
    // The report first: it stands even when the diagram cannot be drawn or written.
    std::cout << verify::report_text(trace, report) << std::flush;
    if (target) {
      if (!chosen) fail("the trace declares no map: there is nothing to draw");
      viz::Diagram d = verify::diff_diagram(trace, *chosen);
      recolor(d, color_by, o.color_by);
      if (target->path) viz::render_to_file(d, target->format, *target->path);
      else std::cout << viz::render_text(d, target->format) << std::flush;
    }
    check_standard_output();
    return report.ok ? 0 : 1;
  } catch (const verify::TraceError& e) {  // already says file:line:col, with a caret
    std::cerr << e.what();
    return error_status("verify");
  }
}

}  // namespace

void register_verify(CLI::App& app) {
  auto o = std::make_shared<VerifyOptions>();
  CLI::App* cmd = app.add_subcommand(
      "verify",
      "Check a kernel's partition trace: every (thread, value) of each declared TV map must be\n"
      "recorded exactly once, at the coordinate the map gives it. Prints one line per map and one\n"
      "per finding (mismatch, missing, duplicate, out of domain, unknown map), then OK or FAILED.\n"
      "Trace format (one item a line, # starts a comment line):\n"
      "  tessera-trace 1\n"
      "  kernel <free text>\n"
      "  map <NAME> <TILE> <TV>                  e.g. map mma.C (16,8) ((4,8),(2,2)):((32,1),(16,8))\n"
      "  rec <NAME> <THREAD> <VALUE> <ROW> <COL> thread THREAD held value VALUE = element (ROW,COL)\n"
      "TV maps (thread, value) to the column-major index of a coordinate of TILE, so the expected\n"
      "coordinate of (t,v) is idx2crd(TV(t,v), TILE).");
  cmd->add_option("TRACE", o->trace, "the trace file (- reads standard input)");
  cmd->add_option("--max", o->max, "findings listed per map (all are counted; default 10)")->type_name("N");
  cmd->add_option("--map", o->map,
                  "verify and report only map NAME (the exit status follows it alone); the diagram\n"
                  "draws it")
      ->type_name("NAME");
  cmd->add_option("-o,--output", o->output,
                  "also draw the expected and observed tiles of one map side by side, mismatching\n"
                  "cells in red: the --map, else the first failing map, else the first map. Written\n"
                  "atomically, also when findings exist; nothing is written on bad input. -o - with\n"
                  "-f txt|svg|tex prints the diagram after the report")
      ->check(output_file_name())
      ->type_name("FILE");
  cmd->add_option("-f,--format", o->format, "svg, png, pdf, tex (standalone TikZ) or txt; default: from -o's extension")
      ->type_name("FORMAT");
  add_json_flag(cmd, o->json,
                "print the report as one JSON object (docs/json.md): {\"command\": \"verify\",\n"
                "\"schema_version\": 1, \"trace\", \"kernel\", \"ok\", \"maps\": [{map, expected, matched,\n"
                "findings, first: [finding]}], \"other\": [finding], \"other_findings\"}, a finding being\n"
                "{kind, map, thread, value, expected: [row,col], got: [row,col], line, text}; the exit\n"
                "status is the verdict's, as without --json; no diagram");
  add_color_by(cmd, o->color_by);
  cmd->footer(
      "Examples:\n"
      "  tessera verify gemm.trace                       # report; exit 0 when every map verifies\n"
      "  tessera verify gemm.trace --json                # the same report as JSON\n"
      "  tessera verify gemm.trace --max 100 -o diff.svg # and draw the first failing map\n"
      "  tessera verify gemm.trace --map mma.C -o c.png  # only map mma.C, drawn as PNG\n"
      "  tessera verify gemm.trace -o d.svg --color-by value  # cells coloured by value, not thread\n"
      "  kernel_test --trace | tessera verify -          # trace from standard input\n"
      "Output:\n"
      "  map mma.A: 8192/8192 records match\n"
      "  map mma.C: 2 findings (first 2):\n"
      "    mismatch thread 5 value 3: expected (9,3) got (10,3) (line 105)\n"
      "    missing thread 7 value 1: expected (1,7), never recorded\n"
      "  FAILED\n"
      "Exit status (for scripts): 0 when every map verifies; 1 on any finding (FAILED); 2 on an\n"
      "error: bad input (file:line:col with a caret on stderr), a wrong command line, an\n"
      "unwritable output (no diagram written).");
  set_action(cmd, [o] { return run(*o); },
             reject_extras_saying("verify takes one TRACE", /*dash_digit_is_argument=*/false));
}

}  // namespace tessera::cli
