// `tessera epilogue`: an epilogue visitor tree written in text (tessera/rt/epilogue_tree.hpp),
// drawn (tessera/viz/epilogue_tree.hpp), named as its C++ type (--cpp) and checked on the host
// (src/epilogue_check: the nodes' own f32 ops against the math in double).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "action.hpp"
#include "commands.hpp"
#include "../epilogue_check/epilogue_check.hpp"
#include "json.hpp"
#include "tessera/rt/epilogue_tree.hpp"
#include "tessera/viz/epilogue_tree.hpp"
#include "tessera/viz/output.hpp"

namespace tessera::cli {

namespace {

namespace ep = rt::epilogue;

struct EpilogueOptions {
  std::string tree;
  std::string output, format, title;
  std::string check = "16x24";
  bool no_check = false;
  std::uint64_t seed = 1;
  bool cpp = false, json = false;
};

// --check MxN: the tile's rows and columns.
std::pair<std::int64_t, std::int64_t> parse_shape(const std::string& s) {
  const auto x = s.find('x');
  auto count = [](const std::string& t) -> std::int64_t {
    if (t.empty() || t.size() > 5 || t.find_first_not_of("0123456789") != std::string::npos) return -1;
    return std::stoll(t);
  };
  const std::int64_t m = x == std::string::npos ? -1 : count(s.substr(0, x));
  const std::int64_t n = x == std::string::npos ? -1 : count(s.substr(x + 1));
  if (m < 1 || n < 1 || m > 4096 || n > 4096 || m * n > (std::int64_t(1) << 22))
    fail_option("--check", "--check takes a tile MxN (e.g. 16x24) of 1 to 4096 rows and columns, at most 4194304 elements, not '" +
                               s + "'");
  return {m, n};
}

std::string number(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3g", x);
  return b;
}

int run(const EpilogueOptions& o) {
  if (o.tree.find_first_not_of(" \t\r\n") == std::string::npos) fail("the tree is empty: give one, e.g. 'store(bf16, relu(acc))'");
  if (o.cpp && o.json) fail("--cpp prints the C++ type alone; it cannot be combined with --json");
  if (o.cpp && (!o.output.empty() || !o.format.empty())) fail("--cpp prints the C++ type alone: leave out -o and -f");
  std::optional<Target> target;
  if (!o.json && !o.cpp) {
    target = resolve_target(o.format, o.output);
    if (target->format == viz::Format::png || target->format == viz::Format::pdf)
      fail_option(o.format.empty() ? std::vector<std::string>{"-o", "--output"} : std::vector<std::string>{"-f", "--format"},
                  "an epilogue tree is drawn as txt, svg, tex or html, not " + std::string(viz::format_name(target->format)));
  }
  std::pair<std::int64_t, std::int64_t> shape{0, 0};
  if (!o.no_check && !o.cpp) shape = parse_shape(o.check);
  ep::Tree t;
  try {
    t = ep::parse_tree(o.tree);
  } catch (const rt::Error& e) {
    fail(e.what(), o.tree, e.pos() == rt::npos ? 0 : e.pos());
  }
  if (o.cpp) {
    std::cout << ep::cpp_type(t.root) << "\n";
    check_standard_output();
    return 0;
  }
  std::vector<epilogue_check::OutputCheck> checks;
  bool pass = true;
  if (!o.no_check) {
    const epilogue_check::Inputs in = epilogue_check::generate_inputs(t, shape.first, shape.second, o.seed);
    checks = epilogue_check::compare(epilogue_check::emulate(t, in), epilogue_check::reference(t, in));
    for (const auto& c : checks) pass = pass && c.pass;
  }
  if (o.json) {
    json::Value doc = viz::epilogue_tree_json(t);
    if (!o.no_check) {
      json::Value c = json::Value::object();
      c.set("m", shape.first);
      c.set("n", shape.second);
      c.set("seed", std::int64_t(o.seed & 0x7fffffffffffffffull));
      json::Value outs = json::Value::array();
      for (const auto& k : checks)
        outs.push(json::Value::object({{"name", k.name},
                                       {"kind", k.kind},
                                       {"type", k.type},
                                       {"count", k.count},
                                       {"max_error", std::isfinite(k.max_error) ? json::Value(k.max_error) : json::Value()},
                                       {"worst_ratio", std::isfinite(k.worst_ratio) ? json::Value(k.worst_ratio) : json::Value()},
                                       {"pass", k.pass}}));
      c.set("outputs", std::move(outs));
      c.set("pass", pass);
      doc.set("check", std::move(c));
    }
    json::print(doc);
    check_standard_output();
    return pass ? 0 : 2;
  }
  // the drawing, then the check's report (on standard error when the drawing went to standard output as svg/tex)
  auto drawing = [&] {
    return target->format == viz::Format::svg    ? viz::epilogue_tree_svg(t, o.title)
           : target->format == viz::Format::html ? viz::epilogue_tree_html(t, o.title)
           : target->format == viz::Format::tex ? viz::epilogue_tree_tikz(t, o.title)
                                                : (o.title.empty() ? "" : o.title + "\n") + viz::epilogue_tree_text(t);
  };
  if (target->path) {
    try {
      viz::write_output(*target->path, drawing);
    } catch (const viz::Error& e) {
      fail(e.what());
    }
  } else {
    std::cout << drawing();
  }
  const bool report_on_stderr = !target->path && target->format != viz::Format::txt;
  std::ostream& out = report_on_stderr ? std::cerr : std::cout;
  if (!o.no_check) {
    out << "check on a " << shape.first << " x " << shape.second << " tile (seed " << o.seed
        << "): the nodes' f32 host ops against the math in double\n";
    std::size_t w = 1;
    for (const auto& k : checks) w = std::max(w, k.name.size());
    for (const auto& k : checks)
      out << "  " << k.name << std::string(w - k.name.size(), ' ') << "  " << k.kind << " " << k.type << ": max error "
          << number(k.max_error)
          << (std::isfinite(k.worst_ratio) ? ", at most " + number(k.worst_ratio) + " of the bound  "
                                           : std::string(", a value NaN or infinite where the math is finite  "))
          << (k.pass ? "pass" : "FAIL") << "\n";
    out << (pass ? "check: pass\n" : "check: FAIL (an output is outside its bound)\n");
  }
  check_standard_output();
  return pass ? 0 : 2;
}

}  // namespace

void register_epilogue(CLI::App& app) {
  auto o = std::make_shared<EpilogueOptions>();
  CLI::App* cmd = app.add_subcommand(
      "epilogue",
      "Read an epilogue visitor tree (the per-element epilogue of a GEMM: tessera::kernels::tree),\n"
      "draw it, print its C++ type (--cpp) and check it on the host: the tree is evaluated over a\n"
      "generated tile through the library nodes' own f32 host ops and compared with the math in\n"
      "double, each output within its rounding and the activations' stated bounds.");
  cmd->add_option("TREE", o->tree,
                  "the tree: statements separated by ';', e.g. 'store(bf16, silu(acc * sa[m] * sb[n] + bias[n]))'");
  cmd->add_option("-o,--output", o->output, "write the drawing to FILE (svg, html, tex, txt by extension); default: text on standard output")
      ->check(output_file_name())
      ->type_name("FILE");
  cmd->add_option("-f,--format", o->format, "the drawing's format: txt, svg, html or tex; default: from -o's extension, else txt")
      ->type_name("FORMAT");
  cmd->add_option("--title", o->title, "a title drawn above the tree (UTF-8; control characters are refused)")
      ->check(drawable_text_option("--title"));
  cmd->add_option("--check", o->check, "the host check's tile MxN (default 16x24)")->type_name("MxN");
  cmd->add_flag("--no-check", o->no_check, "draw only: no host check");
  cmd->add_option("--seed", o->seed, "the generated inputs' seed (default 1)")->type_name("N");
  cmd->add_flag("--cpp", o->cpp,
                "print the tree's C++ type (tessera::kernels::tree's names, as in EpilogueTree<Tree, ...>) and nothing else");
  add_json_flag(cmd, o->json, "print the tree, its C++ type, its nodes and the check as JSON (docs/json.md)");
  cmd->footer(
      "Grammar (statements separated by ';'):\n"
      "  [D =] store(TYPE, expr)      D, the root: its f32 value rounded to TYPE (exactly one)\n"
      "  NAME = expr                  a named f32 value, for the statements after it\n"
      "  NAME = store(TYPE, VALUE)    an aux matrix beside D (AuxStore) of a named value\n"
      "  NAME = amax(VALUE)           a scalar reduction (ScalarReduction); also max, sum\n"
      "  NAME[n] = max(VALUE)         per column, over the rows m (RowReduction: r[n])\n"
      "  NAME[m] = sum(VALUE)         per row, over the columns n (ColumnReduction: r[m])\n"
      "  VALUE is a named value or D (the root's f32 value before its rounding).\n"
      "  expr: + - * and parentheses over\n"
      "    acc                 the accumulator (Accumulator)\n"
      "    2, 0.5, -448        constants (Constant<Num, Den>)\n"
      "    alpha, *scale_a     scalars: a value, or read from memory (Scalar<float>)\n"
      "    bias[n], s[m]:bf16  a row vector v[n] (RowBroadcast), a column vector v[m] (ColumnBroadcast); f32 unless :TYPE\n"
      "    C, C:f32            the source matrix (SourceC; D's type unless :TYPE)\n"
      "    relu(x) gelu(x) gelu_tanh(x) silu(x) abs(x) max(x, y) min(x, y) clamp(x, lo, hi)\n"
      "    fma(a, b, c) (a * b + c: multiply_add) convert(TYPE, x) (x rounded to TYPE)\n"
      "  TYPE: f32, bf16, f16, e4m3, e5m2. a - b is a + -1 * b (no subtraction node; exact); no division.\n"
      "Text output: one line per node, children indented under their parent, then the check.\n"
      "Examples:\n"
      "  tessera epilogue 'store(bf16, silu(acc * sa[m] * sb[n] + bias[n]))'\n"
      "  tessera epilogue 'D = store(bf16, silu(acc * sa[m] * sb[n] + bias[n])); amax_d = amax(D)' -o tree.svg\n"
      "  tessera epilogue --cpp 'store(bf16, fma(alpha, acc, beta * C))'\n"
      "  tessera epilogue 'z = acc * alpha + bias[n]:bf16; aux = store(bf16, z); store(bf16, relu(z)); r[n] = max(D)'\n"
      "Exit status: 0 (the check passed, or --no-check); 1 on an error (a malformed tree, with a caret\n"
      "under the offending character; a wrong option; an unwritable output: nothing written); 2 when\n"
      "the check finds an output outside its bound.");
  set_action(cmd, [o] { return run(*o); }, reject_extras_saying("epilogue takes one TREE", /*dash_digit_is_argument=*/false));
}

}  // namespace tessera::cli
