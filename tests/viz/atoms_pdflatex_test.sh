#!/bin/sh
# Every MMA and copy atom's TikZ (`tessera mma NAME -f tex`, `tessera copy NAME ... -f tex`)
# compiles with pdflatex at its default memory, each file on its own, as a user compiles it.
# Usage: atoms_pdflatex_test.sh TESSERA [JOBS]. Exit 77 (ctest: skipped) without pdflatex.
tessera="$1"
jobs="${2:-2}"
command -v pdflatex >/dev/null 2>&1 || { echo "pdflatex not installed: skipped"; exit 77; }
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
fail=0

# The documents: one per MMA atom, and one per copy atom drawn as a tiled copy of one atom
# (its threads in a column, each thread's values in a row: --threads (T,1) --values (1,V)).
"$tessera" list atoms --mma | awk '{print $2}' >"$dir/mma" || exit 1
# copy lines: "copy NAME ARCH src TxB bits dst TxB bits smem SIDE threads N" -> "NAME N B"
"$tessera" list atoms --copy | awk '{ split($8, d, "x"); print $2, $NF, d[2] }' >"$dir/copy" || exit 1
n_mma=$(wc -l <"$dir/mma")
n_copy=$(wc -l <"$dir/copy")
[ "$n_mma" -ge 200 ] || { echo "FAIL: only $n_mma MMA atoms listed"; exit 1; }
[ "$n_copy" -ge 10 ] || { echo "FAIL: only $n_copy copy atoms listed"; exit 1; }
i=0
while read -r name; do
  i=$((i + 1))
  "$tessera" mma "$name" -f tex -o "$dir/mma$i.tex" || { echo "FAIL: tessera mma $name -f tex"; fail=1; }
  echo "mma$i $name" >>"$dir/index"
done <"$dir/mma"
i=0
while read -r name threads bits; do
  i=$((i + 1))
  # Elements of 16 bits (8 for a byte copy), as many per thread as the atom moves.
  w=16; [ "$bits" -lt 16 ] && w=$bits
  set -- --bits "$w" --threads "($threads,1)" --values "(1,$((bits / w)))"
  "$tessera" copy "$name" "$@" -f tex -o "$dir/copy$i.tex" || { echo "FAIL: tessera copy $name $* -f tex"; fail=1; }
  echo "copy$i $name" >>"$dir/index"
done <"$dir/copy"

# Compile them all, JOBS at a time; each writes NAME.pdf or NAME.fail.
cd "$dir" || exit 1
ls ./*.tex | xargs -P "$jobs" -n 1 sh -c '
  b=$(basename "$1" .tex)
  pdflatex -interaction=nonstopmode -halt-on-error "$b.tex" >"$b.out" 2>&1 && [ -s "$b.pdf" ] || touch "$b.fail"
' sh
for f in ./*.fail; do
  [ -e "$f" ] || continue
  b=$(basename "$f" .fail)
  echo "FAIL: pdflatex on $(grep "^$b " index | cut -d' ' -f2)"
  grep -m3 -A2 '^!' "$b.out"
  fail=1
done
# Pages stay printable at default scale: labelled diagrams within A1 (1684 x 2382 bp, A3 at
# 50%), heatmaps (every SM90 MMA atom: 64-row fragments) within A3 (842 x 1191 bp).  The SM90
# copy atoms (stmatrix) are ldmatrix-sized labelled diagrams: the A1 rule.
if command -v pdfinfo >/dev/null 2>&1; then
  for pdf in ./*.pdf; do
    b=$(basename "$pdf" .pdf)
    name=$(grep "^$b " index | cut -d' ' -f2)
    case $name in *_STSM_*) lo_max=1684; hi_max=2382 ;; SM90_*) lo_max=842; hi_max=1191 ;; *) lo_max=1684; hi_max=2382 ;; esac
    pdfinfo "$pdf" | awk -v name="$name" -v lo_max=$lo_max -v hi_max=$hi_max '
      /^Page size:/ { lo = $3 < $5 ? $3 : $5; hi = $3 < $5 ? $5 : $3
                      if (lo > lo_max || hi > hi_max) { printf "FAIL: %s is %s x %s pt, past %s x %s\n", name, $3, $5, lo_max, hi_max; exit 1 } }' || fail=1
  done
fi
[ $fail = 0 ] && echo "ok: $n_mma MMA atoms and $n_copy copy atoms compile with pdflatex"
exit $fail
