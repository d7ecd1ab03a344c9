#pragma once
// rt::ParsedExpression: evaluate(text) in two steps (rt/eval.hpp has the one-step form).
#include <string_view>

#include "tessera/rt/eval.hpp"
#include "tessera/rt/syntax_tree.hpp"

namespace tessera::rt {

// evaluate(input) in two steps, for callers that report the parse's errors apart from the
// evaluation's (the Python module raises ParseError for the first).
class ParsedExpression {
 public:
  // Parses `input`, which must outlive this object (names are views of it); errors as parse().
  explicit ParsedExpression(std::string_view input);
  // The first call, in the order of the text, of a name that is no function: the error that
  // evaluation gives when it reaches that call, thrown now.
  void check_function_names() const;
  Value evaluate() const;

 private:
  detail::SyntaxTree tree_;
};

}  // namespace tessera::rt
