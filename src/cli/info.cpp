// tessera info: size, cosize, rank, depth and the function properties of a layout.
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "cute_type.hpp"
#include "json.hpp"
#include "tessera/rt/checked.hpp"
#include "tessera/rt/eval.hpp"

namespace tessera::cli {

namespace {

// Layouts up to this size are checked offset by offset; larger ones get "unknown".
constexpr std::int64_t kMaxChecked = std::int64_t{1} << 24;

struct Properties {
  bool known = false;
  bool injective = false, surjective = false;
  std::int64_t min = 0, max = 0;  // the image lies in [min, max]
  bool bijective() const { return injective && surjective; }
};

// The offsets of a layout over its domain, judged against its image [min, max] (the
// smallest and largest offset reached, which negative strides put below 0): injective
// (all distinct), surjective (every offset in [min, max] is reached).
Properties judge(std::vector<std::int64_t> v) {
  Properties p;
  p.known = true;
  std::sort(v.begin(), v.end());
  p.injective = std::adjacent_find(v.begin(), v.end()) == v.end();
  const auto last = std::unique(v.begin(), v.end());
  const auto distinct = static_cast<std::int64_t>(last - v.begin());
  if (distinct == 0) return p;
  p.min = v.front();
  p.max = *(last - 1);
  p.surjective = p.max - p.min + 1 == distinct;  // distinct values inside [min, max]: all of them
  return p;
}

std::vector<std::int64_t> offsets(const rt::Layout& l) {
  std::vector<std::int64_t> v;
  v.reserve(static_cast<std::size_t>(l.size()));
  rt::for_each_offset(l, [&](std::int64_t o) { v.push_back(o); });
  return v;
}

std::string yes_no(bool known, bool b) { return known ? (b ? "yes" : "no") : "unknown (too large to check)"; }
// The same in JSON: true, false, or null when unknown.
json::Value json_bool(bool known, bool b) { return known ? json::Value(b) : json::Value(); }

}  // namespace

void register_info(CLI::App& app) {
  auto* cmd = app.add_subcommand("info", "Size, cosize, rank, depth and function properties of a layout");
  auto expr = std::make_shared<std::string>();
  cmd->add_option("EXPR", *expr, "A layout expression, e.g. '(4,(2,2)):(2,(1,8))' or 'logical_divide(16:1, 4:1)'")
      ->required();
  auto as_json = std::make_shared<bool>(false), as_cpp = std::make_shared<bool>(false);
  CLI::Option* json_flag =
      cmd->add_flag("--json", *as_json, "Print the properties as one JSON object, with the same names (docs/json.md)");
  cmd->add_flag("--cpp", *as_cpp, "Print only the layout's CuTe C++ type, e.g. Layout<Shape<_4,_8>,Stride<_1,_4>>")
      ->excludes(json_flag);
  cmd->footer(
      "Properties, for a layout L of size N (indices i in [0,N)):\n"
      "  size        N, the number of coordinates (product of the shape)\n"
      "  cosize      CuTe's cosize: 1 + sum over the modes of (shape - 1) * |stride|, i.e. L(N-1)+1\n"
      "              for non-negative strides (swizzled: 1 + the largest offset)\n"
      "  image       [min, max]: the smallest and largest offset L reaches (min < 0 only with\n"
      "              negative strides); the properties below are judged against it\n"
      "  rank        number of top-level modes; depth: nesting depth (0 for an integer shape)\n"
      "  injective   L(i) != L(j) for all i != j\n"
      "  surjective  every offset in [min, max] is L(i) for some i (no holes in the image)\n"
      "  bijective   injective and surjective: L is a one-to-one map of [0, N) onto [min, min+N)\n"
      "              (for non-negative strides: a permutation of [0, N), and cosize == N)\n"
      "  compact     filter(L) (stride-0 and size-1 modes removed) is bijective onto its image:\n"
      "              the offsets are dense storage without holes, possibly broadcast along stride-0 modes\n"
      "Layouts with more than 2^24 elements (swizzled: 2^22) print `unknown` for the properties.\n\n"
      "--json: {\"command\": \"info\", \"schema_version\": 1, \"input\", \"layout\": {\"text\", \"shape\",\n"
      "\"stride\"[, \"swizzle\", \"offset\"]}, \"cpp\", \"size\", \"cosize\", \"image\": {\"min\", \"max\"}, \"rank\",\n"
      "\"depth\", \"injective\", \"surjective\", \"bijective\", \"compact\"}; unknown values are null\n"
      "(docs/json.md).\n"
      "--cpp: the layout's CuTe C++ type alone, for `using SmemLayout = ...;` (see tessera eval --help).\n\n"
      "Examples:\n"
      "  tessera info '(4,(2,2)):(2,(1,8))'\n"
      "  tessera info '(4,2):(1,0)'                 # not injective, but compact\n"
      "  tessera info '(4,2):(-1,4)'                # image [-3, 4]: bijective, cosize 8\n"
      "  tessera info 'Sw<1,0,1> o (2,2):(1,2)'\n"
      "  tessera info 'logical_divide((8,8):(1,8), (2:1,4:1))'\n"
      "  tessera info --json '(4,8):(1,4)'\n"
      "  tessera info --cpp 'Sw<3,3,3> o (8,64):(64,1)'\n\n"
      "Exit status: 0 on success; 1 when EXPR cannot be parsed or evaluated or is not a layout\n"
      "(`error:` with the input and a caret under the offending character on standard error).\n");
  cmd->callback([expr, as_json, as_cpp]() {
    rt::Value v;
    try {
      v = rt::evaluate(*expr);
    } catch (const rt::Error& e) {
      std::cerr << rt::format_error(*expr, e.pos(), e.what());
      throw CLI::RuntimeError(1);
    }
    if (v.kind() != rt::Value::Kind::Layout && v.kind() != rt::Value::Kind::Swizzled) {
      std::cerr << rt::format_error(*expr, 0, "info needs a layout (shape:stride) or a swizzled layout, got " +
                                                   rt::describe(v));
      throw CLI::RuntimeError(1);
    }
    try {
      const rt::Layout& base = v.kind() == rt::Value::Kind::Layout ? v.layout() : v.swizzled().layout;
      const std::int64_t n = base.size();
      std::int64_t cosize = 0;
      Properties p, pf;
      if (v.kind() == rt::Value::Kind::Layout) {
        cosize = v.layout().cosize();
        if (n <= kMaxChecked) {
          p = judge(offsets(v.layout()));
          pf = judge(offsets(rt::filter(v.layout())));
        }
      } else if (n <= rt::kMaxSwizzledCosize) {
        cosize = v.swizzled().cosize();
        std::vector<std::int64_t> o = offsets(v.swizzled().layout);
        for (auto& x : o) x = v.swizzled().swizzle(rt::checked_add(v.swizzled().offset, x, "offset"));
        p = judge(std::move(o));
        pf = p;  // a swizzle is applied after the layout: judge the whole function
      } else {
        cosize = -1;
      }
      if (*as_cpp) {
        std::cout << cute_type(v) << "\n";
        return;
      }
      if (*as_json) {
        json::Value d = json::document("info");
        d.set("input", *expr);
        d.set("layout", v.kind() == rt::Value::Kind::Layout ? json::layout(v.layout()) : json::swizzled_layout(v.swizzled()));
        d.set("cpp", cute_type(v));
        d.set("size", n);
        d.set("cosize", cosize < 0 ? json::Value() : json::Value(cosize));
        d.set("image", p.known ? json::Value::object({{"min", p.min}, {"max", p.max}}) : json::Value());
        d.set("rank", base.rank());
        d.set("depth", base.depth());
        d.set("injective", json_bool(p.known, p.injective));
        d.set("surjective", json_bool(p.known, p.surjective));
        d.set("bijective", json_bool(p.known, p.bijective()));
        d.set("compact", json_bool(pf.known, pf.bijective()));
        json::print(d);
        return;
      }
      const std::string image =
          p.known ? "[" + std::to_string(p.min) + ", " + std::to_string(p.max) + "]" : "unknown (too large to check)";
      std::cout << "layout:     " << rt::to_string(v) << "\n"
                << "size:       " << n << "\n"
                << "cosize:     " << (cosize < 0 ? std::string("unknown (too large)") : std::to_string(cosize)) << "\n"
                << "image:      " << image << "\n"
                << "rank:       " << base.rank() << "\n"
                << "depth:      " << base.depth() << "\n"
                << "injective:  " << yes_no(p.known, p.injective) << "\n"
                << "surjective: " << yes_no(p.known, p.surjective) << "\n"
                << "bijective:  " << yes_no(p.known, p.bijective()) << "\n"
                << "compact:    " << yes_no(pf.known, pf.bijective()) << "\n";
    } catch (const rt::Error& e) {
      std::cerr << rt::format_error(*expr, e.pos() == rt::npos ? 0 : e.pos(), e.what());
      throw CLI::RuntimeError(1);
    }
  });
}

}  // namespace tessera::cli
