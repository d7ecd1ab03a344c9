// tessera eval: evaluate layout-algebra expressions, one output line per expression.
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "cute_type.hpp"
#include "json.hpp"
#include "standard_output.hpp"
#include "tessera/rt/eval.hpp"

namespace tessera::cli {

namespace {

// How results are printed: tessera's notation (default), JSON (--json) or CuTe C++ types (--cpp).
enum class Output { text, json, cpp };

// The result's text (rt::to_string) appended to `out`: layouts and tuples, nearly every
// result, without a string of their own.
void append_result(const rt::Value& v, std::string& out) {
  switch (v.kind()) {
    case rt::Value::Kind::IntTuple:
      rt::append_string(v.tuple(), out);
      return;
    case rt::Value::Kind::Layout:
      rt::append_string(v.layout().shape, out);
      out += ':';
      rt::append_string(v.layout().stride, out);
      return;
    default:
      out += rt::to_string(v);
  }
}

// Evaluate one expression into `out`: one line (text, cpp) or one JSON entry of the
// "results" array (json; `first` says whether a comma goes before it). Returns false on
// error; the caret diagnostic goes to `diag` unless quiet.
bool eval_line(const std::string& expr, std::string& out, std::string& diag, bool quiet, Output mode, bool first) {
  // The JSON entry only where it is printed: text output costs no JSON object per line.
  std::optional<json::Value> entry;
  if (mode == Output::json) entry = json::Value::object({{"input", expr}});
  bool ok = true;
  try {
    const rt::Value v = rt::evaluate(expr);
    if (mode == Output::json) {
      entry->set("ok", true);
      entry->set("result", json::value(v));
      entry->set("cpp", cute_type(v));
    } else {
      if (mode == Output::cpp) out += cute_type(v);
      else append_result(v, out);
      out += '\n';
    }
  } catch (const rt::Error& e) {
    ok = false;
    if (mode == Output::json) {
      entry->set("ok", false);
      entry->set("error", json::Value::object({{"message", e.what()},
                                               {"column", e.pos() != rt::npos ? json::Value(e.pos() + 1) : json::Value()}}));
    } else {
      out += "error: ";
      out += e.what();
      if (e.pos() != rt::npos) out += " (at column " + std::to_string(e.pos() + 1) + ")";
      out += '\n';
    }
    if (!quiet) diag += rt::format_error(expr, e.pos(), e.what());
  } catch (const std::exception& e) {  // e.g. std::bad_alloc: still one line, never a crash
    ok = false;
    if (mode == Output::json) {
      entry->set("ok", false);
      entry->set("error", json::Value::object({{"message", e.what()}, {"column", nullptr}}));
    } else {
      out += "error: ";
      out += e.what();
      out += '\n';
    }
  }
  if (mode == Output::json) {
    if (!first) out += ',';
    out += json::dump(*entry);
  }
  return ok;
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
  auto as_json = std::make_shared<bool>(false), as_cpp = std::make_shared<bool>(false);
  CLI::Option* json_flag = cmd->add_flag(
      "--json", *as_json, "Print one JSON object: an entry per expression with its result or error (docs/json.md)");
  cmd->add_flag("--cpp", *as_cpp,
                "Print each result's CuTe C++ type instead, e.g. Layout<Shape<_4,_8>,Stride<_1,_4>>")
      ->excludes(json_flag);
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
      "--json: one JSON object on standard output (docs/json.md), {\"command\": \"eval\",\n"
      "\"schema_version\": 1, \"results\": [...]}, an entry per expression in input order: {\"input\",\n"
      "\"ok\": true, \"result\": {\"kind\", \"text\", ...}, \"cpp\"} or {\"input\", \"ok\": false, \"error\":\n"
      "{\"message\", \"column\"}}. Exit status as above.\n"
      "--cpp: CuTe's C++ type of each result, one line per expression (errors as above). Every\n"
      "integer tessera reads is static, so the type is complete: `using L = <type>;`, and `L{}` is\n"
      "the layout. Integers are CuTe's aliases where CuTe has one (_8, _m1), else Int<N>; composed\n"
      "layouts are ComposedLayout<Swizzle<B,M,S>,Offset,Layout<..>>, tilers Tile<...>, integer\n"
      "tuples Shape<...>. (No make_layout(make_shape(..), ..) form: with no dynamic integer the type\n"
      "says everything, and `decltype` of a make_layout of static integers is this type.)\n\n"
      "Examples:\n"
      "  tessera eval 'composition((4,2):(2,1), 8:1)'        # prints (4,2):(2,1)\n"
      "  tessera eval 'logical_divide(16:1, 4:1)' 'size((4,(2,2)):(2,(1,8)))'\n"
      "  tessera eval 'right_inverse(Sw<3,3,3> o (8,64):(64,1))'  # Sw<3,0,-6> o 0 o (64,8):(8,1)\n"
      "  tessera eval < expressions.txt > results.txt\n"
      "  tessera eval --cpp 'Sw<3,3,3> o (8,64):(64,1)'\n"
      "      # ComposedLayout<Swizzle<3,3,3>,_0,Layout<Shape<_8,_64>,Stride<_64,_1>>>\n"
      "  tessera eval --json 'size(8:1)' 'bad(' | python3 -m json.tool\n");
  cmd->callback([exprs, quiet, as_json, as_cpp]() {
    const Output mode = *as_json ? Output::json : *as_cpp ? Output::cpp : Output::text;
    std::string out, diag;
    bool failed = false, first = true;
    if (mode == Output::json) {  // the document, streamed: its head, the entries, its tail
      out = json::dump(json::document("eval"));
      out.pop_back();  // the closing brace
      out += ",\"results\":[";
    }
    auto line_of = [&](const std::string& expr) {
      failed |= !eval_line(expr, out, diag, *quiet, mode, first);
      first = false;
    };
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
      for (const auto& e : *exprs) line_of(e);
    } else {
      std::string line;
      while (std::getline(std::cin, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        line_of(line);
        if (out.size() > (1u << 16)) flush();
      }
    }
    if (mode == Output::json) out += "]}\n";
    flush();
    if (failed) throw CLI::RuntimeError(1);
  });
}

}  // namespace tessera::cli
