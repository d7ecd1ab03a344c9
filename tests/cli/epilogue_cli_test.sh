#!/bin/sh
# `tessera epilogue` as a user runs it: the docs' trees parse, pass the host check and draw as
# text, SVG and TikZ; --cpp prints types that compile and are the library's own trees (the
# menu's LinearCombination, docs/gemm_epilogue.md's worked example); malformed trees exit 1
# with the caret under the offending character and write nothing; a check that fails exits 2.
# Usage: epilogue_cli_test.sh TESSERA CXX INCLUDE_DIR
T=$1
CXX=$2
INC=$3
. "$(dirname "$0")/../cli_helpers.sh"

EXAMPLE='D = store(bf16, silu(acc * sa[m] * sb[n] + bias[n])); amax_d = amax(D)'

# ---- the example of docs/gemm_epilogue.md: parses, checks, draws -------------------------
expect_ok example "$T" epilogue "$EXAMPLE"
has_line example 'check: pass'
has_line example '`- amax_d = amax(D)'
has_line example 'Compute<silu>, f32'
has_line example 'sa[m]'
has_line example 'ColumnBroadcast, f32 vector [m] -> f32'
grep -q 'D  *D bf16: max error .* pass$' "$W/out" || bad "example: no D line that passes ($(cat "$W/out"))"
grep -q 'amax_d  *ScalarReduction amax: max error .* pass$' "$W/out" || bad "example: no amax line that passes"

expect_ok svg "$T" epilogue "$EXAMPLE" -o "$W/tree.svg" --title 'silu(acc sa sb + bias), amax'
has_line svg 'check: pass'
head -n1 "$W/tree.svg" | grep -q '^<?xml' || bad "svg: not an XML document"
for word in 'ScalarReduction' 'Compute&lt;silu&gt;' 'RowBroadcast' 'bias[n]' 'writes bf16 M x N' '<title>root.0.0'; do
  grep -qF -- "$word" "$W/tree.svg" || bad "svg: lacks $word"
done
# one box per node (D and the tree's 9) and an edge per node below D
[ "$(grep -c '<rect x=' "$W/tree.svg")" -eq 10 ] || bad "svg: $(grep -c '<rect x=' "$W/tree.svg") boxes, want 10"
[ "$(grep -c '<line ' "$W/tree.svg")" -eq 9 ] || bad "svg: $(grep -c '<line ' "$W/tree.svg") edges, want 9"
if command -v python3 >/dev/null; then
  python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$W/tree.svg" || bad "svg: not well-formed XML"
fi

expect_ok txt "$T" epilogue "$EXAMPLE" -o "$W/tree.txt" --no-check
[ ! -s "$W/out" ] || bad "txt: --no-check with -o printed $(cat "$W/out")"
grep -qF -- '`- silu' "$W/tree.txt" || bad "txt: lacks the silu node"
[ "$(wc -l <"$W/tree.txt")" -eq 10 ] || bad "txt: $(wc -l <"$W/tree.txt") lines, want 10 (D and 9 nodes)"

expect_ok html "$T" epilogue "$EXAMPLE" -o "$W/tree.html" --no-check
head -n1 "$W/tree.html" | grep -q '^<!DOCTYPE html>' || bad "html: not an HTML page"
[ "$(grep -c '<rect x=' "$W/tree.html")" -eq 10 ] || bad "html: want the 10 boxes"

expect_ok tex "$T" epilogue "$EXAMPLE" -o "$W/tree.tex" --no-check
grep -qF 'begin{tikzpicture}' "$W/tree.tex" || bad "tex: no tikzpicture"
[ "$(grep -c '\\draw (n' "$W/tree.tex")" -eq 9 ] || bad "tex: want 9 edges"

# ---- --cpp: the C++ types compile and are the library's trees -----------------------------
expect_ok cpp_lc "$T" epilogue --cpp 'store(bf16, fma(alpha, acc, beta * C))'
LC=$(cat "$W/out")
[ "$LC" = 'Compute<multiply_add, Scalar<float>, Accumulator, Compute<multiplies, Scalar<float>, SourceC<tessera::bfloat16_t>>>' ] ||
  bad "cpp_lc: $LC"
expect_ok cpp_doc "$T" epilogue --cpp 'z = alpha * acc * s_m[m] * s_n[n] + bias[n]:bf16; aux = store(bf16, z); D = store(bf16, relu(z)); r[n] = max(D); amax_d = amax(D)'
DOC=$(cat "$W/out")
expect_ok cpp_example "$T" epilogue --cpp "$EXAMPLE"
EX=$(cat "$W/out")
cat >"$W/types.cpp" <<EOF
#include <type_traits>
#include "tessera/kernels/epilogue_tree.hpp"
using namespace tessera::kernels::tree;
using tessera::bfloat16_t;
// the menu's alpha acc + beta C
static_assert(std::is_same_v<$LC, LinearCombination<bfloat16_t>>);
// docs/gemm_epilogue.md's worked example, as written there
using Z = Compute<plus,
                  Compute<multiplies,
                          Compute<multiplies, Compute<multiplies, Scalar<>, Accumulator>, ColumnBroadcast<float>>,
                          RowBroadcast<float>>,
                  RowBroadcast<bfloat16_t>>;
using Worked = ScalarReduction<absolute_maximum, RowReduction<maximum_value, Compute<relu, AuxStore<bfloat16_t, Z>>>>;
static_assert(std::is_same_v<$DOC, Worked>);
// the example tree is a tree the library takes: its arguments and checks instantiate
using Example = $EX;
int main() {
  Example::Arguments a;
  return can_implement<Example>(TreeShape{64, 64, 1}, a) ? 1 : 0;  // (null pointers: refused)
}
EOF
"$CXX" -std=c++20 -fsyntax-only -I"$INC" "$W/types.cpp" 2>"$W/cxx.err" || bad "cpp: the printed types do not compile or differ: $(head -c 2000 "$W/cxx.err")"

# ---- malformed trees: exit 1, a caret under the offending character, nothing written ------
bad_tree() {  # NAME COLUMN PATTERN TREE
  expect_err "$1" "$3" "$T" epilogue "$4" -o "$W/bad.svg"
  has_caret_at "$1" "$2"
  [ ! -e "$W/bad.svg" ] || { bad "$1: wrote $W/bad.svg"; rm -f "$W/bad.svg"; }
  [ ! -s "$W/out" ] || bad "$1: printed on standard output: $(cat "$W/out")"
}
bad_tree unknown_function 12 "unknown function 'sigmoid'" 'store(bf16, sigmoid(acc))'
bad_tree arity 12 'wrong arity: max takes 2 arguments, given 3' 'store(bf16, max(acc, 1, 2))'
bad_tree arity_reduction 12 'wrong arity: max takes 2 values' 'store(bf16, max(acc))'
bad_tree unclosed 5 "unbalanced parentheses: this '(' is never closed" 'store(bf16, silu(acc)'
bad_tree unclosed_inner 16 "unbalanced parentheses: this '(' is never closed" 'store(bf16, silu((acc)'
bad_tree extra_close 22 "unbalanced parentheses: this ')' closes nothing" 'store(bf16, relu(acc)))'
bad_tree unknown_type 6 'type mismatch: store takes an element type' 'store(int8, acc)'
bad_tree type_as_value 16 'type mismatch: bf16 is an element type, not a value' 'store(f32, relu(bf16))'
bad_tree vector_both_ways 19 "type mismatch: 'x' is a column vector [m]" 'store(bf16, x[m] + x[n])'
bad_tree vector_types 24 "type mismatch: 'b' is a row vector [n] of bf16" 'store(bf16, b[n]:bf16 + b[n])'
bad_tree two_c_types 21 'type mismatch: C is bf16 at column 13, here f32' 'store(bf16, C + relu(C:f32))'
bad_tree deep 1011 'nests deeper than 200 levels' "store(f32, $(printf 'relu(%.0s' $(seq 300))acc$(printf ')%.0s' $(seq 300)))"
bad_tree doubling 672 'more than 4096 nodes' "z0 = acc; $(for i in $(seq 1 40); do printf 'z%d = z%d + z%d; ' $i $((i - 1)) $((i - 1)); done)store(f32, z40)"
bad_tree undefined_reduced 14 "'y' is not a value defined here" 'amax_d = amax(y); store(bf16, acc)'
bad_tree unused_reduced 42 "'y' is not part of D's tree" 'y = relu(acc); store(bf16, acc); a = amax(y)'
bad_tree reduced_twice 37 "'y' is used 2 times by D" 'y = acc; store(f32, y + y); a = amax(y)'
bad_tree division 16 'no division' 'store(bf16, acc / 2)'
bad_tree two_ds 18 'D is stored twice' 'store(bf16, acc); store(f32, acc)'
bad_tree no_d 13 'no output D' 'z = relu(acc)'
bad_tree character 16 "unexpected character '\$'" 'store(bf16, acc $ 2)'
bad_tree constant 12 'does not fit Constant<Num, Den>' 'store(bf16, 0.0000000001 * acc)'
bad_tree aux_of_expression 34 'an aux store takes a named value' 'store(bf16, acc); a = store(bf16, acc * 2)'
bad_tree reduction_in_expression 16 'amax is a reduction' 'store(bf16, 1 + amax(acc))'

expect_err bad_check '--check takes a tile MxN' "$T" epilogue 'store(bf16, acc)' --check 0x4
expect_err png 'drawn as txt, svg, tex or html, not png' "$T" epilogue 'store(bf16, acc)' -o "$W/tree.png"
[ ! -e "$W/tree.png" ] || bad "png: wrote a file"
expect_err empty 'the tree is empty' "$T" epilogue ' '

# ---- a check that fails: values past e4m3's largest (448) are NaN in D, not the math ------
"$T" epilogue 'store(e4m3, acc * 1000)' >"$W/out" 2>"$W/err"
rc=$?
[ $rc -eq 2 ] || bad "overflow: exit $rc, want 2"
has_line overflow 'check: FAIL'
# and the same tree clamped as the menu's FP8 output does passes
expect_ok clamped "$T" epilogue 'store(e4m3, clamp(acc * 1000, -448, 448))'
has_line clamped 'check: pass'

# ---- every op and sink, several seeds and shapes, pass -------------------------------------
ALL='z = fma(alpha, acc, beta * C) + bias[n]:bf16 - 0.5 * s[m]:f16; za = store(f16, z); g = gelu(z); h = gelu_tanh(acc) + silu(acc * *scale) + relu(-acc); y = max(abs(g), min(h, 2)) * convert(e4m3, acc); store(bf16, clamp(y, -8, 8)); rs[n] = sum(y); cs[m] = max(g); a = amax(D)'
for shape in 1x1 7x5 33x17; do
  for seed in 1 2 3; do
    expect_ok "all_${shape}_$seed" "$T" epilogue "$ALL" --check "$shape" --seed "$seed" --no-check
    expect_ok "all_${shape}_$seed" "$T" epilogue "$ALL" --check "$shape" --seed "$seed"
    has_line "all_${shape}_$seed" 'check: pass'
  done
done

finish epilogue_cli
