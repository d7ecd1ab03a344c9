// The host check of `tessera epilogue --check` and of tessera.EpilogueTree.check (a part of its
// own, src/epilogue_check: the CLI and the Python module both run it, and it uses kernels_api,
// which the library's layers may not): a parsed epilogue tree evaluated on the host over an
// M x N tile of generated inputs twice, and the two compared:
//  - the emulation runs in f32 through the host paths of the compile-time nodes' own ops
//    (tessera/kernels/epilogue_tree: tree::plus, tree::silu, tree::convert<T>, the reductions'
//    element / of / combine, tree::from_float<T> for D and the aux stores), visiting elements in
//    tree::evaluate_tile's order, so that the check is of the library's node semantics;
//  - the reference is the math in double, written apart (std::erf, std::tanh, std::exp), with a
//    running error bound per value: the f32 rounding of each op (u = 2^-24 of the value), the
//    activations' stated bound (4.5 eps |x|, tessera/kernels/epilogue_ops.hpp, on top of their
//    slope, at most 1.13, times the argument's error), the rounding to an element type (half an
//    ulp: 2^-8 relative for bf16, 2^-11 f16, 2^-4 e4m3, 2^-3 e5m2, plus half the smallest
//    subnormal), and for a sum the f32 additions' (count x u x sum |x|).
// An output passes when every element's |emulated - reference| is within its bound.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tessera/rt/epilogue_tree.hpp"

namespace tessera::epilogue_check {

// The generated inputs: acc (M x N, column-major), C, each vector and scalar by name; values
// are exactly representable in the operand's element type.
struct Inputs {
  std::int64_t m = 0, n = 0;
  std::vector<float> acc, c;
  std::map<std::string, std::vector<float>> vectors;
  std::map<std::string, float> scalars;
};
Inputs generate_inputs(const rt::epilogue::Tree& t, std::int64_t m, std::int64_t n, std::uint64_t seed);

// One output's values: D and aux stores M x N (column-major, rounded to their type, held as
// float), reductions N (row), M (column) or 1 (scalar). `bound`: the reference's error bound
// per element (empty for the emulation).
struct OutputValues {
  std::string name;  // "D", the aux store's or the reduction's output name
  std::string kind;  // "D", "AuxStore", "RowReduction", "ColumnReduction", "ScalarReduction"
  std::string type;  // element type (D, AuxStore) or reduction (amax, max, sum)
  std::vector<double> values, bound;
};
std::vector<OutputValues> emulate(const rt::epilogue::Tree& t, const Inputs& in);
std::vector<OutputValues> reference(const rt::epilogue::Tree& t, const Inputs& in);

struct OutputCheck {
  std::string name, kind, type;
  std::int64_t count = 0;
  double max_error = 0;    // max |emulated - reference|
  double worst_ratio = 0;  // max |emulated - reference| / bound (<= 1: within)
  double bound_at_worst = 0;
  bool pass = true;
};
// emulated and expected: the same tree's outputs, in the same order.
std::vector<OutputCheck> compare(const std::vector<OutputValues>& emulated, const std::vector<OutputValues>& expected);

}  // namespace tessera::epilogue_check
