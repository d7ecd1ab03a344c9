#pragma once
// One registration function per `tessera` subcommand, each defined in its own file
// (src/cli/<name>.cpp); main.cpp registers every entry of `commands`.
#include <CLI/CLI.hpp>

namespace tessera::cli {

void register_eval(CLI::App& app);    // eval.cpp:   evaluate expressions (docs/notation.md contract)
void register_info(CLI::App& app);    // info.cpp:   size, cosize, rank, depth, injective, ...
void register_render(CLI::App& app);  // render.cpp: diagrams (viz area)
void register_mma(CLI::App& app);     // mma.cpp
void register_copy(CLI::App& app);    // copy.cpp
void register_banks(CLI::App& app);   // banks.cpp
void register_gmem(CLI::App& app);    // gmem.cpp:   global-memory coalescing (sectors, lines)
void register_list(CLI::App& app);    // list.cpp
void register_verify(CLI::App& app);  // verify.cpp
void register_tma(CLI::App& app);     // tma.cpp:    TMA (cuTensorMapEncodeTiled) arguments
void register_explain(CLI::App& app); // explain.cpp: an expression's derivation, step by step
void register_diff(CLI::App& app);    // diff.cpp:    two layouts or TV maps compared
void register_epilogue(CLI::App& app);  // epilogue.cpp: an epilogue visitor tree drawn, typed and checked

// Every subcommand, in the order `tessera --help` lists them.
inline constexpr void (*commands[])(CLI::App&) = {register_eval, register_info, register_render, register_mma,
                                                  register_copy, register_banks, register_gmem, register_list, register_verify,
                                                  register_tma, register_explain, register_diff, register_epilogue};

}  // namespace tessera::cli
