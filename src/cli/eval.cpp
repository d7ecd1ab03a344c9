// tessera eval: evaluate layout-algebra expressions, one output line per expression.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "standard_output.hpp"
#include "tessera/rt/eval.hpp"

namespace tessera::cli {

namespace {

// Evaluate one expression into `out` (one line). Returns false on error; the
// caret diagnostic goes to `diag` unless quiet.
bool eval_line(const std::string& expr, std::string& out, std::string& diag, bool quiet) {
  try {
    out += rt::to_string(rt::evaluate(expr));
    out += '\n';
    return true;
  } catch (const rt::Error& e) {
    out += "error: ";
    out += e.what();
    if (e.pos() != rt::npos) out += " (at column " + std::to_string(e.pos() + 1) + ")";
    out += '\n';
    if (!quiet) diag += rt::format_error(expr, e.pos(), e.what());
    return false;
  } catch (const std::exception& e) {  // e.g. std::bad_alloc: still one line, never a crash
    out += "error: ";
    out += e.what();
    out += '\n';
    return false;
  }
}

std::string functions_help() {
  std::string s = "Functions:\n";
  for (const auto& f : rt::functions()) {
    std::string sig = f.signature;
    s += "  " + sig;
    s += std::string(sig.size() < 44 ? 44 - sig.size() : 1, ' ');
    s += f.summary;
    s += '\n';
  }
  return s;
}

}  // namespace

void register_eval(CLI::App& app) {
  auto* cmd = app.add_subcommand("eval", "Evaluate layout-algebra expressions (one result line per expression)");
  auto exprs = std::make_shared<std::vector<std::string>>();
  auto quiet = std::make_shared<bool>(false);
  cmd->add_option("EXPR", *exprs,
                  "Expressions to evaluate; with none, read one expression per line from standard input");
  cmd->add_flag("-q,--quiet", *quiet, "Do not print the caret diagnostics on standard error");
  cmd->footer(
      "Notation (docs/notation.md):\n"
      "  layout    shape:stride             8:1   (8):(1)   (4,(2,2)):(2,(1,8))\n"
      "  inttuple  INT | (inttuple,...)     INT may be written _N; 8 and (8) differ\n"
      "  tiler     (layout,layout,...)      (4:1,2:2); a plain shape (4,2) tiles by 4:1, 2:1\n"
      "  swizzled  Sw<B,M,S> o [off o] layout   Sw<3,3,3> o 0 o (8,64):(64,1)  (CuTe's print form, _N allowed)\n"
      "  swizzle   Sw<B,M,S>                a bare swizzle: composition(Sw<3,3,3>, (8,64):(64,1))\n"
      "  inverse   layout o [off o] Sw<B,M,S>  (64,8):(8,1) o -8 o Sw<3,3,3>: what inverses of\n"
      "            Sw o off o L give when off != 0 (docs/composed_layouts.md)\n"
      "  _         a wildcard in slice coordinates: slice((4,8):(1,4), (_,2))\n\n" +
      functions_help() +
      "\nOutput: CuTe's print format without static markers or spaces, one line per expression.\n"
      "Results: a layout, a swizzled layout (printed as CuTe prints it, with the offset:\n"
      "Sw<3,3,3> o 0 o (8,64):(64,1)), a tiler, an integer tuple, or an integer (size, cosize,\n"
      "rank, depth, max_common_vector, crd2idx). Every operation takes a swizzled layout where\n"
      "CuTe defines it: tile_to_shape(Sw<3,3,3> o (8,64):(64,1), (128,64,3)).\n"
      "A failed expression prints `error: <why> (at column N)` on its line (with the input and a\n"
      "caret on standard error) and evaluation continues with the next one.\n"
      "Standard input (no EXPR): every line is one expression, a trailing \\r is ignored; a blank\n"
      "line is an empty expression (an error line), so output line k always answers input line k.\n\n"
      "Exit status: 0 when every expression evaluated; 1 when any failed (after printing all lines),\n"
      "when standard output cannot be written (`error: cannot write to standard output: <why>`), or\n"
      "the command line is wrong.\n\n"
      "Examples:\n"
      "  tessera eval 'composition((4,2):(2,1), 8:1)'        # prints (4,2):(2,1)\n"
      "  tessera eval 'logical_divide(16:1, 4:1)' 'size((4,(2,2)):(2,(1,8)))'\n"
      "  tessera eval 'right_inverse(Sw<3,3,3> o (8,64):(64,1))'  # Sw<3,0,-6> o 0 o (64,8):(8,1)\n"
      "  tessera eval < expressions.txt > results.txt\n");
  cmd->callback([exprs, quiet]() {
    std::string out, diag;
    bool failed = false;
    // Results, then their diagnostics; a failed write of the results ends the command
    // (there is no point evaluating what cannot be printed).
    auto flush = [&] {
      std::cout.write(out.data(), static_cast<std::streamsize>(out.size()));
      const bool failed = report_standard_output_failure();  // (flushes the results first)
      if (!diag.empty()) std::fwrite(diag.data(), 1, diag.size(), stderr);
      out.clear();
      diag.clear();
      if (failed) throw CLI::RuntimeError(1);
    };
    if (!exprs->empty()) {
      for (const auto& e : *exprs) failed |= !eval_line(e, out, diag, *quiet);
    } else {
      std::string line;
      while (std::getline(std::cin, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        failed |= !eval_line(line, out, diag, *quiet);
        if (out.size() > (1u << 16)) flush();
      }
    }
    flush();
    if (failed) throw CLI::RuntimeError(1);
  });
}

}  // namespace tessera::cli
