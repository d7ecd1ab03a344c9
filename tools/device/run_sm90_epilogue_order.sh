#!/usr/bin/env bash
# The cooperative SM90 kernel with the epilogue under the next tile (H = 2: the shipped order)
# against the same kernel with the epilogue after the tile, in one device call from this tree:
# build side by side the probe tools/device/sm90_epi_probe.cu once per head
# (-DTESSERA_PROBE_ORDER=1, 2, 3: each binary holds the kernel with the epilogue after the tile
# and the one with that many k-tiles under the epilogue) and the GPU test
# tests/hopper/sm90_epilogue_order_gpu_test.cu (no library needed); ptxas and the SASS
# local-memory counts of every kernel; the GPU test; the probes, alternating old and new in
# each process (two rounds, heads 1 2 3 in turn); compute-sanitizer memcheck of the test's
# --small set. Beside them the fused orders' test tests/hopper/sm90_epilogue_order_fused_gpu_test.cu
# (bias + GELU-tanh / SiLU on the menu's fused kernel, the issue's tree with amax), whose --time
# runs first after the build (8192^3, then its checks, then 4096^3, then epiov's steps): plain,
# GELU-tanh+bias, SiLU+bias, the tree, each after / under the next tile, and cuBLASLt's
# GELU_BIAS, alternating in one process.
#   OUT=/tmp/out [W=/tmp/order-build] [MAX_S=570] [SHAPES="M N K ..."] tools/device/run_sm90_epilogue_order.sh
# Steps after the build run only while the call has time left (MAX_S from the start).
set -uo pipefail
OUT=${OUT:-/tmp/epi-order}
W=${W:-/tmp/order-build}
MAX_S=${MAX_S:-570}
mkdir -p "$OUT" "$W"
log="$OUT/summary.txt"
: >"$log"
note() { echo "$*" | tee -a "$log"; }
t0=$(date +%s)
left() { [ $(( $(date +%s) - t0 )) -lt "$1" ]; }
note "== sm90 epilogue under the next tile $(date -u +%FT%TZ) tree $(git rev-parse --short HEAD 2>/dev/null)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader 2>&1 | sed 's/^/device: /' | tee -a "$log"
F=(-std=c++20 --expt-relaxed-constexpr -O3 -lineinfo -gencode arch=compute_90a,code=sm_90a -Xptxas -v -diag-suppress 20012,177
   -Xcudafe --max_cost_constexpr_call=2000000000 -Xcompiler -fconstexpr-ops-limit=2147483647 -Iinclude)
for cc in g++-13 g++-14 g++-12; do command -v $cc >/dev/null && { F+=(-ccbin "$(command -v $cc)"); break; }; done
pids=()
for h in 1 2 3; do
  ( s=$(date +%s); nvcc "${F[@]}" -DTESSERA_PROBE_ORDER=$h tools/device/sm90_epi_probe.cu -o "$W/probe$h" -lcublas >"$OUT/ptxas_probe$h.txt" 2>&1
    echo "build probe head $h rc=$? $(( $(date +%s) - s )) s" >>"$log" ) &
  pids+=($!)
done
( s=$(date +%s); nvcc "${F[@]}" tests/hopper/sm90_epilogue_order_gpu_test.cu -o "$W/test" >"$OUT/ptxas_test.txt" 2>&1
  echo "build test rc=$? $(( $(date +%s) - s )) s" >>"$log" ) &
pids+=($!)
( s=$(date +%s); nvcc "${F[@]}" tests/hopper/sm90_epilogue_order_fused_gpu_test.cu -o "$W/fused" -lcublasLt >"$OUT/ptxas_fused.txt" 2>&1
  echo "build fused rc=$? $(( $(date +%s) - s )) s" >>"$log" ) &
pids+=($!)
for p in "${pids[@]}"; do wait "$p"; done
note "build done in $(( $(date +%s) - t0 )) s"
grep -aE " error|error:" "$OUT"/ptxas_*.txt | head -10 | tee -a "$log"
for f in "$OUT"/ptxas_*.txt; do
  note "$(basename "$f" .txt): $(grep -aE 'stack frame' "$f" | sort | uniq -c | tr -s ' ' | tr '\n' ';') C75xx: $(grep -ac 'C75' "$f")"
done
for b in fused probe1 probe2 probe3 test; do
  [ -x "$W/$b" ] || { note "$b missing"; continue; }
  # (per kernel: the counts, its D major (the epilogue's last Major: 0 row, 1 column) and order)
  mkdir -p "$OUT/sass_$b" && bash tools/device/sass_spills.sh "$W/$b" "$OUT/sass_$b" HGMMA |
    awk -v b="$b" '{ d = "?"; o = "?"; s = $0
      while (match(s, /Major\)[0-9]/)) { d = substr(s, RSTART + 6, 1); s = substr(s, RSTART + RLENGTH) }
      if (match($0, /EpilogueUnderNextTile<[0-9]>/)) o = substr($0, RSTART, RLENGTH); else if (index($0, "EpilogueAfterTile")) o = "EpilogueAfterTile"
      print b, $2, $3, $4, "Dmajor=" d, o }' | tee -a "$log"
done
rm -f "$OUT"/sass_*/sass_all.txt.gz
# The fused orders first: 8192^3's timing, their checks, 4096^3's timing.
if [ -x "$W/fused" ]; then
  note "-- fused: time 8192^3"
  timeout 90 "$W/fused" --time --reps 20 8192 8192 8192 2>&1 | tee -a "$log"
  if left $(( MAX_S - 120 )); then
    note "-- fused: GPU test"
    timeout 120 "$W/fused" >"$OUT/fused_test.txt" 2>&1
    note "fused test rc=$? $(tail -1 "$OUT/fused_test.txt")"
    grep -aE "FAIL" "$OUT/fused_test.txt" | head -10 | tee -a "$log"
  fi
  if left $(( MAX_S - 60 )); then
    note "-- fused: time 4096^3"
    timeout 60 "$W/fused" --time --reps 30 4096 4096 4096 2>&1 | tee -a "$log"
  fi
fi
if left $(( MAX_S - 60 )) && [ -x "$W/test" ]; then
  note "-- GPU test"
  timeout 120 "$W/test" >"$OUT/test.txt" 2>&1
  note "test rc=$? $(tail -1 "$OUT/test.txt")"
  grep -aE "FAIL" "$OUT/test.txt" | head -10 | tee -a "$log"
fi
round() {
  for h in 1 2 3; do
    left $(( MAX_S - 40 )) || return
    note "-- round $1: head $h"
    [ -x "$W/probe$h" ] && timeout 100 "$W/probe$h" --order --reps 30 ${SHAPES:-} 2>&1 | tee -a "$log"
  done
}
round 1
round 2
if left $(( MAX_S - 50 )) && [ -x "$W/test" ]; then
  note "-- compute-sanitizer memcheck of the GPU test's --small set"
  timeout 45 compute-sanitizer --tool memcheck "$W/test" --small >"$OUT/memcheck.txt" 2>&1
  note "memcheck rc=$? $(grep -E 'ERROR SUMMARY' "$OUT/memcheck.txt" | tail -1)"
fi
if left $(( MAX_S - 40 )) && [ -x "$W/fused" ]; then
  note "-- fused: time 8192^3 again"
  timeout 35 "$W/fused" --time --reps 10 8192 8192 8192 2>&1 | tee -a "$log"
fi
note "== end $(( $(date +%s) - t0 )) s"
