// Two layouts (plain or swizzled) or two TV maps compared as functions (`tessera diff`): the
// verdict, its JSON document (docs/json.md) and the side-by-side drawing with the differing
// cells marked. Here so that the CLI and the Python module give the same verdict and drawing.
#pragma once

#include <cstdint>
#include <string>

#include "tessera/rt/eval.hpp"
#include "tessera/rt/json.hpp"
#include "tessera/viz/build_tv.hpp"
#include "tessera/viz/model.hpp"

namespace tessera::viz {

// Comparing walks every index (every tile cell, for TV maps): past this many it is refused.
inline constexpr std::int64_t diff_compare_limit = std::int64_t{1} << 24;

struct DiffVerdict {
  std::string mode = "layout";  // "layout" or "tv"
  bool letter = false;          // the same text
  bool equal = false;           // the same function (letter implies equal)
  std::int64_t size_a = 0, size_b = 0, compared = 0, differing = 0;
  std::string line;             // the one-line verdict
  rt::json::Value a, b;         // the operands' value forms
  rt::json::Value cells = rt::json::Value::array();  // the first `max` differing cells
};

// A and B: layouts or swizzled layouts, compared at every 1-D index (colexicographic);
// `max`: differing cells listed. Throws rt::Error past diff_compare_limit indices.
DiffVerdict diff_layouts(const rt::Value& a, const rt::Value& b, std::int64_t max);
// A and B side by side, each cell the other maps elsewhere (or lacks) marked. Throws
// viz::Error for an operand with no modes to draw.
Diagram diff_layouts_diagram(const rt::Value& a, const rt::Value& b);

// A TV layout ((threads),(values)):(...) over `tile`, ready to compare. Throws viz::Error.
struct DiffTv {
  rt::Layout layout;
  TvFunction tv;
  TvInverse inverse;
};
DiffTv diff_tv_operand(const rt::Layout& tv, const TvTile& tile);
DiffVerdict diff_tv(const DiffTv& a, const DiffTv& b, std::int64_t max);
Diagram diff_tv_diagram(const DiffTv& a, const DiffTv& b, const TvTile& tile);

// The --json document of a verdict.
rt::json::Value diff_json(const DiffVerdict& v);
// What every diff drawing says below it: whether a cell differs (and what the marks mean),
// then, when `with_verdict`, the verdict line (a drawing written to a file carries it).
void add_diff_notes(Diagram& d, const DiffVerdict& v, bool with_verdict);

}  // namespace tessera::viz
