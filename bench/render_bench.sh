#!/bin/sh
# Wall time and peak memory of `tessera render` on large tiles: the median of RUNS runs
# (default 5) of each case, from /usr/bin/time -v. Not a test: figures go to
# bench/RESULTS.md (diagrams section) with the machine they ran on.
# Usage: bench/render_bench.sh [TESSERA_CLI] [RUNS]
set -eu
cli=${1:-build/bin/tessera}
runs=${2:-5}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian: time)" >&2; exit 1; }

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

bench() {  # NAME ARGS...
  name=$1; shift
  : > "$out/t"; : > "$out/m"
  i=0
  while [ $i -lt "$runs" ]; do
    /usr/bin/time -v "$cli" "$@" 2> "$out/log" >/dev/null
    awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,p,":"); s=0; for(k=1;k<=n;k++) s=s*60+p[k]; print s}' "$out/log" >> "$out/t"
    awk -F': ' '/Maximum resident set size/ {print $2/1024}' "$out/log" >> "$out/m"
    i=$((i+1))
  done
  size=""
  for a in "$@"; do case $a in *.png|*.pdf|*.svg|*.html|*.tex) size=$(stat -c %s "$a");; esac; done
  printf '%-44s %8s s %8s MB %10s bytes\n' "$name" "$(median < "$out/t")" "$(median < "$out/m" | awk '{printf "%.0f", $1}')" "$size"
}

echo "tessera render: median of $runs runs ($(nproc) CPUs, $(uname -m))"
bench "(256,256):(256,1) -> png"     render '(256,256):(256,1)' -o "$out/a.png"
bench "(256,256):(256,1) -> svg"     render '(256,256):(256,1)' -o "$out/a.svg"
bench "(256,256):(256,1) -> pdf"     render '(256,256):(256,1)' -o "$out/a.pdf"
bench "TV (128,128) 4 warps -> png"   render '((128),(128)):((1),(128))' --tv '(128,128)' -o "$out/b.png"
bench "TV (128,128) 4 warps -> html"  render '((128),(128)):((1),(128))' --tv '(128,128)' -o "$out/b.html"
bench "Sw<3,3,3> o (8,64):(64,1) -> png" render 'Sw<3,3,3> o (8,64):(64,1)' -o "$out/c.png"
bench "SM90_64x64x16_F32BF16BF16_SS -> png" mma SM90_64x64x16_F32BF16BF16_SS -o "$out/d.png" --force
