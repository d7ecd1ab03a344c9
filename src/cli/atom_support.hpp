// What the atoms subcommands (mma, copy, banks, list) share: errors with a caret under
// the offending text, output targets (-f / -o, atomic files), unknown-name suggestions,
// and building tiled objects from their options. Header-only: included by src/cli only.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>

#include "tessera/rt/atom_registry.hpp"
#include "tessera/rt/tiled.hpp"
#include "tessera/rt/error.hpp"
#include "tessera/rt/eval.hpp"
#include "tessera/rt/parse.hpp"
#include "tessera/viz/colors.hpp"
#include "tessera/viz/error.hpp"
#include "tessera/viz/layout_grid.hpp"
#include "tessera/viz/output.hpp"
#include "command_line.hpp"
#include "standard_output.hpp"

namespace tessera::cli {

// Diagrams above this many cells need --force (as `tessera render`).
inline constexpr std::int64_t kCellLimit = viz::cell_limit;
inline constexpr std::int64_t kHardCellLimit = viz::hard_cell_limit;

// A failure the user must fix; `input`/`pos` locate it in one argument when known, `option`
// names the option at fault (its spellings) when the whole option is.
struct Failure {
  std::string message;
  std::string input;
  std::size_t pos = rt::npos;
  std::vector<std::string> option;
};
[[noreturn]] inline void fail(std::string msg, std::string input = {}, std::size_t pos = rt::npos) {
  throw Failure{std::move(msg), std::move(input), pos, {}};
}
// A failure of an option as a whole (its value out of range, contradicting another): the
// command line is shown with the caret under the option.
[[noreturn]] inline void fail_option(std::vector<std::string> names, std::string msg) {
  throw Failure{std::move(msg), {}, rt::npos, std::move(names)};
}
[[noreturn]] inline void fail_option(std::string name, std::string msg) {
  fail_option(std::vector<std::string>{std::move(name)}, std::move(msg));
}
// The message of a Failure as printed: `error: ...`, with a caret when located.
inline std::string failure_text(const Failure& f) {
  if (!f.option.empty()) return option_error(f.message, f.option);
  if (f.input.empty() || f.pos == rt::npos) return "error: " + f.message + "\n";
  return rt::format_error(f.input, f.pos, f.message);
}

// An integer option checked while the command line is read, in tessera's words (CLI11's
// own messages, "Could not convert" or a range printed as a double, never reach the user):
// `what` completes "NAME must be ..." (e.g. "a count from 0 to 999999999").
inline CLI::Validator integer_option(std::vector<std::string> names, std::int64_t lo, std::int64_t hi,
                                     std::string what) {
  return CLI::Validator(
      [names, lo, hi, what](std::string& s) -> std::string {
        if (!integer_in(s, lo, hi)) fail_option(names, names.back() + " must be " + what + ", not '" + s + "'");
        return {};
      },
      "", "integer_option");
}

// --title: text every format can draw (UTF-8 without control characters but tab and
// newline), else refused with the offending byte named: an escape (U+FFFD) would print
// something other than what was asked for.
inline CLI::Validator drawable_text_option(std::string name) {
  return CLI::Validator(
      [name](std::string& s) -> std::string {
        const std::size_t at = viz::first_undrawable(s);
        if (at == std::string::npos) return {};
        static const char* hexdigits = "0123456789abcdef";
        const unsigned char c = static_cast<unsigned char>(s[at]);
        fail_option(name, name + " must be UTF-8 text without control characters; byte " + std::to_string(at + 1) +
                              " (0x" + hexdigits[c >> 4] + hexdigits[c & 15] + ") is " +
                              (c < 0x20 || c == 0x7f ? "a control character" : "not part of a drawable UTF-8 character"));
      },
      "", "drawable_text");
}

// --bits, the same everywhere: an element width from `allowed`, checked as it is read
// (0 stays the internal "not given").
inline CLI::Option* add_bits_option(CLI::App* cmd, int& bits, std::vector<int> allowed, const std::string& help) {
  std::string list;
  for (std::size_t i = 0; i < allowed.size(); ++i)
    list += (i == 0 ? "" : i + 1 == allowed.size() ? " or " : ", ") + std::to_string(allowed[i]);
  return cmd->add_option("--bits", bits, help)
      ->type_name("N")
      ->check(CLI::Validator(
          [allowed, list](std::string& s) -> std::string {
            const auto v = integer_in(s, 1, 1024);
            if (!v || std::find(allowed.begin(), allowed.end(), *v) == allowed.end())
              fail_option("--bits", "--bits must be an element width in bits: " + list + ", not '" + s + "'");
            return {};
          },
          "", "bits"));
}
// Re-throws an rt::Error raised while reading `input` as a Failure pointing into it.
template <class F>
auto located(const std::string& what, const std::string& input, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const rt::Error& e) {
    fail(what + ": " + e.what(), input, e.pos() == rt::npos ? 0 : e.pos());
  }
}

inline rt::Value evaluate_arg(const std::string& what, const std::string& input) {
  if (input.find_first_not_of(" \t\r\n") == std::string::npos) fail(what + " is empty");
  return located(what, input, [&] { return rt::evaluate(input); });
}
inline rt::Layout layout_arg(const std::string& what, const std::string& input) {
  rt::Value v = evaluate_arg(what, input);
  if (v.kind() == rt::Value::Kind::IntTuple) {
    // A plain shape N or (M,N) stands for its column-major layout, as CuTe's make_layout.
    return rt::Layout::column_major(v.tuple());
  }
  if (v.kind() != rt::Value::Kind::Layout) fail(what + " must be a layout shape:stride, not " + rt::describe(v), input, 0);
  return v.layout();
}

inline std::string suggestions(const std::string& name, const std::vector<std::string>& known) {
  const auto close = rt::close_matches(name, known);
  if (close.empty()) return "; see `tessera list atoms`";
  std::string s = "; did you mean: ";
  for (std::size_t i = 0; i < close.size(); ++i) s += (i ? ", " : "") + close[i];
  return s;
}
inline const rt::MmaAtomInfo& mma_arg(const std::string& name) {
  const rt::MmaAtomInfo* a = rt::find_mma(name);
  if (!a) fail("unknown MMA atom '" + name + "'" + suggestions(name, rt::mma_names()));
  return *a;
}
inline const rt::CopyAtomInfo& copy_arg(const std::string& name) {
  const rt::CopyAtomInfo* a = rt::find_copy(name);
  if (!a) fail("unknown copy atom '" + name + "'" + suggestions(name, rt::copy_names()));
  return *a;
}

// --atoms MxNxK and --permute: the tiled MMA, errors pointing into the option's text.
inline rt::TiledMma tiled_mma_arg(const rt::MmaAtomInfo& atom, const std::string& atoms, const std::string& permute) {
  const rt::Layout atom_layout =
      atoms.empty() ? rt::Layout::column_major(rt::IntTuple::tuple({1, 1, 1}))
                    : located("--atoms", atoms, [&] { return rt::parse_atom_layout(atoms); });
  rt::Permutation perm;
  if (!permute.empty()) {
    // "32,32,16" is accepted for "(32,32,16)"; positions then point into the user's text.
    const std::size_t first = permute.find_first_not_of(" \t");
    const bool bare = first != std::string::npos && permute[first] != '(';
    const std::string text = bare ? "(" + permute + ")" : permute;
    try {
      perm = rt::parse_permutation(text);
    } catch (const rt::Error& e) {
      std::size_t pos = e.pos() == rt::npos ? 0 : e.pos();
      if (bare) pos = pos == 0 ? 0 : std::min(pos - 1, permute.size());
      fail(std::string("--permute: ") + e.what(), permute, pos);
    }
  }
  try {
    return rt::make_tiled_mma(atom, atom_layout, perm);
  } catch (const rt::Error& e) {
    fail(std::string(e.what()), permute.empty() ? atoms : permute, permute.empty() && atoms.empty() ? rt::npos : 0);
  }
}

inline char operand_arg(const std::string& op) {
  if (op == "A" || op == "a") return 'A';
  if (op == "B" || op == "b") return 'B';
  if (op == "C" || op == "c") return 'C';
  fail("--operand must be A, B or C, not '" + op + "'");
}

// The tiled copy that the copy/banks options describe.
inline rt::TiledCopy tiled_copy_from(const rt::CopyAtomInfo& atom, int bits, const std::string& threads,
                                 const std::string& values, const std::string& for_mma, const std::string& atoms_opt,
                                 const std::string& permute, const std::string& operand) {
  const bool by_layouts = !threads.empty() || !values.empty();
  if (by_layouts && !for_mma.empty()) fail("give either --threads/--values or --for-mma, not both");
  if (!by_layouts && for_mma.empty()) fail("give --threads LAYOUT --values LAYOUT, or --for-mma MMA --operand A|B|C");
  if (for_mma.empty() && (!atoms_opt.empty() || !permute.empty() || !operand.empty()))
    fail("--atoms, --permute and --operand go with --for-mma");
  const rt::CopyAtomView view = [&] {
    try {
      return rt::copy_atom_view(atom, bits);
    } catch (const rt::Error& e) {
      fail_option("--bits", std::string("--bits: ") + e.what());
    }
  }();
  if (by_layouts) {
    if (threads.empty()) fail("--values needs --threads LAYOUT ((m,n) of the thread grid -> thread index)");
    if (values.empty()) fail("--threads needs --values LAYOUT ((m,n) inside a thread's block -> value index)");
    const rt::Layout thr = layout_arg("--threads", threads);
    const rt::Layout val = layout_arg("--values", values);
    try {
      return rt::make_tiled_copy(view, thr, val);
    } catch (const rt::Error& e) {
      fail(e.what());
    }
  }
  if (operand.empty()) fail("--for-mma needs --operand A, B or C");
  const char op = operand_arg(operand);
  const rt::MmaAtomInfo& mma = mma_arg(for_mma);
  // The copy atoms and the bank model are NVIDIA's (32-lane warps, 32 banks of 4 bytes): an
  // operand of another vendor's atom has neither its copy instructions nor its memory here.
  if (mma.vendor != "nvidia" && mma.vendor != "any")
    fail("--for-mma " + mma.name + ": an " + (mma.vendor == "amd" ? "AMD" : "Intel") + " atom (" +
         std::to_string(mma.wave_size) + "-lane " + (mma.vendor == "amd" ? "wavefront" : "subgroup") +
         "); tessera's copy atoms and shared-memory bank model are NVIDIA's (32-lane warps): draw it with tessera mma");
  const rt::TiledMma t = tiled_mma_arg(mma, atoms_opt, permute);
  try {
    return rt::make_tiled_copy_for(view, t, op);
  } catch (const rt::Error& e) {
    fail(std::string(e.what()) + " (copying operand " + op + " of " + mma.name + ")");
  }
}

struct Target {
  viz::Format format = viz::Format::txt;
  std::optional<std::string> path;  // none: standard output
};
inline Target resolve_target(const std::string& format, const std::string& output) {
  const std::vector<std::string> f_names{"-f", "--format"}, o_names{"-o", "--output"};
  std::optional<viz::Format> by_name, by_ext;
  if (!format.empty()) {
    by_name = viz::format_from_name(format);
    if (!by_name) fail_option(f_names, "unknown format '" + format + "': choose txt, svg, tex, png, pdf or html");
  }
  const bool to_stdout = output.empty() || output == "-";
  if (!to_stdout) {
    struct stat st {};
    if (::stat(output.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
      fail_option(o_names, "'" + output + "' is a directory: -o names the file to write (e.g. " +
                               (output.back() == '/' ? output : output + "/") + "diagram.svg)");
    by_ext = viz::format_from_path(output);
  }
  if (by_name && by_ext && *by_name != *by_ext)
    fail_option(f_names, "-f " + format + " does not match the extension of '" + output + "'");
  if (!by_name && !to_stdout && !by_ext)
    fail_option(o_names, "cannot tell the format from '" + output +
                             "': give -f txt|svg|tex|png|pdf|html or use one of those extensions");
  const viz::Format f = by_name ? *by_name : by_ext ? *by_ext : viz::Format::txt;
  Target t{f, std::nullopt};
  if (!to_stdout) t.path = output;
  if (!viz::is_text_format(f)) {
    if (!viz::has_cairo())
      fail_option(by_name ? f_names : o_names, std::string(viz::format_name(f)) +
                                                   " output needs Cairo, which this build of tessera lacks: use svg or tex");
    // Binary output goes to standard output as to /dev/stdout (a pipe, a file), but not
    // onto a terminal, where it would only garble the screen.
    if (to_stdout) {
      if (::isatty(STDOUT_FILENO))
        fail_option(o_names.size() && option_word(o_names) ? o_names : f_names,
                    std::string(viz::format_name(f)) +
                        " output is binary and standard output is a terminal: give -o FILE, or redirect or pipe it");
      t.path = "/dev/stdout";
    }
  }
  return t;
}

inline void check_cells(std::int64_t cells, const std::string& what, bool force) {
  if (cells > kHardCellLimit)
    fail(what + " has " + std::to_string(cells) + " cells, more than tessera draws (" + std::to_string(kHardCellLimit) +
         ", even with --force)");
  if (cells > kCellLimit && !force)
    fail(what + " has " + std::to_string(cells) + " cells, more than " + std::to_string(kCellLimit) +
         ": pass --force to draw it anyway");
}

// Flushes standard output; a failed write (now or earlier) is a Failure with the reason.
inline void check_standard_output() {
  if (const std::optional<std::string> why = flush_standard_output()) {
    standard_output_failure_reported = true;
    fail(standard_output_message(*why));
  }
}

// --color-by: what a cell's colour means, for every drawing command.
inline constexpr const char* kColorByHelp =
    "what colour means: thread (64 lane colours; any two lanes of a warp differ by CIE dE76\n"
    ">= 23), warp, value, offset (the index; a light-to-dark ramp), bank (32 banks of 4 bytes),\n"
    "chunk (16-byte chunk, or the unit a swizzle permutes), box (tma: the copy that fills the\n"
    "cell). Default: thread for TV maps, MMAs and copies (an SM90 operand in shared memory:\n"
    "chunk); chunk for swizzled layouts; bank for banks; box for tma; offset for plain layouts.\n"
    "A panel whose cells lack the quantity keeps its default. The legend says which.";
inline void add_color_by(CLI::App* cmd, std::string& color_by) {
  cmd->add_option("--color-by", color_by, kColorByHelp)->type_name("WHAT");
}
// The --color-by name, checked (before any input is read, so that an option mistake costs
// nothing); automatic when not given.
inline viz::ColorBy color_by_arg(const std::string& color_by) {
  if (color_by.empty()) return viz::ColorBy::automatic;
  const auto by = viz::color_by_from_name(color_by);
  if (!by)
    fail_option("--color-by", "unknown --color-by '" + color_by + "': choose thread, warp, value, offset, bank, chunk or box");
  return *by;
}
// Recolours `d` by `by` (`text`: the option as given, for messages) when --color-by was
// given; a quantity the diagram's cells lack fails.
inline void recolor(viz::Diagram& d, viz::ColorBy by, const std::string& text) {
  if (text.empty()) return;
  try {
    viz::apply_colors(d, by);
  } catch (const viz::Error& e) {
    fail_option("--color-by", std::string("--color-by: ") + e.what());
  }
}
inline void recolor(viz::Diagram& d, const std::string& color_by) { recolor(d, color_by_arg(color_by), color_by); }

// --heatmap / --labels: force the large-tile heatmap, or labelled cells, whatever the size.
struct DensityFlags {
  bool heatmap = false, labels = false;
};
inline void add_density(CLI::App* cmd, DensityFlags& f) {
  cmd->add_flag("--heatmap", f.heatmap,
                "draw a label-free heatmap with tick-labelled axes (the default from " +
                    std::to_string(viz::heatmap_cells) + " cells or " + std::to_string(viz::heatmap_extent) +
                    " rows/columns in a panel, and where labelled cells would not fit an A1 page)");
  cmd->add_flag("--labels", f.labels, "label every cell even past those sizes");
}
inline void set_density(viz::Diagram& d, const DensityFlags& f) {
  if (f.heatmap && f.labels) fail("give --heatmap or --labels, not both");
  if (f.heatmap) d.density = viz::Density::heatmap;
  if (f.labels) d.density = viz::Density::labels;
}

inline void emit(const viz::Diagram& d, const Target& t) {
  if (t.path) viz::render_to_file(d, t.format, *t.path);
  else {
    std::cout << viz::render_text(d, t.format);
    check_standard_output();
  }
}

// -o FILE: an empty name is an error, not standard output (that is `-o -`).
inline CLI::Validator output_file_name() {
  return CLI::Validator(
      [](std::string& name) { return name.empty() ? std::string("the output file name is empty (use - for standard output)") : std::string(); },
      "", "output_file_name");
}

// Runs a subcommand body: prints `error: ...` (with a caret when located), returns 0/1.
template <class F>
int guarded(F&& body) {
  try {
    body();
    return 0;
  } catch (const Failure& f) {
    std::cerr << failure_text(f);
  } catch (const rt::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
  } catch (const viz::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
  }
  return 1;
}

// Unknown options / extra arguments (the subcommand allows extras to report them itself).
inline void reject_extras(CLI::App* cmd) {
  const std::vector<std::string> extra = cmd->remaining();
  if (extra.empty()) return;
  const std::string& x = extra.front();
  const bool is_option = x.size() > 1 && x[0] == '-' && !(x[1] >= '0' && x[1] <= '9');
  const std::string message = (is_option ? "unknown option '" : "unexpected argument '") + x + "' (see tessera " +
                              cmd->get_name() + " --help)";
  const auto at = argument_word(x);
  std::cerr << (at ? command_line_error(message, *at) : "error: " + message + "\n");
  throw CLI::RuntimeError(error_status(cmd->get_name()));
}

}  // namespace tessera::cli
