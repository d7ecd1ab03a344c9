// An expression's derivation, step by step, as the runtime algebra ran it (`tessera explain`):
// the steps come from the algebra's own trace (tessera/rt/trace.hpp), so what is shown is what
// `eval` computes. Its text, its JSON document (docs/json.md) and its drawing live here so
// that the CLI and the Python module give the same explanation.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tessera/rt/error.hpp"
#include "tessera/rt/eval.hpp"
#include "tessera/rt/json.hpp"
#include "tessera/rt/trace.hpp"
#include "tessera/viz/model.hpp"

namespace tessera::viz {

// What ran: the trace of one evaluation, and its value or its error.
struct Explanation {
  std::string expression;
  std::vector<rt::TraceStep> steps;
  std::optional<rt::Value> value;
  std::optional<rt::Error> error;
};

// Evaluates `expr` under a trace; a refusal (or a parse error) is part of the explanation.
Explanation explain(const std::string& expr);

// `max_depth`: operations shown down to this nesting level, each with its notes (0: all).
// The text `tessera explain` prints, its --json document, and its drawing: every input layout
// and every step whose value is a layout, one captioned panel each (past cell_limit cells only
// with `force`; listed, not drawn, when larger). Throws viz::Error when nothing is a layout.
std::string explanation_text(const Explanation& e, int max_depth = 0);
rt::json::Value explanation_json(const Explanation& e, int max_depth = 0);
Diagram explanation_diagram(const Explanation& e, int max_depth = 0, bool force = false);

}  // namespace tessera::viz
