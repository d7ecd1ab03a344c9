#pragma once
// `--json` on a command: the flag, and the options it cannot be combined with (those that
// choose a drawing or another output form). Giving both is an error before anything runs:
// `error: --json prints JSON on standard output; it cannot be combined with --output`,
// exit 1, nothing written (docs/json.md). set_action (action.hpp) calls check_json_alone.
#include <string>

#include <CLI/CLI.hpp>

#include "atom_support.hpp"

namespace tessera::cli {

// The options that choose a drawing or another output.
inline constexpr const char* kNotWithJson[] = {"--output", "--format", "--color-by",      "--heatmap", "--labels",
                                               "--force",  "--title",  "--print-layouts", "--only",    "--smem-layout"};

// Adds --json to `cmd`.
inline CLI::Option* add_json_flag(CLI::App* cmd, bool& flag, const std::string& help) {
  return cmd->add_flag("--json", flag, help);
}

// Fails when `cmd` was given --json together with one of kNotWithJson.
inline void check_json_alone(const CLI::App* cmd) {
  const CLI::Option* json = cmd->get_option_no_throw("--json");
  if (!json || json->count() == 0) return;
  for (const char* name : kNotWithJson)
    if (const CLI::Option* other = cmd->get_option_no_throw(name); other && other->count() > 0) {
      std::vector<std::string> spellings;
      for (const std::string& s : other->get_snames()) spellings.push_back("-" + s);
      for (const std::string& l : other->get_lnames()) spellings.push_back("--" + l);
      fail_option(spellings, std::string("--json prints JSON on standard output; it cannot be combined with ") + name);
    }
}

}  // namespace tessera::cli
