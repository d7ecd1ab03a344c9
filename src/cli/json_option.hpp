#pragma once
// `--json` on a command: the flag, and the options it cannot be combined with (those that
// choose a drawing or another output form). Giving both is a command-line error,
// `error: --json excludes --output`, exit 1 (docs/json.md).
#include <string>

#include <CLI/CLI.hpp>

namespace tessera::cli {

// The options that choose a drawing or another output: --json excludes each one a command has.
inline constexpr const char* kNotWithJson[] = {"--output", "--format",  "--color-by",      "--heatmap",
                                               "--labels", "--force",   "--print-layouts", "--title"};

// Adds --json to `cmd` (after its other options, so that it finds them).
inline CLI::Option* add_json_flag(CLI::App* cmd, bool& flag, const std::string& help) {
  CLI::Option* json = cmd->add_flag("--json", flag, help);
  for (const char* name : kNotWithJson)
    if (CLI::Option* other = cmd->get_option_no_throw(name)) json->excludes(other);
  return json;
}

}  // namespace tessera::cli
