// tessera info: size, cosize, rank, depth and the function properties of a layout.
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "tessera/rt/eval.hpp"

namespace tessera::cli {

namespace {

// Layouts up to this size are checked offset by offset; larger ones get "unknown".
constexpr std::int64_t kMaxChecked = std::int64_t{1} << 24;

struct Properties {
  bool known = false;
  bool injective = false, surjective = false, compact = false;
};

// The offsets of a layout over its domain: injective (all distinct), surjective
// (they hit every offset in [0,cosize)).
void check_offsets(std::vector<std::int64_t> v, std::int64_t cosize, bool& injective, bool& surjective) {
  std::sort(v.begin(), v.end());
  injective = std::adjacent_find(v.begin(), v.end()) == v.end();
  auto last = std::unique(v.begin(), v.end());
  const auto distinct = static_cast<std::int64_t>(last - v.begin());
  surjective = distinct == cosize && (distinct == 0 || (v.front() == 0 && *(last - 1) == cosize - 1));
}

std::vector<std::int64_t> offsets(const rt::Layout& l) {
  std::vector<std::int64_t> v;
  v.reserve(static_cast<std::size_t>(l.size()));
  rt::for_each_offset(l, [&](std::int64_t o) { v.push_back(o); });
  return v;
}

std::string yes_no(bool known, bool b) { return known ? (b ? "yes" : "no") : "unknown (too large to check)"; }

}  // namespace

void register_info(CLI::App& app) {
  auto* cmd = app.add_subcommand("info", "Size, cosize, rank, depth and function properties of a layout");
  auto expr = std::make_shared<std::string>();
  cmd->add_option("EXPR", *expr, "A layout expression, e.g. '(4,(2,2)):(2,(1,8))' or 'logical_divide(16:1, 4:1)'")
      ->required();
  cmd->footer(
      "Properties, for a layout L of size N (indices i in [0,N)) and C = cosize(L):\n"
      "  size        N, the number of coordinates (product of the shape)\n"
      "  cosize      C = L(N-1)+1 for non-negative strides (CuTe: 1 + sum (s_k - 1) * d_k)\n"
      "  rank        number of top-level modes; depth: nesting depth (0 for an integer shape)\n"
      "  injective   L(i) != L(j) for all i != j\n"
      "  surjective  every offset in [0, C) is L(i) for some i\n"
      "  bijective   injective and surjective: L is a permutation of [0, N) (so C == N)\n"
      "  compact     filter(L) (stride-0 and size-1 modes removed) is bijective onto [0, cosize(filter(L))):\n"
      "              the offsets are dense storage without holes, possibly broadcast along stride-0 modes\n"
      "Layouts with more than 2^24 elements (swizzled: 2^22) print `unknown` for the properties.\n\n"
      "Examples:\n"
      "  tessera info '(4,(2,2)):(2,(1,8))'\n"
      "  tessera info '(4,2):(1,0)'                 # not injective, but compact\n"
      "  tessera info 'Sw<1,0,1> o (2,2):(1,2)'\n"
      "  tessera info 'logical_divide((8,8):(1,8), (2:1,4:1))'\n\n"
      "Exit status: 0 on success; 1 when EXPR cannot be parsed or evaluated or is not a layout\n"
      "(`error:` with the input and a caret under the offending character on standard error).\n");
  cmd->callback([expr]() {
    rt::Value v;
    try {
      v = rt::evaluate(*expr);
    } catch (const rt::Error& e) {
      std::cerr << rt::format_error(*expr, e.pos(), e.what());
      throw CLI::RuntimeError(1);
    }
    if (v.kind != rt::Value::Kind::Layout && v.kind != rt::Value::Kind::Swizzled) {
      std::cerr << rt::format_error(*expr, 0, "info needs a layout (shape:stride) or a swizzled layout, got " +
                                                   rt::describe(v));
      throw CLI::RuntimeError(1);
    }
    try {
      const rt::Layout& base = v.kind == rt::Value::Kind::Layout ? v.layout : v.swizzled.layout;
      const std::int64_t n = base.size();
      std::int64_t cosize = 0;
      Properties p, pf;
      if (v.kind == rt::Value::Kind::Layout) {
        cosize = v.layout.cosize();
        if (n <= kMaxChecked && cosize <= kMaxChecked) {
          p.known = true;
          check_offsets(offsets(v.layout), cosize, p.injective, p.surjective);
          const rt::Layout f = rt::filter(v.layout);
          pf.known = true;
          check_offsets(offsets(f), f.cosize(), pf.injective, pf.surjective);
        }
      } else if (n <= rt::kMaxSwizzledCosize) {
        cosize = v.swizzled.cosize();
        p.known = pf.known = true;
        std::vector<std::int64_t> o = offsets(v.swizzled.layout);
        for (auto& x : o) x = v.swizzled.swizzle(rt::checked_add(v.swizzled.offset, x, "offset"));
        check_offsets(std::move(o), cosize, p.injective, p.surjective);
        pf = p;  // a swizzle is applied after the layout: judge the whole function
      } else {
        cosize = -1;
      }
      std::cout << "layout:     " << rt::to_string(v) << "\n"
                << "size:       " << n << "\n"
                << "cosize:     " << (cosize < 0 ? std::string("unknown (too large)") : std::to_string(cosize)) << "\n"
                << "rank:       " << base.rank() << "\n"
                << "depth:      " << base.depth() << "\n"
                << "injective:  " << yes_no(p.known, p.injective) << "\n"
                << "surjective: " << yes_no(p.known, p.surjective) << "\n"
                << "bijective:  " << yes_no(p.known, p.injective && p.surjective) << "\n"
                << "compact:    " << yes_no(pf.known, pf.injective && pf.surjective) << "\n";
    } catch (const rt::Error& e) {
      std::cerr << rt::format_error(*expr, e.pos() == rt::npos ? 0 : e.pos(), e.what());
      throw CLI::RuntimeError(1);
    }
  });
}

}  // namespace tessera::cli
