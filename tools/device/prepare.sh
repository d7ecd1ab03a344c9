#!/usr/bin/env bash
# Run here (not on the GPU machine) before a device run: copies the header-only Boost.Hana
# the static tier needs into .devdeps/include (git-ignored via .git/info/exclude), so the
# run can carry it:  run(carry=[".devdeps"], command="tools/device/run_gpu.sh").
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p .devdeps/include/boost
cp -r /usr/include/boost/hana /usr/include/boost/hana.hpp .devdeps/include/boost/
cp -r /usr/include/boost/config /usr/include/boost/config.hpp .devdeps/include/boost/ 2>/dev/null || true
ex=$(git rev-parse --git-path info/exclude); mkdir -p "$(dirname "$ex")"
grep -qx "/.devdeps/" "$ex" 2>/dev/null || echo "/.devdeps/" >>"$ex"
du -sh .devdeps
