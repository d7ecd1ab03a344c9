#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks to build and test tessera.
#   tools/install-deps.sh [all|build|test]     (default all)
# build: what configuring and building need; test: what only the tests run (pytest, Jupyter,
# pdflatex, headless Chromium), which .ci/run installs while the build runs.
# Idempotent: packages already present are skipped, so a second run is quick.
set -euo pipefail
what=${1:-all}
case "$what" in all|build|test) ;; *) echo "usage: tools/install-deps.sh [all|build|test]" >&2; exit 2 ;; esac
build_pkgs=(cmake ninja-build g++ make pkg-config python3 catch2 librapidcheck-dev libcairo2-dev zlib1g-dev
            libcli11-dev pybind11-dev python3-pybind11 python3-dev python3-numpy python3-setuptools python3-wheel python3-venv)
test_pkgs=(python3-pytest python3-hypothesis
           jupyter-nbconvert python3-ipykernel)  # the tour notebook's test (ctest label `notebook`)
# pdflatex and TikZ for the TikZ tests (ctest label `latex`: every atom's diagram compiles at
# default memory; pdfinfo checks page sizes). On by default so CI runs them (about 70 s more
# on a fresh Debian 12); TESSERA_WITH_TEX=0 leaves them out (the tests then skip).
[ "${TESSERA_WITH_TEX:-1}" = 1 ] && test_pkgs+=(texlive-latex-base texlive-pictures poppler-utils)
# Headless Chromium for the HTML diagrams' browser test (ctest label `browser`); on by
# default so CI runs it, TESSERA_WITH_BROWSER=0 leaves it out (the test then skips).
[ "${TESSERA_WITH_BROWSER:-1}" = 1 ] && test_pkgs+=(chromium chromium-driver python3-selenium)
pkgs=()
[ "$what" = test ] || pkgs+=("${build_pkgs[@]}")
[ "$what" = build ] || pkgs+=("${test_pkgs[@]}")
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
