#!/usr/bin/env bash
# A/B of two trees' SM90 whole-tile kernel templates in one device call (tools/device/sm90_nt_probe.cu):
#   OUT=/tmp/out TREES="A B [C ...]" [REPS=20] [MAX_S=300] tools/device/run_sm90_nt_probe.sh
# builds the probe from each tree (side by side, --split-compile), records the kernels' ptxas
# figures and SASS counts of the producer's instructions, runs the second tree's --check
# (small shapes: all majors, residues, batches) and compute-sanitizer memcheck of it, then the
# timed probes in tree order, twice while time is left (same shapes, same process order), the
# second tree with --mode-boxes once.
set -uo pipefail
OUT=${OUT:-/tmp/nt-probe}
read -r -a T <<<"${TREES:?trees}"
B=${T[1]:-${T[0]}}
REPS=${REPS:-20}
BIN=/tmp/nt-probe-bin
mkdir -p "$OUT" "$BIN"
log="$OUT/summary.txt"
: >"$log"
note() { echo "$*" | tee -a "$log"; }
note "== sm90 probe $(date -u +%FT%TZ) trees: ${T[*]}"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader 2>&1 | sed 's/^/device: /' | tee -a "$log"
FLAGS=(-std=c++20 --expt-relaxed-constexpr -O3 -lineinfo -gencode arch=compute_90a,code=sm_90a -Xptxas -v -diag-suppress 20012,177
       -Xcudafe --max_cost_constexpr_call=2000000000 -Xcompiler -fconstexpr-ops-limit=2147483647 --split-compile=0)
[ -d .devdeps/include ] && FLAGS+=(-isystem "$PWD/.devdeps/include")
for cc in g++-13 g++-14 g++-12; do command -v $cc >/dev/null && { FLAGS+=(-ccbin "$(command -v $cc)"); break; }; done
t0=$(date +%s)
for t in "${T[@]}"; do
  tree=$t
  ( cd "$tree" && nvcc "${FLAGS[@]}" -Iinclude tools/device/sm90_nt_probe.cu -o "$BIN/probe_$t" -lcublas >"$OUT/ptxas_$t.txt" 2>&1; echo "build $t rc=$?" >>"$log" ) &
done
wait
note "build: $(( $(date +%s) - t0 )) s"
for t in "${T[@]}"; do
  grep -aE "error" "$OUT/ptxas_$t.txt" | head -5 | tee -a "$log"
  grep -aE "stack frame|Used" "$OUT/ptxas_$t.txt" | paste - - | sed -E 's/ptxas info *: //' | sort | uniq -c | sed "s/^/$t ptxas: /" | tee -a "$log"
  if [ -x "$BIN/probe_$t" ]; then
    cuobjdump -sass "$BIN/probe_$t" >"$OUT/sass_$t.txt" 2>&1
    # per kernel: the producer's TMA loads and the loads around them (LDL local, LDC constant, LD generic)
    awk -v t=$t '/Function : /{if (f) printf "%s %s UTMALDG %d LDL %d STL %d LDC %d LD.E %d HGMMA %d\n", t, substr(f,1,60), u, l, s, c, g, h; f=$3; u=l=s=c=g=h=0}
      /UTMALDG/{u++} /LDL/{l++} /STL/{s++} /LDC/{c++} / LD\.E|LD\.E\./{g++} /HGMMA/{h++}
      END{if (f) printf "%s %s UTMALDG %d LDL %d STL %d LDC %d LD.E %d HGMMA %d\n", t, substr(f,1,60), u, l, s, c, g, h}' "$OUT/sass_$t.txt" | tee -a "$log"
    gzip -f "$OUT/sass_$t.txt"
  fi
done
for t in "${T[@]}"; do [ -x "$BIN/probe_$t" ] || { note "build of $t failed"; exit 1; }; done
note "-- B --check (all majors, residues, batches; tf32)"
timeout 120 "$BIN/probe_$B" --check 2>&1 | tee -a "$log"
note "-- compute-sanitizer memcheck of B --check"
timeout 90 compute-sanitizer --tool memcheck "$BIN/probe_$B" --check >"$OUT/memcheck.txt" 2>&1
note "memcheck rc=$? $(grep -E 'ERROR SUMMARY' "$OUT/memcheck.txt" | tail -1)"
for round in 1 2; do
  # (a second round only while the call has time left: MAX_S, default 300 s from the start)
  [ $round = 2 ] && [ $(( $(date +%s) - t0 )) -gt "${MAX_S:-300}" ] && { note "(no second round: $(( $(date +%s) - t0 )) s used)"; break; }
  for t in "${T[@]}"; do
    note "-- round $round: $t"
    timeout 120 "$BIN/probe_$t" --reps "$REPS" 2>&1 | tee -a "$log"
  done
  [ $round = 1 ] && { note "-- B --mode-boxes (per-mode TMA dims)"; timeout 60 "$BIN/probe_$B" --reps "$REPS" --mode-boxes 8192 8192 8192 2>&1 | tee -a "$log"; }
done
note "== end $(date -u +%FT%TZ)"
