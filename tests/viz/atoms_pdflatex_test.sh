#!/bin/sh
# Every MMA and copy atom's TikZ (`tessera mma NAME -f tex`, `tessera copy NAME ... -f tex`)
# compiles with pdflatex at its default memory, each file on its own, as a user compiles it.
# Usage: atoms_pdflatex_test.sh TESSERA [JOBS [CACHE]]. Exit 77 (ctest: skipped) without pdflatex.
#
# CACHE (optional) is a file of results already known: "KEY WIDTH HEIGHT" per line, KEY the
# SHA-256 of the toolchain (the pdflatex and pdfinfo versions and the class and TikZ files
# kpsewhich finds) followed by the .tex itself. A document whose key is listed compiled with
# this very toolchain to a page of that size, so it is not compiled again; any change to the
# document or to the toolchain changes the key and the document is compiled. The page-size
# rules below are applied to cached sizes as to fresh ones. With TESSERA_UPDATE_PDFLATEX_CACHE=1
# the file is rewritten with this run's results (all compiled ones and the hits still in use).
tessera="$1"
jobs="${2:-2}"
cache="${3:-}"
command -v pdflatex >/dev/null 2>&1 || { echo "pdflatex not installed: skipped"; exit 77; }
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
fail=0

# The toolchain's fingerprint: versions, and the class/package files the documents load.
toolchain() {
  pdflatex --version 2>&1 | head -1
  pdfinfo -v 2>&1 | head -1
  for f in standalone.cls tikz.sty pgf.revision.tex article.cls; do
    p=$(kpsewhich "$f" 2>/dev/null) && [ -n "$p" ] && sha256sum "$p" | cut -d' ' -f1
  done
}
toolkey=$(toolchain | sha256sum | cut -d' ' -f1)
key_of() { { echo "$toolkey"; cat "$1"; } | sha256sum | cut -d' ' -f1; }

# The documents: one per MMA atom, and one per copy atom drawn as a tiled copy of one atom
# (its threads in a column, each thread's values in a row: --threads (T,1) --values (1,V)).
# Of the Blackwell atoms and Hopper's 8-bit wgmma atoms (hundreds, one per shape and type), one
# N per operation and types (N = 64; of tcgen05's f8f6f4 and block-scaled kinds, one type pair) and the .x1 tensor-memory copies: the others' drawings
# differ from these only in size. Of Ada's FP8, SM120's, AMD's and Intel's atoms, one per family
# (the others differ from it in types, or in size only).
"$tessera" list atoms --mma |
  awk '$2 ~ /^(SM89_|SM120_|AMD_|INTEL_)/ {
         if ($2 ~ /^(SM89_16x8x32_F32E4M3E4M3F32_TN|SM120_16x8x64_TN_VS_E2M1E2M1F32_UE8M0x32|AMD_CDNA3_MFMA_32x32x8_F32F16F16F32|AMD_RDNA3_WMMA_16x16x16_F32F16F16F32|AMD_RDNA4_WMMA_16x16x16_F32F16F16F32|INTEL_XE_HPC_DPAS_8x16x16_F32BF16BF16F32)$/) print $2
         next }
       $2 ~ /^SM100_MMA_(F8F6F4|MXF)/ { if ($2 ~ /x64x32_F32E4M3E4M3(_UE8M0x32)?$|x64x64_F32E2M1E2M1_UE8M0x32$/) print $2
         next }
       ($2 !~ /^SM100_/ && $2 !~ /^SM90_64x[0-9]+x32_/) || $2 ~ /x64x/ {print $2}' >"$dir/mma" || exit 1
# copy lines: "copy NAME ARCH src TxB bits dst TxB bits smem SIDE threads N" -> "NAME N B"
"$tessera" list atoms --copy | awk '$2 !~ /^SM100_/ || $2 ~ /b1x(_16b)?$/ { split($8, d, "x"); print $2, $NF, d[2] }' >"$dir/copy" || exit 1
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
  # A tensor-memory atom is drawn alone: its block of tensor memory, lanes x columns.
  case "$name" in SM100_TMEM_*) set -- ;; esac
  "$tessera" copy "$name" "$@" -f tex -o "$dir/copy$i.tex" || { echo "FAIL: tessera copy $name $* -f tex"; fail=1; }
  echo "copy$i $name" >>"$dir/index"
done <"$dir/copy"

# Known results (CACHE) need no compile: NAME.size holds "WIDTH HEIGHT" for those.
cd "$dir" || exit 1
: >todo
hits=0
for tex in ./*.tex; do
  b=$(basename "$tex" .tex)
  k=$(key_of "$tex")
  echo "$k" >"$b.key"
  if [ -n "$cache" ] && [ -f "$cache" ] && line=$(grep -m1 "^$k " "$cache"); then
    echo "$line" | cut -d' ' -f2,3 >"$b.size"
    hits=$((hits + 1))
  else
    echo "$tex" >>todo
  fi
done
# Compile the rest, JOBS at a time; each writes NAME.pdf or NAME.fail.
[ -s todo ] && xargs -P "$jobs" -n 1 sh -c '
  b=$(basename "$1" .tex)
  pdflatex -interaction=nonstopmode -halt-on-error "$b.tex" >"$b.out" 2>&1 && [ -s "$b.pdf" ] || touch "$b.fail"
' sh <todo
for pdf in ./*.pdf; do
  [ -e "$pdf" ] || continue
  b=$(basename "$pdf" .pdf)
  [ -e "$b.fail" ] && continue
  if command -v pdfinfo >/dev/null 2>&1; then
    size=$(pdfinfo "$pdf" | awk '/^Page size:/ { print $3, $5 }')
    [ -n "$size" ] && echo "$size" >"$b.size"
  fi
done
echo "pdflatex: $(wc -l <todo) compiled, $hits known from $(basename "${cache:-no cache}")"
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
for size in ./*.size; do
  [ -e "$size" ] || continue
  b=$(basename "$size" .size)
  name=$(grep "^$b " index | cut -d' ' -f2)
  case $name in *_STSM_*) lo_max=1684; hi_max=2382 ;; SM90_*) lo_max=842; hi_max=1191 ;; *) lo_max=1684; hi_max=2382 ;; esac
  awk -v name="$name" -v lo_max=$lo_max -v hi_max=$hi_max '
    { lo = $1 < $2 ? $1 : $2; hi = $1 < $2 ? $2 : $1
      if (lo > lo_max || hi > hi_max) { printf "FAIL: %s is %s x %s pt, past %s x %s\n", name, $1, $2, lo_max, hi_max; exit 1 } }' "$size" || fail=1
done
# The results of this run, for CACHE (only documents that compiled and were measured).
if [ "${TESSERA_UPDATE_PDFLATEX_CACHE:-0}" = 1 ] && [ -n "$cache" ] && [ $fail = 0 ]; then
  for size in ./*.size; do
    b=$(basename "$size" .size)
    echo "$(cat "$b.key") $(cat "$size")"
  done | sort >"$cache.new" && mv "$cache.new" "$cache" && echo "pdflatex: wrote $(wc -l <"$cache") results to $cache"
fi
[ $fail = 0 ] && echo "ok: $n_mma MMA atoms and $n_copy copy atoms compile with pdflatex"
exit $fail
