// tessera: layout algebra on the command line (see `tessera --help`).
#include <iostream>
#include <string_view>

#include "atom_support.hpp"
#include "command_line.hpp"
#include "commands.hpp"
#include "standard_output.hpp"

#ifndef TESSERA_VERSION
#error "TESSERA_VERSION is defined by src/CMakeLists.txt from the CMake project version"
#endif

namespace {

// A bare `tessera` (no command): a few lines on standard error and status 2, the
// conventional status of a usage error, so that a script that forgot the command fails.
// (`tessera render` without EXPR is the default diagram: that is a command.)
int short_usage(const CLI::App& app) {
  std::string names;
  for (const CLI::App* c : app.get_subcommands({})) names += (names.empty() ? "" : " ") + c->get_name();
  std::cerr << "usage: tessera COMMAND [ARGS...]\n"
            << "commands: " << names << "\n"
            << "Run `tessera --help` for what each does, `tessera COMMAND --help` for its arguments.\n";
  return 2;
}

// The command's status, made an error when standard output could not be written.
int finish(int status) {
  return tessera::cli::report_standard_output_failure() ? tessera::cli::error_status() : status;
}

// The option's spellings ("-o", "--output"), found in the subcommand; else `name` alone.
std::vector<std::string> spellings(const CLI::App* sub, const std::string& name) {
  std::vector<std::string> names{name};
  if (!sub) return names;
  const CLI::Option* opt = sub->get_option_no_throw(name);
  if (!opt) return names;
  names.clear();
  for (const std::string& s : opt->get_snames()) names.push_back("-" + s);
  for (const std::string& l : opt->get_lnames()) names.push_back("--" + l);
  if (names.empty()) names.push_back(name);
  return names;
}

// A command line CLI11 could not read, said in tessera's words (CLI11's messages are built
// from fixed templates; the option name and value are taken back out of them), with the
// caret under the word at fault.
std::string parse_error_text(const CLI::App& app, const CLI::ParseError& e) {
  using namespace tessera::cli;
  const std::string cmd = command_name();
  const CLI::App* sub = nullptr;
  for (const CLI::App* c : app.get_subcommands({}))
    if (c->get_name() == cmd) sub = c;
  const std::string help = sub ? "see tessera " + cmd + " --help" : "see tessera --help";
  const std::string what = e.what();
  const std::size_t colon = what.find(": ");
  const std::string head = colon == std::string::npos ? what : what.substr(0, colon);
  const std::string tail = colon == std::string::npos ? "" : what.substr(colon + 2);
  if (dynamic_cast<const CLI::ExtrasError*>(&e)) {
    // The first of the words CLI11 did not take, in command-line order.
    std::size_t at = command_line().size();
    for (std::size_t b = 0; b <= tail.size();) {
      std::size_t end = tail.find(' ', b);
      if (end == std::string::npos) end = tail.size();
      if (const auto i = argument_word(tail.substr(b, end - b)); i && *i < at) at = *i;
      b = end + 1;
    }
    // CLI11 may report a piece of a word ("-q=1" as "-=1"): the word holding its last part.
    if (at == command_line().size()) {
      const std::string piece = tail.substr(tail.find_last_of("-=") == std::string::npos ? 0 : tail.find_last_of("-="));
      for (std::size_t i = command_line().size(); i-- > 1 && at == command_line().size();)
        if (!piece.empty() && command_line()[i].find(piece) != std::string::npos) at = i;
    }
    if (at == command_line().size()) return "error: cannot read the arguments " + tail + " (" + help + ")\n";
    const std::string& x = command_line()[at];
    if (!sub) {
      std::string names;
      for (const CLI::App* c : app.get_subcommands({})) names += (names.empty() ? "" : " ") + c->get_name();
      return command_line_error("unknown command '" + x + "' (commands: " + names + ")", at);
    }
    const bool is_option = x.size() > 1 && x[0] == '-' && !std::isdigit(static_cast<unsigned char>(x[1]));
    return command_line_error((is_option ? "unknown option '" : "unexpected argument '") + x + "' (" + help + ")", at);
  }
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e)) {
    // "NAME: 1 required N missing", "Expected exactly 1 arguments to NAME, got 0", ...
    std::string name = head;
    if (const std::size_t to = what.find(" arguments to "); to != std::string::npos) {
      name = what.substr(to + 14);
      name = name.substr(0, name.find(','));
    }
    // "NAME: At Most 1 required but received 2": the option given twice.
    if (what.find("At Most") != std::string::npos)
      return option_error(name + " is given more than once (" + help + ")", spellings(sub, name));
    return option_error(name + " needs a value (" + help + ")", spellings(sub, name));
  }
  if (dynamic_cast<const CLI::RequiredError*>(&e)) {
    const std::string name = what.substr(0, what.rfind(" is required"));
    return "error: missing " + name + " (" + help + ")\n";
  }
  if (dynamic_cast<const CLI::ConversionError*>(&e) && what.rfind("Could not convert: ", 0) == 0) {
    const std::string rest = what.substr(19);
    const std::size_t eq = rest.find(" = ");
    const std::string name = rest.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : rest.substr(eq + 3);
    return option_error(name + " does not take '" + value + "' (" + help + ")", spellings(sub, name));
  }
  if (dynamic_cast<const CLI::ValidationError*>(&e) || dynamic_cast<const CLI::ConversionError*>(&e))
    return option_error(head + ": " + tail + " (" + help + ")", spellings(sub, head));
  return "error: " + what + " (" + help + ")\n";
}

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);        // fast std::cin (eval reads expressions from it)
  tessera::cli::standard_output_buffer();  // std::cout keeps the reason of a failed write
  CLI::App app{
      "tessera: CuTe's layout algebra on the command line.\n"
      "Layouts are written shape:stride, e.g. (4,(2,2)):(2,(1,8)); see `tessera eval --help`.",
      "tessera"};
  app.require_subcommand(0, 1);
  app.set_version_flag("--version", "tessera " TESSERA_VERSION, "print tessera's version and exit");
  app.footer(
      "Examples:\n"
      "  tessera eval 'composition((4,2):(2,1), 8:1)'\n"
      "  tessera eval < expressions.txt\n"
      "  tessera info '(4,(2,2)):(2,(1,8))'\n"
      "  tessera render '(8,(2,4)):(2,(1,16))' -o layout.svg\n"
      "  tessera render -o sm80_c.pdf            # the built-in default diagram\n"
      "Run `tessera COMMAND --help` for a command's arguments, options and examples.\n\n"
      "Output files (-o FILE) are never destroyed: a file is replaced atomically (keeping its mode)\n"
      "or left untouched on error, a symbolic link is followed, a FIFO or character device is\n"
      "written through, a read-only file (no w bit) is refused; -o - is standard output.\n\n"
      "Exit status: 0 on success; 1 on any error (malformed or inadmissible expression, overflow,\n"
      "unwritable output or standard output, wrong command line), with a message starting `error:`\n"
      "on standard error; 2 when no command is given (a short usage on standard error). diff and\n"
      "verify answer with 0 (equal, verified) or 1 (differ, failed) and exit 2 on an error.\n");
  // `tessera eval` is what scripts run once per expression, where setting up every other
  // command's options took as long as evaluating thousands of expressions: then only eval is
  // registered. (Inside a command CLI11 never takes a word for another command, so nothing
  // it accepts or says changes.)
  if (argc >= 2 && std::string_view(argv[1]) == "eval") {
    tessera::cli::register_eval(app);
  } else {
    for (auto register_command : tessera::cli::commands) register_command(app);
  }
  tessera::cli::remember_command_line(argc, argv);
  try {
    app.parse(argc, argv);
  } catch (const CLI::RuntimeError& e) {
    return finish(e.get_exit_code());  // a command reported its own error (already printed)
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return finish(app.exit(e));  // --help, --version
    // A wrong command line is bad input like any other: `error:`, exit status 1 (2 for
    // diff and verify, whose 1 means "differ"/"failed").
    std::cerr << parse_error_text(app, e);
    return tessera::cli::error_status();
  } catch (const tessera::cli::Failure& f) {  // an option's validator (atom_support.hpp)
    std::cerr << tessera::cli::failure_text(f);
    return tessera::cli::error_status();
  } catch (const std::exception& e) {  // never a crash, e.g. std::bad_alloc
    std::cerr << "error: " << e.what() << "\n";
    return tessera::cli::error_status();
  }
  if (app.get_subcommands().empty()) return short_usage(app);
  return finish(0);
}
