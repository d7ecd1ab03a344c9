#!/bin/sh
# The TikZ output is a standalone LaTeX document that pdflatex compiles.
# Exit 77 (ctest: skipped) when pdflatex is not installed.
tessera="$1"
command -v pdflatex >/dev/null 2>&1 || { echo "pdflatex not installed: skipped"; exit 77; }
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
fail=0
n=0
# check NAME RENDER-ARGS...: render to NAME.tex, compile it, expect a PDF.
check() {
  name="$1"; shift
  if ! "$tessera" render -f tex -o "$dir/$name.tex" "$@"; then
    echo "FAIL: tessera render $*"; fail=1; return
  fi
  if ! (cd "$dir" && pdflatex -interaction=nonstopmode -halt-on-error "$name.tex" >"$name.out" 2>&1); then
    echo "FAIL: pdflatex on tessera render $*"; tail -20 "$dir/$name.out"; fail=1; return
  fi
  if [ ! -s "$dir/$name.pdf" ]; then echo "FAIL: no PDF for $*"; fail=1; return; fi
  # The page is the diagram: same size as the SVG of the same diagram (when pdfinfo is around).
  if command -v pdfinfo >/dev/null 2>&1; then
    size=$("$tessera" render -f svg "$@" | sed -n 's/^<svg [^>]* width="\([0-9.]*\)" height="\([0-9.]*\)".*/\1 x \2 pts/p')
    pdfinfo "$dir/$name.pdf" | grep -q "^Page size: *$size\$" || { echo "FAIL: page size of $* is not $size"; fail=1; return; }
  fi
  echo "ok: $*"
}
check plain '(8,(2,4)):(2,(1,16))'
check hier '(((2,2),4),(2,2)):(((1,2),4),(16,32))'
check swizzled 'Sw<2,0,2> o (4,4):(4,1)'
check tv --tv '(16,8)' '((4,8),(2,2)):((32,1),(16,8))'
check overlap --tv '(2,4)' '(4,2):(1,1)'
check escapes --title 'a_title & $5 % #1 {x} ~ ^ \ done' '(2,2):(1,2)'
check default
exit $fail
