#!/bin/sh
# The layer check passes on the tree and fails on each planted edge the table forbids.
#   check_layers_test.sh SOURCE_DIR
# A copy of the tree's sources (never the tree itself) gets one forbidden include at a time
# (a back-edge in the library, a kernel using the runtime tier, a public header including a
# private file, and consumers reaching into each other: bench -> tests, examples -> tests,
# examples -> bench, tools -> tests). The script must exit 1 and name that include each time;
# on the untouched copy it must exit 0.
set -u
src=$1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }

(cd "$src" && find include src kernels tests examples bench tools -type f \
   \( -name '*.hpp' -o -name '*.h' -o -name '*.cpp' -o -name '*.cu' -o -name '*.cuh' -o -name '*.py' \) \
   -not -path '*/data/*' -not -path '*/corpus/*' | tar -cf - -T - | tar -xf - -C "$tmp") || fail "copying the tree"

python3 "$tmp/tools/check_layers.py" "$tmp" >"$tmp/ok.out" 2>&1 || { cat "$tmp/ok.out"; fail "the untouched tree breaks the layer table"; }
grep -q "all allowed" "$tmp/ok.out" || fail "no summary line on success"

# 1. The static tier reaching up into viz.
printf '#include "tessera/viz/model.hpp"\n' >>"$tmp/include/tessera/layout.hpp"
python3 "$tmp/tools/check_layers.py" "$tmp" >"$tmp/bad.out" 2>&1 && fail "a back-edge static -> viz passed"
grep -q "include/tessera/layout.hpp:.*static may not use viz" "$tmp/bad.out" || { cat "$tmp/bad.out"; fail "the back-edge is not named"; }

# 2. A kernel using the runtime tier (kernels use the static tier only).
cp "$src/include/tessera/layout.hpp" "$tmp/include/tessera/layout.hpp"
printf '#include "tessera/rt/layout.hpp"\n' >>"$tmp/kernels/kernel/problem.cuh"
python3 "$tmp/tools/check_layers.py" "$tmp" >"$tmp/bad2.out" 2>&1 && fail "a kernel including the runtime tier passed"
grep -q "kernels may not use rt" "$tmp/bad2.out" || { cat "$tmp/bad2.out"; fail "kernels -> rt not named"; }

# 3. A public header including a private one.
cp "$src/kernels/kernel/problem.cuh" "$tmp/kernels/kernel/problem.cuh"
printf '#include "../../../src/cli/action.hpp"\n' >>"$tmp/include/tessera/viz/model.hpp"
python3 "$tmp/tools/check_layers.py" "$tmp" >"$tmp/bad3.out" 2>&1 && fail "a public header including a private file passed"
grep -q "a public header includes the private file src/cli/action.hpp" "$tmp/bad3.out" || { cat "$tmp/bad3.out"; fail "private include not named"; }
cp "$src/include/tessera/viz/model.hpp" "$tmp/include/tessera/viz/model.hpp"

# 4-7. Consumers reaching into each other: each part's permissions are its own, whatever the
# order of the table (bench and tools never use the tests, examples only the library).
plant() {  # plant FILE INCLUDE RULE: FILE gains INCLUDE, the check must fail naming RULE
  file=$1 inc=$2 rule=$3
  cp "$tmp/$file" "$tmp/saved" || fail "no $file in the copy"
  printf '#include "%s"\n' "$inc" >>"$tmp/$file"
  python3 "$tmp/tools/check_layers.py" "$tmp" >"$tmp/bad.out" 2>&1 && fail "$rule passed ($file including $inc)"
  grep -q "^error: $file:.*$rule" "$tmp/bad.out" || { cat "$tmp/bad.out"; fail "$rule not named"; }
  cp "$tmp/saved" "$tmp/$file"
}
plant bench/gemm.cu ../tests/golden_file.hpp "bench may not use tests"
plant examples/4_gemm_run.cpp ../tests/golden_file.hpp "examples may not use tests"
plant examples/4_gemm_run.cpp ../bench/timing.hpp "examples may not use bench"
plant tools/device/sm90_epi_probe.cu ../../tests/golden_file.hpp "tools may not use tests"
python3 "$tmp/tools/check_layers.py" "$tmp" >"$tmp/ok.out" 2>&1 || { cat "$tmp/ok.out"; fail "the restored copy breaks the layer table"; }
echo "check_layers: passes on the tree, names each of 7 planted forbidden edges"
