#pragma once
// The action every `tessera` subcommand that draws (render, verify, mma, copy, banks) ends
// with: unknown options and extra arguments are errors, --json with a drawing option is one
// (json_option.hpp), the command's failures print
// `error: ...` (cli::guarded: with a caret when located), and a non-zero status ends
// tessera with it. Failures, -f/-o output targets and atomic files come from
// atom/cli_support.hpp, shared by all of them.
#include <iostream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "atom_support.hpp"
#include "json_option.hpp"

namespace tessera::cli {

// For a command whose messages say what it takes: the first extra argument is reported as
// `error: unexpected argument 'x' (TAKES; see tessera NAME --help)`, or `unknown option`
// when it starts with '-' (a '-' before a digit too unless `dash_digit_is_argument`).
inline auto reject_extras_saying(std::string takes, bool dash_digit_is_argument) {
  return [takes = std::move(takes), dash_digit_is_argument](CLI::App* cmd) {
    const std::vector<std::string> extra = cmd->remaining();
    if (extra.empty()) return;
    const std::string& x = extra.front();
    const bool is_option = x.size() > 1 && x[0] == '-' && !(dash_digit_is_argument && x[1] >= '0' && x[1] <= '9');
    const std::string message = (is_option ? "unknown option '" : "unexpected argument '") + x + "' (" + takes +
                                "; see tessera " + cmd->get_name() + " --help)";
    const auto at = argument_word(x);
    std::cerr << (at ? command_line_error(message, *at) : "error: " + message + "\n");
    throw CLI::RuntimeError(error_status(cmd->get_name()));
  };
}

// `run` returns nothing (status 0) or the exit status; `reject_extras(cmd)` reports what
// the subcommand does not take (by throwing CLI::RuntimeError).
template <class Run, class RejectExtras = void (*)(CLI::App*)>
void set_action(CLI::App* cmd, Run run, RejectExtras reject_extras = cli::reject_extras) {
  cmd->allow_extras();
  cmd->callback([cmd, run, reject_extras] {
    reject_extras(cmd);
    int status = 0;
    const int rc = cli::guarded([&] {
      check_json_alone(cmd);
      if constexpr (std::is_void_v<decltype(run())>) run();
      else status = run();
    });
    if (rc != 0 || status != 0) throw CLI::RuntimeError(rc != 0 ? error_status(cmd->get_name()) : status);
  });
}

}  // namespace tessera::cli
