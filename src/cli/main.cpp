// tessera: layout algebra on the command line (see `tessera --help`).
#include <iostream>

#include "commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{
      "tessera: CuTe's layout algebra on the command line.\n"
      "Layouts are written shape:stride, e.g. (4,(2,2)):(2,(1,8)); see `tessera eval --help`.",
      "tessera"};
  app.require_subcommand(0, 1);
  app.footer(
      "Examples:\n"
      "  tessera eval 'composition((4,2):(2,1), 8:1)'\n"
      "  tessera eval < expressions.txt\n"
      "  tessera info '(4,(2,2)):(2,(1,8))'\n"
      "  tessera render '(8,(2,4)):(2,(1,16))' -o layout.svg\n"
      "  tessera render -o sm80_c.pdf            # the built-in default diagram\n"
      "Run `tessera COMMAND --help` for a command's arguments, options and examples.\n\n"
      "Exit status: 0 on success; 1 on any error (malformed or inadmissible expression, overflow,\n"
      "unwritable output, wrong command line), with a message starting `error:` on standard error.\n");
  for (auto register_command : tessera::cli::commands) register_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::RuntimeError& e) {
    return e.get_exit_code();  // a command reported its own error (already printed)
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    // A wrong command line is bad input like any other: `error:` and exit status 1.
    std::cerr << "error: " << e.what() << "\n(see `tessera --help` and `tessera COMMAND --help`)\n";
    return 1;
  } catch (const std::exception& e) {  // never a crash, e.g. std::bad_alloc
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  if (app.get_subcommands().empty()) {
    std::cout << app.help();
    return 0;
  }
  return 0;
}
