// tessera: layout algebra on the command line (see `tessera --help`).
#include <iostream>

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

// The command's status, made 1 when standard output could not be written.
int finish(int status) { return tessera::cli::report_standard_output_failure() ? 1 : status; }

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
      "on standard error; 2 when no command is given (a short usage on standard error).\n");
  for (auto register_command : tessera::cli::commands) register_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::RuntimeError& e) {
    return finish(e.get_exit_code());  // a command reported its own error (already printed)
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return finish(app.exit(e));  // --help, --version
    // A wrong command line is bad input like any other: `error:` and exit status 1.
    std::cerr << "error: " << e.what() << "\n(see `tessera --help` and `tessera COMMAND --help`)\n";
    return 1;
  } catch (const std::exception& e) {  // never a crash, e.g. std::bad_alloc
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  if (app.get_subcommands().empty()) return short_usage(app);
  return finish(0);
}
