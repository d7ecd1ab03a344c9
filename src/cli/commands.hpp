#pragma once
// One registration function per `tessera` subcommand, each defined in its own file
// (src/cli/<name>.cpp). main.cpp calls those whose files exist (see src/CMakeLists.txt:
// every src/cli/*.cpp defines TESSERA_CLI_HAS_<NAME> for main.cpp).
#include <CLI/CLI.hpp>

namespace tessera::cli {

void register_eval(CLI::App& app);    // eval.cpp:   evaluate expressions (DESIGN.md contract)
void register_info(CLI::App& app);    // info.cpp:   size, cosize, rank, depth, injective, ...
void register_render(CLI::App& app);  // render.cpp: diagrams (viz area)
void register_mma(CLI::App& app);     // mma.cpp
void register_copy(CLI::App& app);    // copy.cpp
void register_banks(CLI::App& app);   // banks.cpp
void register_list(CLI::App& app);    // list.cpp
void register_verify(CLI::App& app);  // verify.cpp

}  // namespace tessera::cli
