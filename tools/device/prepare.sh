#!/usr/bin/env bash
# Run here (not on the GPU machine) before an A/B run against an older tree whose static
# tier still stored its tuples in Boost.Hana (the GPU machine has no Boost): copies Hana into
# .devdeps/include (git-ignored via .git/info/exclude) for the call to carry:
#   run(carry=[".devdeps"], command="BASE=<old tree> tools/device/run_sm80_check.sh").
# The current tree needs nothing of it.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p .devdeps/include/boost
cp -r /usr/include/boost/hana /usr/include/boost/hana.hpp .devdeps/include/boost/
cp -r /usr/include/boost/config /usr/include/boost/config.hpp .devdeps/include/boost/ 2>/dev/null || true
ex=$(git rev-parse --git-path info/exclude); mkdir -p "$(dirname "$ex")"
grep -qx "/.devdeps/" "$ex" 2>/dev/null || echo "/.devdeps/" >>"$ex"
du -sh .devdeps
